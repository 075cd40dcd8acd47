//! What the app was asked to open when it started.

use std::path::PathBuf;

use clap::Parser;

/// Command-line options of the desktop app.
#[derive(Debug, Parser)]
#[command(name = "skillforge-app", version, about = "The Skillforge desktop app")]
pub struct LaunchOptions {
    /// Folder of skills to open; without it the builtin skills are shown.
    #[arg(long, env = "SKILLFORGE_WORKSPACE", value_name = "PATH")]
    pub workspace: Option<PathBuf>,
}

impl LaunchOptions {
    /// Reads the options, printing help or a usage error and exiting as any command-line tool does.
    pub fn from_env() -> Self {
        Self::parse()
    }
}
