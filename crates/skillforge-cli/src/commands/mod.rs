//! One module per subcommand; each parses its own arguments and returns an exit code.

mod catalog;
mod eval;
mod export;
mod lint;
mod listing;
mod load;
mod lsp;
mod manifest;
mod schema;
mod simulate;
mod triggers;

use clap::Subcommand;

use crate::exit::Exit;

#[derive(Debug, Subcommand)]
pub enum Command {
    /// List the skills found under the given folders, as the nagents directory source does.
    Catalog(catalog::Args),
    /// Run the real Claude Code or Codex on eval queries: does the model pick the skill? (isolated runs,
    /// k of K per query, precision and recall, with request and cost caps).
    Eval(eval::Args),
    /// Package skills: a Python package and wheel, `.skill` archives, or client skill folders.
    Export(export::Args),
    /// Check skills against the specification and each client's rules; optionally fix them.
    Lint(lint::Args),
    /// Print the JSON Schema of SKILL.md frontmatter (specification fields and client extensions).
    Schema(schema::Args),
    /// Print the skills manifest exactly as nagents renders it for a model.
    Manifest(manifest::Args),
    /// Print the catalog text a client shows a model (nagents, 10xgraph, skills-ref, claude-code, codex, gemini).
    Listing(listing::Args),
    /// Print a skill's text within a token budget, as nagents' skill(name) tool returns it.
    Load(load::Args),
    /// Serve editors over the Language Server Protocol on stdin/stdout: findings as you type, quick
    /// fixes, hover, completion.
    Lsp(lsp::Args),
    /// Show the requests a client would send a model for a message, with a mock model answering.
    Simulate(simulate::Args),
    /// Check how eval queries route to skills: ranking, precision/recall, competing descriptions.
    Triggers(triggers::Args),
}

/// Runs one subcommand and returns how it ended; an `Err` gets its exit from [`Exit::of_error`]
/// (a client's refusal is 1, anything else 2).
pub fn run(command: Command) -> anyhow::Result<Exit> {
    match command {
        Command::Catalog(args) => catalog::run(args),
        Command::Eval(args) => eval::run(args),
        Command::Export(args) => export::run(args),
        Command::Lint(args) => lint::run(args),
        Command::Schema(args) => schema::run(args),
        Command::Manifest(args) => manifest::run(args),
        Command::Listing(args) => listing::run(args),
        Command::Load(args) => load::run(args),
        Command::Lsp(args) => lsp::run(args),
        Command::Simulate(args) => simulate::run(args),
        Command::Triggers(args) => triggers::run(args),
    }
}

/// `--threshold`: a score the router can compare with (finite, at least 0).
fn router_threshold(value: &str) -> Result<f64, String> {
    let threshold: f64 = value
        .trim()
        .parse()
        .map_err(|_| format!("{value:?} is not a number"))?;
    skillforge_core::agent::router::check_threshold(threshold).map_err(|error| error.to_string())
}
