//! The typed commands the UI calls. Each takes typed input, calls the engine and maps the error.

use std::path::PathBuf;

use serde::Serialize;
use skillforge_core::builtin;
use std::collections::HashMap;
use std::sync::Arc;

use skillforge_core::agent::evals::{self, SavedEvals};
use skillforge_core::agent::playground;
use skillforge_core::agent::router::{check_threshold, DEFAULT_THRESHOLD};
use skillforge_core::agent::script::parse_script;
use skillforge_core::agent::triggers::{EvalQuery, TriggerReport};
use skillforge_core::agent::{AgentError, Dialect, MockModel, SimulateOptions, Transcript};
use skillforge_core::catalog::listing::{CatalogDialect, CatalogLimits, CatalogPage};
use skillforge_core::catalog::load::{self as catalog_load, LoadPreview};
use skillforge_core::catalog::session::{Buffer, CatalogSession};
use skillforge_core::editor::{
    BufferAnswer, BufferLint, EditorEdit, FileLint, LintSession, WorkspaceLint,
};
use skillforge_core::fs::{Fingerprint, SaveGuard, TextFile};
use skillforge_core::lint::{registry, ProfileId, Severity};
use skillforge_core::preview::{self, Preview};
use skillforge_core::scaffold::{self, ScaffoldError, ScaffoldOptions};
use skillforge_core::workspace::{self, CatalogReport};
use tauri::{AppHandle, State};

use crate::buffers::Buffers;
use crate::error::AppError;
use crate::events::{EventSink, WindowSink, WorkspaceEvent};
use crate::recent::{RecentList, RecentStore};
use crate::state::{self, AppState, Session};
use crate::watcher::WorkspaceWatcher;

/// A workspace as the UI shows it.
#[derive(Debug, Clone, Serialize, specta::Type)]
pub struct WorkspaceView {
    /// The first opened folder, absolute; `None` for the builtin skills.
    pub root: Option<String>,
    /// Every opened folder in the order it was opened; empty for the builtin skills.
    pub roots: Vec<RootView>,
    /// A short name for the title bar.
    pub label: String,
    /// Whether the skills can be edited in place (the builtin skills cannot).
    pub read_only: bool,
    pub report: CatalogReport,
}

/// One opened folder: a top-level group of the tree.
#[derive(Debug, Clone, Serialize, specta::Type)]
pub struct RootView {
    /// The folder, absolute.
    pub path: String,
    /// Its name.
    pub label: String,
}

/// The workspace the app was started with: every `--workspace` (or `SKILLFORGE_WORKSPACE`), or the
/// builtin skills.
#[tauri::command]
#[specta::specta]
pub async fn initial_workspace(
    app: AppHandle,
    state: State<'_, AppState>,
    recent: State<'_, Arc<RecentStore>>,
) -> Result<WorkspaceView, AppError> {
    if state.launch_workspaces.is_empty() {
        return Ok(builtin_view(&state));
    }
    let paths = state.launch_workspaces.clone();
    open_roots(app, &state, &recent, Vec::new(), paths).await
}

/// Opens a folder of skills in place of the open workspace.
#[tauri::command]
#[specta::specta]
pub async fn open_workspace(
    app: AppHandle,
    state: State<'_, AppState>,
    recent: State<'_, Arc<RecentStore>>,
    path: String,
) -> Result<WorkspaceView, AppError> {
    open_roots(app, &state, &recent, Vec::new(), vec![PathBuf::from(path)]).await
}

/// Adds a folder of skills to the open workspace (in place of the builtin skills, if they are shown).
#[tauri::command]
#[specta::specta]
pub async fn add_workspace_root(
    app: AppHandle,
    state: State<'_, AppState>,
    recent: State<'_, Arc<RecentStore>>,
    path: String,
) -> Result<WorkspaceView, AppError> {
    let open = state.roots().as_slice().to_vec();
    open_roots(app, &state, &recent, open, vec![PathBuf::from(path)]).await
}

/// Closes one folder of the workspace; closing the last one shows the builtin skills.
#[tauri::command]
#[specta::specta]
pub async fn remove_workspace_root(
    app: AppHandle,
    state: State<'_, AppState>,
    path: String,
) -> Result<WorkspaceView, AppError> {
    let roots = state::roots_without(state.roots().as_slice(), &PathBuf::from(path))?;
    if roots.is_empty() {
        return Ok(builtin_view(&state));
    }
    show_roots(app, &state, roots).await
}

/// The folders opened lately, most recent first.
#[tauri::command]
#[specta::specta]
pub async fn recent_workspaces(
    recent: State<'_, Arc<RecentStore>>,
) -> Result<RecentList, AppError> {
    let recent = Arc::clone(&recent);
    blocking(move || Ok(recent.list())).await
}

/// Removes a folder from the recent list (the folder itself is not touched).
#[tauri::command]
#[specta::specta]
pub async fn forget_recent_workspace(
    recent: State<'_, Arc<RecentStore>>,
    path: String,
) -> Result<RecentList, AppError> {
    let recent = Arc::clone(&recent);
    blocking(move || Ok(recent.forget(&PathBuf::from(path)))).await
}

/// Shows the builtin skills that ship inside Skillforge.
#[tauri::command]
#[specta::specta]
pub async fn builtin_workspace(state: State<'_, AppState>) -> Result<WorkspaceView, AppError> {
    Ok(builtin_view(&state))
}

/// Asks the user for a folder; `None` when the dialog is cancelled.
#[tauri::command]
#[specta::specta]
pub async fn pick_workspace_folder(window: tauri::Window) -> Result<Option<String>, AppError> {
    let picked = pick_folder(&window, "Open a folder of skills").await;
    Ok(picked.map(|path| path.display().to_string()))
}

/// The system's folder dialog over `window`; `None` when it is cancelled.
pub async fn pick_folder(window: &tauri::Window, title: &str) -> Option<PathBuf> {
    rfd::AsyncFileDialog::new()
        .set_title(title)
        .set_parent(window)
        .pick_folder()
        .await
        .map(|handle| handle.path().to_path_buf())
}

/// Asks for a folder and copies the builtin skill at `location` into it as a new folder; returns the
/// copied SKILL.md, or `None` when the dialog is cancelled. The destination comes only from the dialog.
#[tauri::command]
#[specta::specta]
pub async fn duplicate_builtin_skill(
    window: tauri::Window,
    location: String,
) -> Result<Option<String>, AppError> {
    let skill = builtin::skill_dir_name(&location)
        .ok_or_else(|| AppError::invalid_input(format!("{location}: not a builtin skill")))?
        .to_string();
    let Some(parent) = pick_folder(&window, "Duplicate into which folder?").await else {
        return Ok(None);
    };
    blocking(move || {
        let copied = builtin::duplicate_builtin(&skill, &parent)?;
        Ok(Some(copied.display().to_string()))
    })
    .await
}

/// Reads a text file inside the open workspace, exactly as it is on disk.
#[tauri::command]
#[specta::specta]
pub async fn read_file(state: State<'_, AppState>, path: String) -> Result<TextFile, AppError> {
    if path.starts_with(builtin::LOCATION_PREFIX) {
        let text = builtin::file_text(&path)
            .ok_or_else(|| AppError::not_found(format!("{path}: no such builtin file")))?;
        let fingerprint = Fingerprint::of(text.as_bytes());
        return Ok(TextFile {
            text: text.to_string(),
            fingerprint,
        });
    }
    let roots = state.roots();
    blocking(move || Ok(roots.read_text(&PathBuf::from(path))?)).await
}

/// Renders the body of a SKILL.md (given as the editor's current text) for the preview pane;
/// links are checked against the skill's folder.
#[tauri::command]
#[specta::specta]
pub async fn render_preview(
    state: State<'_, AppState>,
    path: String,
    text: String,
) -> Result<Preview, AppError> {
    if path.starts_with(builtin::LOCATION_PREFIX) {
        let folder = path.strip_suffix("SKILL.md").unwrap_or(&path).to_string();
        return Ok(preview::render(&text, &BuiltinFolder(folder)));
    }
    let path = PathBuf::from(path);
    if !state.roots().contains(&path) {
        return Err(AppError::outside_workspace(&path));
    }
    blocking(move || {
        let folder = path.parent().unwrap_or(&path);
        Ok(preview::render(&text, &preview::SkillFolder(folder)))
    })
    .await
}

/// Opens a web or mail address from a skill's preview in the system browser, after the author clicked it.
#[tauri::command]
#[specta::specta]
pub async fn open_external(url: String) -> Result<(), AppError> {
    let lowered = url.trim().to_ascii_lowercase();
    if !["https://", "http://", "mailto:"]
        .iter()
        .any(|scheme| lowered.starts_with(scheme))
    {
        return Err(AppError::internal(format!(
            "{url}: only web and mail addresses are opened"
        )));
    }
    std::process::Command::new("xdg-open")
        .arg(url.trim())
        .stdin(std::process::Stdio::null())
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::null())
        .spawn()
        .map(drop)
        .map_err(|error| {
            AppError::internal(format!(
                "could not start the system browser (xdg-open): {error}"
            ))
        })
}

/// Bundled files of a builtin skill, looked up in the embedded copy.
struct BuiltinFolder(String);

impl preview::BundledFiles for BuiltinFolder {
    fn exists(&self, relative: &std::path::Path) -> bool {
        let location = format!("{}{}", self.0, relative.display());
        location
            .strip_prefix(builtin::LOCATION_PREFIX)
            .is_some_and(builtin::is_embedded)
    }
}

/// Saves a file inside the open workspace atomically; `guard` says what it may replace.
#[tauri::command]
#[specta::specta]
pub async fn save_file(
    state: State<'_, AppState>,
    path: String,
    text: String,
    guard: SaveGuard,
) -> Result<Fingerprint, AppError> {
    let roots = state.roots();
    let saved = blocking(move || Ok(roots.write_text(&PathBuf::from(path), &text, &guard)?)).await;
    // The catalog previews read saved files from their snapshot; it is stale now.
    state.invalidate_catalog();
    saved
}

/// Runs file-system work off the async runtime's worker threads.
pub(crate) async fn blocking<T: Send + 'static>(
    work: impl FnOnce() -> Result<T, AppError> + Send + 'static,
) -> Result<T, AppError> {
    tauri::async_runtime::spawn_blocking(work)
        .await
        .map_err(|error| {
            AppError::internal(format!("background work stopped unexpectedly: {error}"))
        })?
}

/// Opens `paths` after the `open` roots, remembers them as recent and shows the result.
async fn open_roots(
    app: AppHandle,
    state: &AppState,
    recent: &Arc<RecentStore>,
    open: Vec<PathBuf>,
    paths: Vec<PathBuf>,
) -> Result<WorkspaceView, AppError> {
    let (added, roots) = blocking(move || {
        let mut roots = open;
        let mut added = Vec::with_capacity(paths.len());
        for path in &paths {
            let root = workspace::check_root(path)?;
            roots = state::roots_with(&roots, root.clone())?;
            added.push(root);
        }
        Ok((added, roots))
    })
    .await?;
    let view = show_roots(app, state, roots).await?;
    let recent = Arc::clone(recent);
    // The list is a convenience: a failure to write it is reported when the list is next shown.
    blocking(move || Ok(recent.remember(&added))).await?;
    Ok(view)
}

/// Scans `roots` together (so names are checked across all of them), makes them the open roots and
/// keeps a watcher on each.
async fn show_roots(
    app: AppHandle,
    state: &AppState,
    roots: Vec<PathBuf>,
) -> Result<WorkspaceView, AppError> {
    let (report, lint) = blocking({
        let roots = roots.clone();
        move || scan_roots(&roots)
    })
    .await?;
    let sink = WindowSink(app);
    state.set_roots(roots.clone(), lint, |root| {
        match WorkspaceWatcher::start(root, WindowSink(sink.0.clone())) {
            Ok(watcher) => Some(watcher),
            Err(error) => {
                // The workspace still works without live updates; say so instead of failing the open.
                sink.workspace(WorkspaceEvent::WatchFailed {
                    message: format!("{}: {error}", root.display()),
                });
                None
            }
        }
    });
    state::release_freed_memory_soon();
    Ok(workspace_view(&roots, report))
}

/// Discovery and the lint snapshot of all roots, read together so they agree.
fn scan_roots(roots: &[PathBuf]) -> Result<(CatalogReport, LintSession), AppError> {
    let report = workspace::scan(roots)?;
    let lint = LintSession::open(roots).map_err(|error| AppError {
        code: crate::error::ErrorCode::Unreadable,
        message: error.to_string(),
    })?;
    Ok((report, lint))
}

fn workspace_view(roots: &[PathBuf], report: CatalogReport) -> WorkspaceView {
    let roots: Vec<RootView> = roots
        .iter()
        .map(|root| RootView {
            path: root.display().to_string(),
            label: state::root_label(root),
        })
        .collect();
    WorkspaceView {
        root: roots.first().map(|root| root.path.clone()),
        label: roots
            .iter()
            .map(|root| root.label.as_str())
            .collect::<Vec<_>>()
            .join(", "),
        roots,
        read_only: false,
        report,
    }
}

/// Reads the open workspace again after its files changed; the watchers keep running.
#[tauri::command]
#[specta::specta]
pub async fn refresh_workspace(state: State<'_, AppState>) -> Result<WorkspaceView, AppError> {
    let roots = state.roots().as_slice().to_vec();
    if roots.is_empty() {
        return Ok(builtin_view(&state));
    }
    let (report, lint) = blocking({
        let roots = roots.clone();
        move || scan_roots(&roots)
    })
    .await?;
    state.replace_lint_session(&roots, lint);
    state::release_freed_memory_soon();
    Ok(workspace_view(&roots, report))
}

/// Lints the editor's unsaved text as if it were saved at `path`, under the selected profiles.
#[tauri::command]
#[specta::specta]
pub async fn lint_buffer(
    state: State<'_, AppState>,
    path: String,
    text: String,
    profiles: Vec<ProfileId>,
) -> Result<BufferLint, AppError> {
    let session = state.lint_session();
    blocking(move || Ok(session.lint_buffer(&PathBuf::from(path), &text, &profiles))).await
}

/// The backend's answer about an open buffer.
#[derive(Debug, Clone, Serialize, specta::Type)]
pub struct BufferReply {
    /// The buffer's id, for the next edit.
    pub id: u32,
    pub answer: BufferAnswer,
    /// Time spent in the backend (applying the change and linting), so the benchmark can tell it from IPC.
    pub backend_ms: f64,
}

/// Holds the editor's text for `path` (replacing an earlier buffer of that path) and lints it; later
/// keystrokes send only their changes through `edit_buffer`.
#[tauri::command]
#[specta::specta]
pub async fn open_buffer(
    state: State<'_, AppState>,
    buffers: State<'_, Buffers>,
    path: String,
    text: String,
    profiles: Vec<ProfileId>,
) -> Result<BufferReply, AppError> {
    let started = std::time::Instant::now();
    let session = state.lint_session();
    let (id, buffer) = buffers.open(PathBuf::from(path), text);
    blocking(move || {
        let mut buffer = lock_buffer(&buffer)?;
        let lint = session.lint_open_buffer(&mut buffer, &profiles);
        let version = buffer.version();
        Ok(buffer_reply(
            id,
            BufferAnswer::Linted { version, lint },
            started,
        ))
    })
    .await
}

/// Applies the editor's `changes` (UTF-16 offsets into the text at `version`) to buffer `id` and lints the
/// result. Answers `resend` when the buffer is not at `version` or not open: the editor then sends its
/// whole text again with `open_buffer`.
#[tauri::command]
#[specta::specta]
pub async fn edit_buffer(
    state: State<'_, AppState>,
    buffers: State<'_, Buffers>,
    id: u32,
    version: u32,
    changes: Vec<EditorEdit>,
    profiles: Vec<ProfileId>,
) -> Result<BufferReply, AppError> {
    let started = std::time::Instant::now();
    let Some(buffer) = buffers.get(id) else {
        let message = format!("no open buffer {id}");
        return Ok(buffer_reply(id, BufferAnswer::Resend { message }, started));
    };
    let session = state.lint_session();
    blocking(move || {
        let mut buffer = lock_buffer(&buffer)?;
        let answer = session.edit_open_buffer(&mut buffer, version, &changes, &profiles);
        Ok(buffer_reply(id, answer, started))
    })
    .await
}

/// Forgets buffer `id` (the file was closed).
#[tauri::command]
#[specta::specta]
pub async fn close_buffer(buffers: State<'_, Buffers>, id: u32) -> Result<(), AppError> {
    buffers.close(id);
    Ok(())
}

/// An open buffer, unless an earlier failure left it half-changed.
fn lock_buffer<T>(buffer: &std::sync::Mutex<T>) -> Result<std::sync::MutexGuard<'_, T>, AppError> {
    buffer
        .lock()
        .map_err(|_| AppError::internal("the buffer is unusable after a failure; reopen the file"))
}

fn buffer_reply(id: u32, answer: BufferAnswer, started: std::time::Instant) -> BufferReply {
    BufferReply {
        id,
        answer,
        backend_ms: started.elapsed().as_secs_f64() * 1000.0,
    }
}

/// Lints every SKILL.md of the open workspace (or the builtin skills when they are shown), for the
/// tree's badges and the problems list.
#[tauri::command]
#[specta::specta]
pub async fn lint_workspace(
    state: State<'_, AppState>,
    profiles: Vec<ProfileId>,
) -> Result<WorkspaceLint, AppError> {
    if state.roots().as_slice().is_empty() {
        return blocking(move || Ok(lint_builtin(&profiles))).await;
    }
    let session = state.lint_session();
    let linted = blocking(move || Ok(session.lint_workspace(&HashMap::new(), &profiles))).await;
    state::release_freed_memory_soon();
    linted
}

/// The builtin skills linted one by one, as the editor lints them when one is opened.
fn lint_builtin(profiles: &[ProfileId]) -> WorkspaceLint {
    let session = LintSession::default();
    let files = workspace::scan_builtin()
        .skills
        .into_iter()
        .filter_map(|skill| {
            let text = builtin::file_text(&skill.location)?;
            // Linked files are looked up among the embedded ones.
            let lint = session.lint_buffer(std::path::Path::new(&skill.location), text, profiles);
            let count = |severity| {
                lint.diagnostics
                    .iter()
                    .filter(|diagnostic| diagnostic.severity == severity)
                    .count() as u32
            };
            Some(FileLint {
                path: skill.location,
                errors: count(Severity::Error),
                warnings: count(Severity::Warning),
                infos: count(Severity::Info),
                diagnostics: lint.diagnostics,
                verdicts: lint.verdicts,
            })
        })
        .collect();
    WorkspaceLint { files }
}

/// A rule's documentation (by name or code) as sanitised HTML.
#[tauri::command]
#[specta::specta]
pub async fn rule_documentation(rule: String) -> Result<Preview, AppError> {
    let (code, found) = registry::find(&rule)
        .ok_or_else(|| AppError::not_found(format!("no rule named `{rule}`")))?;
    let docs: String = found
        .docs
        .lines()
        .map(|line| line.strip_prefix(' ').unwrap_or(line))
        .collect::<Vec<_>>()
        .join("\n");
    let markdown = format!("# {code} {}\n\n{docs}", found.name);
    Ok(preview::render_markdown(&markdown, &NoBundledFiles))
}

/// Creates a new skill folder with a SKILL.md that passes every profile, and returns its path.
#[tauri::command]
#[specta::specta]
pub async fn create_skill(
    state: State<'_, AppState>,
    parent: String,
    name: String,
    with_scripts: bool,
    with_references: bool,
) -> Result<String, AppError> {
    let roots = state.roots();
    let options = ScaffoldOptions {
        scripts: with_scripts,
        references: with_references,
    };
    blocking(move || {
        let path = scaffold::create_skill(&roots, &PathBuf::from(parent), &name, options).map_err(
            |error| match error {
                ScaffoldError::File(error) => AppError::from(error),
                invalid @ ScaffoldError::InvalidName(_) => {
                    AppError::invalid_input(invalid.to_string())
                }
            },
        )?;
        Ok(path.display().to_string())
    })
    .await
}

/// Rule documentation links to nothing inside a skill.
struct NoBundledFiles;

impl preview::BundledFiles for NoBundledFiles {
    fn exists(&self, _relative: &std::path::Path) -> bool {
        false
    }
}

fn builtin_view(state: &AppState) -> WorkspaceView {
    state.replace_session(Session::builtin());
    WorkspaceView {
        root: None,
        roots: Vec::new(),
        label: "Builtin skills".into(),
        read_only: true,
        report: workspace::scan_builtin(),
    }
}

/// The model the playground's mock agent uses: `"explicit"`, `"router"`, or `{ script: path }`.
#[derive(Debug, Clone, serde::Deserialize, specta::Type)]
#[serde(rename_all = "snake_case")]
pub enum PlaygroundModel {
    /// Never calls a tool: only `$name` activation loads skills.
    Explicit,
    /// Calls the skill tool for the best-scoring skill whose score reaches `threshold` (the
    /// default when null; router scores are in the transcript).
    Router { threshold: Option<f64> },
    /// Follows the script in this file of the open workspace.
    Script(String),
}

/// The exact catalog text `dialect` would show a model, with the editor's unsaved `buffers` in place
/// of their files: the first entries and the current skill's (`current_path`, or `current_name` where
/// the client shows no location), with the counts of all.
#[tauri::command]
#[specta::specta]
pub async fn catalog_preview(
    state: State<'_, AppState>,
    dialect: CatalogDialect,
    limits: CatalogLimits,
    buffers: Vec<Buffer>,
    current_path: Option<String>,
    current_name: Option<String>,
) -> Result<CatalogPage, AppError> {
    if limits.manifest_tokens == Some(0) || limits.context_window == Some(0) {
        return Err(AppError::invalid_input(
            "budgets must be positive: the manifest cap and the context window are at least 1",
        ));
    }
    let catalog = catalog_session(&state).await?;
    let page = blocking(move || {
        Ok(catalog.preview(dialect, &limits, &buffers).page(
            PREVIEW_ROWS,
            current_path.as_deref(),
            current_name.as_deref(),
        ))
    })
    .await;
    // Each preview of a large catalog allocates and frees megabytes, on whichever worker thread ran it.
    state::release_freed_memory_soon();
    page
}

/// How many catalog entries the previews panel lists (the current skill's is always sent too).
const PREVIEW_ROWS: usize = 300;

/// What nagents and 10xGraph hand the model when the skill at `path` (current text `text`) is
/// loaded at `token_limit`, with where nagents cuts it.
#[tauri::command]
#[specta::specta]
pub async fn load_preview(
    path: String,
    text: String,
    token_limit: u32,
) -> Result<LoadPreview, AppError> {
    blocking(move || {
        catalog_load::load_preview(&PathBuf::from(path), &text, token_limit)
            .map_err(|error| AppError::invalid_input(error.to_string()))
    })
    .await
}

/// Runs the mock agent on `message` over the open workspace with unsaved `buffers` laid over it.
#[tauri::command]
#[specta::specta]
#[allow(clippy::too_many_arguments)]
pub async fn simulate(
    state: State<'_, AppState>,
    message: String,
    dialect: Dialect,
    model: PlaygroundModel,
    token_limit: u32,
    system_prompt: Option<String>,
    buffers: Vec<Buffer>,
) -> Result<Transcript, AppError> {
    let roots = state.roots();
    let model = match model {
        PlaygroundModel::Explicit => MockModel::Explicit,
        PlaygroundModel::Router { threshold } => MockModel::Router {
            threshold: router_threshold(threshold)?,
        },
        PlaygroundModel::Script(path) => {
            let roots = roots.clone();
            let file = blocking(move || Ok(roots.read_text(&PathBuf::from(path))?)).await?;
            MockModel::Script(
                parse_script(&file.text)
                    .map_err(|error| AppError::invalid_input(error.to_string()))?,
            )
        }
    };
    let mut options = SimulateOptions::new(roots.as_slice().to_vec(), message);
    options.dialect = dialect;
    options.model = model;
    options.token_limit = token_limit;
    options.system_prompt = system_prompt;
    let catalog = catalog_session(&state).await?;
    playground::simulate_overlaid(&options, &catalog, &buffers)
        .await
        .map_err(|error| match error {
            AgentError::TokenLimit(error) => AppError::invalid_input(error.to_string()),
            other => AppError::internal(other.to_string()),
        })
}

/// Routes each query through the mock router: ranking per query, precision/recall per skill and the
/// skills that compete, with unsaved `buffers` laid over the workspace. A skill is picked when it
/// scores `threshold` or more (the default when null).
#[tauri::command]
#[specta::specta]
pub async fn run_triggers(
    state: State<'_, AppState>,
    queries: Vec<EvalQuery>,
    buffers: Vec<Buffer>,
    threshold: Option<f64>,
) -> Result<TriggerReport, AppError> {
    let threshold = router_threshold(threshold)?;
    let catalog = catalog_session(&state).await?;
    blocking(move || {
        Ok(playground::run_triggers(
            &catalog, &queries, &buffers, threshold,
        ))
    })
    .await
}

/// The router's minimum score: `threshold`, or the default when the UI sends none.
fn router_threshold(threshold: Option<f64>) -> Result<f64, AppError> {
    check_threshold(threshold.unwrap_or(DEFAULT_THRESHOLD))
        .map_err(|error| AppError::invalid_input(error.to_string()))
}

/// Saves the trigger queries beside the skill at `skill_path` as `evals/evals.json`; `guard` says
/// what it may replace (never a file changed on disk since it was read).
#[tauri::command]
#[specta::specta]
pub async fn save_trigger_queries(
    state: State<'_, AppState>,
    skill_path: String,
    queries: Vec<EvalQuery>,
    guard: SaveGuard,
) -> Result<SavedEvals, AppError> {
    let roots = state.roots();
    blocking(move || {
        Ok(evals::save_trigger_evals(
            &roots,
            &PathBuf::from(skill_path),
            &queries,
            &guard,
        )?)
    })
    .await
}

/// The open workspace's catalog snapshot, read (off the async threads) when the files changed.
async fn catalog_session(state: &AppState) -> Result<Arc<CatalogSession>, AppError> {
    let (roots, cached) = state.cached_catalog();
    if let Some(catalog) = cached {
        return Ok(catalog);
    }
    let builtin = state.is_builtin();
    let catalog = blocking({
        let roots = roots.clone();
        move || {
            Ok(Arc::new(if builtin {
                CatalogSession::builtin()
            } else {
                CatalogSession::open(roots.as_slice())
            }))
        }
    })
    .await?;
    state.keep_catalog(&roots, catalog.clone());
    Ok(catalog)
}

#[cfg(test)]
mod workspace_tests {
    use super::*;

    fn write_skill(root: &std::path::Path, folder: &str, name: &str) {
        std::fs::create_dir_all(root.join(folder)).expect("mkdir");
        std::fs::write(
            root.join(folder).join("SKILL.md"),
            format!(
                "---\nname: {name}\ndescription: Checks {name}. Use when checking.\n---\n# {name}\n"
            ),
        )
        .expect("write");
    }

    #[test]
    fn several_roots_are_scanned_and_linted_together() {
        let first = tempfile::tempdir().expect("temporary directory");
        let second = tempfile::tempdir().expect("temporary directory");
        write_skill(first.path(), "alpha", "alpha");
        write_skill(first.path(), "same", "same");
        write_skill(second.path(), "beta", "beta");
        write_skill(second.path(), "same", "same");
        let roots = vec![first.path().to_path_buf(), second.path().to_path_buf()];
        let (report, lint) = scan_roots(&roots).expect("scan");
        let names: Vec<&str> = report
            .skills
            .iter()
            .map(|skill| skill.name.as_str())
            .collect();
        assert_eq!(names, ["alpha", "beta", "same", "same"]);
        // nagents reads the roots in order: the second root's `same` is the duplicate that fails it.
        assert_eq!(report.duplicates.len(), 1);
        assert!(report.duplicates[0]
            .location
            .starts_with(&second.path().display().to_string()));
        assert!(report.error.is_some());
        let linted = lint.lint_workspace(&HashMap::new(), &[ProfileId::Nagents]);
        assert_eq!(linted.files.len(), 4);
        let flagged: Vec<&str> = linted
            .files
            .iter()
            .filter(|file| {
                file.diagnostics
                    .iter()
                    .any(|diagnostic| diagnostic.rule == "duplicate-skill-name")
            })
            .map(|file| file.path.as_str())
            .collect();
        assert!(!flagged.is_empty(), "{linted:?}");
        assert!(flagged.iter().all(|path| path.ends_with("same/SKILL.md")));
        let view = workspace_view(&roots, report);
        assert_eq!(view.roots.len(), 2);
        assert_eq!(view.root.as_deref(), Some(view.roots[0].path.as_str()));
    }

    #[test]
    fn previews_of_the_builtin_view_read_the_builtin_skills() {
        let state = AppState::default();
        let view = builtin_view(&state);
        let runtime = tokio::runtime::Builder::new_current_thread()
            .build()
            .expect("runtime");
        let catalog = runtime.block_on(catalog_session(&state)).expect("catalog");
        assert!(catalog.is_builtin());
        let preview = catalog.preview(CatalogDialect::Nagents, &CatalogLimits::default(), &[]);
        let names: Vec<&str> = preview.entries.iter().map(|e| e.name.as_str()).collect();
        let listed: Vec<&str> = view.report.skills.iter().map(|s| s.name.as_str()).collect();
        assert_eq!(names, listed);
        assert!(preview.text.contains(builtin::LOCATION_PREFIX));

        // Opening folders afterwards leaves the builtin skills behind.
        state.set_roots(Vec::new(), LintSession::default(), |_| None);
        assert!(!state.is_builtin());
        let catalog = runtime.block_on(catalog_session(&state)).expect("catalog");
        assert!(!catalog.is_builtin());
    }

    #[test]
    fn builtin_skills_are_linted_for_their_badges() {
        let builtin = workspace::scan_builtin();
        let linted = lint_builtin(&ProfileId::ALL);
        assert_eq!(linted.files.len(), builtin.skills.len());
        assert!(linted.files.iter().all(
            |file| file.path.starts_with(builtin::LOCATION_PREFIX) && !file.verdicts.is_empty()
        ));
        // Links to files embedded with the skill are not reported missing.
        assert!(
            linted.files.iter().all(|file| file
                .diagnostics
                .iter()
                .all(|diagnostic| diagnostic.rule != "link-target-missing")),
            "{linted:?}"
        );
    }
}
