//! What the app was asked to open when it started.

use std::path::PathBuf;

use clap::Parser;

/// Command-line options of the desktop app.
#[derive(Debug, Parser)]
#[command(name = "skillforge-app", version, about = "The Skillforge desktop app")]
pub struct LaunchOptions {
    /// Folder of skills to open; repeat it to open several folders side by side. Without it the
    /// builtin skills are shown.
    #[arg(long, env = "SKILLFORGE_WORKSPACE", value_name = "PATH")]
    pub workspace: Vec<PathBuf>,
    /// Folder for the app's settings (the recent folders); by default the platform's config folder.
    #[arg(long, env = "SKILLFORGE_CONFIG_DIR", value_name = "PATH")]
    pub config_dir: Option<PathBuf>,
}

impl LaunchOptions {
    /// Reads the options, printing help or a usage error and exiting as any command-line tool does.
    pub fn from_env() -> Self {
        Self::parse()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn workspace_may_be_given_several_times() {
        let options = LaunchOptions::try_parse_from([
            "skillforge-app",
            "--workspace",
            "/work/a",
            "--workspace",
            "/work/b",
        ])
        .expect("parse");
        assert_eq!(
            options.workspace,
            [PathBuf::from("/work/a"), PathBuf::from("/work/b")]
        );
    }
}
