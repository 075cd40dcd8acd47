//! The exit codes every subcommand shares.

use std::process::ExitCode;

/// Nothing to report.
pub const OK: u8 = 0;
/// Findings at error level, or a client would refuse the input.
pub const FINDINGS: u8 = 1;
/// Bad usage, or a file or folder that cannot be read or written.
pub const USAGE: u8 = 2;

pub fn code(value: u8) -> ExitCode {
    ExitCode::from(value)
}
