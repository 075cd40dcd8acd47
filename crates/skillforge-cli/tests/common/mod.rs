//! What the CLI test files share: running the real binary.

use std::path::Path;
use std::process::Command;

/// Runs the binary in `dir` (relative paths keep the output free of machine paths); returns the exit code,
/// stdout and stderr.
pub fn run(dir: &Path, args: &[&str]) -> (i32, String, String) {
    let output = match Command::new(env!("CARGO_BIN_EXE_skillforge"))
        .current_dir(dir)
        .args(args)
        .output()
    {
        Ok(output) => output,
        Err(error) => panic!("cannot run skillforge: {error}"),
    };
    (
        output.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&output.stdout).into_owned(),
        String::from_utf8_lossy(&output.stderr).into_owned(),
    )
}
