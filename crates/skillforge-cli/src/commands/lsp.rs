//! `skillforge lsp`: the language server over stdin/stdout, for any editor.

use crate::exit::Exit;

#[derive(Debug, clap::Args)]
pub struct Args {
    /// Accepted for editors that pass it; stdio is the only transport.
    #[arg(long)]
    stdio: bool,
}

/// Exit 0 after `shutdown` and `exit`; 1 when the editor exited without `shutdown` or closed the input
/// (as the protocol asks); 2 when the input could not be followed.
pub fn run(_args: Args) -> anyhow::Result<Exit> {
    match skillforge_lsp::stdio() {
        Ok(skillforge_lsp::Ended::Exit) => Ok(Exit::Clean),
        Ok(_) => Ok(Exit::Findings),
        Err(error) => anyhow::bail!("language server: {error}"),
    }
}
