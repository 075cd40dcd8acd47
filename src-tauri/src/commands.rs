//! The typed commands the UI calls. Each takes typed input, calls the engine and maps the error.

use std::path::PathBuf;

use serde::Serialize;
use skillforge_core::workspace::{self, CatalogReport};
use tauri::State;

use crate::error::AppError;
use crate::state::AppState;

/// A workspace as the UI shows it.
#[derive(Debug, Clone, Serialize, specta::Type)]
pub struct WorkspaceView {
    /// The opened folder, absolute; `None` for the builtin skills.
    pub root: Option<String>,
    /// A short name for the title bar and the tree.
    pub label: String,
    /// Whether the skills can be edited in place (the builtin skills cannot).
    pub read_only: bool,
    pub report: CatalogReport,
}

/// The workspace the app was started with: `--workspace`, `SKILLFORGE_WORKSPACE`, or the builtin skills.
#[tauri::command]
#[specta::specta]
pub async fn initial_workspace(state: State<'_, AppState>) -> Result<WorkspaceView, AppError> {
    match state.launch_workspace.clone() {
        Some(path) => open(path).await,
        None => Ok(builtin_view()),
    }
}

/// Opens a folder of skills.
#[tauri::command]
#[specta::specta]
pub async fn open_workspace(path: String) -> Result<WorkspaceView, AppError> {
    open(PathBuf::from(path)).await
}

/// Shows the builtin skills that ship inside Skillforge.
#[tauri::command]
#[specta::specta]
pub async fn builtin_workspace() -> Result<WorkspaceView, AppError> {
    Ok(builtin_view())
}

/// Asks the user for a folder; `None` when the dialog is cancelled.
#[tauri::command]
#[specta::specta]
pub async fn pick_workspace_folder(window: tauri::Window) -> Result<Option<String>, AppError> {
    let picked = rfd::AsyncFileDialog::new()
        .set_title("Open a folder of skills")
        .set_parent(&window)
        .pick_folder()
        .await;
    Ok(picked.map(|handle| handle.path().display().to_string()))
}

async fn open(path: PathBuf) -> Result<WorkspaceView, AppError> {
    // Discovery walks the file system: keep it off the async runtime's worker threads.
    tauri::async_runtime::spawn_blocking(move || {
        let root = workspace::check_root(&path)?;
        let report = workspace::scan(std::slice::from_ref(&root))?;
        let label = root.file_name().map_or_else(|| root.display().to_string(), |name| name.to_string_lossy().into_owned());
        Ok(WorkspaceView { root: Some(root.display().to_string()), label, read_only: false, report })
    })
    .await
    .map_err(|error| AppError::internal(format!("workspace scan stopped unexpectedly: {error}")))?
}

fn builtin_view() -> WorkspaceView {
    WorkspaceView { root: None, label: "Builtin skills".into(), read_only: true, report: workspace::scan_builtin() }
}
