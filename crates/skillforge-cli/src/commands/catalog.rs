//! `skillforge catalog ROOT...`

use std::io::Write;
use std::path::PathBuf;

use clap::ValueEnum;
use skillforge_core::workspace::{self, CatalogReport};

use crate::exit;

#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum Format {
    Text,
    Json,
}

#[derive(Debug, clap::Args)]
pub struct Args {
    /// Folders to search for SKILL.md files.
    #[arg(required = true, value_name = "ROOT")]
    roots: Vec<PathBuf>,
    /// Output format.
    #[arg(long, value_enum, default_value_t = Format::Text)]
    format: Format,
}

pub fn run(args: Args) -> anyhow::Result<u8> {
    let report = workspace::scan(&args.roots)?;
    let mut out = std::io::stdout().lock();
    match args.format {
        Format::Json => {
            serde_json::to_writer_pretty(&mut out, &report)?;
            writeln!(out)?;
        }
        Format::Text => write_text(&mut out, &report)?,
    }
    Ok(if report.error.is_some() {
        exit::FINDINGS
    } else {
        exit::OK
    })
}

fn write_text(out: &mut impl Write, report: &CatalogReport) -> std::io::Result<()> {
    for skill in &report.skills {
        writeln!(
            out,
            "{}\t{}\t{}",
            skill.name, skill.location, skill.description
        )?;
    }
    for diagnostic in &report.diagnostics {
        writeln!(out, "warning: {diagnostic}")?;
    }
    if let Some(error) = &report.error {
        writeln!(out, "error: {error}")?;
    }
    writeln!(out, "{} skill(s) found", report.skills.len())
}
