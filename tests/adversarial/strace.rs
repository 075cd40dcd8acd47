//! Proof from the kernel's side that `lint --fix` touches nothing behind a link out of the tree: every
//! open, stat and readlink the process (and its threads) makes is traced with `strace -f -y`, and no
//! path it names, no descriptor it passes and no descriptor it gets back lies in the secret folder.
//!
//! `strace` comes from `scripts/install-system-deps.sh e2e` (run by `make test`). Without it this
//! test fails rather than passing unchecked.

use std::path::{Path, PathBuf};
use std::process::Command;

use super::{crlf_skill_text, finish, mkdir, read, symlink, temporary, write};

const TRACED: &str = "openat,open,newfstatat,statx,readlink,readlinkat";

fn strace_available() -> bool {
    Command::new("strace")
        .arg("-V")
        .output()
        .is_ok_and(|output| output.status.success())
}

/// Runs `program args` under strace; returns the log and the run's own exit code.
fn traced(dir: &Path, log: &Path, program: &str, args: &[&str]) -> (String, i32) {
    let mut command = Command::new("strace");
    command
        .current_dir(dir)
        .args(["-f", "-y", "-qq", "-e", &format!("trace={TRACED}"), "-o"])
        .arg(log)
        .arg(program)
        .args(args);
    let run = finish(command);
    assert!(
        !run.stderr.contains("PTRACE") && !run.stderr.contains("Operation not permitted"),
        "strace cannot trace here: {}",
        run.stderr
    );
    (String::from_utf8_lossy(&read(log)).into_owned(), run.code)
}

/// The quoted strings of a strace line, unescaped enough for paths (`\"` and `\\`), in order.
fn quoted(line: &str) -> Vec<String> {
    let mut strings = Vec::new();
    let mut chars = line.chars();
    while let Some(char) = chars.next() {
        if char != '"' {
            continue;
        }
        let mut text = String::new();
        while let Some(char) = chars.next() {
            match char {
                '\\' => {
                    if let Some(next) = chars.next() {
                        text.push(next);
                    }
                }
                '"' => break,
                other => text.push(other),
            }
        }
        strings.push(text);
    }
    strings
}

/// The paths strace's `-y` shows for descriptors: `3</some/path>`, passed or returned.
fn descriptor_paths(line: &str) -> Vec<String> {
    let bytes = line.as_bytes();
    let mut paths = Vec::new();
    let mut at = 0;
    while let Some(offset) = line[at..].find('<') {
        let open = at + offset;
        at = open + 1;
        if open == 0 || !bytes[open - 1].is_ascii_digit() {
            continue; // `<unfinished ...>`, `<... openat resumed>`
        }
        if let Some(close) = line[open + 1..].find('>') {
            paths.push(line[open + 1..open + 1 + close].to_string());
            at = open + 1 + close;
        }
    }
    paths
}

/// Every path one traced line names: the path argument (resolved against its `dirfd` when
/// relative) and every descriptor's path. A `readlink`'s buffer is what the link says, not a place
/// the process went, so it is left out.
fn paths_named(line: &str) -> Vec<PathBuf> {
    let mut named: Vec<PathBuf> = descriptor_paths(line)
        .into_iter()
        .map(PathBuf::from)
        .collect();
    let call = line
        .split_once(' ')
        .map_or(line, |(_, rest)| rest)
        .trim_start();
    // The path is a call's first string. A call split by another thread's is resumed on a line of
    // its own, which holds only results: a readlink's buffer there is not a place the process went.
    let strings = quoted(line);
    let arguments: &[String] = if line.contains(" resumed>") {
        &[]
    } else {
        &strings[..strings.len().min(1)]
    };
    let directory = call
        .split_once('(')
        .and_then(|(_, arguments)| arguments.split_once(','))
        .map(|(first, _)| first.trim())
        .and_then(|first| {
            descriptor_paths(&format!(" {first}"))
                .into_iter()
                .next()
                .or_else(|| (first == "AT_FDCWD").then(String::new))
        });
    for argument in arguments {
        if argument.is_empty() {
            continue;
        }
        let path = Path::new(argument);
        if path.is_absolute() {
            named.push(path.to_path_buf());
        } else if let Some(directory) = directory.as_deref().filter(|dir| !dir.is_empty()) {
            named.push(Path::new(directory).join(path));
        } else {
            named.push(path.to_path_buf());
        }
    }
    named
}

/// The traced lines that name anything inside `secret` (canonical), resolving relative paths from `cwd`.
fn lines_touching(log: &str, secret: &Path, cwd: &Path) -> Vec<String> {
    log.lines()
        .filter(|line| {
            paths_named(line).iter().any(|path| {
                let absolute = if path.is_absolute() {
                    path.clone()
                } else {
                    cwd.join(path)
                };
                absolute.starts_with(secret)
            })
        })
        .map(str::to_string)
        .collect()
}

#[test]
fn the_parser_sees_a_read_of_the_secret_directly_and_through_a_link() {
    assert!(
        strace_available(),
        "strace is not installed: run scripts/install-system-deps.sh e2e (make test does), then run this test again"
    );
    let temp = temporary();
    let secret = temp.path.join("secret");
    write(&secret.join("file.md"), "secret\n");
    mkdir(&temp.path.join("root"));
    symlink("../secret/file.md", &temp.path.join("root/SKILL.md"));
    let log = temp.path.join("cat.log");

    let (text, code) = traced(&temp.path, &log, "cat", &["secret/file.md"]);
    assert_eq!(code, 0, "{text}");
    assert!(
        !lines_touching(&text, &secret, &temp.path).is_empty(),
        "{text}"
    );

    // Through a link: the path argument is inside, the descriptor the kernel hands back is not.
    let (text, code) = traced(&temp.path, &log, "cat", &["root/SKILL.md"]);
    assert_eq!(code, 0, "{text}");
    let touching = lines_touching(&text, &secret, &temp.path);
    assert!(
        touching.iter().any(|line| line.contains("root/SKILL.md")),
        "{text}"
    );

    // And a trace that never goes there is clean.
    let (text, code) = traced(&temp.path, &log, "ls", &["root"]);
    assert_eq!(code, 0, "{text}");
    assert_eq!(
        lines_touching(&text, &secret, &temp.path),
        Vec::<String>::new()
    );
}

#[test]
fn lint_fix_makes_no_syscall_on_anything_behind_a_link_out() {
    assert!(
        strace_available(),
        "strace is not installed: run scripts/install-system-deps.sh e2e (make test does), then run this test again"
    );
    let temp = temporary();
    let secret = temp.path.join("secret");
    write(&secret.join("skill/SKILL.md"), crlf_skill_text("skill"));
    write(&secret.join("file.md"), crlf_skill_text("b"));
    write(&secret.join("skillforge.toml"), "profiles = [\"spec\"]\n");
    let root = temp.path.join("root");
    write(&root.join("a/SKILL.md"), crlf_skill_text("a"));
    // A skill folder, a SKILL.md, a resources folder, a markdown link and a config, all leading out.
    symlink(secret.join("skill"), &root.join("linked"));
    mkdir(&root.join("b"));
    symlink("../../secret/file.md", &root.join("b/SKILL.md"));
    symlink(&secret, &root.join("a/references"));
    write(
        &root.join("c/SKILL.md"),
        "---\nname: c\ndescription: Skill c. Use when c is asked for.\n---\nSee [it](references/file.md) and [that](../../secret/file.md).\n",
    );
    symlink(&secret, &root.join("c/references"));
    mkdir(&root.join(".git"));
    symlink(
        secret.join("skillforge.toml"),
        &root.join("skillforge.toml"),
    );
    let log = temp.path.join("lint.log");
    let binary = env!("CARGO_BIN_EXE_skillforge");

    // The config link is refused before anything is linted.
    let (text, code) = traced(&temp.path, &log, binary, &["lint", "--fix", "root"]);
    assert_eq!(code, 2, "{text}");
    assert_eq!(
        lines_touching(&text, &secret, &temp.path),
        Vec::<String>::new()
    );

    let (text, code) = traced(
        &temp.path,
        &log,
        binary,
        &["lint", "--fix", "--no-config", "root"],
    );
    assert_eq!(code, 2, "{text}");
    assert_eq!(
        lines_touching(&text, &secret, &temp.path),
        Vec::<String>::new()
    );
    // The trace did see the run work inside: the fixed skill was opened.
    assert!(
        text.lines().any(|line| line.contains("openat(")
            && line.contains("\"SKILL.md\"")
            && line.contains("/root/a>")),
        "the trace shows no open of root/a/SKILL.md:\n{text}"
    );
    assert_eq!(
        read(&root.join("a/SKILL.md")),
        super::skill_text("a").as_bytes()
    );
    assert_eq!(
        read(&secret.join("file.md")),
        crlf_skill_text("b").as_bytes()
    );
    assert_eq!(
        read(&secret.join("skill/SKILL.md")),
        crlf_skill_text("skill").as_bytes()
    );
}
