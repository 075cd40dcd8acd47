//! `skillforge eval ROOT... --skill NAME --queries FILE --client claude-code|codex`: does the real client
//! pick the skill for these requests? Each query is run K times, each run in a fresh isolated project
//! and HOME, and the client's own event stream says which skill the model used.

use std::io::{IsTerminal as _, Write};
use std::path::PathBuf;
use std::sync::atomic::AtomicBool;
use std::time::Duration;

use anyhow::{bail, Context as _};
use clap::ValueEnum;
use skillforge_core::eval::cases::{
    parse_cases, render_cases, split_cases, Expect, Half, Layout, Split,
};
use skillforge_core::eval::{
    self, EvalReport, Plan, Progress, RealClient, RunOutcome, RunResult, Settings, Stop,
};
use skillforge_core::fs::read::{input_text, Limit};

use super::triggers::{percent, write_metrics};
use crate::exit::Exit;

#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum ClientArg {
    ClaudeCode,
    Codex,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum Format {
    Text,
    Json,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum LayoutArg {
    /// `[{"query", "should_trigger": true|false, "expected_skill"?}]`, as `evals/evals.json` beside a skill.
    EvalsJson,
    /// `[{"query", "should_trigger": true|false}]`, skill-creator's trigger eval set.
    SkillCreator,
    /// `[{"query", "should_trigger": "name"|null}]`, the workspace trigger table (`skillforge triggers`).
    Workspace,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum HalfArg {
    Train,
    Test,
}

#[derive(Debug, clap::Args)]
pub struct Args {
    /// Folders holding skills: the skill under test and the others, installed beside it in every run.
    #[arg(value_name = "ROOT", required = true)]
    roots: Vec<PathBuf>,
    /// The skill under test, by the name it declares.
    #[arg(long)]
    skill: String,
    /// The queries: agentskills.io `evals/evals.json`, a skill-creator list, or a workspace trigger table
    /// (default: the skill's own `evals/evals.json`).
    #[arg(long)]
    queries: Option<PathBuf>,
    /// The real client to run (not needed with --write-queries).
    #[arg(long, value_enum, required_unless_present = "write_queries")]
    client: Option<ClientArg>,
    /// The client program (default: `claude` or `codex` on PATH).
    #[arg(long, value_name = "PATH")]
    client_bin: Option<PathBuf>,
    /// Runs per query.
    #[arg(long, default_value_t = 1)]
    runs: u32,
    /// Stop before the model requests of all runs could pass N.
    #[arg(long, value_name = "N")]
    max_requests: Option<u64>,
    /// Stop before the cost could pass X US dollars (the client's own figures, else tokens at --price).
    #[arg(long, value_name = "X")]
    max_cost_usd: Option<f64>,
    /// US dollars per million input tokens, for the estimate (default: 5 for Claude Code, 1.25 for Codex).
    #[arg(long, value_name = "USD")]
    price: Option<f64>,
    /// The longest one run may take, in seconds.
    #[arg(long, default_value_t = 180)]
    timeout: u64,
    /// Split the queries TRAIN:TEST (seeded, both kinds in each half) and report each half.
    #[arg(long, value_name = "TRAIN:TEST")]
    split: Option<Split>,
    /// The seed of the split.
    #[arg(long, default_value_t = 0)]
    seed: u64,
    /// With --split: run only this half.
    #[arg(long, value_enum, requires = "split")]
    only: Option<HalfArg>,
    /// A Codex setting for every run, as `codex -c KEY=VALUE` (repeatable).
    #[arg(long = "codex-config", value_name = "KEY=VALUE")]
    codex_config: Vec<String>,
    /// Run without asking after the estimate.
    #[arg(long, short = 'y')]
    yes: bool,
    /// The report on standard output: text, or the whole report as JSON. Progress goes to standard error.
    #[arg(long, value_enum, default_value_t = Format::Text)]
    format: Format,
    /// Write the queries (after --split/--only) to this new file in --layout, and run nothing.
    #[arg(long, value_name = "FILE")]
    write_queries: Option<PathBuf>,
    /// The layout of --write-queries.
    #[arg(long, value_enum, default_value_t = LayoutArg::EvalsJson, requires = "write_queries")]
    layout: LayoutArg,
}

/// Exit 0 when every query passed in at least half of its runs, 1 when some did not, 2 when the eval
/// could not finish (a run failed or timed out, a cap or a cancel stopped it, bad usage).
pub fn run(args: Args) -> anyhow::Result<Exit> {
    let queries = match &args.queries {
        Some(queries) => queries.clone(),
        None => {
            let skill_file = eval::skill_file(&args.roots, &args.skill)?;
            let beside = skillforge_core::agent::evals::evals_path(&skill_file);
            if !beside.exists() {
                bail!(
                    "{}: no eval queries beside the skill; write them there (the app's Trigger tests panel saves \
                     them) or give --queries FILE",
                    beside.display()
                );
            }
            beside
        }
    };
    let path = queries.display().to_string();
    let text = input_text(&queries, Limit::INPUT)?;
    let mut cases = parse_cases(&text, &args.skill)
        .with_context(|| format!("{path}: cannot read the queries"))?;
    let mut halves = args
        .split
        .map(|split| split_cases(&cases, split, args.seed));
    if let (Some(only), Some(all)) = (args.only, halves.as_ref()) {
        let keep = match only {
            HalfArg::Train => Half::Train,
            HalfArg::Test => Half::Test,
        };
        let kept: Vec<usize> = (0..cases.len())
            .filter(|&index| all[index] == keep)
            .collect();
        cases = kept.iter().map(|&index| cases[index].clone()).collect();
        halves = Some(vec![keep; cases.len()]);
    }
    if let Some(out) = &args.write_queries {
        let layout = match args.layout {
            LayoutArg::EvalsJson => Layout::EvalsJson,
            LayoutArg::SkillCreator => Layout::SkillCreator,
            LayoutArg::Workspace => Layout::Workspace,
        };
        write_new(out, &render_cases(&cases, &args.skill, layout))?;
        eprintln!("wrote {} queries to {}", cases.len(), out.display());
        return Ok(Exit::Clean);
    }
    let client = match args.client {
        Some(ClientArg::ClaudeCode) => RealClient::ClaudeCode,
        Some(ClientArg::Codex) => RealClient::Codex,
        None => bail!("--client claude-code or --client codex: which real client to run"),
    };
    for setting in &args.codex_config {
        if let Some(problem) = skillforge_core::clients::codex::run::setting_problem(setting) {
            bail!("--codex-config {setting:?} {problem}");
        }
    }
    if let Some(price) = args.price {
        if !price.is_finite() || price < 0.0 {
            bail!("--price must be a number of US dollars, 0 or more");
        }
    }
    if args
        .max_cost_usd
        .is_some_and(|cap| !cap.is_finite() || cap < 0.0)
    {
        bail!("--max-cost-usd must be a number of US dollars, 0 or more");
    }
    let settings = Settings {
        client,
        binary: args.client_bin.clone(),
        runs: args.runs,
        max_requests: args.max_requests,
        max_cost_usd: args.max_cost_usd,
        input_price: args.price.unwrap_or(client.default_input_price()),
        timeout: Duration::from_secs(args.timeout.max(1)),
        requests_per_run: match client {
            RealClient::ClaudeCode => 1,
            RealClient::Codex => 3,
        },
        client_config: args.codex_config.clone(),
        environment: std::env::vars_os().collect(),
    };
    let prepared = eval::prepare(&args.roots, &args.skill, cases, halves, settings)?;
    let mut err = std::io::stderr().lock();
    write_plan(&mut err, &prepared.plan)?;
    if !args.yes {
        if !std::io::stdin().is_terminal() {
            writeln!(
                err,
                "not started: pass --yes to make these runs without being asked"
            )?;
            return Ok(Exit::Failure);
        }
        write!(err, "Run them? [y/N] ")?;
        err.flush()?;
        let mut answer = String::new();
        std::io::stdin().read_line(&mut answer)?;
        if !matches!(answer.trim(), "y" | "Y" | "yes") {
            writeln!(err, "not started")?;
            return Ok(Exit::Failure);
        }
    }
    drop(err);
    let cancel = cancel_on_interrupt();
    let report = prepared.run(&mut Printer, cancel);
    let mut out = std::io::stdout().lock();
    match args.format {
        Format::Json => {
            serde_json::to_writer_pretty(&mut out, &report)?;
            writeln!(out)?;
        }
        Format::Text => write_text(&mut out, &report)?,
    }
    Ok(if report.stopped.is_some() || report.failed_runs() > 0 {
        Exit::Failure
    } else {
        Exit::findings_if(report.failing_queries() > 0)
    })
}

/// Creates `path`, refusing to replace anything already there.
fn write_new(path: &std::path::Path, text: &str) -> anyhow::Result<()> {
    let mut file = std::fs::OpenOptions::new()
        .write(true)
        .create_new(true)
        .open(path)
        .with_context(|| {
            format!(
                "{}: cannot create it (an existing file is never replaced)",
                path.display()
            )
        })?;
    file.write_all(text.as_bytes())
        .with_context(|| format!("{}: cannot write it", path.display()))
}

/// A flag set by Ctrl+C (SIGINT) or SIGTERM, so the run in progress is stopped with its process group
/// and the report still printed.
fn cancel_on_interrupt() -> &'static AtomicBool {
    static CANCEL: AtomicBool = AtomicBool::new(false);
    extern "C" fn on_signal(_: libc::c_int) {
        CANCEL.store(true, std::sync::atomic::Ordering::Relaxed);
    }
    let handler: extern "C" fn(libc::c_int) = on_signal;
    // SAFETY: the handler only stores to an atomic, which is async-signal-safe.
    unsafe {
        libc::signal(libc::SIGINT, handler as libc::sighandler_t);
        libc::signal(libc::SIGTERM, handler as libc::sighandler_t);
    }
    &CANCEL
}

fn dollars(amount: f64) -> String {
    if amount < 0.01 && amount > 0.0 {
        format!("${amount:.4}")
    } else {
        format!("${amount:.2}")
    }
}

fn write_plan(out: &mut impl Write, plan: &Plan) -> std::io::Result<()> {
    writeln!(
        out,
        "{} at {} ({})",
        plan.client.label(),
        plan.client_path,
        plan.client_version.as_deref().unwrap_or("version unknown")
    )?;
    writeln!(
        out,
        "skill {}: {} queries × {} runs = {} runs, each in a fresh project and HOME with {} skills installed",
        plan.skill,
        plan.queries,
        plan.runs_per_query,
        plan.runs,
        plan.installed.len()
    )?;
    for left in &plan.left_out {
        writeln!(out, "  not installed: {left}")?;
    }
    writeln!(
        out,
        "at most {} model requests of about {} input tokens: about {} at {} per million input tokens (an estimate; --price to change)",
        plan.max_requests,
        plan.tokens_per_request,
        dollars(plan.estimated_cost_usd),
        dollars(plan.input_price)
    )
}

/// Progress on standard error.
struct Printer;

impl Progress for Printer {
    fn started(&mut self, number: u32, total: u32, _query_index: usize, query: &str) {
        let shown: String = query.chars().take(60).collect();
        eprint!("run {number}/{total}: {shown:?} … ");
    }

    fn finished(&mut self, _number: u32, _total: u32, _query_index: usize, outcome: &RunOutcome) {
        eprintln!("{}", describe(&outcome.result));
    }
}

fn describe(result: &RunResult) -> String {
    match result {
        RunResult::Skill { name, how } => format!(
            "{name} ({})",
            match how {
                skillforge_core::clients::stream::Detection::SkillTool => "skill tool",
                skillforge_core::clients::stream::Detection::ReadSkillFile => "read its SKILL.md",
            }
        ),
        RunResult::NoSkill => "no skill".into(),
        RunResult::Error { message } => format!("failed: {message}"),
        RunResult::TimedOut => "timed out".into(),
    }
}

fn write_text(out: &mut impl Write, report: &EvalReport) -> std::io::Result<()> {
    let skill = &report.plan.skill;
    let k = report.plan.runs_per_query;
    writeln!(
        out,
        "{} {} · skill {} · {} queries × {} runs",
        report.plan.client.label(),
        report
            .client_version
            .as_deref()
            .unwrap_or("(version unknown)"),
        skill,
        report.queries.len(),
        k
    )?;
    for query in &report.queries {
        let expected = match &query.expect {
            Expect::This => format!("should trigger {skill}"),
            Expect::Other(other) => format!("should trigger {other}, not {skill}"),
            Expect::Nothing => "should trigger no skill".into(),
            Expect::NotThis => format!("should not trigger {skill}"),
        };
        let mark = if query.runs.is_empty() {
            "----"
        } else if query.completed == 0 {
            "ERR "
        } else if query.passed * 2 >= query.completed {
            "PASS"
        } else {
            "FAIL"
        };
        let half = match query.half {
            Some(Half::Train) => " [train]",
            Some(Half::Test) => " [test]",
            None => "",
        };
        write!(
            out,
            "  {mark} {}/{}  {:?}{half} — {expected}: triggered {}/{}",
            query.passed, k, query.query, query.triggered, query.completed
        )?;
        if !query.other_skills.is_empty() {
            let others: Vec<String> = query
                .other_skills
                .iter()
                .map(|fired| format!("{} {}/{}", fired.name, fired.runs, query.completed))
                .collect();
            write!(out, "; instead: {}", others.join(", "))?;
        }
        writeln!(out)?;
        for run in &query.runs {
            if let RunResult::Error { .. } | RunResult::TimedOut = run.result {
                writeln!(out, "         {}", describe(&run.result))?;
            }
        }
        if query.runs.is_empty() {
            writeln!(out, "         not run")?;
        }
    }
    for summary in &report.summaries {
        let label = match summary.half {
            None => "all",
            Some(Half::Train) => "train",
            Some(Half::Test) => "test",
        };
        writeln!(
            out,
            "{label}: {} queries, pass@{k} {}, pass^{k} {}, runs passed {}",
            summary.queries,
            percent(Some(summary.pass_at_k)),
            percent(Some(summary.pass_all_k)),
            percent(summary.run_pass_rate)
        )?;
    }
    writeln!(out, "skills:")?;
    write_metrics(out, &report.skills)?;
    writeln!(
        out,
        "{} runs, {} model requests, {}",
        report.runs_made,
        report.requests,
        dollars(report.cost_usd)
    )?;
    match report.stopped {
        Some(Stop::RequestCap) => writeln!(
            out,
            "stopped: the next run could have gone past --max-requests"
        )?,
        Some(Stop::CostCap) => writeln!(
            out,
            "stopped: the next run could have gone past --max-cost-usd"
        )?,
        Some(Stop::Cancelled) => writeln!(out, "stopped: cancelled")?,
        None => {}
    }
    Ok(())
}
