//! What kind of failure an engine error is, as one closed code: the app sends it across IPC with the
//! message, and the UI acts on the kind without parsing text.

use serde::Serialize;

/// The kinds of failure an author can meet.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
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
    /// The workspace cannot be changed (the builtin skills are read-only).
    ReadOnly,
    /// A real client's program is not installed where it was looked for (PATH or the path given).
    ClientMissing,
    /// The environment holds no credentials for the model service a real client calls.
    NoCredentials,
    /// Something failed inside the program itself.
    Internal,
}

/// An engine error that knows its kind.
pub trait Coded: std::fmt::Display {
    fn code(&self) -> ErrorCode;
}

impl Coded for crate::fs::FileError {
    fn code(&self) -> ErrorCode {
        use crate::fs::FileError;
        match self {
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
        }
    }
}

impl Coded for crate::workspace::WorkspaceError {
    fn code(&self) -> ErrorCode {
        use crate::workspace::WorkspaceError;
        match self {
            WorkspaceError::NotFound(_) => ErrorCode::NotFound,
            WorkspaceError::NotADirectory { .. } => ErrorCode::NotADirectory,
            WorkspaceError::Unreadable { .. } | WorkspaceError::Lint(_) => ErrorCode::Unreadable,
            WorkspaceError::Overlaps { .. } | WorkspaceError::NotOpen(_) => ErrorCode::InvalidInput,
            WorkspaceError::ReadOnly(_) => ErrorCode::ReadOnly,
            WorkspaceError::File(error) => error.code(),
            WorkspaceError::Resource(error) => error.code(),
            WorkspaceError::Script(_) | WorkspaceError::Scaffold(_) => ErrorCode::InvalidInput,
        }
    }
}

impl Coded for crate::builtin::DuplicateError {
    fn code(&self) -> ErrorCode {
        use crate::builtin::DuplicateError;
        match self {
            DuplicateError::File(error) => error.code(),
            DuplicateError::FolderExists(_) => ErrorCode::AlreadyExists,
            DuplicateError::UnknownSkill(_) => ErrorCode::InvalidInput,
        }
    }
}

impl Coded for crate::scaffold::ScaffoldError {
    fn code(&self) -> ErrorCode {
        use crate::scaffold::ScaffoldError;
        match self {
            ScaffoldError::File(error) => error.code(),
            ScaffoldError::InvalidName(_) => ErrorCode::InvalidInput,
        }
    }
}

impl Coded for crate::bundle::ExportError {
    fn code(&self) -> ErrorCode {
        use crate::bundle::{DestinationError, ExportError};
        match self {
            ExportError::Installed { .. } => ErrorCode::AlreadyInstalled,
            ExportError::Foreign { .. }
            | ExportError::Destination(
                DestinationError::NotAnExport(_)
                | DestinationError::InTheWay { .. }
                | DestinationError::UnreadableRecord { .. },
            ) => ErrorCode::NotReplaceable,
            ExportError::Destination(
                DestinationError::Exists(_) | DestinationError::EarlierExport { .. },
            ) => ErrorCode::AlreadyExists,
            ExportError::Destination(DestinationError::InsideRoot { .. }) => {
                ErrorCode::InvalidInput
            }
            ExportError::Workspace(error) => error.code(),
            ExportError::Destination(_) | ExportError::Archive(_) => ErrorCode::Unreadable,
            ExportError::MissingClient
            | ExportError::PackageName(_)
            | ExportError::UnknownSkills { .. }
            | ExportError::NoSkills => ErrorCode::InvalidInput,
        }
    }
}

impl Coded for crate::resources::ResourceError {
    fn code(&self) -> ErrorCode {
        use crate::resources::ResourceError;
        match self {
            ResourceError::File(error) => error.code(),
            ResourceError::OutsideSkill { .. } => ErrorCode::OutsideWorkspace,
            ResourceError::NotASkill(_)
            | ResourceError::BadName { .. }
            | ResourceError::SkillFile(_)
            | ResourceError::InvalidSkillName(_)
            | ResourceError::NameNotUpdated { .. } => ErrorCode::InvalidInput,
        }
    }
}

impl Coded for crate::eval::EvalError {
    fn code(&self) -> ErrorCode {
        use crate::eval::EvalError;
        match self {
            EvalError::Workspace(error) => error.code(),
            EvalError::Collect(_) | EvalError::Unreadable(_) => ErrorCode::Unreadable,
            EvalError::NoSuchSkill { .. } => ErrorCode::NotFound,
            EvalError::NameTwice { .. } | EvalError::NoRuns => ErrorCode::InvalidInput,
            EvalError::NoClient { .. } | EvalError::BadClient { .. } => ErrorCode::ClientMissing,
            EvalError::NoCredentials { .. } => ErrorCode::NoCredentials,
        }
    }
}
