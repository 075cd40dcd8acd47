//! `skillforge catalog ROOT...`: every skill found, with nagents' verdict on the catalog.

use std::io::Write;
use std::path::PathBuf;
use std::sync::Arc;

use anyhow::Context as _;
use clap::ValueEnum;
use skillforge_core::clients::nagents::discovery::{
    BuiltinSource, CompositeSource, DirectoryOptions, DirectorySource, SkillSource,
};
use skillforge_core::workspace::{self, CatalogReport, ScanOptions};

use crate::exit::Exit;

#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum Format {
    Text,
    Json,
}

/// Where skills come from; shared by `catalog`, `manifest` and `load`.
#[derive(Debug, clap::Args)]
pub struct SourceArgs {
    /// Folders to search for SKILL.md files (made absolute without resolving links).
    #[arg(value_name = "ROOT", required_unless_present = "builtin")]
    roots: Vec<PathBuf>,
    /// Also include the builtin skills, after the folders' skills (a folder's skill wins).
    #[arg(long)]
    builtin: bool,
    /// Most entries walked across all roots, directories included.
    #[arg(long, default_value_t = 10_000, allow_negative_numbers = true)]
    max_entries: i64,
    /// Deepest folder level walked below a root.
    #[arg(long, default_value_t = 16, allow_negative_numbers = true)]
    max_depth: i64,
}

impl SourceArgs {
    fn limits(&self) -> anyhow::Result<DirectoryOptions> {
        Ok(DirectoryOptions::new(self.max_entries, self.max_depth)?)
    }

    /// The checked roots, then the source nagents would build from them.
    pub fn source(&self) -> anyhow::Result<Arc<dyn SkillSource>> {
        let limits = self.limits()?;
        let roots = self
            .roots
            .iter()
            .map(|root| workspace::check_root(root))
            .collect::<Result<Vec<_>, _>>()?;
        let mut sources: Vec<Arc<dyn SkillSource>> = Vec::new();
        if !roots.is_empty() {
            sources.push(Arc::new(DirectorySource::new(&roots, limits)));
        }
        if self.builtin {
            sources.push(Arc::new(BuiltinSource::default()));
        }
        Ok(match sources.len() {
            1 => sources.remove(0),
            _ => Arc::new(CompositeSource::new(sources)),
        })
    }

    fn scan_options(&self) -> anyhow::Result<ScanOptions> {
        Ok(ScanOptions {
            roots: self.roots.clone(),
            builtin: self.builtin,
            limits: self.limits()?,
        })
    }
}

/// A small runtime for the engine's async sources; discovery does its blocking work on tokio's
/// blocking pool.
pub fn runtime() -> anyhow::Result<tokio::runtime::Runtime> {
    tokio::runtime::Builder::new_current_thread()
        .build()
        .context("cannot start the async runtime")
}

#[derive(Debug, clap::Args)]
pub struct Args {
    #[command(flatten)]
    source: SourceArgs,
    /// Output format.
    #[arg(long, value_enum, default_value_t = Format::Text)]
    format: Format,
}

pub fn run(args: Args) -> anyhow::Result<Exit> {
    let report = workspace::scan_with(&args.source.scan_options()?)?;
    let mut out = std::io::stdout().lock();
    match args.format {
        Format::Json => {
            serde_json::to_writer_pretty(&mut out, &report)?;
            writeln!(out)?;
        }
        Format::Text => write_text(&mut out, &report)?,
    }
    Ok(Exit::findings_if(report.error.is_some()))
}

fn write_text(out: &mut impl Write, report: &CatalogReport) -> std::io::Result<()> {
    for skill in &report.skills {
        writeln!(
            out,
            "{}\t{}\t{}",
            skill.name, skill.location, skill.description
        )?;
    }
    for skill in &report.shadowed {
        writeln!(out, "shadowed: {}\t{}", skill.name, skill.location)?;
    }
    for diagnostic in &report.diagnostics {
        writeln!(out, "warning: {diagnostic}")?;
    }
    if let Some(error) = &report.error {
        writeln!(out, "error: nagents would fail the whole catalog: {error}")?;
    }
    writeln!(out, "{} skill(s) found", report.skills.len())
}
