//! One module per subcommand; each parses its own arguments and returns an exit code.

mod catalog;
mod load;
mod manifest;

use clap::Subcommand;

#[derive(Debug, Subcommand)]
pub enum Command {
    /// List the skills found under the given folders, as the nagents directory source does.
    Catalog(catalog::Args),
    /// Print the skills manifest exactly as nagents renders it for a model.
    Manifest(manifest::Args),
    /// Print a skill's text within a token budget, as nagents' skill(name) tool returns it.
    Load(load::Args),
}

/// Runs one subcommand and returns its exit code; `Err` is an I/O or usage failure (exit 2).
pub fn run(command: Command) -> anyhow::Result<u8> {
    match command {
        Command::Catalog(args) => catalog::run(args),
        Command::Manifest(args) => manifest::run(args),
        Command::Load(args) => load::run(args),
    }
}
