//! `skillforge triggers ROOT... --queries FILE`: how well the skills' descriptions route eval
//! queries, per query and per skill, and which skills compete for the same queries.

use std::io::Write;
use std::path::PathBuf;

use anyhow::Context as _;
use clap::ValueEnum;
use skillforge_core::agent::router::DEFAULT_THRESHOLD;
use skillforge_core::agent::triggers::{analyze, parse_queries, SkillMetrics, TriggerReport};
use skillforge_core::agent::{router_documents, Dialect};
use skillforge_core::clients::nagents::discovery::DirectoryOptions;
use skillforge_core::fs::read::{input_text, Limit};
use skillforge_core::workspace;

use super::simulate::DialectArg;
use crate::exit::Exit;

#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum Format {
    Text,
    Json,
}

#[derive(Debug, clap::Args)]
pub struct Args {
    /// Folders holding skills.
    #[arg(value_name = "ROOT", required = true)]
    roots: Vec<PathBuf>,
    /// A JSON list of {"query": "...", "should_trigger": "name" or null} (the agentskills.io eval format).
    #[arg(long)]
    queries: PathBuf,
    /// Whose catalog the router reads: nagents (name, description) or 10xgraph (plus metadata.triggers).
    #[arg(long, value_enum, default_value_t = DialectArg::Nagents)]
    dialect: DialectArg,
    /// The router's minimum score (a number >= 0).
    #[arg(long, default_value_t = DEFAULT_THRESHOLD, value_parser = super::router_threshold)]
    threshold: f64,
    #[arg(long, value_enum, default_value_t = Format::Text)]
    format: Format,
    /// nagents: most entries walked across all roots, directories included.
    #[arg(long, default_value_t = 10_000, allow_negative_numbers = true)]
    max_entries: i64,
    /// nagents: deepest folder level walked below a root.
    #[arg(long, default_value_t = 16, allow_negative_numbers = true)]
    max_depth: i64,
}

/// Exit 1 when any query is routed to the wrong skill (or to none when one was expected).
pub fn run(args: Args) -> anyhow::Result<Exit> {
    let roots = args
        .roots
        .iter()
        .map(|root| workspace::check_root(root))
        .collect::<Result<Vec<_>, _>>()?;
    let path = args.queries.display().to_string();
    let text = input_text(&args.queries, Limit::INPUT)?;
    let queries = parse_queries(&text).with_context(|| format!("{path}: invalid queries"))?;
    let dialect = match args.dialect {
        DialectArg::Nagents => Dialect::Nagents,
        DialectArg::Tenxgraph => Dialect::Tenxgraph,
    };
    let runtime = super::catalog::runtime()?;
    let documents = runtime.block_on(router_documents(
        &roots,
        dialect,
        DirectoryOptions::new(args.max_entries, args.max_depth)?,
    ))?;
    let report = analyze(&documents, &queries, args.threshold);
    let mut out = std::io::stdout().lock();
    match args.format {
        Format::Json => {
            serde_json::to_writer_pretty(&mut out, &report)?;
            writeln!(out)?;
        }
        Format::Text => write_text(&mut out, &report)?,
    }
    Ok(Exit::findings_if(report.misrouted() > 0))
}

pub(super) fn percent(value: Option<f64>) -> String {
    value.map_or_else(|| "—".to_string(), |v| format!("{:.0}%", v * 100.0))
}

/// One line per skill: precision, recall and the counts they come from.
pub(super) fn write_metrics(out: &mut impl Write, skills: &[SkillMetrics]) -> std::io::Result<()> {
    for skill in skills {
        writeln!(
            out,
            "  {}: precision {}, recall {} ({} hit, {} wrong, {} missed)",
            skill.name,
            percent(skill.precision),
            percent(skill.recall),
            skill.true_positives,
            skill.false_positives,
            skill.false_negatives
        )?;
    }
    Ok(())
}

fn write_text(out: &mut impl Write, report: &TriggerReport) -> std::io::Result<()> {
    writeln!(out, "queries (threshold {}):", report.threshold)?;
    for query in &report.queries {
        let mark = if query.correct { "ok  " } else { "MISS" };
        let expected = query.expected.as_deref().unwrap_or("none");
        let predicted = query.predicted.as_deref().unwrap_or("none");
        writeln!(
            out,
            "  {mark} {:?}: expected {expected}, routed to {predicted}",
            query.query
        )?;
        for score in query.ranking.iter().filter(|s| s.score > 0.0).take(3) {
            writeln!(
                out,
                "         {:>8.4}  {}  [{}]",
                score.score,
                score.name,
                score.matched_terms.join(", ")
            )?;
        }
    }
    writeln!(out, "\nskills:")?;
    write_metrics(out, &report.skills)?;
    if !report.competing.is_empty() {
        writeln!(out, "\ncompeting descriptions:")?;
        for pair in &report.competing {
            writeln!(
                out,
                "  {} ↔ {}: {} quer{}",
                pair.first,
                pair.second,
                pair.queries.len(),
                if pair.queries.len() == 1 { "y" } else { "ies" }
            )?;
        }
    }
    for query in &report.unknown_expectations {
        writeln!(
            out,
            "warning: {query:?} expects a skill that is not in the catalog"
        )?;
    }
    writeln!(
        out,
        "\n{} of {} queries routed as expected",
        report.queries.len() - report.misrouted(),
        report.queries.len()
    )?;
    Ok(())
}
