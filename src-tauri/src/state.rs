//! State shared by the commands.

use std::path::PathBuf;

/// What the app holds between commands.
#[derive(Debug, Default)]
pub struct AppState {
    /// The workspace named on the command line or in `SKILLFORGE_WORKSPACE`.
    pub launch_workspace: Option<PathBuf>,
}
