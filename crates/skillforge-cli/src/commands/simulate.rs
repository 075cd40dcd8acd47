//! `skillforge simulate ROOT... --message TEXT`: the requests a client would send a model, with
//! a deterministic mock model answering.

use std::io::Write;
use std::path::{Path, PathBuf};
use std::time::Instant;

use anyhow::Context as _;
use clap::ValueEnum;
use serde::Serialize;
use skillforge_core::agent::router::DEFAULT_THRESHOLD;
use skillforge_core::agent::script::parse_script;
use skillforge_core::agent::{
    self, Dialect, MockModel, ModelAction, RefreshPolicy, SimulateOptions, Transcript, Warning,
};
use std::sync::Arc;

use skillforge_core::clients::nagents::activation::FrozenCatalog;
use skillforge_core::clients::nagents::discovery::{
    CatalogHolder, DirectoryOptions, DirectorySource, SkillSource,
};
use skillforge_core::clients::tenxgraph::registry::Registry;
use skillforge_core::fs::read::{input_text, Limit};
use skillforge_core::workspace;

use crate::exit::Exit;

#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum Format {
    Text,
    Json,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum DialectArg {
    Nagents,
    #[value(name = "10xgraph")]
    Tenxgraph,
}

#[derive(Debug, clap::Args)]
pub struct Args {
    /// Folders holding skills.
    #[arg(value_name = "ROOT", required = true)]
    roots: Vec<PathBuf>,
    /// The user's message (nagents loads every `$name` it references).
    #[arg(long)]
    message: String,
    /// Which client to reproduce.
    #[arg(long, value_enum, default_value_t = DialectArg::Nagents)]
    dialect: DialectArg,
    /// The mock model: `explicit` (never calls tools), `router` (BM25 relevance) or `script:FILE`
    /// (a JSON list of steps).
    #[arg(long, default_value = "explicit")]
    model: String,
    /// The skill token budget, per load and per turn of explicit activation (1..=100000).
    #[arg(long, default_value_t = 10_000, allow_negative_numbers = true)]
    token_limit: i64,
    /// A system prompt placed first in every request.
    #[arg(long)]
    system_prompt: Option<String>,
    /// The router's minimum score (a number >= 0).
    #[arg(long, default_value_t = DEFAULT_THRESHOLD, value_parser = super::router_threshold)]
    threshold: f64,
    /// Requests before the loop gives up.
    #[arg(long, default_value_t = agent::DEFAULT_MAX_ROUNDS)]
    max_rounds: usize,
    /// 10xGraph session mode: preload this skill as a system message (no catalog, no activate_skill).
    #[arg(long)]
    session_skill: Option<String>,
    #[arg(long, value_enum, default_value_t = Format::Text)]
    format: Format,
    /// Print the run's timing to standard error.
    #[arg(long)]
    timings: bool,
    /// nagents: rediscover at every client boundary (`boundaries`, as nagents does) or only once
    /// at run start (`once`).
    #[arg(long, value_enum, default_value_t = RefreshArg::Boundaries)]
    refresh: RefreshArg,
    /// nagents: most entries walked across all roots, directories included.
    #[arg(long, default_value_t = 10_000, allow_negative_numbers = true)]
    max_entries: i64,
    /// nagents: deepest folder level walked below a root.
    #[arg(long, default_value_t = 16, allow_negative_numbers = true)]
    max_depth: i64,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum RefreshArg {
    Boundaries,
    Once,
}

#[derive(Serialize)]
struct PlainMessage<'a> {
    role: &'a str,
    content: &'a str,
}

#[derive(Serialize)]
struct JsonReport<'a> {
    request_messages: Vec<PlainMessage<'a>>,
    transcript: &'a Transcript,
    warnings: &'a [Warning],
}

fn model(spec: &str, threshold: f64) -> anyhow::Result<MockModel> {
    match spec {
        "explicit" => Ok(MockModel::Explicit),
        "router" => Ok(MockModel::Router { threshold }),
        _ => match spec.strip_prefix("script:") {
            Some(path) => {
                let text = input_text(Path::new(path), Limit::INPUT)?;
                let steps =
                    parse_script(&text).with_context(|| format!("{path}: invalid script"))?;
                Ok(MockModel::Script(steps))
            }
            None => anyhow::bail!("unknown model `{spec}`; use explicit, router or script:FILE"),
        },
    }
}

pub fn options(args: &Args) -> anyhow::Result<SimulateOptions> {
    let roots = args
        .roots
        .iter()
        .map(|root| workspace::check_root(root))
        .collect::<Result<Vec<_>, _>>()?;
    let token_limit =
        skillforge_core::clients::nagents::budget::validate_skill_token_limit(args.token_limit)?;
    let mut options = SimulateOptions::new(roots, args.message.clone());
    options.dialect = match args.dialect {
        DialectArg::Nagents => Dialect::Nagents,
        DialectArg::Tenxgraph => Dialect::Tenxgraph,
    };
    options.model = model(&args.model, args.threshold)?;
    options.token_limit = token_limit;
    options.system_prompt = args.system_prompt.clone();
    options.max_rounds = args.max_rounds.max(1);
    options.session_skill = args.session_skill.clone();
    options.directory = DirectoryOptions::new(args.max_entries, args.max_depth)?;
    options.refresh = match args.refresh {
        RefreshArg::Boundaries => RefreshPolicy::ClientBoundaries,
        RefreshArg::Once => RefreshPolicy::Once,
    };
    if options.session_skill.is_some() && options.dialect != Dialect::Tenxgraph {
        anyhow::bail!("--session-skill is 10xGraph's session mode; add --dialect 10xgraph");
    }
    Ok(options)
}

pub fn run(args: Args) -> anyhow::Result<Exit> {
    let options = options(&args)?;
    let runtime = super::catalog::runtime()?;
    let transcript = if args.timings {
        let (transcript, discovery, run) = runtime.block_on(timed(&options))?;
        let requests = transcript.rounds.len().max(1) as f64;
        eprintln!(
            "simulate: {} skills; discovery {:.2} ms; {} request(s) in {:.2} ms, {:.2} ms per request after discovery",
            transcript.skills.len(),
            discovery * 1000.0,
            transcript.rounds.len(),
            run * 1000.0,
            run * 1000.0 / requests
        );
        transcript
    } else {
        runtime.block_on(agent::simulate(&options))?
    };
    let mut out = std::io::stdout().lock();
    match args.format {
        Format::Json => {
            let report = JsonReport {
                request_messages: transcript
                    .rounds
                    .first()
                    .map(|round| {
                        round
                            .messages
                            .iter()
                            .map(|m| PlainMessage {
                                role: &m.role,
                                content: &m.content,
                            })
                            .collect()
                    })
                    .unwrap_or_default(),
                transcript: &transcript,
                warnings: &transcript.warnings,
            };
            serde_json::to_writer_pretty(&mut out, &report)?;
            writeln!(out)?;
        }
        Format::Text => write_text(&mut out, &transcript)?,
    }
    Ok(Exit::Clean)
}

/// Discovery first, then the run, timed apart. With `--refresh boundaries` the run still
/// rediscovers where nagents does, and that time counts as the run's.
async fn timed(options: &SimulateOptions) -> anyhow::Result<(Transcript, f64, f64)> {
    let started = Instant::now();
    match options.dialect {
        Dialect::Nagents => {
            let source: Arc<dyn SkillSource> =
                Arc::new(DirectorySource::new(&options.roots, options.directory));
            match options.refresh {
                RefreshPolicy::Once => {
                    let catalog = FrozenCatalog::discover(source).await?;
                    let discovery = started.elapsed().as_secs_f64();
                    let run = Instant::now();
                    let transcript = agent::simulate_nagents(options, &catalog).await?;
                    Ok((transcript, discovery, run.elapsed().as_secs_f64()))
                }
                RefreshPolicy::ClientBoundaries => {
                    let holder = CatalogHolder::new(source);
                    holder.refresh().await?;
                    let discovery = started.elapsed().as_secs_f64();
                    let run = Instant::now();
                    let transcript = agent::simulate_nagents(options, &holder).await?;
                    Ok((transcript, discovery, run.elapsed().as_secs_f64()))
                }
            }
        }
        Dialect::Tenxgraph => {
            let registry = Registry::discover(&options.roots);
            let discovery = started.elapsed().as_secs_f64();
            let run = Instant::now();
            let transcript = agent::simulate_tenxgraph(options, &registry);
            Ok((transcript, discovery, run.elapsed().as_secs_f64()))
        }
    }
}

fn write_text(out: &mut impl Write, transcript: &Transcript) -> std::io::Result<()> {
    let dialect = match transcript.dialect {
        Dialect::Nagents => "nagents",
        Dialect::Tenxgraph => "10xgraph",
    };
    writeln!(
        out,
        "{dialect}, model {}, {} skill(s)",
        transcript.model,
        transcript.skills.len()
    )?;
    if let Some(router) = &transcript.router {
        writeln!(out, "\nrouter (threshold {}):", router.threshold)?;
        for score in router.scores.iter().take(10) {
            writeln!(
                out,
                "  {:>8.4}  {}  [{}]",
                score.score,
                score.name,
                score.matched_terms.join(", ")
            )?;
        }
        if router.scores.len() > 10 {
            writeln!(
                out,
                "  … {} more (use --format json for every score)",
                router.scores.len() - 10
            )?;
        }
        match &router.chosen {
            Some(name) => writeln!(out, "  chosen: {name}")?,
            None => writeln!(out, "  chosen: none")?,
        }
    }
    if let Some(budget) = &transcript.budget {
        writeln!(
            out,
            "\nexplicit activation: {} of {} tokens used; loaded: {}",
            budget.used,
            budget.token_limit,
            if budget.loaded.is_empty() {
                "none".to_string()
            } else {
                budget.loaded.join(", ")
            }
        )?;
    }
    for round in &transcript.rounds {
        writeln!(
            out,
            "\n── request {} ({} estimated tokens) ──",
            round.index + 1,
            round.estimated_tokens
        )?;
        for message in &round.messages {
            let origin = serde_json::to_value(message.origin)
                .ok()
                .and_then(|value| value.as_str().map(str::to_string))
                .unwrap_or_default();
            writeln!(
                out,
                "[{} · {} · {} tokens]",
                message.role, origin, message.estimated_tokens
            )?;
            if !message.content.is_empty() {
                writeln!(out, "{}", message.content)?;
            }
            for call in &message.tool_calls {
                writeln!(out, "→ {}({})", call.name, arguments(&call.arguments))?;
            }
        }
        match &round.action {
            ModelAction::Text { text } => writeln!(out, "model answers: {text}")?,
            ModelAction::ToolCalls { calls } => {
                for call in calls {
                    writeln!(
                        out,
                        "model calls: {}({})",
                        call.name,
                        arguments(&call.arguments)
                    )?;
                }
            }
        }
        for result in &round.tool_results {
            let status = if result.is_error { "error" } else { "ok" };
            writeln!(
                out,
                "tool {} {status}, {} estimated tokens",
                result.name, result.estimated_tokens
            )?;
        }
    }
    let totals = &transcript.totals;
    writeln!(
        out,
        "\n{} request(s), {} tool call(s), {} estimated tokens sent in total",
        totals.rounds, totals.tool_calls, totals.request_tokens
    )?;
    for warning in &transcript.warnings {
        writeln!(out, "warning: {}", warning.message)?;
    }
    Ok(())
}

fn arguments(arguments: &std::collections::BTreeMap<String, String>) -> String {
    arguments
        .iter()
        .map(|(key, value)| format!("{key}={}", serde_json::to_string(value).unwrap_or_default()))
        .collect::<Vec<_>>()
        .join(", ")
}
