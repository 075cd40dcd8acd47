//! The window's own settings (colour theme, whether the welcome was dismissed) and where the real clients'
//! programs are, kept in the app's config dir beside the recent folders so the next start shows the window as
//! the author left it.
//!
//! A file that cannot be read or understood is never replaced silently: the settings fall back to the defaults
//! and the answer says why, and a save over a file this app did not write is refused with that reason.

use std::path::Path;

use crate::config_file::{ConfigFile, Unlocked};

use serde::{Deserialize, Serialize};

/// The file's name inside the config dir.
pub const PREFERENCES_FILE: &str = "ui-preferences.json";

/// Which colours the window uses.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize, specta::Type)]
#[serde(rename_all = "snake_case")]
pub enum ThemeChoice {
    /// Follow the system's light or dark setting (`prefers-color-scheme`).
    #[default]
    System,
    Light,
    Dark,
}

/// The settings the window remembers.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize, specta::Type)]
pub struct UiPreferences {
    #[serde(default)]
    pub theme: ThemeChoice,
    /// The welcome view was dismissed: it is not shown at start any more (Help still opens it).
    #[serde(default)]
    pub welcome_dismissed: bool,
}

/// Where the real clients' programs are, when not on PATH (for trigger runs on Claude Code and Codex).
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize, specta::Type)]
pub struct ClientPrograms {
    /// The `claude` program of Claude Code.
    #[serde(default)]
    pub claude_bin: Option<String>,
    /// The `codex` program of Codex.
    #[serde(default)]
    pub codex_bin: Option<String>,
    /// Settings for every Codex run, one `KEY=VALUE` each, given to Codex as `-c KEY=VALUE` (a custom model
    /// provider, its endpoint and the variable holding its key).
    #[serde(default)]
    pub codex_config: Vec<String>,
}

/// The client programs and why they may be unset instead of what was saved.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, specta::Type)]
pub struct StoredClientPrograms {
    pub programs: ClientPrograms,
    /// What went wrong reading or writing the file, in words for the user.
    pub problem: Option<String>,
}

/// The file: the window's settings and the client programs side by side, so saving one keeps the other.
#[derive(Debug, Clone, Default, Serialize, Deserialize)]
struct SettingsFile {
    #[serde(flatten)]
    window: UiPreferences,
    #[serde(flatten)]
    clients: ClientPrograms,
}

/// The settings and why they may be the defaults instead of what was saved.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, specta::Type)]
pub struct StoredPreferences {
    pub preferences: UiPreferences,
    /// What went wrong reading or writing the file, in words for the user; the window works without it.
    pub problem: Option<String>,
}

pub struct PreferencesStore {
    file: ConfigFile,
}

impl PreferencesStore {
    /// Keeps the settings in `dir` (created on the first save).
    pub fn in_dir(dir: &Path) -> Self {
        Self {
            file: ConfigFile::in_dir(dir, PREFERENCES_FILE),
        }
    }

    /// No config dir could be found: nothing is remembered, and every answer says why.
    pub fn unavailable(reason: impl Into<String>) -> Self {
        Self {
            file: ConfigFile::unavailable(reason),
        }
    }

    /// The whole file as saved (the defaults when there is none), or what went wrong.
    fn settings(&self) -> Result<SettingsFile, String> {
        self.file.with(load).map_err(why).and_then(|loaded| loaded)
    }

    pub fn read(&self) -> StoredPreferences {
        match self.settings() {
            Ok(settings) => StoredPreferences {
                preferences: settings.window,
                problem: None,
            },
            Err(problem) => StoredPreferences {
                preferences: UiPreferences::default(),
                problem: Some(problem),
            },
        }
    }

    pub fn save(&self, preferences: UiPreferences) -> StoredPreferences {
        let problem = self.update(|settings| settings.window = preferences.clone());
        StoredPreferences {
            preferences,
            problem,
        }
    }

    /// Where the client programs were set, if anywhere.
    pub fn client_programs(&self) -> StoredClientPrograms {
        match self.settings() {
            Ok(settings) => StoredClientPrograms {
                programs: settings.clients,
                problem: None,
            },
            Err(problem) => StoredClientPrograms {
                programs: ClientPrograms::default(),
                problem: Some(problem),
            },
        }
    }

    /// Remembers where the client programs are (a blank path means "look on PATH") and the Codex settings
    /// (blank lines dropped). A Codex setting that is not `KEY=VALUE` refuses the whole save, with why.
    pub fn save_client_programs(
        &self,
        programs: ClientPrograms,
    ) -> Result<StoredClientPrograms, String> {
        let blank_is_none = |path: Option<String>| path.filter(|path| !path.trim().is_empty());
        let programs = ClientPrograms {
            claude_bin: blank_is_none(programs.claude_bin),
            codex_bin: blank_is_none(programs.codex_bin),
            codex_config: checked_codex_config(&programs.codex_config)
                .map_err(|problem| format!("{problem}; the settings were not saved"))?,
        };
        let problem = self.update(|settings| settings.clients = programs.clone());
        Ok(StoredClientPrograms { programs, problem })
    }

    /// Reads the file, changes it with `change` and writes it back; what went wrong, if anything.
    fn update(&self, change: impl FnOnce(&mut SettingsFile)) -> Option<String> {
        let updated = self.file.with(|file| {
            // A file the app cannot understand holds something the author may want: it is not written over.
            let mut settings = match load(file) {
                Ok(settings) => settings,
                Err(problem) => return Some(format!("{problem}; the settings were not saved")),
            };
            change(&mut settings);
            let written = serde_json::to_vec_pretty(&settings)
                .map_err(|error| error.to_string())
                .and_then(|bytes| {
                    skillforge_core::fs::write::replace_file(file, &bytes)
                        .map(drop)
                        .map_err(|error| error.to_string())
                });
            written.err().map(|error| {
                format!(
                    "{}: the settings could not be saved ({error})",
                    file.display()
                )
            })
        });
        updated.unwrap_or_else(|unlocked| Some(why(unlocked)))
    }
}

/// The Codex settings as given to Codex: each line trimmed, blank ones dropped; or which line is not
/// `KEY=VALUE` (counted from 1 among the lines given, blank ones included) and why.
pub fn checked_codex_config(lines: &[String]) -> Result<Vec<String>, String> {
    let mut settings = Vec::new();
    for (index, line) in lines.iter().enumerate() {
        let setting = line.trim();
        if setting.is_empty() {
            continue;
        }
        if let Some(problem) = skillforge_core::clients::codex::run::setting_problem(setting) {
            return Err(format!(
                "Codex settings, line {} (`{setting}`): {problem}",
                index + 1
            ));
        }
        settings.push(setting.to_string());
    }
    Ok(settings)
}

/// Why the settings file could not be used, in words for the user.
fn why(unlocked: Unlocked) -> String {
    match unlocked {
        Unlocked::Unavailable(reason) => format!("settings are not remembered: {reason}"),
        Unlocked::Poisoned => "the settings are unavailable after an internal error".into(),
    }
}

fn load(file: &Path) -> Result<SettingsFile, String> {
    use skillforge_core::fs::read::{input, Limit, ReadError};
    let bytes = match input(file, Limit::INPUT) {
        Ok(read) => read.bytes,
        Err(error) if error.source == ReadError::NotFound => return Ok(SettingsFile::default()),
        Err(error) => {
            return Err(format!(
                "{}: cannot be read ({})",
                file.display(),
                error.source
            ))
        }
    };
    serde_json::from_slice(&bytes)
        .map_err(|error| format!("{}: not valid settings ({error})", file.display()))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn settings_survive_a_new_store_and_default_when_absent() {
        let dir = tempfile::tempdir().expect("temp dir");
        let store = PreferencesStore::in_dir(dir.path());
        assert_eq!(store.read(), StoredPreferences::default());
        let chosen = UiPreferences {
            theme: ThemeChoice::Dark,
            welcome_dismissed: true,
        };
        assert_eq!(store.save(chosen.clone()).problem, None);
        let again = PreferencesStore::in_dir(dir.path()).read();
        assert_eq!(again.preferences, chosen);
        assert_eq!(again.problem, None);
    }

    #[test]
    fn a_file_it_cannot_understand_is_reported_and_never_written_over() {
        let dir = tempfile::tempdir().expect("temp dir");
        let file = dir.path().join(PREFERENCES_FILE);
        std::fs::write(&file, "{ not json").expect("write");
        let store = PreferencesStore::in_dir(dir.path());
        let read = store.read();
        assert_eq!(read.preferences, UiPreferences::default());
        assert!(read.problem.expect("a problem").contains(PREFERENCES_FILE));
        let saved = store.save(UiPreferences {
            theme: ThemeChoice::Light,
            welcome_dismissed: false,
        });
        assert!(saved.problem.expect("a problem").contains("not saved"));
        assert_eq!(std::fs::read_to_string(&file).expect("read"), "{ not json");
    }

    #[test]
    fn client_programs_and_window_settings_keep_each_other() {
        let dir = tempfile::tempdir().expect("temp dir");
        let store = PreferencesStore::in_dir(dir.path());
        let chosen = UiPreferences {
            theme: ThemeChoice::Dark,
            welcome_dismissed: true,
        };
        assert_eq!(store.save(chosen.clone()).problem, None);
        let programs = ClientPrograms {
            claude_bin: Some("/opt/claude/bin/claude".into()),
            codex_bin: Some("  ".into()),
            codex_config: Vec::new(),
        };
        let saved = store.save_client_programs(programs).expect("valid");
        assert_eq!(saved.problem, None);
        assert_eq!(saved.programs.codex_bin, None, "a blank path means PATH");
        let again = PreferencesStore::in_dir(dir.path());
        assert_eq!(again.read().preferences, chosen);
        assert_eq!(
            again.client_programs().programs.claude_bin.as_deref(),
            Some("/opt/claude/bin/claude")
        );
        // Saving the window's settings keeps the programs.
        again.save(UiPreferences::default());
        assert_eq!(
            again.client_programs().programs.claude_bin.as_deref(),
            Some("/opt/claude/bin/claude")
        );
    }

    #[test]
    fn codex_settings_are_kept_trimmed_without_blank_lines_and_a_bad_line_is_named() {
        let dir = tempfile::tempdir().expect("temp dir");
        let store = PreferencesStore::in_dir(dir.path());
        let lines = |lines: &[&str]| lines.iter().map(|line| line.to_string()).collect();
        let programs = ClientPrograms {
            claude_bin: None,
            codex_bin: Some("/opt/codex".into()),
            codex_config: lines(&[
                " model_provider=\"azure\" ",
                "",
                "model_providers.azure.base_url=\"https://example.test/openai\"",
                "   ",
            ]),
        };
        let saved = store.save_client_programs(programs).expect("valid");
        assert_eq!(saved.problem, None);
        let kept = vec![
            "model_provider=\"azure\"".to_string(),
            "model_providers.azure.base_url=\"https://example.test/openai\"".to_string(),
        ];
        assert_eq!(saved.programs.codex_config, kept);
        assert_eq!(
            PreferencesStore::in_dir(dir.path())
                .client_programs()
                .programs
                .codex_config,
            kept
        );

        let file = dir.path().join(PREFERENCES_FILE);
        let before = std::fs::read_to_string(&file).expect("read");
        for (bad, says) in [
            (
                lines(&["model_provider=\"x\"", "", "just words"]),
                "line 3 (`just words`): has no `=`",
            ),
            (
                lines(&["=\"x\""]),
                "line 1 (`=\"x\"`): has nothing before its `=`",
            ),
        ] {
            let refused = store
                .save_client_programs(ClientPrograms {
                    claude_bin: Some("/elsewhere/claude".into()),
                    codex_bin: None,
                    codex_config: bad,
                })
                .expect_err("refused");
            assert!(refused.starts_with("Codex settings, "), "{refused}");
            assert!(refused.contains(says), "{refused}");
        }
        assert_eq!(
            std::fs::read_to_string(&file).expect("read"),
            before,
            "nothing of a refused save is written"
        );
    }

    #[test]
    fn a_file_from_before_the_codex_settings_still_loads() {
        let dir = tempfile::tempdir().expect("temp dir");
        std::fs::write(
            dir.path().join(PREFERENCES_FILE),
            r#"{"theme": "dark", "welcome_dismissed": true, "claude_bin": "/opt/claude", "codex_bin": null}"#,
        )
        .expect("write");
        let store = PreferencesStore::in_dir(dir.path());
        let read = store.client_programs();
        assert_eq!(read.problem, None);
        assert_eq!(
            read.programs,
            ClientPrograms {
                claude_bin: Some("/opt/claude".into()),
                codex_bin: None,
                codex_config: Vec::new(),
            }
        );
        assert_eq!(store.read().preferences.theme, ThemeChoice::Dark);
    }

    #[test]
    fn without_a_config_dir_the_reason_is_given() {
        let store = PreferencesStore::unavailable("no home");
        assert!(store.read().problem.expect("a problem").contains("no home"));
    }
}
