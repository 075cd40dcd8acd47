//! Trigger evals on the real clients: for each query and each run, the real Claude Code or Codex is
//! started in a fresh isolated project and HOME ([`sandbox`]) holding the skill under test and the other
//! skills of the workspace, and its own event stream says which skill the model used.
//!
//! - [`cases`]: the eval files (agentskills.io `evals/evals.json`, skill-creator's lists, the workspace
//!   trigger table) and the seeded train/test split;
//! - [`process`]: one client process, bounded in time, stopped with its whole process group;
//! - [`sandbox`]: the run's folders;
//! - this module: the plan (how many runs and requests, what they may cost), the runs under the caps,
//!   and the report (k of K per query, pass@k and pass^k, precision and recall per skill).
//!
//! The client-specific parts (arguments, environment, reading the stream) live with each client:
//! [`crate::clients::claude_code::run`], [`crate::clients::codex::run`].

pub mod cases;
pub mod process;
pub mod sandbox;

use std::collections::BTreeMap;
use std::ffi::OsString;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;

use serde::{Deserialize, Serialize};

use crate::agent::triggers::SkillMetrics;
use crate::bundle::collect::{read_skill_folder, Exclusions, LinkPolicy};
use crate::clients::stream::{Detection, StreamEvent, StreamReader, Usage};
use crate::clients::{claude_code, codex};
use cases::{Case, Expect, Half};
use process::{Ending, Invocation, Next};
use sandbox::{InstalledSkill, Sandbox};

/// The clients an eval can run.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
#[serde(rename_all = "kebab-case")]
pub enum RealClient {
    ClaudeCode,
    Codex,
}

impl RealClient {
    pub fn label(self) -> &'static str {
        match self {
            RealClient::ClaudeCode => "Claude Code",
            RealClient::Codex => "Codex",
        }
    }

    /// The program name looked up on PATH.
    pub fn program(self) -> &'static str {
        match self {
            RealClient::ClaudeCode => "claude",
            RealClient::Codex => "codex",
        }
    }

    fn install_hint(self) -> &'static str {
        match self {
            RealClient::ClaudeCode => "npm install -g @anthropic-ai/claude-code",
            RealClient::Codex => "npm install -g @openai/codex",
        }
    }

    /// Where the client reads a project's skills.
    pub fn skills_folder(self) -> &'static str {
        match self {
            RealClient::ClaudeCode => claude_code::run::SKILLS_FOLDER,
            RealClient::Codex => codex::run::SKILLS_FOLDER,
        }
    }

    /// The variables any one of which gives the client a credential.
    fn credentials(self, settings: &Settings) -> Vec<String> {
        let fixed: &[&str] = match self {
            RealClient::ClaudeCode => &claude_code::run::CREDENTIALS,
            RealClient::Codex => &codex::run::CREDENTIALS,
        };
        let mut names: Vec<String> = fixed.iter().map(|name| name.to_string()).collect();
        if self == RealClient::Codex {
            names.extend(codex::run::provider_key_variables(&settings.client_config));
        }
        names
    }

    fn credentials_hint(self) -> &'static str {
        match self {
            RealClient::ClaudeCode => claude_code::run::CREDENTIALS_HINT,
            RealClient::Codex => codex::run::CREDENTIALS_HINT,
        }
    }

    fn environment(
        self,
        settings: &Settings,
        home: &Path,
        codex_home: &Path,
        temporary: &Path,
    ) -> Vec<(OsString, OsString)> {
        let caller = &settings.environment;
        match self {
            RealClient::ClaudeCode => {
                let mut environment = claude_code::run::environment(caller, home);
                environment.push(("TMPDIR".into(), temporary.as_os_str().to_os_string()));
                environment
            }
            RealClient::Codex => {
                let keys = codex::run::provider_key_variables(&settings.client_config);
                codex::run::environment(caller, home, codex_home, temporary, &keys)
            }
        }
    }

    fn arguments(self, settings: &Settings) -> Vec<OsString> {
        match self {
            RealClient::ClaudeCode => claude_code::run::arguments(settings.requests_per_run),
            RealClient::Codex => codex::run::arguments(&settings.client_config),
        }
    }

    fn reader(self, skills: &[InstalledSkill]) -> Box<dyn StreamReader> {
        match self {
            RealClient::ClaudeCode => Box::<claude_code::run::Reader>::default(),
            RealClient::Codex => Box::new(codex::run::Reader::new(
                skills
                    .iter()
                    .filter_map(|skill| {
                        let file = skill.files.iter().find(|file| file.path == "SKILL.md")?;
                        Some((
                            skill.folder.clone(),
                            String::from_utf8_lossy(&file.bytes).into_owned(),
                        ))
                    })
                    .collect(),
            )),
        }
    }

    /// The size of one request of the client with no skill, in bytes of JSON (its own instructions and
    /// tools), for the estimate made before anything runs.
    fn base_request_bytes(self) -> u64 {
        match self {
            RealClient::ClaudeCode => claude_code::run::BASE_REQUEST_BYTES,
            RealClient::Codex => codex::run::BASE_REQUEST_BYTES,
        }
    }

    /// The price per million input tokens assumed when none is given.
    pub fn default_input_price(self) -> f64 {
        match self {
            RealClient::ClaudeCode => claude_code::run::ASSUMED_INPUT_PRICE_PER_MTOK,
            RealClient::Codex => codex::run::ASSUMED_INPUT_PRICE_PER_MTOK,
        }
    }
}

/// How the runs are made.
#[derive(Debug, Clone)]
pub struct Settings {
    pub client: RealClient,
    /// The client program; `None` looks for [`RealClient::program`] on the caller's PATH.
    pub binary: Option<PathBuf>,
    /// Runs per query.
    pub runs: u32,
    /// The most model requests of the whole eval.
    pub max_requests: Option<u64>,
    /// The most the whole eval may cost, in US dollars (the clients' own figures where they give
    /// them, else the tokens they report at `input_price`).
    pub max_cost_usd: Option<f64>,
    /// US dollars per million input tokens, for the estimate and where a client gives no cost.
    pub input_price: f64,
    /// The longest one run may take.
    pub timeout: Duration,
    /// The most model requests one run may make.
    pub requests_per_run: u32,
    /// Extra client settings (Codex `-c KEY=VALUE`).
    pub client_config: Vec<String>,
    /// The caller's environment: credentials and the model endpoint are taken from it, nothing else.
    pub environment: Vec<(OsString, OsString)>,
}

/// Why an eval cannot start.
#[derive(Debug, thiserror::Error)]
pub enum EvalError {
    #[error("{0}")]
    Workspace(#[from] crate::workspace::WorkspaceError),
    #[error("{0}")]
    Collect(String),
    #[error("no skill named `{name}` under {roots}{}", if .known.is_empty() { String::new() } else { format!(" (skills there: {})", .known.join(", ")) })]
    NoSuchSkill {
        name: String,
        roots: String,
        known: Vec<String>,
    },
    #[error("more than one skill is named `{name}`: {}; open only the folder that holds the one to test", .paths.join(", "))]
    NameTwice { name: String, paths: Vec<String> },
    #[error("the skill under test cannot be installed (each run gets a copy of its folder made as `skillforge export` makes one): {0}")]
    Unreadable(String),
    #[error("{label} (`{program}`) is not on PATH: install it ({hint}) or give its path with --client-bin")]
    NoClient {
        label: &'static str,
        program: &'static str,
        hint: &'static str,
    },
    #[error("{}: {problem}", .path.display())]
    BadClient { path: PathBuf, problem: String },
    #[error("no credentials for {label} in the environment: {hint}")]
    NoCredentials {
        label: &'static str,
        hint: &'static str,
    },
    #[error("--runs must be at least 1")]
    NoRuns,
}

/// The estimate shown before anything runs.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
pub struct Plan {
    pub client: RealClient,
    pub client_path: String,
    /// What the client says for `--version`, when it answered.
    pub client_version: Option<String>,
    pub skill: String,
    pub queries: u32,
    pub runs_per_query: u32,
    pub runs: u32,
    /// At most this many model requests (each run is bounded), or the cap when lower.
    #[cfg_attr(feature = "specta", specta(type = f64))]
    pub max_requests: u64,
    /// Estimated input tokens of one request: the client's own instructions and tools plus the
    /// catalog of the installed skills.
    #[cfg_attr(feature = "specta", specta(type = f64))]
    pub tokens_per_request: u64,
    pub input_price: f64,
    /// `max_requests` requests of `tokens_per_request` input tokens at `input_price`.
    pub estimated_cost_usd: f64,
    /// The skills installed in every run (the skill under test first), as `name (folder)`.
    pub installed: Vec<String>,
    /// Skills of the workspace that are not installed, and why.
    pub left_out: Vec<String>,
}

/// Everything checked and read before the first run.
#[derive(Debug)]
pub struct Prepared {
    pub plan: Plan,
    settings: Settings,
    binary: PathBuf,
    skills: Vec<InstalledSkill>,
    cases: Vec<Case>,
    halves: Option<Vec<Half>>,
}

/// Finds the client, the skill under test and its competitors, checks the credentials, and makes the
/// plan. Nothing is run but the client's `--version`.
pub fn prepare(
    roots: &[PathBuf],
    skill: &str,
    cases: Vec<Case>,
    halves: Option<Vec<Half>>,
    settings: Settings,
) -> Result<Prepared, EvalError> {
    if settings.runs == 0 {
        return Err(EvalError::NoRuns);
    }
    let client = settings.client;
    let binary = find_binary(client, settings.binary.as_deref(), &settings.environment)?;
    if !client.credentials(&settings).iter().any(|name| {
        settings
            .environment
            .iter()
            .any(|(key, value)| key == name.as_str() && !value.is_empty())
    }) {
        return Err(EvalError::NoCredentials {
            label: client.label(),
            hint: client.credentials_hint(),
        });
    }
    let (skills, left_out) = installed_skills(roots, skill)?;
    let version = {
        let home = tempfile::Builder::new()
            .prefix("skillforge-eval-")
            .tempdir()
            .map_err(|error| EvalError::BadClient {
                path: binary.clone(),
                problem: format!("no temporary folder to run it in: {error}"),
            })?;
        let environment = client.environment(&settings, home.path(), home.path(), home.path());
        process::version_line(&binary, &environment, home.path(), Duration::from_secs(60))
    };
    let runs = cases.len() as u32 * settings.runs;
    let bound = u64::from(runs) * u64::from(settings.requests_per_run.max(1));
    let max_requests = settings.max_requests.map_or(bound, |cap| cap.min(bound));
    let catalog_bytes: u64 = skills
        .iter()
        .filter_map(|skill| skill.files.iter().find(|file| file.path == "SKILL.md"))
        .map(|file| catalog_bytes_of(&file.bytes))
        .sum();
    let tokens_per_request = (client.base_request_bytes() + catalog_bytes).div_ceil(4);
    let estimated_cost_usd =
        max_requests as f64 * tokens_per_request as f64 * settings.input_price / 1e6;
    let plan = Plan {
        client,
        client_path: binary.display().to_string(),
        client_version: version,
        skill: skill.to_string(),
        queries: cases.len() as u32,
        runs_per_query: settings.runs,
        runs,
        max_requests,
        tokens_per_request,
        input_price: settings.input_price,
        estimated_cost_usd,
        installed: skills
            .iter()
            .map(|skill| format!("{} ({})", skill.name, skill.folder))
            .collect(),
        left_out,
    };
    Ok(Prepared {
        plan,
        settings,
        binary,
        skills,
        cases,
        halves,
    })
}

/// The bytes of a skill's frontmatter, which is what a catalog entry is made of (at most 2 KB each).
fn catalog_bytes_of(skill_md: &[u8]) -> u64 {
    let text = String::from_utf8_lossy(skill_md);
    let frontmatter = crate::frontmatter::yaml::layout(&text)
        .map(|layout| layout.yaml.len() as u64)
        .unwrap_or(0);
    frontmatter.min(2048) + 64
}

fn find_binary(
    client: RealClient,
    given: Option<&Path>,
    environment: &[(OsString, OsString)],
) -> Result<PathBuf, EvalError> {
    if let Some(path) = given {
        return match std::fs::metadata(path) {
            Ok(metadata) if metadata.is_file() => {
                use std::os::unix::fs::PermissionsExt as _;
                if metadata.permissions().mode() & 0o111 == 0 {
                    Err(EvalError::BadClient {
                        path: path.to_path_buf(),
                        problem: "is not executable".into(),
                    })
                } else {
                    Ok(std::path::absolute(path).unwrap_or_else(|_| path.to_path_buf()))
                }
            }
            Ok(_) => Err(EvalError::BadClient {
                path: path.to_path_buf(),
                problem: "is not a file".into(),
            }),
            Err(error) => Err(EvalError::BadClient {
                path: path.to_path_buf(),
                problem: error.to_string(),
            }),
        };
    }
    let path_variable = environment
        .iter()
        .find(|(key, _)| key == "PATH")
        .map(|(_, value)| value.clone())
        .unwrap_or_default();
    std::env::split_paths(&path_variable)
        .map(|folder| folder.join(client.program()))
        .find(|candidate| {
            use std::os::unix::fs::PermissionsExt as _;
            std::fs::metadata(candidate).is_ok_and(|metadata| {
                metadata.is_file() && metadata.permissions().mode() & 0o111 != 0
            })
        })
        .ok_or(EvalError::NoClient {
            label: client.label(),
            program: client.program(),
            hint: client.install_hint(),
        })
}

/// The SKILL.md of the skill named `skill` under `roots` (its eval file sits beside it, in `evals/`).
pub fn skill_file(roots: &[PathBuf], skill: &str) -> Result<PathBuf, EvalError> {
    let collected = workspace_skills(roots)?;
    let named = named_files(&collected);
    find_target(roots, skill, &named).map(|file| file.path.clone())
}

type SkillFile = crate::lint::context::SkillFile;

fn workspace_skills(roots: &[PathBuf]) -> Result<crate::lint::workspace::Collected, EvalError> {
    let checked = roots
        .iter()
        .map(|root| crate::workspace::check_root(root))
        .collect::<Result<Vec<_>, _>>()?;
    crate::lint::workspace::collect_all(&checked, &crate::lint::config::Config::default())
        .map_err(|error| EvalError::Collect(error.to_string()))
}

/// Each SKILL.md with the name it declares (else its folder's).
fn named_files(collected: &crate::lint::workspace::Collected) -> Vec<(String, &SkillFile)> {
    collected
        .files
        .iter()
        .map(|file| {
            let name = crate::lint::workspace::declared_name(file)
                .unwrap_or_else(|| file.dir_name.clone());
            (name, file)
        })
        .collect()
}

fn find_target<'a>(
    roots: &[PathBuf],
    skill: &str,
    named: &[(String, &'a SkillFile)],
) -> Result<&'a SkillFile, EvalError> {
    let targets: Vec<&SkillFile> = named
        .iter()
        .filter(|(name, _)| name == skill)
        .map(|(_, file)| *file)
        .collect();
    match targets.as_slice() {
        [one] => Ok(*one),
        [] => {
            let mut known: Vec<String> = named.iter().map(|(name, _)| name.clone()).collect();
            known.sort();
            known.dedup();
            known.truncate(20);
            Err(EvalError::NoSuchSkill {
                name: skill.to_string(),
                roots: roots
                    .iter()
                    .map(|root| root.display().to_string())
                    .collect::<Vec<_>>()
                    .join(", "),
                known,
            })
        }
        several => Err(EvalError::NameTwice {
            name: skill.to_string(),
            paths: several
                .iter()
                .map(|file| file.display_path.clone())
                .collect(),
        }),
    }
}

/// The skill named `skill` first, then every other skill of the workspace, each read once; skills
/// that cannot be installed beside it are left out with the reason.
fn installed_skills(
    roots: &[PathBuf],
    skill: &str,
) -> Result<(Vec<InstalledSkill>, Vec<String>), EvalError> {
    let collected = workspace_skills(roots)?;
    let mut left_out: Vec<String> = collected
        .skipped
        .iter()
        .map(|skipped| format!("{}: {}", skipped.path, skipped.reason))
        .collect();
    let named = named_files(&collected);
    let target = find_target(roots, skill, &named)?;
    let read = |file: &crate::lint::context::SkillFile| {
        read_skill_folder(
            file.dir(),
            LinkPolicy::FollowInside,
            Exclusions {
                top_level_evals: true,
            },
        )
        .map_err(|problems| {
            problems
                .iter()
                .map(ToString::to_string)
                .collect::<Vec<_>>()
                .join("; ")
        })
    };
    let mut skills = vec![InstalledSkill {
        name: skill.to_string(),
        folder: target.dir_name.clone(),
        files: read(target).map_err(EvalError::Unreadable)?,
    }];
    for (name, file) in &named {
        if std::ptr::eq(*file, target) {
            continue;
        }
        if skills
            .iter()
            .any(|installed| installed.folder == file.dir_name)
        {
            left_out.push(format!(
                "{}: its folder name `{}` is taken by another skill, and a client lists each folder once",
                file.display_path, file.dir_name
            ));
            continue;
        }
        match read(file) {
            Ok(files) => skills.push(InstalledSkill {
                name: name.clone(),
                folder: file.dir_name.clone(),
                files,
            }),
            Err(problem) => left_out.push(format!(
                "{}: its folder cannot be copied as `skillforge export` copies it: {problem}",
                file.display_path
            )),
        }
    }
    Ok((skills, left_out))
}

/// What one run found.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
#[serde(tag = "outcome", rename_all = "kebab-case")]
pub enum RunResult {
    /// The model used this skill (the first one it used).
    Skill {
        name: String,
        how: Detection,
    },
    /// The run ended without the model using any skill.
    NoSkill,
    /// The client failed (a model service error, a crash); the run counts for nothing.
    Error {
        message: String,
    },
    TimedOut,
}

impl RunResult {
    fn fired(&self) -> Option<&str> {
        match self {
            RunResult::Skill { name, .. } => Some(name),
            _ => None,
        }
    }

    fn completed(&self) -> bool {
        matches!(self, RunResult::Skill { .. } | RunResult::NoSkill)
    }
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
pub struct RunOutcome {
    #[serde(flatten)]
    pub result: RunResult,
    pub requests: u32,
    pub usage: Usage,
    /// The run's cost: the client's own figure, else its tokens at the assumed price.
    pub cost_usd: f64,
    /// Whether `cost_usd` is the client's own figure.
    pub cost_from_client: bool,
}

/// A skill used instead of the one expected, and in how many runs.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
pub struct FiredCount {
    pub name: String,
    pub runs: u32,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
pub struct QueryOutcome {
    pub query: String,
    pub expect: Expect,
    pub half: Option<Half>,
    pub runs: Vec<RunOutcome>,
    /// Completed runs (neither failed nor timed out).
    pub completed: u32,
    /// Completed runs in which the skill under test was used.
    pub triggered: u32,
    /// Completed runs that did what the query expects of the skill under test.
    pub passed: u32,
    /// At least one run passed.
    pub pass_at_k: bool,
    /// Every one of the K runs was made, completed and passed.
    pub pass_all_k: bool,
    /// Skills other than the one under test that the model used, most runs first.
    pub other_skills: Vec<FiredCount>,
}

/// Pass rates over a set of queries.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
pub struct Summary {
    /// `None` for all queries, else the half of the split.
    pub half: Option<Half>,
    pub queries: u32,
    /// Share of the queries with pass@k.
    pub pass_at_k: f64,
    /// Share of the queries with pass^k.
    pub pass_all_k: f64,
    /// Share of the completed runs that passed.
    pub run_pass_rate: Option<f64>,
}

/// Why the eval ended before its last run.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
#[serde(rename_all = "kebab-case")]
pub enum Stop {
    /// The next run could have gone past `--max-requests`.
    RequestCap,
    /// The next run could have gone past `--max-cost-usd`.
    CostCap,
    Cancelled,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
pub struct EvalReport {
    pub plan: Plan,
    /// The version the client stated in its own stream (else what `--version` said).
    pub client_version: Option<String>,
    pub queries: Vec<QueryOutcome>,
    pub summaries: Vec<Summary>,
    /// Precision and recall over the completed runs, for the skill under test and every skill the
    /// queries expect or the model used.
    pub skills: Vec<SkillMetrics>,
    pub runs_made: u32,
    #[cfg_attr(feature = "specta", specta(type = f64))]
    pub requests: u64,
    pub cost_usd: f64,
    pub stopped: Option<Stop>,
}

impl EvalReport {
    /// Runs that failed or timed out.
    pub fn failed_runs(&self) -> u32 {
        self.queries
            .iter()
            .flat_map(|query| &query.runs)
            .filter(|run| !run.result.completed())
            .count() as u32
    }

    /// Queries that passed in fewer than half of their completed runs (or in none).
    pub fn failing_queries(&self) -> u32 {
        self.queries
            .iter()
            .filter(|query| query.completed > 0 && query.passed * 2 < query.completed)
            .count() as u32
    }
}

/// What a run in progress tells the caller.
pub trait Progress {
    /// Run `number` (from 1) of `total` starts, for query `query_index`.
    fn started(&mut self, number: u32, total: u32, query_index: usize, query: &str);
    fn finished(&mut self, number: u32, total: u32, query_index: usize, outcome: &RunOutcome);
}

/// Progress nobody watches.
pub struct Quiet;

impl Progress for Quiet {
    fn started(&mut self, _: u32, _: u32, _: usize, _: &str) {}
    fn finished(&mut self, _: u32, _: u32, _: usize, _: &RunOutcome) {}
}

impl Prepared {
    /// Makes the runs, query by query, within the caps, until done or `cancel` is set.
    pub fn run(self, progress: &mut dyn Progress, cancel: &AtomicBool) -> EvalReport {
        let settings = &self.settings;
        let total = self.plan.runs;
        let per_run = u64::from(settings.requests_per_run.max(1));
        let estimated_run_cost =
            per_run as f64 * self.plan.tokens_per_request as f64 * settings.input_price / 1e6;
        let mut requests: u64 = 0;
        let mut cost = 0.0;
        let mut made = 0u32;
        let mut stopped = None;
        let mut stream_version: Option<String> = None;
        let mut outcomes: Vec<Vec<RunOutcome>> = vec![Vec::new(); self.cases.len()];
        'queries: for (index, case) in self.cases.iter().enumerate() {
            for _ in 0..settings.runs {
                if cancel.load(Ordering::Relaxed) {
                    stopped = Some(Stop::Cancelled);
                    break 'queries;
                }
                if settings
                    .max_requests
                    .is_some_and(|cap| requests + per_run > cap)
                {
                    stopped = Some(Stop::RequestCap);
                    break 'queries;
                }
                if settings
                    .max_cost_usd
                    .is_some_and(|cap| cost + estimated_run_cost > cap)
                {
                    stopped = Some(Stop::CostCap);
                    break 'queries;
                }
                made += 1;
                progress.started(made, total, index, &case.query);
                let (outcome, version, cancelled) = self.one_run(&case.query, cancel);
                if stream_version.is_none() {
                    stream_version = version;
                }
                requests += u64::from(outcome.requests);
                cost += outcome.cost_usd;
                if cancelled {
                    // A cancelled run answers nothing: it is not kept.
                    made -= 1;
                    stopped = Some(Stop::Cancelled);
                    break 'queries;
                }
                progress.finished(made, total, index, &outcome);
                outcomes[index].push(outcome);
            }
        }
        let queries: Vec<QueryOutcome> = self
            .cases
            .iter()
            .zip(outcomes)
            .enumerate()
            .map(|(index, (case, runs))| {
                query_outcome(
                    case,
                    self.halves.as_ref().map(|halves| halves[index]),
                    runs,
                    &self.plan.skill,
                    settings.runs,
                )
            })
            .collect();
        let mut summaries = vec![summary(None, queries.iter())];
        if self.halves.is_some() {
            // A half with no query (one half run alone) has nothing to say.
            for half in [Half::Train, Half::Test]
                .into_iter()
                .filter(|half| queries.iter().any(|query| query.half == Some(*half)))
            {
                summaries.push(summary(
                    Some(half),
                    queries.iter().filter(|query| query.half == Some(half)),
                ));
            }
        }
        let skills = skill_metrics(&self.plan.skill, &queries);
        EvalReport {
            client_version: stream_version.or_else(|| self.plan.client_version.clone()),
            plan: self.plan,
            queries,
            summaries,
            skills,
            runs_made: made,
            requests,
            cost_usd: cost,
            stopped,
        }
    }

    /// One run: a fresh sandbox, the client on `query`, its stream read until the run's answer is
    /// known. Returns the outcome, the version the stream stated, and whether it was cancelled.
    fn one_run(&self, query: &str, cancel: &AtomicBool) -> (RunOutcome, Option<String>, bool) {
        let settings = &self.settings;
        let client = settings.client;
        let mut outcome = RunOutcome {
            result: RunResult::NoSkill,
            requests: 0,
            usage: Usage::default(),
            cost_usd: 0.0,
            cost_from_client: false,
        };
        let sandbox = match Sandbox::new(client.skills_folder(), &self.skills) {
            Ok(sandbox) => sandbox,
            Err(error) => {
                outcome.result = RunResult::Error {
                    message: format!("cannot make the run's folders: {error}"),
                };
                return (outcome, None, false);
            }
        };
        let invocation = Invocation {
            program: self.binary.clone(),
            arguments: client.arguments(settings),
            environment: client.environment(
                settings,
                &sandbox.home(),
                &sandbox.codex_home(),
                &sandbox.temporary(),
            ),
            directory: sandbox.project(),
            stdin: query.as_bytes().to_vec(),
        };
        let mut reader = client.reader(&self.skills);
        let mut version = None;
        let mut fired: Option<(String, Detection)> = None;
        let mut finished: Option<(Option<String>, Option<f64>)> = None;
        let mut notice: Option<String> = None;
        let ran = process::run_lines(&invocation, settings.timeout, cancel, |line| {
            for event in reader.read_line(line) {
                match event {
                    StreamEvent::Version(stated) => version = Some(stated),
                    StreamEvent::Request(usage) => {
                        outcome.requests += 1;
                        outcome.usage.input_tokens += usage.input_tokens;
                        outcome.usage.output_tokens += usage.output_tokens;
                    }
                    StreamEvent::Usage(usage) => {
                        outcome.usage.input_tokens += usage.input_tokens;
                        outcome.usage.output_tokens += usage.output_tokens;
                    }
                    StreamEvent::Notice(said) => notice = Some(said),
                    StreamEvent::SkillUsed { folder, how } => {
                        if fired.is_none() {
                            fired = Some((self.skill_named(&folder), how));
                        }
                    }
                    // A client that does not bound its own requests (Codex) is stopped when a tool's
                    // output would start the run's last allowed request: that request may already be
                    // on its way when the client stops, so it is counted in the bound, never past it.
                    StreamEvent::ToolFinished => {
                        if client == RealClient::Codex
                            && outcome.requests + 1 >= settings.requests_per_run
                        {
                            return Next::Stop;
                        }
                    }
                    StreamEvent::Finished { error, cost_usd } => {
                        finished = Some((error, cost_usd));
                        return Next::Stop;
                    }
                }
            }
            // The first skill used is the answer. Claude Code is bounded by `--max-turns` and left
            // to finish, for its own cost figure; Codex is stopped at the answer.
            if client == RealClient::Codex && fired.is_some() {
                return Next::Stop;
            }
            Next::Continue
        });
        let cost_from_client = finished.as_ref().and_then(|(_, cost)| *cost);
        outcome.cost_from_client = cost_from_client.is_some();
        // The client's figure, else the tokens it reported, else (a run stopped before the client
        // said) the estimate for the requests it made.
        let tokens = if outcome.usage.input_tokens > 0 {
            outcome.usage.input_tokens
        } else {
            u64::from(outcome.requests) * self.plan.tokens_per_request
        };
        outcome.cost_usd = cost_from_client.unwrap_or(tokens as f64 * settings.input_price / 1e6);
        let finished_run = match ran {
            Ok(finished_run) => finished_run,
            Err(error) => {
                outcome.result = RunResult::Error {
                    message: error.to_string(),
                };
                return (outcome, version, false);
            }
        };
        outcome.result = match (&finished_run.ending, fired, finished) {
            (Ending::Cancelled, _, _) => return (outcome, version, true),
            (_, Some((name, how)), _) => RunResult::Skill { name, how },
            (Ending::TimedOut, None, _) => RunResult::TimedOut,
            (_, None, Some((Some(error), _))) => RunResult::Error { message: error },
            (_, None, Some((None, _))) => RunResult::NoSkill,
            (Ending::Stopped, None, None) => RunResult::NoSkill,
            (Ending::Exited(code), None, None) => RunResult::Error {
                message: format!(
                    "{} exited ({}) without finishing its answer{}",
                    client.label(),
                    code.map_or_else(
                        || "killed by a signal".to_string(),
                        |code| format!("status {code}")
                    ),
                    match (&notice, finished_run.stderr_tail.is_empty()) {
                        (Some(said), _) => format!(": {said}"),
                        (None, true) => String::new(),
                        (None, false) => format!(": {}", finished_run.stderr_tail),
                    }
                ),
            },
        };
        (outcome, version, false)
    }

    /// The workspace name of the skill installed as `folder` (or declaring that name); the name as
    /// given when it is none of them (one of the client's own skills).
    fn skill_named(&self, folder: &str) -> String {
        self.skills
            .iter()
            .find(|skill| skill.folder == folder)
            .or_else(|| self.skills.iter().find(|skill| skill.name == folder))
            .map_or_else(|| folder.to_string(), |skill| skill.name.clone())
    }
}

fn query_outcome(
    case: &Case,
    half: Option<Half>,
    runs: Vec<RunOutcome>,
    skill: &str,
    runs_per_query: u32,
) -> QueryOutcome {
    let completed: Vec<&RunOutcome> = runs.iter().filter(|run| run.result.completed()).collect();
    let triggered = completed
        .iter()
        .filter(|run| run.result.fired() == Some(skill))
        .count() as u32;
    let passed = completed
        .iter()
        .filter(|run| case.expect.passed_by(skill, run.result.fired()))
        .count() as u32;
    let mut others: BTreeMap<&str, u32> = BTreeMap::new();
    for run in &completed {
        if let Some(name) = run.result.fired().filter(|name| *name != skill) {
            *others.entry(name).or_default() += 1;
        }
    }
    let mut other_skills: Vec<FiredCount> = others
        .into_iter()
        .map(|(name, runs)| FiredCount {
            name: name.to_string(),
            runs,
        })
        .collect();
    other_skills.sort_by(|a, b| b.runs.cmp(&a.runs).then_with(|| a.name.cmp(&b.name)));
    QueryOutcome {
        query: case.query.clone(),
        expect: case.expect.clone(),
        half,
        completed: completed.len() as u32,
        triggered,
        passed,
        pass_at_k: passed > 0,
        pass_all_k: runs.len() as u32 == runs_per_query && passed == runs_per_query,
        other_skills,
        runs,
    }
}

fn summary<'a>(half: Option<Half>, queries: impl Iterator<Item = &'a QueryOutcome>) -> Summary {
    let queries: Vec<&QueryOutcome> = queries.collect();
    let count = queries.len() as u32;
    let share = |pass: usize| {
        if count == 0 {
            0.0
        } else {
            pass as f64 / f64::from(count)
        }
    };
    let completed: u32 = queries.iter().map(|query| query.completed).sum();
    let passed: u32 = queries.iter().map(|query| query.passed).sum();
    Summary {
        half,
        queries: count,
        pass_at_k: share(queries.iter().filter(|query| query.pass_at_k).count()),
        pass_all_k: share(queries.iter().filter(|query| query.pass_all_k).count()),
        run_pass_rate: (completed > 0).then(|| f64::from(passed) / f64::from(completed)),
    }
}

/// Precision and recall per skill over the completed runs. A run counts against a skill the model
/// used only when the query says which skill it should have used (a bare `should_trigger: false` does
/// not say whether another skill was right).
fn skill_metrics(skill: &str, queries: &[QueryOutcome]) -> Vec<SkillMetrics> {
    let mut names: Vec<String> = vec![skill.to_string()];
    for query in queries {
        let expected = query.expect.expected_skill(skill).map(str::to_string);
        let fired = query
            .runs
            .iter()
            .filter_map(|run| run.result.fired().map(str::to_string));
        for name in expected.into_iter().chain(fired) {
            if !names.contains(&name) {
                names.push(name);
            }
        }
    }
    names
        .into_iter()
        .map(|name| {
            let (mut true_positives, mut false_positives, mut false_negatives) = (0u32, 0u32, 0u32);
            for query in queries {
                let expected = query.expect.expected_skill(skill);
                let known = !matches!(query.expect, Expect::NotThis) || name == skill;
                for run in query.runs.iter().filter(|run| run.result.completed()) {
                    let fired = run.result.fired() == Some(name.as_str());
                    match (expected == Some(name.as_str()), fired) {
                        (true, true) => true_positives += 1,
                        (true, false) => false_negatives += 1,
                        (false, true) if known => false_positives += 1,
                        _ => {}
                    }
                }
            }
            let ratio =
                |part: u32, whole: u32| (whole > 0).then(|| f64::from(part) / f64::from(whole));
            SkillMetrics {
                precision: ratio(true_positives, true_positives + false_positives),
                recall: ratio(true_positives, true_positives + false_negatives),
                name,
                true_positives,
                false_positives,
                false_negatives,
            }
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn run(result: RunResult) -> RunOutcome {
        RunOutcome {
            result,
            requests: 1,
            usage: Usage::default(),
            cost_usd: 0.0,
            cost_from_client: false,
        }
    }

    fn fired(name: &str) -> RunOutcome {
        run(RunResult::Skill {
            name: name.into(),
            how: Detection::SkillTool,
        })
    }

    fn case(expect: Expect) -> Case {
        Case {
            query: "q".into(),
            expect,
        }
    }

    #[test]
    fn a_query_counts_its_completed_runs_only() {
        let runs = vec![
            fired("pdf"),
            run(RunResult::NoSkill),
            run(RunResult::TimedOut),
            fired("sql"),
        ];
        let outcome = query_outcome(&case(Expect::This), None, runs, "pdf", 4);
        assert_eq!(
            (outcome.completed, outcome.triggered, outcome.passed),
            (3, 1, 1)
        );
        assert!(outcome.pass_at_k && !outcome.pass_all_k);
        assert_eq!(
            outcome.other_skills,
            vec![FiredCount {
                name: "sql".into(),
                runs: 1
            }]
        );
        // All runs right, but one of the K was never made: not pass^k.
        let short = query_outcome(
            &case(Expect::NotThis),
            None,
            vec![run(RunResult::NoSkill)],
            "pdf",
            2,
        );
        assert!(short.pass_at_k && !short.pass_all_k);
    }

    #[test]
    fn precision_and_recall_count_another_skill_only_where_the_query_says_which_was_right() {
        let queries = vec![
            query_outcome(
                &case(Expect::This),
                None,
                vec![fired("pdf"), run(RunResult::NoSkill)],
                "pdf",
                2,
            ),
            query_outcome(
                &case(Expect::Nothing),
                None,
                vec![fired("pdf"), fired("sql")],
                "pdf",
                2,
            ),
            query_outcome(&case(Expect::NotThis), None, vec![fired("sql")], "pdf", 1),
            query_outcome(
                &case(Expect::Other("sql".into())),
                None,
                vec![fired("sql"), fired("pdf")],
                "pdf",
                2,
            ),
        ];
        let metrics = skill_metrics("pdf", &queries);
        let of = |name: &str| {
            metrics
                .iter()
                .find(|metric| metric.name == name)
                .map(|m| (m.true_positives, m.false_positives, m.false_negatives))
        };
        assert_eq!(of("pdf"), Some((1, 2, 1)));
        // sql: right once (expected and used), wrong once (a "no skill" query), missed once; the bare
        // `should_trigger: false` query says nothing about sql.
        assert_eq!(of("sql"), Some((1, 1, 1)));
        let summary = summary(None, queries.iter());
        assert_eq!(summary.queries, 4);
        // Each query is judged on the skill under test: every one was right at least once.
        assert!((summary.pass_at_k - 1.0).abs() < 1e-9);
        assert!((summary.pass_all_k - 0.25).abs() < 1e-9);
    }
}
