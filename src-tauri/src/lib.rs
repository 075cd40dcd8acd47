//! The Skillforge desktop app: thin typed commands over the engine.

mod buffers;
mod commands;
mod config_file;
#[cfg(test)]
mod engine_answers;
mod error;
mod events;
mod export;
mod files;
mod launch;
mod preferences;
mod real_triggers;
mod recent;
mod rendering;
mod state;
mod watcher;

use std::sync::Arc;

use tauri::Manager;
use tauri_specta::{collect_commands, collect_events, Builder};

pub use error::{AppError, ErrorCode};
pub use events::{EventSink, WorkspaceEvent};
pub use launch::LaunchOptions;
pub use state::AppState;

/// The commands the UI may call, with their types; also the source of the TypeScript bindings.
pub fn specta_builder() -> Builder<tauri::Wry> {
    // One TypeScript type per Rust type: nothing here has different shapes in the two directions.
    Builder::<tauri::Wry>::new()
        .disable_serde_phases()
        .commands(collect_commands![
            commands::initial_workspace,
            commands::open_workspace,
            commands::add_workspace_root,
            commands::remove_workspace_root,
            commands::recent_workspaces,
            commands::forget_recent_workspace,
            commands::builtin_workspace,
            commands::pick_workspace_folder,
            commands::duplicate_builtin_skill,
            commands::read_file,
            commands::save_file,
            commands::render_preview,
            commands::open_external,
            commands::refresh_workspace,
            commands::lint_buffer,
            commands::open_buffer,
            commands::edit_buffer,
            commands::close_buffer,
            commands::lint_workspace,
            commands::rule_documentation,
            commands::create_skill,
            export::pick_export_folder,
            export::export_plan,
            export::export_run,
            commands::catalog_preview,
            commands::load_preview,
            commands::simulate,
            commands::run_triggers,
            commands::save_trigger_queries,
            commands::ui_preferences,
            commands::save_ui_preferences,
            files::skill_files,
            files::create_skill_file,
            files::rename_skill_file,
            files::delete_skill_file,
            files::create_link_target,
            files::rename_skill,
            files::search_workspace,
            real_triggers::plan_real_triggers,
            real_triggers::start_real_triggers,
            real_triggers::cancel_real_triggers,
            real_triggers::client_programs,
            real_triggers::save_client_programs,
        ])
        .events(collect_events![
            WorkspaceEvent,
            real_triggers::RealTriggerEvent
        ])
        // The router's default minimum score, so the UI starts where the CLI does.
        .constant(
            "ROUTER_THRESHOLD",
            skillforge_core::agent::router::DEFAULT_THRESHOLD,
        )
        // Each profile's title, with the client version it models ("Codex 0.171.0").
        .constant("PROFILE_TITLES", profile_titles())
        // Every profile in the engine's order, so a new client's profile appears without a UI change.
        .constant("PROFILE_IDS", profile_ids())
        // Whether a real client checks each profile's verdicts, shown wherever the profile is.
        .constant("PROFILE_STATUS", profile_status())
        // The client version behind each catalog dialect.
        .constant("DIALECT_VERSIONS", dialect_versions())
}

fn profile_titles() -> std::collections::BTreeMap<String, String> {
    skillforge_core::lint::ProfileId::ALL
        .into_iter()
        .map(|id| (id.as_str().to_string(), id.profile().title.to_string()))
        .collect()
}

fn profile_ids() -> Vec<skillforge_core::lint::ProfileId> {
    skillforge_core::lint::ProfileId::ALL.to_vec()
}

fn profile_status(
) -> std::collections::BTreeMap<String, skillforge_core::lint::verification::ProfileStatus> {
    skillforge_core::lint::ProfileId::ALL
        .into_iter()
        .map(|id| (id.as_str().to_string(), id.status()))
        .collect()
}

fn dialect_versions() -> std::collections::BTreeMap<String, String> {
    use skillforge_core::clients;
    [
        ("nagents", clients::nagents::VERSION),
        ("10xgraph", clients::tenxgraph::VERSION),
        ("skills-ref", clients::skills_ref::VERSION),
        ("claude-code", clients::claude_code::VERSION),
        ("codex", clients::codex::VERSION),
        ("copilot", clients::copilot::VERSION),
        ("gemini", clients::gemini::VERSION),
        ("opencode", clients::opencode::VERSION),
    ]
    .into_iter()
    .map(|(id, version)| (id.to_string(), version.to_string()))
    .collect()
}

/// Starts the app and blocks until its last window closes.
pub fn run() {
    rendering::prefer_cpu_drawing_without_gpu();
    let options = LaunchOptions::from_env();
    let builder = specta_builder();
    let config_dir = options.config_dir;
    let result = tauri::Builder::default()
        .manage(AppState::new(options.workspace))
        .manage(buffers::Buffers::default())
        .manage(Arc::new(real_triggers::RealTriggerRuns::default()))
        .invoke_handler(builder.invoke_handler())
        .setup(move |app| {
            builder.mount_events(app);
            // `--config-dir` / SKILLFORGE_CONFIG_DIR keep tests out of the real config folder.
            let config_dir = match config_dir.clone() {
                Some(dir) => Ok(dir),
                None => app.path().app_config_dir(),
            };
            let (recent, preferences) = match config_dir {
                Ok(dir) => (
                    recent::RecentStore::in_dir(&dir),
                    preferences::PreferencesStore::in_dir(&dir),
                ),
                Err(error) => (
                    recent::RecentStore::unavailable(error.to_string()),
                    preferences::PreferencesStore::unavailable(error.to_string()),
                ),
            };
            app.manage(Arc::new(recent));
            app.manage(Arc::new(preferences));
            Ok(())
        })
        .build(tauri::generate_context!());
    match result {
        Ok(app) => app.run(|app, event| {
            if let tauri::RunEvent::Exit = event {
                // A run on a real client ends with the app: its client process is stopped, not left behind.
                app.state::<Arc<real_triggers::RealTriggerRuns>>()
                    .stop_and_wait(std::time::Duration::from_secs(10));
            }
        }),
        Err(error) => {
            eprintln!("skillforge-app: {error}");
            std::process::exit(1);
        }
    }
}

#[cfg(test)]
mod tests {
    use specta_typescript::Typescript;

    /// Regenerates `ui/src/lib/bindings.gen.ts`; `make test` fails when this changes the committed file.
    #[test]
    fn export_typescript_bindings() {
        let path = concat!(env!("CARGO_MANIFEST_DIR"), "/../ui/src/lib/bindings.gen.ts");
        super::specta_builder()
            .export(
                Typescript::default()
                    .header("// Generated by the export_typescript_bindings test. Do not edit.\n"),
                path,
            )
            .expect("bindings export");
    }
}
