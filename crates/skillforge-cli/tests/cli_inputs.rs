//! Files a command reads because the user named them (`triggers --queries`, `simulate --model
//! script:FILE`, `skillforge.toml`): only regular files within the input limit are read, and every
//! refusal names the file, says why and exits 2 at once.

use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

/// The input limit (`Limit::INPUT`): 8 MiB.
const INPUT_LIMIT: u64 = 8 * 1024 * 1024;

fn fixtures() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../tests/fixtures/activation")
}

/// Runs the binary in `dir`, killing it if it has not finished within ten seconds: a refused input
/// returns at once, so a run that is still reading `/dev/zero` or waiting on a FIFO fails the test
/// instead of hanging it.
fn run(dir: &Path, args: &[&str]) -> (i32, String, String) {
    let mut child = match Command::new(env!("CARGO_BIN_EXE_skillforge"))
        .current_dir(dir)
        .args(args)
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
    {
        Ok(child) => child,
        Err(error) => panic!("cannot run skillforge: {error}"),
    };
    let deadline = Instant::now() + Duration::from_secs(10);
    loop {
        match child.try_wait() {
            Ok(Some(_)) => break,
            Ok(None) if Instant::now() < deadline => std::thread::sleep(Duration::from_millis(20)),
            Ok(None) => {
                let _ = child.kill();
                let _ = child.wait();
                panic!("skillforge {} did not return within 10 s", args.join(" "));
            }
            Err(error) => panic!("cannot wait for skillforge: {error}"),
        }
    }
    let output = match child.wait_with_output() {
        Ok(output) => output,
        Err(error) => panic!("cannot collect the output: {error}"),
    };
    (
        output.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&output.stdout).into_owned(),
        String::from_utf8_lossy(&output.stderr).into_owned(),
    )
}

fn temporary() -> tempfile::TempDir {
    match tempfile::tempdir() {
        Ok(directory) => directory,
        Err(error) => panic!("temporary directory: {error}"),
    }
}

fn mkfifo(path: &Path) {
    let status = Command::new("mkfifo").arg(path).status();
    assert!(
        status.is_ok_and(|status| status.success()),
        "mkfifo {path:?}"
    );
}

/// A sparse file one byte past the input limit: refused from its size, never read.
fn oversized(path: &Path) {
    let file = std::fs::File::create(path).and_then(|file| file.set_len(INPUT_LIMIT + 1));
    assert!(file.is_ok(), "{file:?}");
}

fn write(path: &Path, bytes: &[u8]) {
    if let Err(error) = std::fs::write(path, bytes) {
        panic!("{}: {error}", path.display());
    }
}

/// The inputs every command must refuse, each with the exact message (after `error: `).
fn refused_inputs(dir: &Path) -> Vec<(String, String)> {
    let fifo = dir.join("fifo");
    mkfifo(&fifo);
    let big = dir.join("big.json");
    oversized(&big);
    let binary = dir.join("latin1.json");
    write(&binary, b"[{\"query\": \"caf\xe9\"}]");
    let missing = dir.join("missing.json");
    let not_regular = "not a regular file; only regular files are read";
    let shown = |path: &Path| path.display().to_string();
    vec![
        (
            "/dev/zero".into(),
            format!("/dev/zero: is a character device, {not_regular}"),
        ),
        (
            "/dev/urandom".into(),
            format!("/dev/urandom: is a character device, {not_regular}"),
        ),
        (
            shown(&fifo),
            format!("{}: is a FIFO (named pipe), {not_regular}", shown(&fifo)),
        ),
        (
            shown(dir),
            format!("{}: is a folder, {not_regular}", shown(dir)),
        ),
        (
            shown(&big),
            format!(
                "{}: is larger than the {INPUT_LIMIT} bytes allowed for an input file",
                shown(&big)
            ),
        ),
        (
            shown(&binary),
            format!(
                "{}: not UTF-8 text (invalid byte at offset 15)",
                shown(&binary)
            ),
        ),
        (
            shown(&missing),
            format!("{}: no such file", shown(&missing)),
        ),
    ]
}

#[test]
fn triggers_refuses_queries_that_are_not_a_bounded_regular_text_file() {
    let dir = temporary();
    for (path, message) in refused_inputs(dir.path()) {
        let (code, stdout, stderr) = run(&fixtures(), &["triggers", "skills", "--queries", &path]);
        assert_eq!(code, 2, "{path}: {stdout}{stderr}");
        assert_eq!(stderr, format!("error: {message}\n"), "{path}");
        assert_eq!(stdout, "", "{path}");
    }
}

#[test]
fn simulate_refuses_a_model_script_that_is_not_a_bounded_regular_text_file() {
    let dir = temporary();
    for (path, message) in refused_inputs(dir.path()) {
        let model = format!("--model=script:{path}");
        let (code, stdout, stderr) = run(
            &fixtures(),
            &["simulate", "skills", "--message", "hi", &model],
        );
        assert_eq!(code, 2, "{path}: {stdout}{stderr}");
        assert_eq!(stderr, format!("error: {message}\n"), "{path}");
        assert_eq!(stdout, "", "{path}");
    }
}

#[test]
fn readable_inputs_still_work() {
    let (code, stdout, stderr) = run(
        &fixtures(),
        &["triggers", "skills", "--queries", "queries.json"],
    );
    assert!(code == 0 || code == 1, "{stdout}{stderr}");
    assert!(stdout.contains("queries routed as expected"), "{stdout}");

    let dir = temporary();
    let script = dir.path().join("script.json");
    write(&script, br#"[{"text": "done"}]"#);
    let model = format!("--model=script:{}", script.display());
    let (code, stdout, stderr) = run(
        &fixtures(),
        &["simulate", "skills", "--message", "hi", &model],
    );
    assert_eq!(code, 0, "{stdout}{stderr}");
    assert!(stdout.contains("model answers: done"), "{stdout}");
}

#[test]
fn lint_refuses_a_skillforge_toml_past_the_input_limit() {
    let dir = temporary();
    let skill = dir.path().join("tidy");
    if let Err(error) = std::fs::create_dir(&skill) {
        panic!("{error}");
    }
    write(
        &skill.join("SKILL.md"),
        b"---\nname: tidy\ndescription: Tidies things when asked to.\n---\nBody.\n",
    );
    // At the root of the repository that holds the linted folder, where it is looked for.
    if let Err(error) = std::fs::create_dir(dir.path().join(".git")) {
        panic!("{error}");
    }
    oversized(&dir.path().join("skillforge.toml"));
    let (code, stdout, stderr) = run(dir.path(), &["lint", "tidy"]);
    assert_eq!(code, 2, "{stdout}{stderr}");
    let config = dir.path().join("skillforge.toml");
    assert_eq!(
        stderr,
        format!(
            "error: {}: is larger than the {INPUT_LIMIT} bytes allowed for an input file\n",
            config.display()
        )
    );
}
