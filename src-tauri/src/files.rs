//! Commands for the whole skill: its files besides SKILL.md, the skill folder's name, and search across
//! the workspace. Each takes typed input, calls the engine and maps the error.

use std::path::PathBuf;

use skillforge_core::fs::Fingerprint;
use skillforge_core::resources::SkillFiles;
use skillforge_core::search::{SearchQuery, SearchResults};
use tauri::State;

use crate::commands::blocking;
use crate::error::AppError;
use crate::state::AppState;

/// The files of the skill whose SKILL.md is `skill_path`, folders first.
#[tauri::command]
#[specta::specta]
pub async fn skill_files(
    state: State<'_, AppState>,
    skill_path: String,
) -> Result<SkillFiles, AppError> {
    let workspace = state.workspace();
    blocking(move || Ok(workspace.skill_files(&PathBuf::from(skill_path))?)).await
}

/// Creates an empty file, or a folder, at `relative` inside the skill; never replaces anything.
/// Returns the new path.
#[tauri::command]
#[specta::specta]
pub async fn create_skill_file(
    state: State<'_, AppState>,
    skill_path: String,
    relative: String,
    folder: bool,
) -> Result<String, AppError> {
    let workspace = state.workspace();
    blocking(move || {
        let created = workspace.create_resource(&PathBuf::from(skill_path), &relative, folder)?;
        Ok(created.display().to_string())
    })
    .await
}

/// Renames a file or folder of the skill to `to_relative` (relative to the skill folder); never
/// replaces anything and never leaves the skill folder. Returns the new path.
#[tauri::command]
#[specta::specta]
pub async fn rename_skill_file(
    state: State<'_, AppState>,
    skill_path: String,
    from: String,
    to_relative: String,
) -> Result<String, AppError> {
    let workspace = state.workspace();
    blocking(move || {
        let renamed = workspace.rename_resource(
            &PathBuf::from(skill_path),
            &PathBuf::from(from),
            &to_relative,
        )?;
        Ok(renamed.display().to_string())
    })
    .await
}

/// Deletes a file or folder of the skill (never its SKILL.md).
#[tauri::command]
#[specta::specta]
pub async fn delete_skill_file(
    state: State<'_, AppState>,
    skill_path: String,
    path: String,
) -> Result<(), AppError> {
    let workspace = state.workspace();
    blocking(move || {
        Ok(workspace.delete_resource(&PathBuf::from(skill_path), &PathBuf::from(path))?)
    })
    .await
}

/// Creates the missing file a link of the skill points to (a quick fix). Returns the new path.
#[tauri::command]
#[specta::specta]
pub async fn create_link_target(
    state: State<'_, AppState>,
    skill_path: String,
    target: String,
) -> Result<String, AppError> {
    let workspace = state.workspace();
    blocking(move || {
        let created = workspace.create_link_target(&PathBuf::from(skill_path), &target)?;
        Ok(created.display().to_string())
    })
    .await
}

/// Renames the skill folder to `new_name` and sets the SKILL.md's `name` to match; refused when the
/// SKILL.md no longer has `fingerprint` (changed since it was read). Returns the new SKILL.md path.
#[tauri::command]
#[specta::specta]
pub async fn rename_skill(
    state: State<'_, AppState>,
    skill_path: String,
    new_name: String,
    fingerprint: Fingerprint,
) -> Result<String, AppError> {
    let workspace = state.workspace();
    blocking(move || {
        let renamed =
            workspace.rename_skill(&PathBuf::from(skill_path), &new_name, &fingerprint)?;
        Ok(renamed.display().to_string())
    })
    .await
}

/// Searches the workspace's SKILL.md files and skill folders for `query`.
#[tauri::command]
#[specta::specta]
pub async fn search_workspace(
    state: State<'_, AppState>,
    query: SearchQuery,
) -> Result<SearchResults, AppError> {
    let workspace = state.workspace();
    blocking(move || Ok(workspace.search(&query)?)).await
}
