//! What `skillforge lint` says about paths it cannot lint as given: each message names the path
//! and says what it is, and the same file named twice is linted once.

mod common;

use std::path::Path;
use std::process::Command;

fn temporary() -> tempfile::TempDir {
    match tempfile::tempdir() {
        Ok(directory) => directory,
        Err(error) => panic!("temporary directory: {error}"),
    }
}

fn skill(dir: &Path, name: &str) {
    if let Err(error) = std::fs::create_dir_all(dir) {
        panic!("{}: {error}", dir.display());
    }
    let text = format!(
        "---\nname: {name}\ndescription: Tidy {name} files. Use when the user mentions {name}.\n---\n# Steps\n"
    );
    if let Err(error) = std::fs::write(dir.join("SKILL.md"), text) {
        panic!("{}: {error}", dir.display());
    }
}

#[test]
fn a_folder_named_skill_md_is_reported_as_a_folder() {
    let temp = temporary();
    let folder = temp.path().join("odd/SKILL.md");
    if let Err(error) = std::fs::create_dir_all(&folder) {
        panic!("{error}");
    }
    let (code, stdout, stderr) = common::run(temp.path(), &["lint", "odd", "--no-config"]);
    assert_eq!(code, 2, "{stdout}{stderr}");
    assert_eq!(
        stderr,
        "error: odd/SKILL.md: is a folder, not a regular file; no client reads it; not linted\n"
    );
}

#[test]
fn a_fifo_given_as_path_is_reported_as_a_fifo() {
    let temp = temporary();
    let fifo = temp.path().join("pipe");
    let made = Command::new("mkfifo").arg(&fifo).status();
    assert!(made.is_ok_and(|status| status.success()), "mkfifo");
    let (code, stdout, stderr) = common::run(temp.path(), &["lint", "pipe", "--no-config"]);
    assert_eq!(code, 2, "{stdout}{stderr}");
    assert_eq!(
        stderr,
        "error: pipe: is a FIFO (named pipe), not a SKILL.md or a folder of skills\n"
    );
}

#[test]
fn a_skill_md_past_the_depth_limit_is_named_with_the_limit() {
    let temp = temporary();
    let levels: Vec<String> = (1..=14).map(|level| format!("l{level}")).collect();
    let deep = format!("deep/{}/tidy", levels.join("/"));
    skill(&temp.path().join(&deep), "tidy");
    let (code, stdout, stderr) = common::run(temp.path(), &["lint", "deep", "--no-config"]);
    assert_eq!(code, 2, "{stdout}{stderr}");
    assert_eq!(
        stderr,
        format!(
            "error: {deep}/SKILL.md: is deeper than the limit of 12 folder levels below deep; \
             lint a folder nearer to it; not linted\n"
        )
    );

    // Beside a skill within the limit, the deep one is still named, and the near one linted.
    skill(&temp.path().join("deep/near"), "near");
    let (code, stdout, stderr) = common::run(temp.path(), &["lint", "deep", "--no-config"]);
    assert_eq!(code, 2, "{stdout}{stderr}");
    assert!(
        stderr.contains(&format!(
            "error: {deep}/SKILL.md: is deeper than the limit of 12"
        )),
        "{stderr}"
    );
    assert!(stdout.contains("in 1 files"), "{stdout}");
}

#[test]
fn the_same_file_named_twice_is_linted_once() {
    let temp = temporary();
    skill(&temp.path().join("d/x"), "x");
    let absolute = temp.path().join("d").display().to_string();
    for args in [
        &["lint", "d", "d/x/SKILL.md", "--no-config"][..],
        &["lint", "d", "d", "--no-config"],
        &["lint", "d/x/SKILL.md", "./d/x/SKILL.md", "--no-config"],
        &["lint", "d", &absolute, "--no-config"],
    ] {
        let (code, stdout, stderr) = common::run(temp.path(), args);
        assert_eq!(code, 0, "{args:?}: {stdout}{stderr}");
        assert!(!stdout.contains("Duplicate"), "{args:?}: {stdout}");
        assert!(stdout.contains("in 1 files"), "{args:?}: {stdout}");
    }
}

#[test]
fn a_linked_copy_of_a_skill_is_still_a_duplicate() {
    let temp = temporary();
    skill(&temp.path().join("root/x"), "x");
    let linked = std::os::unix::fs::symlink("x", temp.path().join("root/y"));
    assert!(linked.is_ok(), "{linked:?}");
    let (code, stdout, stderr) = common::run(temp.path(), &["lint", "root", "--no-config"]);
    assert_eq!(code, 1, "{stdout}{stderr}");
    // To clients that follow the link it is a second skill named `x`; nagents skips linked folders, so
    // to it there is no duplicate and its catalog does not fail.
    assert!(
        stdout.contains(
            "another skill with this name is at root/x/SKILL.md; Codex lists both under the one name"
        ),
        "{stdout}"
    );
    assert!(
        !stdout.contains("nagents refuses the whole catalog"),
        "{stdout}"
    );
    assert!(
        stdout.contains("root/y/SKILL.md: nagents skips this skill: symbolic links are skipped during discovery"),
        "{stdout}"
    );
}

#[test]
fn a_file_that_is_not_a_skill_file_is_refused() {
    let temp = temporary();
    if let Err(error) = std::fs::write(temp.path().join("notes.txt"), "---\nname: x\n---\n") {
        panic!("notes.txt: {error}");
    }
    let (code, stdout, stderr) = common::run(temp.path(), &["lint", "notes.txt"]);
    assert_eq!(code, 2, "{stdout}{stderr}");
    assert!(
        stderr.contains("notes.txt: is a file of another name, not a SKILL.md"),
        "{stderr}"
    );
}

/// A reader that goes away (`skillforge listing … | head`) ends the run quietly, with exit 0.
#[test]
fn a_closed_pipe_is_not_an_error() {
    let temp = temporary();
    // Enough skills that the listing outgrows any pipe buffer.
    for index in 0..300 {
        skill(
            &temp.path().join(format!("many/s{index}")),
            &format!("s{index}"),
        );
    }
    let child = std::process::Command::new(env!("CARGO_BIN_EXE_skillforge"))
        .current_dir(temp.path())
        .args(["listing", "many", "--dialect", "skills-ref"])
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn();
    let mut child = match child {
        Ok(child) => child,
        Err(error) => panic!("cannot run skillforge: {error}"),
    };
    // Close the reading end before the listing is written.
    drop(child.stdout.take());
    let output = match child.wait_with_output() {
        Ok(output) => output,
        Err(error) => panic!("waiting for skillforge: {error}"),
    };
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert_eq!(output.status.code(), Some(0), "{stderr}");
    assert!(!stderr.contains("Broken pipe"), "{stderr}");
}
