//! Errors as they cross IPC: a closed code the UI can act on, and a message it can show.

use serde::Serialize;
use skillforge_core::workspace::WorkspaceError;

/// What kind of failure the UI is looking at.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, specta::Type)]
#[serde(rename_all = "snake_case")]
pub enum ErrorCode {
    /// The path does not exist.
    NotFound,
    /// The path is a file where a folder was expected.
    NotADirectory,
    /// The path exists but cannot be read.
    Unreadable,
    /// Something failed inside the app itself.
    Internal,
}

/// An error the UI receives from any command.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, specta::Type, thiserror::Error)]
#[error("{message}")]
pub struct AppError {
    pub code: ErrorCode,
    pub message: String,
}

impl AppError {
    pub fn internal(message: impl Into<String>) -> Self {
        Self { code: ErrorCode::Internal, message: message.into() }
    }
}

impl From<WorkspaceError> for AppError {
    fn from(error: WorkspaceError) -> Self {
        let code = match error {
            WorkspaceError::NotFound(_) => ErrorCode::NotFound,
            WorkspaceError::NotADirectory(_) => ErrorCode::NotADirectory,
            WorkspaceError::Unreadable { .. } => ErrorCode::Unreadable,
        };
        Self { code, message: error.to_string() }
    }
}
