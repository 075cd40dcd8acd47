//! Folders and files that cannot be read are reported with their own paths, never dropped silently:
//! the listing keeps every skill it can read, names what it could not, and fails.
//!
//! Permissions mean nothing to root, so when the tests run as root the binary runs as `nobody`
//! (`setpriv`, else `runuser`); without either the test says why and checks nothing.

use std::os::unix::fs::PermissionsExt;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::OnceLock;

/// The binary, copied once where any user may run it. Copied before any test starts a process: a
/// process forked while the copy is open for writing would keep it busy (`ETXTBSY`) for the others.
fn shared_binary() -> &'static Path {
    static BINARY: OnceLock<PathBuf> = OnceLock::new();
    BINARY.get_or_init(|| {
        let folder = Path::new(env!("CARGO_TARGET_TMPDIR")).join("unprivileged");
        std::fs::create_dir_all(&folder).ok();
        chmod(&folder, 0o755);
        let binary = folder.join("skillforge");
        let staged = folder.join(format!("skillforge.{}", std::process::id()));
        if let Err(error) = std::fs::copy(env!("CARGO_BIN_EXE_skillforge"), &staged) {
            panic!("copy the binary: {error}");
        }
        chmod(&staged, 0o755);
        if let Err(error) = std::fs::rename(&staged, &binary) {
            panic!("place the binary: {error}");
        }
        binary
    })
}

/// How to run a command as an unprivileged user, or why it cannot be done here.
fn unprivileged() -> Result<Vec<String>, String> {
    let uid = Command::new("id")
        .arg("-u")
        .output()
        .map_err(|error| format!("cannot run id: {error}"))?;
    if String::from_utf8_lossy(&uid.stdout).trim() != "0" {
        return Ok(Vec::new());
    }
    let available = |tool: &str| {
        Command::new(tool)
            .arg("--version")
            .output()
            .is_ok_and(|output| output.status.success())
    };
    if available("setpriv") {
        return Ok([
            "setpriv",
            "--reuid=65534",
            "--regid=65534",
            "--clear-groups",
        ]
        .map(String::from)
        .to_vec());
    }
    if available("runuser") {
        return Ok(["runuser", "-u", "nobody", "--"].map(String::from).to_vec());
    }
    Err("running as root and neither setpriv nor runuser exists to drop privileges".to_string())
}

fn chmod(path: &Path, mode: u32) {
    if let Err(error) = std::fs::set_permissions(path, std::fs::Permissions::from_mode(mode)) {
        panic!("chmod {}: {error}", path.display());
    }
}

fn write(path: &Path, text: &str) {
    if let Some(parent) = path.parent() {
        std::fs::create_dir_all(parent).ok();
    }
    if let Err(error) = std::fs::write(path, text) {
        panic!("write {}: {error}", path.display());
    }
}

/// A root with a readable skill `a`, a folder `b` no one may list and a `c/SKILL.md` no one may read.
struct Tree {
    _directory: tempfile::TempDir,
    root: PathBuf,
    binary: &'static Path,
}

impl Tree {
    fn new() -> Self {
        let directory = match tempfile::tempdir() {
            Ok(directory) => directory,
            Err(error) => panic!("no temporary directory: {error}"),
        };
        let root = directory.path().join("skills");
        for name in ["a", "b", "c"] {
            write(
                &root.join(name).join("SKILL.md"),
                &format!(
                    "---\nname: {name}\ndescription: Skill {name}. Use when {name}.\n---\nBody\n"
                ),
            );
            chmod(&root.join(name), 0o755);
            chmod(&root.join(name).join("SKILL.md"), 0o644);
        }
        chmod(directory.path(), 0o755);
        chmod(&root, 0o755);
        chmod(&root.join("b"), 0o000);
        chmod(&root.join("c/SKILL.md"), 0o000);
        Self {
            _directory: directory,
            root,
            binary: shared_binary(),
        }
    }

    fn run(&self, prefix: &[String], args: &[&str]) -> (i32, String, String) {
        let (program, rest) = match prefix.split_first() {
            Some((program, rest)) => (program.as_str(), rest),
            None => (self.binary.to_str().unwrap_or_default(), &[][..]),
        };
        let mut command = Command::new(program);
        command.args(rest);
        if !prefix.is_empty() {
            command.arg(self.binary);
        }
        let output = match command.args(args).current_dir("/").output() {
            Ok(output) => output,
            Err(error) => panic!("cannot run {program}: {error}"),
        };
        (
            output.status.code().unwrap_or(-1),
            String::from_utf8_lossy(&output.stdout).into_owned(),
            String::from_utf8_lossy(&output.stderr).into_owned(),
        )
    }
}

impl Drop for Tree {
    fn drop(&mut self) {
        // Let the temporary folder be removed by a user who is not root.
        chmod(&self.root.join("b"), 0o755);
        chmod(&self.root.join("c/SKILL.md"), 0o644);
    }
}

#[test]
fn listings_name_each_unreadable_folder_and_file_and_fail() {
    shared_binary();
    let prefix = match unprivileged() {
        Ok(prefix) => prefix,
        Err(reason) => {
            println!("skipped: {reason}");
            return;
        }
    };
    let tree = Tree::new();
    let root = tree.root.display().to_string();
    let folder = format!("{root}/b: cannot be listed (Permission denied (os error 13))");
    let file = format!("{root}/c/SKILL.md: Permission denied (os error 13)");
    for dialect in ["codex", "skills-ref", "claude-code"] {
        let (code, stdout, stderr) = tree.run(&prefix, &["listing", &root, "--dialect", dialect]);
        assert_eq!(code, 2, "{dialect}: {stdout}\n{stderr}");
        assert!(
            stdout.contains("Skill a. Use when a."),
            "{dialect}: {stdout}"
        );
        assert!(!stdout.contains("Skill c."), "{dialect}: {stdout}");
        assert!(stderr.contains(&folder), "{dialect}: {stderr}");
        assert!(stderr.contains(&file), "{dialect}: {stderr}");

        let (code, stdout, stderr) =
            tree.run(&prefix, &["listing", &root, "--dialect", dialect, "--json"]);
        assert_eq!(code, 2, "{dialect} --json: {stderr}");
        let preview: serde_json::Value = match serde_json::from_str(&stdout) {
            Ok(preview) => preview,
            Err(error) => panic!("{dialect} --json is not JSON ({error}): {stdout}"),
        };
        let paths: Vec<&str> = preview["unreadable"]
            .as_array()
            .map(|list| {
                list.iter()
                    .filter_map(|item| item["path"].as_str())
                    .collect()
            })
            .unwrap_or_default();
        assert_eq!(
            paths,
            [format!("{root}/b"), format!("{root}/c/SKILL.md")],
            "{dialect}: {stdout}"
        );
        assert!(stderr.contains(&folder), "{dialect} --json: {stderr}");
    }
}

#[test]
fn nagents_reports_what_it_meets_as_nagents_does() {
    shared_binary();
    let prefix = match unprivileged() {
        Ok(prefix) => prefix,
        Err(reason) => {
            println!("skipped: {reason}");
            return;
        }
    };
    let tree = Tree::new();
    let root = tree.root.display().to_string();
    let (code, stdout, stderr) = tree.run(&prefix, &["listing", &root, "--dialect", "nagents"]);
    // nagents itself publishes the readable skills with one diagnostic per failure.
    assert_eq!(code, 0, "{stdout}\n{stderr}");
    assert!(stdout.contains("Skill a. Use when a."), "{stdout}");
    assert!(
        stderr.contains(&format!("{root}/b: [Errno 13] Permission denied: 'b'")),
        "{stderr}"
    );
    assert!(
        stderr.contains(&format!(
            "{root}/c/SKILL.md: [Errno 13] Permission denied: 'SKILL.md'"
        )),
        "{stderr}"
    );
}

#[test]
fn lint_reports_an_unreadable_folder_by_its_own_path_and_lints_the_rest() {
    shared_binary();
    let prefix = match unprivileged() {
        Ok(prefix) => prefix,
        Err(reason) => {
            println!("skipped: {reason}");
            return;
        }
    };
    let tree = Tree::new();
    let root = tree.root.display().to_string();
    let (code, stdout, stderr) = tree.run(&prefix, &["lint", &root]);
    assert_eq!(code, 2, "{stdout}\n{stderr}");
    assert!(
        stderr.contains(&format!("error: {root}/b: cannot be listed")),
        "{stderr}"
    );
    assert!(
        stderr.contains(&format!("error: {root}/c/SKILL.md:")),
        "{stderr}"
    );
    assert!(!stderr.contains(&format!("error: {root}: ")), "{stderr}");
}
