//! Errors as they cross IPC: the engine's closed code, which the UI can act on, and a message it can show.

use serde::Serialize;
use skillforge_core::error::Coded;
pub use skillforge_core::error::ErrorCode;

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
}

/// Every engine error carries its own code: nothing is mapped by hand here.
impl<E: Coded> From<E> for AppError {
    fn from(error: E) -> Self {
        Self {
            code: error.code(),
            message: error.to_string(),
        }
    }
}
