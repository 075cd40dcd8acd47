//! The Trigger tests panel's runs on the real clients (Claude Code, Codex): the estimate first, then the
//! runs on a background thread with an event per run and one with the report, and cancel. One eval at a
//! time: a second start while one runs is refused.

use std::ffi::OsString;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use serde::Serialize;
use skillforge_core::agent::triggers::EvalQuery;
use skillforge_core::eval::cases::from_queries;
use skillforge_core::eval::{
    self, EvalError, EvalReport, Plan, Prepared, Progress, RealClient, RunOutcome, Settings,
};
use skillforge_core::workspace::Workspace;
use tauri::{AppHandle, State};
use tauri_specta::Event;

use crate::commands::blocking;
use crate::error::{AppError, ErrorCode};
use crate::preferences::{checked_codex_config, ClientPrograms, PreferencesStore};
use crate::state::AppState;

/// The longest one run may take (the CLI's default).
const RUN_TIMEOUT: Duration = Duration::from_secs(180);

/// What an eval on a real client tells the window while it runs.
#[derive(Debug, Clone, PartialEq, Serialize, specta::Type, Event)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum RealTriggerEvent {
    /// Run `number` (from 1) of `total` starts, on query `query_index` (from 0, in the order sent).
    Started {
        number: u32,
        total: u32,
        query_index: u32,
        query: String,
    },
    /// Run `number` ended with `outcome` (a cancelled run is not reported).
    Finished {
        number: u32,
        total: u32,
        query_index: u32,
        outcome: RunOutcome,
    },
    /// The eval ended: every run made, or stopped (cancelled) with the runs made so far.
    Done { report: Box<EvalReport> },
    /// The eval could not go on.
    Failed { error: AppError },
}

/// The eval in progress, if any: its cancel flag.
#[derive(Default)]
pub struct RealTriggerRuns {
    current: Mutex<Option<Arc<AtomicBool>>>,
}

/// Marks the eval as running until dropped.
pub struct Running(Arc<RealTriggerRuns>);

impl RealTriggerRuns {
    /// Claims the single eval slot: refused while another eval runs.
    pub fn begin(runs: &Arc<RealTriggerRuns>) -> Result<(Running, Arc<AtomicBool>), AppError> {
        let mut current = runs
            .current
            .lock()
            .map_err(|_| AppError::internal("the real-client runs are unusable after a failure"))?;
        if current.is_some() {
            return Err(AppError::invalid_input(
                "a run on a real client is already going: wait for it or cancel it first",
            ));
        }
        let cancel = Arc::new(AtomicBool::new(false));
        *current = Some(cancel.clone());
        Ok((Running(runs.clone()), cancel))
    }

    /// Asks the eval in progress to stop; false when none runs.
    pub fn cancel(&self) -> bool {
        match self.current.lock() {
            Ok(current) => current.as_ref().is_some_and(|cancel| {
                cancel.store(true, Ordering::Relaxed);
                true
            }),
            Err(_) => false,
        }
    }
}

impl RealTriggerRuns {
    /// Cancels the eval in progress and waits, at most `patience`, until it has stopped its client
    /// process; true when none runs any more.
    pub fn stop_and_wait(&self, patience: Duration) -> bool {
        self.cancel();
        let deadline = std::time::Instant::now() + patience;
        loop {
            let idle = self
                .current
                .lock()
                .map_or(true, |current| current.is_none());
            if idle || std::time::Instant::now() >= deadline {
                return idle;
            }
            std::thread::sleep(Duration::from_millis(20));
        }
    }
}

impl Drop for Running {
    fn drop(&mut self) {
        if let Ok(mut current) = self.0.current.lock() {
            *current = None;
        }
    }
}

/// What the panel asks for: the skill open in the editor against its table's rows.
pub struct Request {
    pub client: RealClient,
    pub skill_path: String,
    pub rows: Vec<EvalQuery>,
    pub runs: u32,
    /// The client program: the panel's field, else the saved setting, else PATH.
    pub client_bin: Option<String>,
}

/// Checks the request against the open workspace and makes the plan (runs the client's `--version`).
pub fn prepare(
    workspace: &Workspace,
    programs: &ClientPrograms,
    request: Request,
    environment: Vec<(OsString, OsString)>,
) -> Result<Prepared, AppError> {
    if workspace.is_builtin() {
        return Err(AppError::invalid_input(
            "the builtin skills cannot be run on a real client: open a folder of skills",
        ));
    }
    let roots = workspace.roots().as_slice().to_vec();
    let skill = skill_name(workspace, &request.skill_path)?;
    let cases = from_queries(&request.rows, &skill);
    if cases.is_empty() {
        return Err(AppError::invalid_input("Write at least one query."));
    }
    let saved = match request.client {
        RealClient::ClaudeCode => programs.claude_bin.clone(),
        RealClient::Codex => programs.codex_bin.clone(),
    };
    let binary = request
        .client_bin
        .filter(|path| !path.trim().is_empty())
        .or(saved)
        .map(|path| PathBuf::from(path.trim()));
    let client = request.client;
    // The settings file may have been edited by hand since the panel saved it.
    let client_config = match client {
        RealClient::ClaudeCode => Vec::new(),
        RealClient::Codex => checked_codex_config(&programs.codex_config).map_err(|problem| {
            AppError::invalid_input(format!(
                "{problem}; correct it under “Client programs” in the Trigger tests panel"
            ))
        })?,
    };
    let settings = Settings {
        client,
        binary,
        runs: request.runs,
        max_requests: None,
        max_cost_usd: None,
        input_price: client.default_input_price(),
        timeout: RUN_TIMEOUT,
        // Claude Code stops itself after one model request (`--max-turns`); Codex is stopped at its
        // answer, within three.
        requests_per_run: match client {
            RealClient::ClaudeCode => 1,
            RealClient::Codex => 3,
        },
        client_config,
        environment,
    };
    eval::prepare(&roots, &skill, cases, None, settings).map_err(eval_error)
}

/// The name the skill at `skill_path` (a SKILL.md of the open workspace) is tested under.
fn skill_name(workspace: &Workspace, skill_path: &str) -> Result<String, AppError> {
    let file = workspace.read_file(skill_path)?;
    let folder = Path::new(skill_path)
        .parent()
        .and_then(Path::file_name)
        .map(|name| name.to_string_lossy().into_owned())
        .unwrap_or_default();
    Ok(
        skillforge_core::clients::nagents::metadata::parse_skill_metadata(
            &file.text, skill_path, &folder,
        )
        .map(|skill| skill.name)
        .unwrap_or(folder),
    )
}

/// The engine's error, told in the window's words where it names a command-line option.
fn eval_error(error: EvalError) -> AppError {
    match error {
        EvalError::NoClient {
            label,
            program,
            hint,
        } => AppError {
            code: ErrorCode::ClientMissing,
            message: format!(
                "{label} (`{program}`) is not on PATH: install it ({hint}) or set its program under \
                 “Client programs” in the Trigger tests panel"
            ),
        },
        EvalError::BadClient { path, problem } => AppError {
            code: ErrorCode::ClientMissing,
            message: format!(
                "{}: {problem}; correct the program under “Client programs” in the Trigger tests panel",
                path.display()
            ),
        },
        EvalError::NoCredentials { label, hint } => AppError {
            code: ErrorCode::NoCredentials,
            message: format!(
                "no credentials for {label} in Skillforge's environment: {hint}. Start Skillforge from a \
                 shell where the variable is set"
            ),
        },
        EvalError::NoRuns => AppError::invalid_input("runs per query must be at least 1"),
        other => other.into(),
    }
}

/// Sends each run's start and end as events.
struct Emitter<'a>(&'a (dyn Fn(RealTriggerEvent) + Send + Sync));

impl Progress for Emitter<'_> {
    fn started(&mut self, number: u32, total: u32, query_index: usize, query: &str) {
        (self.0)(RealTriggerEvent::Started {
            number,
            total,
            query_index: query_index as u32,
            query: query.to_string(),
        });
    }

    fn finished(&mut self, number: u32, total: u32, query_index: usize, outcome: &RunOutcome) {
        (self.0)(RealTriggerEvent::Finished {
            number,
            total,
            query_index: query_index as u32,
            outcome: outcome.clone(),
        });
    }
}

/// Makes the runs on a background thread; the last event is `Done` or `Failed`, sent after the eval
/// slot is free again.
pub fn run_in_background(
    prepared: Prepared,
    cancel: Arc<AtomicBool>,
    running: Running,
    emit: Arc<dyn Fn(RealTriggerEvent) + Send + Sync>,
) {
    tauri::async_runtime::spawn(async move {
        let progress = emit.clone();
        let report = tauri::async_runtime::spawn_blocking(move || {
            prepared.run(&mut Emitter(progress.as_ref()), &cancel)
        })
        .await;
        drop(running);
        emit(match report {
            Ok(report) => RealTriggerEvent::Done {
                report: Box::new(report),
            },
            Err(error) => RealTriggerEvent::Failed {
                error: AppError::internal(format!("the runs stopped unexpectedly: {error}")),
            },
        });
    });
}

/// The estimate for running the table's `rows` `runs` times each on `client`, with the skill at
/// `skill_path` installed beside the workspace's other skills: nothing is sent to the model service.
#[tauri::command]
#[specta::specta]
#[allow(clippy::too_many_arguments)]
pub async fn plan_real_triggers(
    state: State<'_, AppState>,
    preferences: State<'_, Arc<PreferencesStore>>,
    client: RealClient,
    skill_path: String,
    rows: Vec<EvalQuery>,
    runs: u32,
    client_bin: Option<String>,
) -> Result<Plan, AppError> {
    let workspace = state.workspace();
    let preferences = Arc::clone(&preferences);
    let request = Request {
        client,
        skill_path,
        rows,
        runs,
        client_bin,
    };
    blocking(move || {
        let programs = preferences.client_programs().programs;
        Ok(prepare(
            &workspace,
            &programs,
            request,
            std::env::vars_os().collect(),
        )?
        .plan)
    })
    .await
}

/// Starts the runs the plan described; answers with the plan once they are under way, then sends a
/// `RealTriggerEvent` per run and one at the end. Refused while another eval runs.
#[tauri::command]
#[specta::specta]
#[allow(clippy::too_many_arguments)]
pub async fn start_real_triggers(
    app: AppHandle,
    state: State<'_, AppState>,
    preferences: State<'_, Arc<PreferencesStore>>,
    runs_state: State<'_, Arc<RealTriggerRuns>>,
    client: RealClient,
    skill_path: String,
    rows: Vec<EvalQuery>,
    runs: u32,
    client_bin: Option<String>,
) -> Result<Plan, AppError> {
    let (running, cancel) = RealTriggerRuns::begin(&runs_state)?;
    let workspace = state.workspace();
    let preferences = Arc::clone(&preferences);
    let request = Request {
        client,
        skill_path,
        rows,
        runs,
        client_bin,
    };
    let prepared = blocking(move || {
        let programs = preferences.client_programs().programs;
        prepare(
            &workspace,
            &programs,
            request,
            std::env::vars_os().collect(),
        )
    })
    .await?;
    let plan = prepared.plan.clone();
    let emit: Arc<dyn Fn(RealTriggerEvent) + Send + Sync> = Arc::new(move |event| {
        // A window that is closing cannot receive events; the runs still end and clean up.
        let _ = event.emit(&app);
    });
    run_in_background(prepared, cancel, running, emit);
    Ok(plan)
}

/// Stops the eval in progress (its client process with it); the report of the runs made so far follows
/// as the `done` event. False when none runs.
#[tauri::command]
#[specta::specta]
pub async fn cancel_real_triggers(
    runs_state: State<'_, Arc<RealTriggerRuns>>,
) -> Result<bool, AppError> {
    Ok(runs_state.cancel())
}

/// Where the client programs are set (none: looked up on PATH), and the Codex settings.
#[tauri::command]
#[specta::specta]
pub async fn client_programs(
    preferences: State<'_, Arc<PreferencesStore>>,
) -> Result<crate::preferences::StoredClientPrograms, AppError> {
    let preferences = Arc::clone(&preferences);
    blocking(move || Ok(preferences.client_programs())).await
}

/// Remembers where the client programs are (a blank path: look on PATH) and the Codex settings; refused,
/// with the line, when a Codex setting is not `KEY=VALUE`.
#[tauri::command]
#[specta::specta]
pub async fn save_client_programs(
    preferences: State<'_, Arc<PreferencesStore>>,
    programs: ClientPrograms,
) -> Result<crate::preferences::StoredClientPrograms, AppError> {
    let preferences = Arc::clone(&preferences);
    blocking(move || {
        preferences
            .save_client_programs(programs)
            .map_err(AppError::invalid_input)
    })
    .await
}

#[cfg(test)]
mod tests {
    use super::*;
    use skillforge_core::workspace::Source;

    #[test]
    fn a_second_eval_is_refused_until_the_first_ends() {
        let runs = Arc::new(RealTriggerRuns::default());
        assert!(!runs.cancel(), "nothing to cancel");
        let (running, cancel) = RealTriggerRuns::begin(&runs).expect("the first starts");
        let refused = RealTriggerRuns::begin(&runs)
            .err()
            .expect("the second is refused");
        assert!(refused.message.contains("already going"), "{refused:?}");
        assert!(runs.cancel());
        assert!(
            cancel.load(Ordering::Relaxed),
            "cancel reaches the run's flag"
        );
        drop(running);
        let (_again, fresh) = RealTriggerRuns::begin(&runs).expect("free again");
        assert!(
            !fresh.load(Ordering::Relaxed),
            "a new eval is not born cancelled"
        );
    }

    #[test]
    fn leaving_waits_for_the_eval_to_stop() {
        let runs = Arc::new(RealTriggerRuns::default());
        assert!(runs.stop_and_wait(Duration::from_secs(1)), "nothing runs");
        let (running, cancel) = RealTriggerRuns::begin(&runs).expect("starts");
        // The eval's thread stops once it sees the cancel.
        let eval = std::thread::spawn(move || {
            while !cancel.load(Ordering::Relaxed) {
                std::thread::sleep(Duration::from_millis(5));
            }
            drop(running);
        });
        assert!(runs.stop_and_wait(Duration::from_secs(30)));
        eval.join().expect("the eval's thread");
        let (_held, _) = RealTriggerRuns::begin(&runs).expect("starts");
        assert!(
            !runs.stop_and_wait(Duration::from_millis(50)),
            "one that does not stop is reported"
        );
    }

    /// A stand-in for `claude` that prints what the real Claude Code printed for a Skill tool call of
    /// `pdf` (captured by tests/fidelity/capture_claude_eval_streams.py).
    fn recorded_client(dir: &Path) -> String {
        let stream = concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/../crates/skillforge-core/tests/fixtures/eval/claude-code/skill-tool.jsonl"
        );
        executable(
            &dir.join("claude"),
            &format!(
                "#!/bin/sh\nif [ \"$1\" = --version ]; then echo '2.1.332 (Claude Code)'; exit 0; fi\n\
                 cat >/dev/null\ncat '{stream}'\n"
            ),
        )
    }

    /// Writes an executable script at `path`; its path.
    fn executable(path: &Path, script: &str) -> String {
        use std::os::unix::fs::PermissionsExt as _;
        std::fs::write(path, script).expect("write");
        std::fs::set_permissions(path, std::fs::Permissions::from_mode(0o755)).expect("chmod");
        path.display().to_string()
    }

    #[test]
    fn each_run_is_told_as_it_starts_and_ends_and_the_report_comes_last() {
        let (dir, workspace, path) = workspace_with_skill();
        let program_dir = tempfile::tempdir().expect("temp dir");
        let program = recorded_client(program_dir.path());
        let environment = vec![
            (OsString::from("PATH"), OsString::from("/usr/bin:/bin")),
            (OsString::from("ANTHROPIC_API_KEY"), OsString::from("dummy")),
        ];
        let prepared = prepare(
            &workspace,
            &ClientPrograms::default(),
            request(&path, Some(&program)),
            environment,
        )
        .expect("prepared");
        assert_eq!(prepared.plan.runs, 1);
        let runs = Arc::new(RealTriggerRuns::default());
        let (running, cancel) = RealTriggerRuns::begin(&runs).expect("starts");
        let (sender, events) = std::sync::mpsc::channel();
        let sender = Mutex::new(sender);
        run_in_background(
            prepared,
            cancel,
            running,
            Arc::new(move |event| {
                let _ = sender.lock().map(|sender| sender.send(event));
            }),
        );
        let mut seen = Vec::new();
        while let Ok(event) = events.recv_timeout(Duration::from_secs(120)) {
            let last = matches!(
                event,
                RealTriggerEvent::Done { .. } | RealTriggerEvent::Failed { .. }
            );
            seen.push(event);
            if last {
                break;
            }
        }
        let [RealTriggerEvent::Started {
            number: 1,
            total: 1,
            query_index: 0,
            query,
        }, RealTriggerEvent::Finished { outcome, .. }, RealTriggerEvent::Done { report }] =
            seen.as_slice()
        else {
            panic!("events: {seen:?}");
        };
        assert_eq!(query, "fill the form");
        assert_eq!(
            outcome.result,
            eval::RunResult::Skill {
                name: "pdf-tools".into(),
                how: skillforge_core::clients::stream::Detection::SkillTool
            }
        );
        assert_eq!(
            (report.queries[0].triggered, report.queries[0].passed),
            (1, 1)
        );
        // The slot is free by the time the report arrives.
        assert!(RealTriggerRuns::begin(&runs).is_ok());
        drop(dir);
    }

    fn workspace_with_skill() -> (tempfile::TempDir, Workspace, String) {
        let dir = tempfile::tempdir().expect("temp dir");
        let skill = dir.path().join("pdf");
        std::fs::create_dir(&skill).expect("mkdir");
        std::fs::write(
            skill.join("SKILL.md"),
            "---\nname: pdf-tools\ndescription: Fill PDF forms.\n---\nBody.\n",
        )
        .expect("write");
        let workspace = Workspace::open(Source::Folders(vec![dir.path().to_path_buf()]))
            .expect("open")
            .0;
        let path = skill.join("SKILL.md").display().to_string();
        (dir, workspace, path)
    }

    fn request(skill_path: &str, client_bin: Option<&str>) -> Request {
        Request {
            client: RealClient::ClaudeCode,
            skill_path: skill_path.to_string(),
            rows: vec![EvalQuery {
                query: "fill the form".into(),
                should_trigger: Some("pdf-tools".into()),
            }],
            runs: 1,
            client_bin: client_bin.map(str::to_string),
        }
    }

    #[test]
    fn a_client_program_that_is_not_there_is_named_with_where_to_set_it() {
        let (dir, workspace, path) = workspace_with_skill();
        let missing = dir.path().join("no-such-claude").display().to_string();
        let error = prepare(
            &workspace,
            &ClientPrograms::default(),
            request(&path, Some(&missing)),
            Vec::new(),
        )
        .expect_err("refused");
        assert_eq!(error.code, ErrorCode::ClientMissing);
        assert!(error.message.contains(&missing), "{}", error.message);
        assert!(
            error.message.contains("Client programs"),
            "{}",
            error.message
        );
        // The saved setting is used when the panel gives none.
        let programs = ClientPrograms {
            claude_bin: Some(missing.clone()),
            codex_bin: None,
            codex_config: Vec::new(),
        };
        let error =
            prepare(&workspace, &programs, request(&path, None), Vec::new()).expect_err("refused");
        assert!(error.message.contains(&missing), "{}", error.message);
    }

    /// A stand-in for `codex` that keeps its arguments and the key variable it was given in `dir`, and
    /// prints what the real Codex printed for a plain answer (tests/fidelity/capture_codex_eval_streams.py).
    fn recording_codex(dir: &Path) -> String {
        let stream = concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/../crates/skillforge-core/tests/fixtures/eval/codex/plain-answer.jsonl"
        );
        let kept = dir.display();
        executable(
            &dir.join("codex"),
            &format!(
                "#!/bin/sh\nif [ \"$1\" = --version ]; then echo 'codex-cli 0.171.0'; exit 0; fi\n\
                 printf '%s\\n' \"$@\" > '{kept}/arguments'\n\
                 printf '%s' \"$FAKE_API_KEY\" > '{kept}/key'\n\
                 cat >/dev/null\ncat '{stream}'\n"
            ),
        )
    }

    #[test]
    fn codex_runs_get_the_saved_codex_settings_and_the_key_they_name() {
        let (_dir, workspace, path) = workspace_with_skill();
        let program_dir = tempfile::tempdir().expect("temp dir");
        let program = recording_codex(program_dir.path());
        let environment = vec![
            (OsString::from("PATH"), OsString::from("/usr/bin:/bin")),
            (
                OsString::from("FAKE_API_KEY"),
                OsString::from("key-of-the-provider"),
            ),
        ];
        let settings = [
            "model_provider=\"fake\"",
            "model_providers.fake.base_url=\"http://127.0.0.1:9/v1\"",
            "model_providers.fake.env_key=\"FAKE_API_KEY\"",
        ];
        let programs = ClientPrograms {
            claude_bin: None,
            codex_bin: Some(program),
            codex_config: settings.iter().map(|line| line.to_string()).collect(),
        };
        let codex_request = || Request {
            client: RealClient::Codex,
            ..request(&path, None)
        };
        // Without the settings the provider's key is not a credential Codex would use.
        let without = ClientPrograms {
            codex_config: Vec::new(),
            ..programs.clone()
        };
        let error = prepare(&workspace, &without, codex_request(), environment.clone())
            .expect_err("refused");
        assert_eq!(error.code, ErrorCode::NoCredentials);

        let prepared =
            prepare(&workspace, &programs, codex_request(), environment).expect("prepared");
        let report = prepared.run(&mut Emitter(&|_| {}), &AtomicBool::new(false));
        assert_eq!(report.runs_made, 1);
        let arguments =
            std::fs::read_to_string(program_dir.path().join("arguments")).expect("the client ran");
        let given: Vec<&str> = arguments.lines().collect();
        let expected: Vec<&str> = settings.iter().flat_map(|line| ["-c", *line]).collect();
        assert_eq!(&given[..expected.len()], expected.as_slice(), "{arguments}");
        assert_eq!(
            std::fs::read_to_string(program_dir.path().join("key")).expect("read"),
            "key-of-the-provider"
        );
    }

    #[test]
    fn a_codex_setting_edited_by_hand_into_something_else_is_refused_with_where_to_correct_it() {
        let (_dir, workspace, path) = workspace_with_skill();
        let programs = ClientPrograms {
            claude_bin: None,
            codex_bin: None,
            codex_config: vec!["model_provider=\"fake\"".into(), "no equals sign".into()],
        };
        let error = prepare(
            &workspace,
            &programs,
            Request {
                client: RealClient::Codex,
                ..request(&path, None)
            },
            Vec::new(),
        )
        .expect_err("refused");
        assert_eq!(error.code, ErrorCode::InvalidInput);
        assert!(
            error
                .message
                .starts_with("Codex settings, line 2 (`no equals sign`)"),
            "{}",
            error.message
        );
        assert!(
            error.message.contains("Client programs"),
            "{}",
            error.message
        );
    }

    #[test]
    fn an_environment_without_credentials_is_refused_before_anything_runs() {
        let (dir, workspace, path) = workspace_with_skill();
        // Only its presence is checked before the credentials: it is never run.
        let program = dir.path().join("claude");
        executable(&program, "#!/bin/sh\nexit 1\n");
        let environment = vec![
            (OsString::from("PATH"), OsString::from("/usr/bin:/bin")),
            (OsString::from("ANTHROPIC_API_KEY"), OsString::new()),
        ];
        let error = prepare(
            &workspace,
            &ClientPrograms::default(),
            request(&path, Some(&program.display().to_string())),
            environment,
        )
        .expect_err("refused");
        assert_eq!(error.code, ErrorCode::NoCredentials);
        assert!(
            error.message.contains("ANTHROPIC_API_KEY"),
            "{}",
            error.message
        );
        assert!(
            error.message.contains("Skillforge's environment"),
            "{}",
            error.message
        );
    }

    #[test]
    fn a_skill_outside_the_workspace_or_no_query_is_refused() {
        let (_dir, workspace, path) = workspace_with_skill();
        let outside = tempfile::tempdir().expect("temp dir");
        let stranger = outside.path().join("SKILL.md");
        std::fs::write(&stranger, "---\nname: x\ndescription: y\n---\n").expect("write");
        let error = prepare(
            &workspace,
            &ClientPrograms::default(),
            request(&stranger.display().to_string(), None),
            Vec::new(),
        )
        .expect_err("refused");
        assert_eq!(error.code, ErrorCode::OutsideWorkspace);
        let mut blank = request(&path, None);
        blank.rows[0].query = "  ".into();
        let error = prepare(&workspace, &ClientPrograms::default(), blank, Vec::new())
            .expect_err("refused");
        assert_eq!(error.code, ErrorCode::InvalidInput);
    }
}
