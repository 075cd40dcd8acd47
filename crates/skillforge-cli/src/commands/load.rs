//! `skillforge load ROOT... --name NAME`: a skill's text within a token budget, as nagents'
//! `skill(name)` tool returns it.

use std::io::Write;

use skillforge_core::clients::nagents::budget::{
    validate_skill_token_limit, DEFAULT_SKILL_TOKEN_LIMIT,
};
use skillforge_core::clients::nagents::discovery::{CatalogHolder, LoadError};
use skillforge_core::python;

use super::catalog::{runtime, Format, SourceArgs};
use crate::exit::Exit;

/// The environment default nagents' harness reads for the load budget.
const TOKEN_LIMIT_VARIABLE: &str = "NGN_SKILL_TOKEN_LIMIT";

#[derive(Debug, clap::Args)]
pub struct Args {
    #[command(flatten)]
    source: SourceArgs,
    /// Exact name from the catalog.
    #[arg(long)]
    name: String,
    /// Budget in estimated tokens (1..=100000); default $NGN_SKILL_TOKEN_LIMIT, else 10000.
    #[arg(long, allow_negative_numbers = true)]
    token_limit: Option<i64>,
    /// Output format: text prints the (possibly cut) content alone; json prints the whole
    /// result as nagents' tool message (compact, non-ASCII kept).
    #[arg(long, value_enum, default_value_t = Format::Text)]
    format: Format,
}

/// The flag, else the environment parsed as the harness parses it (Python `int()`), else the
/// default; then nagents' range check.
fn token_limit(flag: Option<i64>) -> anyhow::Result<u32> {
    let requested = match flag {
        Some(limit) => limit,
        None => match std::env::var(TOKEN_LIMIT_VARIABLE) {
            Ok(text) => {
                python::parse_int(&text).ok_or_else(|| anyhow::anyhow!(python::int_error(&text)))?
            }
            Err(std::env::VarError::NotPresent) => i64::from(DEFAULT_SKILL_TOKEN_LIMIT),
            Err(std::env::VarError::NotUnicode(_)) => {
                anyhow::bail!("{TOKEN_LIMIT_VARIABLE} is not valid UTF-8")
            }
        },
    };
    Ok(validate_skill_token_limit(requested)?)
}

pub fn run(args: Args) -> anyhow::Result<Exit> {
    let limit = token_limit(args.token_limit)?;
    let holder = CatalogHolder::new(args.source.source()?);
    let loaded = runtime()?.block_on(holder.load(&args.name, limit));
    let result = match loaded {
        Ok(result) => result,
        Err(error @ (LoadError::Unknown(_) | LoadError::Source(_))) => {
            // nagents' own words, as its tool would return them.
            eprintln!("{error}");
            return Ok(Exit::of_load(&error));
        }
        Err(error) => return Err(error.into()),
    };
    let mut out = std::io::stdout().lock();
    match args.format {
        Format::Text => out.write_all(result.content.as_bytes())?,
        Format::Json => serde_json::to_writer(&mut out, &result)?,
    }
    out.flush()?;
    Ok(Exit::Clean)
}
