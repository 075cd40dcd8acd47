//! The typed commands the UI calls. Each takes typed input, calls the engine and maps the error.

use std::path::PathBuf;

use serde::Serialize;
use skillforge_core::builtin;
use std::sync::Arc;

use skillforge_core::agent::evals::SavedEvals;
use skillforge_core::agent::playground;
use skillforge_core::agent::router::{check_threshold, DEFAULT_THRESHOLD};
use skillforge_core::agent::triggers::{EvalQuery, TriggerReport};
use skillforge_core::agent::{AgentError, Dialect, MockModel, SimulateOptions, Transcript};
use skillforge_core::catalog::load::{self as catalog_load, LoadPreview};
use skillforge_core::catalog::session::Buffer;
use skillforge_core::clients::listing::{CatalogDialect, CatalogLimits, CatalogPage};
use skillforge_core::editor::{BufferAnswer, BufferLint, EditorEdit, WorkspaceLint};
use skillforge_core::fs::{Fingerprint, SaveGuard, TextFile};
use skillforge_core::lint::{registry, ProfileId};
use skillforge_core::preview::{self, Preview};
use skillforge_core::scaffold::ScaffoldOptions;
use skillforge_core::workspace::{Source, Workspace, WorkspaceView};
use tauri::{AppHandle, State};

use crate::buffers::Buffers;
use crate::error::AppError;
use crate::events::{EventSink, WindowSink, WorkspaceEvent};
use crate::preferences::{PreferencesStore, StoredPreferences, UiPreferences};
use crate::recent::{RecentList, RecentStore};
use crate::state::{self, AppState};
use crate::watcher::WorkspaceWatcher;

/// The workspace the app was started with: every `--workspace` (or `SKILLFORGE_WORKSPACE`), or the
/// builtin skills.
#[tauri::command]
#[specta::specta]
pub async fn initial_workspace(
    app: AppHandle,
    state: State<'_, AppState>,
    recent: State<'_, Arc<RecentStore>>,
) -> Result<WorkspaceView, AppError> {
    let source = Source::from_paths(state.launch_workspaces.clone());
    open_source(app, &state, &recent, source).await
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
    let source = Source::Folders(vec![PathBuf::from(path)]);
    open_source(app, &state, &recent, source).await
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
    let workspace = state.workspace();
    let source = blocking(move || Ok(workspace.with_root(&PathBuf::from(path))?)).await?;
    open_source(app, &state, &recent, source).await
}

/// Closes one folder of the workspace; closing the last one shows the builtin skills.
#[tauri::command]
#[specta::specta]
pub async fn remove_workspace_root(
    app: AppHandle,
    state: State<'_, AppState>,
    recent: State<'_, Arc<RecentStore>>,
    path: String,
) -> Result<WorkspaceView, AppError> {
    let source = state.workspace().without_root(&PathBuf::from(path))?;
    open_source(app, &state, &recent, source).await
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

/// The window's remembered settings (theme, welcome dismissed).
#[tauri::command]
#[specta::specta]
pub async fn ui_preferences(
    preferences: State<'_, Arc<PreferencesStore>>,
) -> Result<StoredPreferences, AppError> {
    let preferences = Arc::clone(&preferences);
    blocking(move || Ok(preferences.read())).await
}

/// Remembers the window's settings for the next start.
#[tauri::command]
#[specta::specta]
pub async fn save_ui_preferences(
    preferences: State<'_, Arc<PreferencesStore>>,
    chosen: UiPreferences,
) -> Result<StoredPreferences, AppError> {
    let preferences = Arc::clone(&preferences);
    blocking(move || Ok(preferences.save(chosen))).await
}

/// Shows the builtin skills that ship inside Skillforge.
#[tauri::command]
#[specta::specta]
pub async fn builtin_workspace(
    app: AppHandle,
    state: State<'_, AppState>,
    recent: State<'_, Arc<RecentStore>>,
) -> Result<WorkspaceView, AppError> {
    open_source(app, &state, &recent, Source::Builtin).await
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
    let workspace = state.workspace();
    blocking(move || Ok(workspace.read_file(&path)?)).await
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
    let workspace = state.workspace();
    blocking(move || Ok(workspace.render_preview(&path, &text)?)).await
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
    let mut browser = std::process::Command::new("xdg-open");
    crate::rendering::leave_out_of(&mut browser);
    browser
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

/// Saves a file inside the open workspace atomically; `guard` says what it may replace.
#[tauri::command]
#[specta::specta]
pub async fn save_file(
    state: State<'_, AppState>,
    path: String,
    text: String,
    guard: SaveGuard,
) -> Result<Fingerprint, AppError> {
    let workspace = state.workspace();
    blocking(move || Ok(workspace.save_file(&path, &text, &guard)?)).await
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

/// Opens `source` (checking every root and reading it), keeps a watcher on each root, remembers the
/// folders as recent and shows the result.
async fn open_source(
    app: AppHandle,
    state: &AppState,
    recent: &Arc<RecentStore>,
    source: Source,
) -> Result<WorkspaceView, AppError> {
    let (workspace, report) = blocking(move || Ok(Workspace::open(source)?)).await?;
    let sink = WindowSink(app);
    let workspace = state.open(workspace, |root| {
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
    let roots = workspace.roots().as_slice().to_vec();
    if !roots.is_empty() {
        let recent = Arc::clone(recent);
        // The list is a convenience: a failure to write it is reported when the list is next shown.
        blocking(move || Ok(recent.remember(&roots))).await?;
    }
    Ok(workspace.view(report))
}

/// Reads the open workspace again after its files changed; the watchers keep running.
#[tauri::command]
#[specta::specta]
pub async fn refresh_workspace(state: State<'_, AppState>) -> Result<WorkspaceView, AppError> {
    let workspace = state.workspace();
    let (fresh, report) = blocking(move || Ok(workspace.reopen()?)).await?;
    let view = fresh.view(report);
    state.refreshed(fresh);
    state::release_freed_memory_soon();
    Ok(view)
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
    let session = state.workspace().lint_session()?;
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
    let session = state.workspace().lint_session()?;
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
    let session = state.workspace().lint_session()?;
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

/// Lints every SKILL.md of the open workspace, for the tree's badges and the problems list.
#[tauri::command]
#[specta::specta]
pub async fn lint_workspace(
    state: State<'_, AppState>,
    profiles: Vec<ProfileId>,
) -> Result<WorkspaceLint, AppError> {
    let workspace = state.workspace();
    let linted = blocking(move || Ok(workspace.lint_all(&profiles)?)).await;
    state::release_freed_memory_soon();
    linted
}

/// A rule's documentation (by name or code) as sanitised HTML.
#[tauri::command]
#[specta::specta]
pub async fn rule_documentation(rule: String) -> Result<Preview, AppError> {
    let (code, found) = registry::find(&rule)
        .ok_or_else(|| AppError::invalid_input(format!("no rule named `{rule}`")))?;
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
    let workspace = state.workspace();
    let options = ScaffoldOptions {
        scripts: with_scripts,
        references: with_references,
    };
    blocking(move || {
        let path = workspace.create_skill(&PathBuf::from(parent), &name, options)?;
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
    let workspace = state.workspace();
    let page = blocking(move || {
        let catalog = workspace.catalog();
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
    let workspace = state.workspace();
    let model = match model {
        PlaygroundModel::Explicit => MockModel::Explicit,
        PlaygroundModel::Router { threshold } => MockModel::Router {
            threshold: router_threshold(threshold)?,
        },
        PlaygroundModel::Script(path) => {
            let workspace = workspace.clone();
            MockModel::Script(blocking(move || Ok(workspace.script(&PathBuf::from(path))?)).await?)
        }
    };
    let mut options = SimulateOptions::new(workspace.roots().as_slice().to_vec(), message);
    options.dialect = dialect;
    options.model = model;
    options.token_limit = token_limit;
    options.system_prompt = system_prompt;
    let catalog = {
        let workspace = workspace.clone();
        blocking(move || Ok(workspace.catalog())).await?
    };
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
    let workspace = state.workspace();
    blocking(move || {
        Ok(playground::run_triggers(
            &workspace.catalog(),
            &queries,
            &buffers,
            threshold,
        ))
    })
    .await
}

/// The router's minimum score: `threshold`, or the default when the UI sends none.
pub(crate) fn router_threshold(threshold: Option<f64>) -> Result<f64, AppError> {
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
    let workspace = state.workspace();
    blocking(move || {
        Ok(workspace.save_trigger_queries(&PathBuf::from(skill_path), &queries, &guard)?)
    })
    .await
}
