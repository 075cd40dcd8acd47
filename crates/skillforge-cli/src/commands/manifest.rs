//! `skillforge manifest ROOT...`: the skills manifest exactly as nagents renders it.

use std::io::Write;

use skillforge_core::clients::nagents::render_skill_manifest;

use super::catalog::{runtime, SourceArgs};
use crate::exit::Exit;

#[derive(Debug, clap::Args)]
pub struct Args {
    #[command(flatten)]
    source: SourceArgs,
}

pub fn run(args: Args) -> anyhow::Result<Exit> {
    let source = args.source.source()?;
    let discovered = runtime()?.block_on(source.discover());
    match discovered {
        Ok(skills) => {
            // Byte for byte what the model sees: no trailing newline is added.
            let mut out = std::io::stdout().lock();
            out.write_all(render_skill_manifest(&skills).as_bytes())?;
            out.flush()?;
            Ok(Exit::Clean)
        }
        Err(error) => {
            // nagents' own words, as its harness would print them.
            eprintln!("{error}");
            Ok(Exit::of_source(&error))
        }
    }
}
