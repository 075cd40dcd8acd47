//! Links out of the linted folder: reported by name, never opened, never written through.

use std::os::unix::fs::MetadataExt;

use super::{
    crlf_skill_text, mkdir, read, skill_text, skillforge, summary_line, symlink, temporary, write,
};

/// Lines of /etc/passwd that must never reach the output (every system has root's).
fn passwd_lines() -> Vec<String> {
    let text = String::from_utf8_lossy(&read(std::path::Path::new("/etc/passwd"))).into_owned();
    let lines: Vec<String> = text
        .lines()
        .filter(|line| !line.trim().is_empty())
        .map(str::to_string)
        .collect();
    assert!(
        lines.iter().any(|line| line.starts_with("root:x:0:0")),
        "/etc/passwd has no root line to look for"
    );
    lines
}

#[test]
fn a_skill_md_linking_to_etc_passwd_is_named_and_never_printed() {
    let temp = temporary();
    mkdir(&temp.path.join("t/x"));
    symlink("/etc/passwd", &temp.path.join("t/x/SKILL.md"));
    let secrets = passwd_lines();

    for (path, boundary) in [("t", "t"), ("t/x/SKILL.md", "t/x")] {
        let run = skillforge(&temp.path, &["lint", path, "--no-config"]);
        assert_eq!(run.code, 2, "lint {path}: {run:?}");
        assert_eq!(
            run.stderr,
            format!(
                "error: t/x/SKILL.md: is a symbolic link to /etc/passwd, outside {}; not linted\n",
                temp.path.join(boundary).display()
            ),
            "lint {path}"
        );
        assert_eq!(
            summary_line(&run.stdout),
            "0 errors, 0 warnings, 0 infos in 0 files; 0 fixable with --fix, 0 more with --unsafe-fixes.",
            "lint {path}"
        );
        for line in &secrets {
            assert!(
                !run.all().contains(line.as_str()),
                "lint {path} printed {line:?}"
            );
        }
        // The fields alone, in case a report reformats the line.
        assert!(!run.all().contains("root:x:0:0"), "lint {path}: {run:?}");
    }
}

#[test]
fn a_linked_skill_folder_outside_is_noted_and_its_text_never_shown() {
    let temp = temporary();
    let marker = "MARKER-7f3a91-never-printed";
    write(
        &temp.path.join("outside/planted/SKILL.md"),
        format!("---\nname: planted\ndescription: {marker}. Use when asked.\n---\n{marker}\n"),
    );
    write(&temp.path.join("t/real/SKILL.md"), skill_text("real"));
    symlink(
        temp.path.join("outside/planted"),
        &temp.path.join("t/planted"),
    );

    for format in ["text", "json", "sarif", "github"] {
        let run = skillforge(
            &temp.path,
            &["lint", "t", "--no-config", "--format", format],
        );
        assert_eq!(run.code, 0, "{format}: {run:?}");
        assert!(!run.all().contains(marker), "{format}: {run:?}");
        assert_eq!(
            run.stderr,
            format!(
                "note: t/planted: is a symbolic link to {}, outside {}; not followed\n",
                temp.path.join("outside/planted").display(),
                temp.path.join("t").display()
            ),
            "{format}"
        );
    }
    let run = skillforge(&temp.path, &["lint", "t", "--no-config"]);
    assert!(
        run.stdout
            .ends_with("in 1 files; 0 fixable with --fix, 0 more with --unsafe-fixes.\n"),
        "{run:?}"
    );

    // A folder whose only skill is behind a link out says so, instead of "no SKILL.md found".
    write(&temp.path.join("alone/.keep"), String::new());
    symlink(
        temp.path.join("outside/planted"),
        &temp.path.join("alone/planted"),
    );
    let run = skillforge(&temp.path, &["lint", "alone", "--no-config"]);
    assert_eq!(run.code, 2, "{run:?}");
    assert!(!run.all().contains(marker), "{run:?}");
    assert_eq!(
        run.stderr,
        format!(
            "error: alone: no SKILL.md found inside; alone/planted: is a symbolic link to {}, outside {}; not followed\n",
            temp.path.join("outside/planted").display(),
            temp.path.join("alone").display()
        )
    );

    // Linting the link itself is the user's choice of folder: it is read, as named.
    let run = skillforge(&temp.path, &["lint", "t/planted", "--no-config"]);
    assert!(run.all().contains("t/planted/SKILL.md"), "{run:?}");
}

#[test]
fn fix_never_writes_through_a_link_to_a_file_outside() {
    let temp = temporary();
    let outside = temp.path.join("outside/crlf.md");
    let original = crlf_skill_text("y");
    write(&outside, &original);
    // A modification time far in the past, so any rewrite shows even on a coarse clock.
    let old = std::time::SystemTime::UNIX_EPOCH + std::time::Duration::from_secs(1_000_000_000);
    let set = std::fs::File::options()
        .write(true)
        .open(&outside)
        .and_then(|file| file.set_modified(old));
    assert!(set.is_ok(), "{set:?}");
    let before = std::fs::metadata(&outside)
        .map(|metadata| (metadata.ino(), metadata.mtime()))
        .ok();
    mkdir(&temp.path.join("t/y"));
    symlink(&outside, &temp.path.join("t/y/SKILL.md"));
    // A fixable skill beside it, so the run does write something.
    write(&temp.path.join("t/z/SKILL.md"), crlf_skill_text("z"));

    let run = skillforge(&temp.path, &["lint", "--fix", "t", "--no-config"]);
    assert_eq!(run.code, 2, "{run:?}");
    assert_eq!(
        run.stderr,
        format!(
            "error: t/y/SKILL.md: is a symbolic link to {}, outside {}; not linted\n",
            outside.display(),
            temp.path.join("t").display()
        )
    );
    assert!(
        run.stdout.contains("Applied 1 fixes in 1 files."),
        "{run:?}"
    );
    assert_eq!(
        read(&temp.path.join("t/z/SKILL.md")),
        skill_text("z").as_bytes()
    );
    assert_eq!(read(&outside), original.as_bytes());
    let after = std::fs::metadata(&outside)
        .map(|metadata| (metadata.ino(), metadata.mtime()))
        .ok();
    assert_eq!(before, after);
    assert_eq!(after.map(|(_, mtime)| mtime), Some(1_000_000_000));
    // The link is still a link.
    let link = std::fs::symlink_metadata(temp.path.join("t/y/SKILL.md"));
    assert!(link.is_ok_and(|metadata| metadata.file_type().is_symlink()));
}

/// Inside the repository, a link named SKILL.md is read only when it leads to a skill file: a
/// downloaded skill linking to the repository's `.env` must not print the secret.
#[test]
fn a_skill_md_linking_to_another_file_of_the_repository_is_not_read() {
    let temp = temporary();
    let repository = temp.path.join("home");
    mkdir(&repository.join(".git"));
    write(
        &repository.join(".env"),
        "AWS_SECRET=hunter2-never-printed\n",
    );
    mkdir(&repository.join("Downloads/untrusted"));
    symlink(
        std::path::PathBuf::from("../../.env"),
        &repository.join("Downloads/untrusted/SKILL.md"),
    );
    let run = skillforge(&repository, &["lint", "Downloads/untrusted"]);
    assert_eq!(run.code, 2, "{run:?}");
    assert!(!run.all().contains("hunter2"), "{run:?}");
    assert!(
        run.stderr.contains(
            "Downloads/untrusted/SKILL.md: is a symbolic link to .env, which is no SKILL.md"
        ),
        "{run:?}"
    );
}

/// A `.git` (and a `skillforge.toml`) planted in a folder anyone may write to, such as `/tmp`, widens
/// nothing: the search for the repository stops below it.
#[test]
fn a_repository_planted_in_a_shared_folder_is_not_trusted() {
    use std::os::unix::fs::PermissionsExt;
    let temp = temporary();
    let shared = temp.path.join("shared");
    mkdir(&shared.join(".git"));
    write(&shared.join("skillforge.toml"), "ignore = [\"**\"]\n");
    if let Err(error) = std::fs::set_permissions(&shared, std::fs::Permissions::from_mode(0o1777)) {
        panic!("{error}");
    }
    write(
        &shared.join("alice/skills/bad/SKILL.md"),
        "---\nname: other\ndescription: A misnamed skill. Use when testing.\n---\nBody\n",
    );
    let run = skillforge(&shared.join("alice"), &["lint", "skills"]);
    assert_eq!(run.code, 1, "the planted configuration was used: {run:?}");
    assert!(run.stdout.contains("name-directory-mismatch"), "{run:?}");
}

/// Two folders sharing one SKILL.md by a hard link are two skills to every client: both are linted,
/// while the same folder named twice is linted once.
#[test]
fn a_hard_linked_copy_is_a_skill_of_its_own() {
    let temp = temporary();
    write(&temp.path.join("t/a/SKILL.md"), skill_text("a"));
    mkdir(&temp.path.join("t/b"));
    if let Err(error) = std::fs::hard_link(
        temp.path.join("t/a/SKILL.md"),
        temp.path.join("t/b/SKILL.md"),
    ) {
        panic!("{error}");
    }
    let run = skillforge(&temp.path, &["lint", "t", "--no-config"]);
    assert!(run.stdout.contains("in 2 files"), "{run:?}");
    // b's name does not match its folder: reported for b, not hidden behind a.
    assert!(run.stdout.contains("t/b/SKILL.md"), "{run:?}");
    let run = skillforge(
        &temp.path,
        &["lint", "t", "t/a", "./t/b/SKILL.md", "--no-config"],
    );
    assert!(run.stdout.contains("in 2 files"), "{run:?}");
    // A fix would split the link and leave the other name unfixed: refused for both, nothing written.
    let before = read(&temp.path.join("t/a/SKILL.md"));
    let run = skillforge(
        &temp.path,
        &["lint", "t", "--no-config", "--fix", "--unsafe-fixes"],
    );
    assert_eq!(run.code, 2, "{run:?}");
    assert!(
        run.stderr
            .contains("t/b/SKILL.md: has 2 names (hard links); a rewrite would give only this one the new text; nothing written"),
        "{run:?}"
    );
    assert_eq!(read(&temp.path.join("t/a/SKILL.md")), before);
    assert_eq!(read(&temp.path.join("t/b/SKILL.md")), before);
}

/// A link is resolved as the kernel would: `missing/../../b/SKILL.md` finds nothing, so nothing is read,
/// however clean the text of `b/SKILL.md`.
#[test]
fn a_link_through_a_missing_folder_is_not_read_as_its_lexical_target() {
    let temp = temporary();
    write(&temp.path.join("t/b/SKILL.md"), skill_text("b"));
    mkdir(&temp.path.join("t/a"));
    symlink("missing/../../b/SKILL.md", &temp.path.join("t/a/SKILL.md"));
    let run = skillforge(&temp.path, &["lint", "t/a", "--no-config"]);
    assert_eq!(run.code, 2, "{run:?}");
    assert!(
        run.stderr.contains(
            "t/a/SKILL.md: is a symbolic link to missing/../../b/SKILL.md, which leads to nothing (no such file or folder)"
        ),
        "{run:?}"
    );
    assert!(!run.stdout.contains("1 file"), "{run:?}");
}

/// `a/SKILL.md -> ../b/SKILL.md` is skill `a` to the clients, but its text is b's: a fix that sets the
/// name to the folder's would rename b, so `--fix --unsafe-fixes` leaves b's text alone.
#[test]
fn a_folder_name_fix_is_never_written_through_a_linked_skill_file() {
    let temp = temporary();
    let b = skill_text("b");
    write(&temp.path.join("t/b/SKILL.md"), &b);
    mkdir(&temp.path.join("t/a"));
    symlink("../b/SKILL.md", &temp.path.join("t/a/SKILL.md"));
    let run = skillforge(
        &temp.path,
        &["lint", "t", "--no-config", "--fix", "--unsafe-fixes"],
    );
    assert!(run.stdout.contains("name-directory-mismatch"), "{run:?}");
    assert_eq!(
        read(&temp.path.join("t/b/SKILL.md")),
        b.as_bytes(),
        "{run:?}"
    );
}
