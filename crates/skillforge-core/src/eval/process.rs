//! One client process: started in its own process group with a clean environment, its standard output
//! read line by line against a deadline, and the whole group stopped by its id however the run ends.

use std::ffi::OsString;
use std::io::{BufRead, BufReader, Read};
use std::os::unix::process::CommandExt;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc;
use std::time::{Duration, Instant};

/// The longest line of client output kept; a longer one (a huge tool result) is passed over.
const MAX_LINE: usize = 16 * 1024 * 1024;
/// How much of the end of the client's standard error is kept for an error message.
const STDERR_TAIL: usize = 4096;
/// How often a waiting run looks at the cancel flag.
const POLL: Duration = Duration::from_millis(100);

/// What to start: the program, its arguments, its only environment, where, and what it reads.
#[derive(Debug, Clone)]
pub struct Invocation {
    pub program: PathBuf,
    pub arguments: Vec<OsString>,
    pub environment: Vec<(OsString, OsString)>,
    pub directory: PathBuf,
    pub stdin: Vec<u8>,
}

/// How a run ended, from the runner's side.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Ending {
    /// The client closed its output; its exit status (`None` when killed by a signal).
    Exited(Option<i32>),
    /// The caller had what it needed and stopped the client.
    Stopped,
    TimedOut,
    Cancelled,
}

/// What the caller decides after each line.
pub enum Next {
    Continue,
    Stop,
}

/// Why a client could not be started.
#[derive(Debug, thiserror::Error)]
#[error("{}: cannot start it: {source}", program.display())]
pub struct StartError {
    pub program: PathBuf,
    #[source]
    pub source: std::io::Error,
}

/// A finished run: how it ended and the end of what the client wrote on standard error.
#[derive(Debug, Clone)]
pub struct Finished {
    pub ending: Ending,
    pub stderr_tail: String,
}

/// Has the kernel kill the client when this process ends without stopping it (killed, crashed), so a
/// client waiting on the model service is not left running on its own.
#[cfg(target_os = "linux")]
fn stop_with_parent(command: &mut Command) {
    use std::os::unix::process::CommandExt as _;
    // The signal follows the thread that starts the child, not the process: `run_lines` starts the client
    // and waits for it to be gone on one thread, so that thread outlives the child.
    // SAFETY: the hook runs in the child between fork and exec and calls only prctl(2), getppid(2) and
    // _exit(2), which are async-signal-safe; it allocates nothing.
    let parent = unsafe { libc::getpid() };
    unsafe {
        command.pre_exec(move || {
            if libc::prctl(libc::PR_SET_PDEATHSIG, libc::SIGKILL) != 0 {
                return Err(std::io::Error::last_os_error());
            }
            // The parent may have ended before the request was made.
            if libc::getppid() != parent {
                libc::_exit(1);
            }
            Ok(())
        });
    }
}

#[cfg(not(target_os = "linux"))]
fn stop_with_parent(_command: &mut Command) {}

/// Runs `invocation`, handing each line of its standard output to `on_line` until it returns
/// [`Next::Stop`], the output ends, `timeout` passes or `cancel` is set; then stops the client's whole
/// process group (SIGTERM, then SIGKILL) and waits for it, so no process of the run is left behind.
pub fn run_lines(
    invocation: &Invocation,
    timeout: Duration,
    cancel: &AtomicBool,
    mut on_line: impl FnMut(&str) -> Next,
) -> Result<Finished, StartError> {
    let mut command = Command::new(&invocation.program);
    command
        .args(&invocation.arguments)
        .env_clear()
        .envs(
            invocation
                .environment
                .iter()
                .map(|(key, value)| (key, value)),
        )
        .current_dir(&invocation.directory)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .process_group(0);
    stop_with_parent(&mut command);
    let mut child = command.spawn().map_err(|source| StartError {
        program: invocation.program.clone(),
        source,
    })?;
    let group = Group(child.id());
    let stdin = child.stdin.take();
    let input = invocation.stdin.clone();
    // Written from a thread so a client that does not read its input cannot stall the run.
    let writer = std::thread::spawn(move || {
        if let Some(mut stdin) = stdin {
            use std::io::Write as _;
            let _ = stdin.write_all(&input);
        }
    });
    let (lines, received) = mpsc::channel::<Option<String>>();
    let stdout = child.stdout.take();
    let reader = std::thread::spawn(move || {
        if let Some(stdout) = stdout {
            read_lines(stdout, &lines);
        }
        let _ = lines.send(None);
    });
    let stderr = child.stderr.take();
    let stderr_reader = std::thread::spawn(move || stderr.map(tail_of).unwrap_or_default());

    let deadline = Instant::now() + timeout;
    let ending = loop {
        if cancel.load(Ordering::Relaxed) {
            break Ending::Cancelled;
        }
        let now = Instant::now();
        if now >= deadline {
            break Ending::TimedOut;
        }
        match received.recv_timeout(POLL.min(deadline - now)) {
            Ok(Some(line)) => {
                if let Next::Stop = on_line(&line) {
                    break Ending::Stopped;
                }
            }
            Ok(None) | Err(mpsc::RecvTimeoutError::Disconnected) => {
                break Ending::Exited(wait_bounded(&mut child, deadline, cancel));
            }
            Err(mpsc::RecvTimeoutError::Timeout) => {}
        }
    };
    let ending = match ending {
        Ending::Exited(None) if cancel.load(Ordering::Relaxed) => Ending::Cancelled,
        other => other,
    };
    group.stop(&mut child);
    let _ = writer.join();
    let _ = reader.join();
    let stderr_tail = stderr_reader.join().unwrap_or_default();
    Ok(Finished {
        ending,
        stderr_tail,
    })
}

fn read_lines(stdout: impl Read, lines: &mpsc::Sender<Option<String>>) {
    let mut reader = BufReader::new(stdout);
    let mut buffer = Vec::new();
    loop {
        buffer.clear();
        match reader
            .by_ref()
            .take(MAX_LINE as u64 + 1)
            .read_until(b'\n', &mut buffer)
        {
            Ok(0) | Err(_) => return,
            Ok(_) => {}
        }
        if buffer.len() > MAX_LINE && buffer.last() != Some(&b'\n') {
            // Skip the rest of an oversized line.
            let mut rest = Vec::new();
            loop {
                rest.clear();
                match reader
                    .by_ref()
                    .take(MAX_LINE as u64)
                    .read_until(b'\n', &mut rest)
                {
                    Ok(0) | Err(_) => return,
                    Ok(_) if rest.last() == Some(&b'\n') => break,
                    Ok(_) => {}
                }
            }
            continue;
        }
        let line = String::from_utf8_lossy(&buffer);
        if lines
            .send(Some(line.trim_end_matches(['\n', '\r']).to_string()))
            .is_err()
        {
            return;
        }
    }
}

fn tail_of(mut stderr: impl Read) -> String {
    let mut tail: Vec<u8> = Vec::new();
    let mut chunk = [0u8; 8192];
    loop {
        match stderr.read(&mut chunk) {
            Ok(0) | Err(_) => break,
            Ok(read) => {
                tail.extend_from_slice(&chunk[..read]);
                if tail.len() > 2 * STDERR_TAIL {
                    tail.drain(..tail.len() - STDERR_TAIL);
                }
            }
        }
    }
    if tail.len() > STDERR_TAIL {
        tail.drain(..tail.len() - STDERR_TAIL);
    }
    String::from_utf8_lossy(&tail).trim().to_string()
}

/// Waits for a client that closed its output to exit, until the deadline or a cancel.
fn wait_bounded(child: &mut Child, deadline: Instant, cancel: &AtomicBool) -> Option<i32> {
    loop {
        match child.try_wait() {
            Ok(Some(status)) => return status.code(),
            Ok(None) if Instant::now() < deadline && !cancel.load(Ordering::Relaxed) => {
                std::thread::sleep(Duration::from_millis(20));
            }
            _ => return None,
        }
    }
}

/// A process group led by a child started with `process_group(0)`.
struct Group(u32);

impl Group {
    /// Stops every process of the group: SIGTERM, up to two seconds to leave, then SIGKILL; the leader
    /// is reaped. Processes the leader started live on in its group after it exits, so the group is
    /// signalled even when the leader is gone.
    fn stop(&self, child: &mut Child) {
        let Ok(group) = i32::try_from(self.0) else {
            let _ = child.kill();
            let _ = child.wait();
            return;
        };
        signal_group(group, libc::SIGTERM);
        let until = Instant::now() + Duration::from_secs(2);
        while Instant::now() < until {
            if !group_alive(group) {
                break;
            }
            let _ = child.try_wait();
            std::thread::sleep(Duration::from_millis(20));
        }
        signal_group(group, libc::SIGKILL);
        let _ = child.wait();
    }
}

fn signal_group(group: i32, signal: i32) {
    // SAFETY: kill(2) with a negative pid signals the group `group` this run created; it touches no
    // memory of ours.
    unsafe {
        libc::kill(-group, signal);
    }
}

fn group_alive(group: i32) -> bool {
    // SAFETY: signal 0 only checks that the group still exists.
    unsafe { libc::kill(-group, 0) == 0 }
}

/// The first line a program prints for `--version`, run like a client (clean environment, `home` as
/// HOME), within `timeout`.
pub fn version_line(
    program: &Path,
    environment: &[(OsString, OsString)],
    home: &Path,
    timeout: Duration,
) -> Option<String> {
    let invocation = Invocation {
        program: program.to_path_buf(),
        arguments: vec!["--version".into()],
        environment: environment.to_vec(),
        directory: home.to_path_buf(),
        stdin: Vec::new(),
    };
    let mut first = None;
    let cancel = AtomicBool::new(false);
    let finished = run_lines(&invocation, timeout, &cancel, |line| {
        if !line.trim().is_empty() {
            first = Some(line.trim().to_string());
            return Next::Stop;
        }
        Next::Continue
    })
    .ok()?;
    match finished.ending {
        Ending::Exited(_) | Ending::Stopped => first,
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn shell(script: &str) -> Invocation {
        Invocation {
            program: "/bin/sh".into(),
            arguments: vec!["-c".into(), script.into()],
            environment: vec![("PATH".into(), "/usr/bin:/bin".into())],
            directory: std::env::temp_dir(),
            stdin: b"from stdin\n".to_vec(),
        }
    }

    fn alive(pid: i32) -> bool {
        // Reaped or gone: kill(pid, 0) fails. A zombie of a killed grandchild is reaped by init.
        std::fs::read_to_string(format!("/proc/{pid}/stat"))
            .map(|stat| {
                !stat
                    .split(") ")
                    .nth(1)
                    .is_some_and(|rest| rest.starts_with('Z'))
            })
            .unwrap_or(false)
    }

    #[test]
    fn reads_lines_and_the_environment_is_only_what_was_given() {
        let cancel = AtomicBool::new(false);
        let mut lines = Vec::new();
        let finished = run_lines(
            &shell("echo one; read x; echo \"$x\"; echo \"home=${HOME:-unset}\"; echo oops >&2; exit 3"),
            Duration::from_secs(60),
            &cancel,
            |line| {
                lines.push(line.to_string());
                Next::Continue
            },
        );
        let Ok(finished) = finished else {
            panic!("{finished:?}")
        };
        assert_eq!(lines, ["one", "from stdin", "home=unset"]);
        assert_eq!(finished.ending, Ending::Exited(Some(3)));
        assert_eq!(finished.stderr_tail, "oops");
    }

    #[test]
    fn stopping_early_leaves_no_process_of_the_group_behind() {
        let cancel = AtomicBool::new(false);
        let mut pids = Vec::new();
        // The shell starts a grandchild that would outlive it, reports both ids and waits.
        let finished = run_lines(
            &shell("sleep 300 & echo $! ; echo $$ ; wait"),
            Duration::from_secs(60),
            &cancel,
            |line| {
                pids.extend(line.trim().parse::<i32>().ok());
                if pids.len() == 2 {
                    Next::Stop
                } else {
                    Next::Continue
                }
            },
        );
        assert!(matches!(finished.map(|f| f.ending), Ok(Ending::Stopped)));
        assert_eq!(pids.len(), 2);
        std::thread::sleep(Duration::from_millis(200));
        for pid in pids {
            assert!(!alive(pid), "process {pid} is still running");
        }
    }

    #[test]
    fn a_silent_client_times_out_and_a_cancel_stops_it() {
        let cancel = AtomicBool::new(false);
        let finished = run_lines(
            &shell("sleep 300"),
            Duration::from_millis(300),
            &cancel,
            |_| Next::Continue,
        );
        assert!(matches!(finished.map(|f| f.ending), Ok(Ending::TimedOut)));
        let cancel = AtomicBool::new(true);
        let finished = run_lines(
            &shell("sleep 300"),
            Duration::from_secs(60),
            &cancel,
            |_| Next::Continue,
        );
        assert!(matches!(finished.map(|f| f.ending), Ok(Ending::Cancelled)));
    }

    #[test]
    fn a_missing_program_is_named() {
        let cancel = AtomicBool::new(false);
        let mut invocation = shell("true");
        invocation.program = "/nonexistent/claude".into();
        let error = run_lines(&invocation, Duration::from_secs(5), &cancel, |_| {
            Next::Continue
        });
        assert!(
            matches!(&error, Err(e) if e.to_string().starts_with("/nonexistent/claude: cannot start it"))
        );
    }
}
