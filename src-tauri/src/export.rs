//! The export dialog's commands: choose a destination, see what would be written, then write it.
//! Skills are always read from the open workspace, never from a path the UI names.

use std::path::PathBuf;

use serde::Deserialize;
use skillforge_core::bundle::{self, Client, ExportReport, ExportRequest, LinkPolicy, Target};
use tauri::State;

use crate::error::AppError;
use crate::state::AppState;

/// What the author chose in the export dialog.
#[derive(Debug, Clone, Deserialize, specta::Type)]
pub struct ExportChoice {
    pub target: Target,
    /// Skill names to export; every skill of the workspace when absent.
    pub skills: Option<Vec<String>>,
    /// The destination folder, as picked in the folder dialog.
    pub out: String,
    pub package_name: Option<String>,
    pub package_version: Option<String>,
    pub client: Option<Client>,
    /// Replace an earlier install of the same skills (never a folder someone else made).
    pub force: bool,
}

/// Asks for the destination folder; `None` when the dialog is cancelled.
#[tauri::command]
#[specta::specta]
pub async fn pick_export_folder(window: tauri::Window) -> Result<Option<String>, AppError> {
    let picked = crate::commands::pick_folder(&window, "Export skills to…").await;
    Ok(picked.map(|path| path.display().to_string()))
}

/// Validates the export and lists the skills and problems, writing nothing.
#[tauri::command]
#[specta::specta]
pub async fn export_plan(
    state: State<'_, AppState>,
    choice: ExportChoice,
) -> Result<ExportReport, AppError> {
    let request = request(state.workspace().export_roots()?, choice)?;
    crate::commands::blocking(move || Ok(bundle::plan(&request)?)).await
}

/// Runs the export; errors in the skills block it and come back in the report, nothing half-written.
#[tauri::command]
#[specta::specta]
pub async fn export_run(
    state: State<'_, AppState>,
    choice: ExportChoice,
) -> Result<ExportReport, AppError> {
    let request = request(state.workspace().export_roots()?, choice)?;
    crate::commands::blocking(move || Ok(bundle::export(&request)?)).await
}

/// The engine's export request for the workspace's `roots` (the UI tests' recorded answers are made
/// with it too, see `engine_answers`).
pub(crate) fn request(
    roots: Vec<PathBuf>,
    choice: ExportChoice,
) -> Result<ExportRequest, AppError> {
    let out = PathBuf::from(&choice.out);
    if !out.is_absolute() {
        return Err(AppError::invalid_input(format!(
            "{}: choose the destination with the folder dialog",
            choice.out
        )));
    }
    Ok(ExportRequest {
        roots,
        target: choice.target,
        skills: choice.skills,
        out,
        package_name: choice.package_name,
        package_version: choice.package_version,
        client: choice.client,
        force: choice.force,
        links: LinkPolicy::Refuse,
    })
}
