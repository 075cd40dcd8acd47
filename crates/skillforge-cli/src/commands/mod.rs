//! One module per subcommand; each parses its own arguments and returns an exit code.

mod catalog;

use clap::Subcommand;

#[derive(Debug, Subcommand)]
pub enum Command {
    /// List the skills found under the given folders, as the nagents directory source does.
    Catalog(catalog::Args),
}

/// Runs one subcommand and returns its exit code; `Err` is an I/O or usage failure (exit 2).
pub fn run(command: Command) -> anyhow::Result<u8> {
    match command {
        Command::Catalog(args) => catalog::run(args),
    }
}
