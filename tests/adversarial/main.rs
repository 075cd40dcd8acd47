//! Trees built to trick the CLI: links out of the linted folder, link loops, FIFOs and devices where a
//! file should be, folders nobody may read, a file appended to while `--fix` rewrites it, a
//! configuration planted above the repository. Each test runs the real binary and checks the exact
//! message and exit code; every run is killed (and fails the test) if it does not end in time.
//!
//! Run with `cargo test -p skillforge-cli --test adversarial`.

mod concurrency;
mod config;
mod links;
mod loops;
mod ownership;
mod special_files;
mod strace;
mod unreadable;

use std::io::Read as _;
use std::os::unix::fs::PermissionsExt;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

/// How long any one run may take before it counts as a hang.
pub const TIMEOUT: Duration = Duration::from_secs(20);

/// What a finished run left behind.
#[derive(Debug)]
pub struct Run {
    pub code: i32,
    pub stdout: String,
    pub stderr: String,
}

impl Run {
    /// Both streams, for assertion messages and for "never printed" checks.
    pub fn all(&self) -> String {
        format!("{}{}", self.stdout, self.stderr)
    }
}

/// Runs `command` to its end with no stdin, killing it and failing the test after [`TIMEOUT`].
/// Both streams are drained while it runs, so a large report cannot stall it on a full pipe.
pub fn finish(mut command: Command) -> Run {
    let shown = format!("{command:?}");
    let mut child = match command
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
    {
        Ok(child) => child,
        Err(error) => panic!("cannot run {shown}: {error}"),
    };
    let drain = |stream: Option<Box<dyn std::io::Read + Send>>| {
        std::thread::spawn(move || {
            let mut bytes = Vec::new();
            if let Some(mut stream) = stream {
                let _ = stream.read_to_end(&mut bytes);
            }
            String::from_utf8_lossy(&bytes).into_owned()
        })
    };
    let stdout = drain(
        child
            .stdout
            .take()
            .map(|stream| Box::new(stream) as Box<dyn std::io::Read + Send>),
    );
    let stderr = drain(
        child
            .stderr
            .take()
            .map(|stream| Box::new(stream) as Box<dyn std::io::Read + Send>),
    );
    let deadline = Instant::now() + TIMEOUT;
    let status = loop {
        match child.try_wait() {
            Ok(Some(status)) => break status,
            Ok(None) if Instant::now() < deadline => std::thread::sleep(Duration::from_millis(10)),
            Ok(None) => {
                let _ = child.kill();
                let _ = child.wait();
                panic!("{shown} did not finish within {} s", TIMEOUT.as_secs());
            }
            Err(error) => panic!("cannot wait for {shown}: {error}"),
        }
    };
    Run {
        code: status.code().unwrap_or(-1),
        stdout: stdout.join().unwrap_or_default(),
        stderr: stderr.join().unwrap_or_default(),
    }
}

/// `skillforge ARGS` in `dir`.
pub fn skillforge(dir: &Path, args: &[&str]) -> Run {
    let mut command = Command::new(env!("CARGO_BIN_EXE_skillforge"));
    command.current_dir(dir).args(args);
    finish(command)
}

/// A temporary folder, canonical (so the paths the binary prints match the ones built here).
pub struct Temporary {
    _directory: tempfile::TempDir,
    pub path: PathBuf,
}

pub fn temporary() -> Temporary {
    let directory = match tempfile::tempdir() {
        Ok(directory) => directory,
        Err(error) => panic!("temporary directory: {error}"),
    };
    let path = match std::fs::canonicalize(directory.path()) {
        Ok(path) => path,
        Err(error) => panic!("canonical temporary directory: {error}"),
    };
    Temporary {
        _directory: directory,
        path,
    }
}

pub fn write(path: &Path, bytes: impl AsRef<[u8]>) {
    if let Some(parent) = path.parent() {
        if let Err(error) = std::fs::create_dir_all(parent) {
            panic!("create {}: {error}", parent.display());
        }
    }
    if let Err(error) = std::fs::write(path, bytes) {
        panic!("write {}: {error}", path.display());
    }
}

pub fn read(path: &Path) -> Vec<u8> {
    match std::fs::read(path) {
        Ok(bytes) => bytes,
        Err(error) => panic!("read {}: {error}", path.display()),
    }
}

pub fn mkdir(path: &Path) {
    if let Err(error) = std::fs::create_dir_all(path) {
        panic!("create {}: {error}", path.display());
    }
}

pub fn symlink(target: impl AsRef<Path>, link: &Path) {
    if let Err(error) = std::os::unix::fs::symlink(target.as_ref(), link) {
        panic!(
            "link {} -> {}: {error}",
            link.display(),
            target.as_ref().display()
        );
    }
}

pub fn mkfifo(path: &Path) {
    let made = Command::new("mkfifo").arg(path).status();
    assert!(
        made.is_ok_and(|status| status.success()),
        "mkfifo {}",
        path.display()
    );
}

pub fn chmod(path: &Path, mode: u32) {
    if let Err(error) = std::fs::set_permissions(path, std::fs::Permissions::from_mode(mode)) {
        panic!("chmod {}: {error}", path.display());
    }
}

/// A valid skill whose folder is `name`.
pub fn skill_text(name: &str) -> String {
    format!(
        "---\nname: {name}\ndescription: Skill {name}. Use when {name} is asked for.\n---\nBody\n"
    )
}

/// The same skill with Windows line endings, which `--fix` rewrites to `\n`.
pub fn crlf_skill_text(name: &str) -> String {
    skill_text(name).replace('\n', "\r\n")
}

/// Whether this process runs as root (then permission tests need another user).
pub fn is_root() -> bool {
    use std::os::unix::fs::MetadataExt;
    // `/proc/self` belongs to the process's effective user.
    std::fs::metadata("/proc/self").is_ok_and(|metadata| metadata.uid() == 0)
}

/// The summary line every text report ends with.
pub fn summary_line(stdout: &str) -> &str {
    stdout.lines().last().unwrap_or_default()
}
