//! `skillforge lsp`: the language server over stdin/stdout, for any editor.

use crate::exit::Exit;

#[derive(Debug, clap::Args)]
pub struct Args {
    /// Accepted for editors that pass it; stdio is the only transport.
    #[arg(long)]
    stdio: bool,
}

pub fn run(_args: Args) -> anyhow::Result<Exit> {
    skillforge_lsp::stdio().map_err(|error| anyhow::anyhow!("language server: {error}"))?;
    Ok(Exit::Clean)
}
