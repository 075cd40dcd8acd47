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
    /// The path exists but cannot be read or written.
    Unreadable,
    /// The path lies outside the open workspace, or reaches it through a symbolic link.
    OutsideWorkspace,
    /// The file is binary, too large or not a regular file.
    NotEditable,
    /// The file changed on disk since it was read; the save was refused so neither version is lost.
    ChangedOnDisk,
    /// A new file would replace an existing one.
    AlreadyExists,
    /// An earlier export installed this; it can be replaced on explicit request (force).
    AlreadyInstalled,
    /// A folder no export wrote is in the way; it is never replaced.
    NotReplaceable,
    /// The input is not acceptable (e.g. a skill name that breaks the naming rules).
    InvalidInput,
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
        Self {
            code: ErrorCode::Internal,
            message: message.into(),
        }
    }

    pub fn invalid_input(message: impl Into<String>) -> Self {
        Self {
            code: ErrorCode::InvalidInput,
            message: message.into(),
        }
    }

    pub fn not_found(message: impl Into<String>) -> Self {
        Self {
            code: ErrorCode::NotFound,
            message: message.into(),
        }
    }

    pub fn outside_workspace(path: &std::path::Path) -> Self {
        skillforge_core::fs::FileError::OutsideRoots(path.to_path_buf()).into()
    }
}

impl From<WorkspaceError> for AppError {
    fn from(error: WorkspaceError) -> Self {
        let code = match error {
            WorkspaceError::NotFound(_) => ErrorCode::NotFound,
            WorkspaceError::NotADirectory(_) => ErrorCode::NotADirectory,
            WorkspaceError::Unreadable { .. } => ErrorCode::Unreadable,
        };
        Self {
            code,
            message: error.to_string(),
        }
    }
}

impl From<skillforge_core::fs::FileError> for AppError {
    fn from(error: skillforge_core::fs::FileError) -> Self {
        use skillforge_core::fs::FileError;
        let code = match &error {
            FileError::OutsideRoots(_) | FileError::NotNormal(_) | FileError::Symlink { .. } => {
                ErrorCode::OutsideWorkspace
            }
            FileError::NotFound(_) => ErrorCode::NotFound,
            FileError::NotAFile(_) | FileError::TooLarge { .. } | FileError::NotUtf8 { .. } => {
                ErrorCode::NotEditable
            }
            FileError::ChangedOnDisk(_) => ErrorCode::ChangedOnDisk,
            FileError::AlreadyExists(_) => ErrorCode::AlreadyExists,
            FileError::Io { .. } => ErrorCode::Unreadable,
        };
        Self {
            code,
            message: error.to_string(),
        }
    }
}

impl From<skillforge_core::builtin::DuplicateError> for AppError {
    fn from(error: skillforge_core::builtin::DuplicateError) -> Self {
        use skillforge_core::builtin::DuplicateError;
        match error {
            DuplicateError::File(error) => error.into(),
            DuplicateError::FolderExists(_) => Self {
                code: ErrorCode::AlreadyExists,
                message: error.to_string(),
            },
            DuplicateError::UnknownSkill(_) => Self::invalid_input(error.to_string()),
        }
    }
}
