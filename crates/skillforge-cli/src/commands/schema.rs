//! `skillforge schema`: the JSON Schema of SKILL.md frontmatter, for editors and CI validators.

use std::io::Write;

use anyhow::Context as _;

use crate::exit::Exit;

#[derive(Debug, clap::Args)]
pub struct Args {}

pub fn run(_args: Args) -> anyhow::Result<Exit> {
    let text = skillforge_core::frontmatter::schema::frontmatter_schema_json();
    let mut stdout = std::io::stdout().lock();
    stdout
        .write_all(text.as_bytes())
        .context("writing the schema")?;
    stdout.flush().context("writing the schema")?;
    Ok(Exit::Clean)
}
