//! Folders and files nobody may read, deeper in the tree than crates/skillforge-cli/tests/cli_unreadable.rs
//! goes: each is named by its own path (never the root's), the readable skills are still linted, listed
//! and fixed, and the run exits 2. Run as `nobody`, since root reads everything.

use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::OnceLock;

use super::{chmod, crlf_skill_text, finish, skill_text, temporary, write, Run, Temporary};

const NOBODY: u32 = 65534;

/// The binary, copied once into a folder any user may enter (the target folder may not be).
fn shared_binary() -> &'static Path {
    static BINARY: OnceLock<(Temporary, PathBuf)> = OnceLock::new();
    let (_, binary) = BINARY.get_or_init(|| {
        let folder = temporary();
        chmod(&folder.path, 0o755);
        let binary = folder.path.join("skillforge");
        let staged = folder.path.join("skillforge.staged");
        if let Err(error) = std::fs::copy(env!("CARGO_BIN_EXE_skillforge"), &staged) {
            panic!("copy the binary: {error}");
        }
        chmod(&staged, 0o755);
        // Renamed into place closed, so no forked test process holds it open for writing.
        if let Err(error) = std::fs::rename(&staged, &binary) {
            panic!("place the binary: {error}");
        }
        (folder, binary)
    });
    binary
}

/// `skillforge ARGS` as `nobody` (as this user when it is not root), from `/`.
fn as_nobody(args: &[&str]) -> Run {
    let binary = shared_binary();
    if !super::is_root() {
        let mut command = Command::new(binary);
        command.args(args).current_dir("/");
        return finish(command);
    }
    let setpriv = Command::new("setpriv")
        .arg("--version")
        .output()
        .is_ok_and(|output| output.status.success());
    let mut command = if setpriv {
        let mut command = Command::new("setpriv");
        command.args(["--reuid=65534", "--regid=65534", "--clear-groups"]);
        command
    } else {
        let mut command = Command::new("runuser");
        command.args(["-u", "nobody", "--"]);
        command
    };
    command.arg(binary).args(args).current_dir("/");
    // A text file busy error can only come from another test's fork racing the copy; try again.
    for _ in 0..5 {
        let run = finish(command_clone(&command));
        if !run.stderr.contains("Text file busy") {
            return run;
        }
        std::thread::sleep(std::time::Duration::from_millis(100));
    }
    finish(command)
}

fn command_clone(command: &Command) -> Command {
    let mut copy = Command::new(command.get_program());
    copy.args(command.get_args());
    if let Some(dir) = command.get_current_dir() {
        copy.current_dir(dir);
    }
    copy
}

fn chown(path: &Path, owner: u32) {
    if let Err(error) = std::os::unix::fs::chown(path, Some(owner), Some(owner)) {
        panic!("chown {}: {error}", path.display());
    }
}

/// `root/top` readable, `root/group/ok` readable, `root/group/locked` (a skill inside) unlistable,
/// `root/group/sealed/SKILL.md` unreadable, `root/group/fixme` with CRLF endings and writable by nobody.
struct Tree {
    temp: Temporary,
    root: PathBuf,
}

impl Tree {
    fn new() -> Tree {
        let temp = temporary();
        let root = temp.path.join("root");
        for (folder, text) in [
            ("top", skill_text("top")),
            ("group/ok", skill_text("ok")),
            ("group/locked/inner", skill_text("inner")),
            ("group/sealed", skill_text("sealed")),
            ("group/fixme", crlf_skill_text("fixme")),
        ] {
            write(&root.join(folder).join("SKILL.md"), text);
        }
        for folder in [
            "",
            "top",
            "group",
            "group/ok",
            "group/locked/inner",
            "group/sealed",
            "group/fixme",
        ] {
            chmod(&root.join(folder), 0o755);
        }
        chmod(&temp.path, 0o755);
        if super::is_root() {
            chown(&root.join("group/fixme"), NOBODY);
            chown(&root.join("group/fixme/SKILL.md"), NOBODY);
        }
        chmod(&root.join("group/locked"), 0o000);
        chmod(&root.join("group/sealed/SKILL.md"), 0o000);
        Tree { temp, root }
    }
}

impl Drop for Tree {
    fn drop(&mut self) {
        chmod(&self.root.join("group/locked"), 0o755);
        chmod(&self.root.join("group/sealed/SKILL.md"), 0o644);
        let _ = &self.temp;
    }
}

#[test]
fn nested_unreadable_folders_and_files_are_named_while_the_rest_is_linted_and_fixed() {
    shared_binary();
    let tree = Tree::new();
    let root = tree.root.display().to_string();
    let locked = format!(
        "error: {root}/group/locked: cannot be listed (Permission denied (os error 13)); the skills in it were not linted; not linted"
    );
    let sealed =
        format!("error: {root}/group/sealed/SKILL.md: Permission denied (os error 13); not linted");

    let run = as_nobody(&["lint", &root, "--no-config"]);
    assert_eq!(run.code, 2, "{run:?}");
    assert_eq!(run.stderr, format!("{locked}\n{sealed}\n"));
    // top, ok and fixme are linted; fixme's line endings are its one fixable finding.
    assert!(
        run.stdout
            .ends_with(" in 3 files; 1 fixable with --fix, 0 more with --unsafe-fixes.\n"),
        "{run:?}"
    );

    let run = as_nobody(&["lint", "--fix", &root, "--no-config"]);
    assert_eq!(run.code, 2, "{run:?}");
    assert_eq!(run.stderr, format!("{locked}\n{sealed}\n"));
    assert!(
        run.stdout.contains("Applied 1 fixes in 1 files."),
        "{run:?}"
    );
    assert_eq!(
        super::read(&tree.root.join("group/fixme/SKILL.md")),
        skill_text("fixme").as_bytes()
    );

    // Linting the unlistable folder itself names it, not its parent.
    let run = as_nobody(&["lint", &format!("{root}/group/locked"), "--no-config"]);
    assert_eq!(run.code, 2, "{run:?}");
    assert_eq!(
        run.stderr,
        format!("error: {root}/group/locked: Permission denied (os error 13)\n")
    );

    for dialect in ["codex", "skills-ref", "claude-code"] {
        let run = as_nobody(&["listing", &root, "--dialect", dialect]);
        assert_eq!(run.code, 2, "{dialect}: {run:?}");
        for readable in ["Skill top.", "Skill ok.", "Skill fixme."] {
            assert!(
                run.stdout.contains(readable),
                "{dialect} lists no {readable}: {run:?}"
            );
        }
        assert!(!run.stdout.contains("Skill sealed."), "{dialect}: {run:?}");
        assert!(
            run.stderr.contains(&format!(
                "{root}/group/locked: cannot be listed (Permission denied (os error 13))"
            )),
            "{dialect}: {run:?}"
        );
        assert!(
            run.stderr.contains(&format!(
                "{root}/group/sealed/SKILL.md: Permission denied (os error 13)"
            )),
            "{dialect}: {run:?}"
        );
        assert!(
            !run.stderr.contains(&format!("{root}: ")),
            "{dialect}: {run:?}"
        );
        assert!(
            !run.stderr.contains(&format!("{root}/group: ")),
            "{dialect}: {run:?}"
        );
    }
}
