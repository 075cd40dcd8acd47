//! Where `skillforge.toml` may come from: the linted folder up to its repository's root, never
//! above; only the linted folder outside a repository; `--config FILE`; nothing with `--no-config`.

use super::{mkdir, skillforge, temporary, write};

/// A config that, when used, ignores every skill (so the failing one no longer fails).
const IGNORE_ALL: &str = "ignore = [\"**\"]\n";

/// `outer/proj/skills/bad`: a skill whose name does not match its folder (an error in every run that
/// reads no configuration).
fn layout() -> super::Temporary {
    let temp = temporary();
    write(
        &temp.path.join("outer/proj/skills/bad/SKILL.md"),
        "---\nname: other\ndescription: A skill misnamed. Use when testing.\n---\nBody\n",
    );
    temp
}

fn lint(temp: &super::Temporary, extra: &[&str]) -> super::Run {
    let mut args = vec!["lint", "outer/proj/skills"];
    args.extend_from_slice(extra);
    skillforge(&temp.path, &args)
}

fn used(run: &super::Run) -> bool {
    assert!(run.code == 0 || run.code == 1, "{run:?}");
    run.code == 0
}

#[test]
fn configuration_is_found_only_within_the_repository_or_the_linted_folder() {
    let temp = layout();
    let outer = temp.path.join("outer");
    // Not a repository: neither a config two levels up nor one in the parent is picked up.
    write(&outer.join("skillforge.toml"), IGNORE_ALL);
    write(&outer.join("proj/skillforge.toml"), IGNORE_ALL);
    let run = lint(&temp, &[]);
    assert_eq!(run.code, 1, "{run:?}");
    assert!(run.stdout.contains("name-directory-mismatch"), "{run:?}");
    // In the linted folder itself it is.
    write(&outer.join("proj/skills/skillforge.toml"), IGNORE_ALL);
    assert!(used(&lint(&temp, &[])));
    let removed = std::fs::remove_file(outer.join("proj/skills/skillforge.toml"));
    assert!(removed.is_ok());

    // A repository at proj: its root's config is used, the one above it is not.
    mkdir(&outer.join("proj/.git"));
    assert!(used(&lint(&temp, &[])));
    let removed = std::fs::remove_file(outer.join("proj/skillforge.toml"));
    assert!(removed.is_ok());
    let run = lint(&temp, &[]);
    assert_eq!(
        run.code, 1,
        "the config above the repository was used: {run:?}"
    );

    // --config FILE is used wherever it is; --no-config ignores the one that would be found.
    let elsewhere = temp.path.join("elsewhere.toml");
    write(&elsewhere, IGNORE_ALL);
    let shown = elsewhere.display().to_string();
    assert!(used(&lint(&temp, &["--config", &shown])));
    write(&outer.join("proj/skillforge.toml"), IGNORE_ALL);
    assert!(used(&lint(&temp, &[])));
    let run = lint(&temp, &["--no-config"]);
    assert_eq!(run.code, 1, "--no-config still read a config: {run:?}");
}

#[test]
fn a_repository_config_linking_outside_is_refused_unread() {
    let temp = layout();
    let outer = temp.path.join("outer");
    mkdir(&outer.join("proj/.git"));
    let secret = temp.path.join("secret.toml");
    write(&secret, "ignore = [\"**\"]\nSECRET_KEY_7f3a = \"x\"\n");
    super::symlink(&secret, &outer.join("proj/skillforge.toml"));
    let run = lint(&temp, &[]);
    assert_eq!(run.code, 2, "{run:?}");
    assert_eq!(
        run.stderr,
        format!(
            "error: {}: is a symbolic link to {}, outside {}; not read (pass it with --config to use it)\n",
            outer.join("proj/skillforge.toml").display(),
            secret.display(),
            outer.join("proj").display()
        )
    );
    assert!(!run.all().contains("SECRET_KEY_7f3a"), "{run:?}");
    // Named explicitly, it is the user's choice and is read (and its unknown key reported).
    let shown = secret.display().to_string();
    let run = lint(&temp, &["--config", &shown]);
    assert_eq!(run.code, 2, "{run:?}");
    assert!(
        run.stderr.contains("unknown field `SECRET_KEY_7f3a`"),
        "{run:?}"
    );
}

/// `ignore` patterns hold however the linted path is spelled: `--config` relative to the current
/// folder, through a linked folder, with `..`; `--fix` never touches an ignored file.
#[test]
fn ignored_files_stay_ignored_and_unfixed_however_the_path_is_written() {
    let temp = layout();
    let proj = temp.path.join("outer/proj");
    mkdir(&proj.join(".git"));
    let vendored = proj.join("vendor/bad/SKILL.md");
    let text = "---\nname: Bad_Name\n---\r\n\r\nBody\r\n";
    write(&vendored, text);
    write(
        &proj.join("skillforge.toml"),
        "ignore = [\"vendor\", \"skills\"]\n",
    );
    if let Err(error) = std::os::unix::fs::symlink(&proj, temp.path.join("linked")) {
        panic!("{error}");
    }
    for (folder, args) in [
        (
            &proj,
            vec![
                "lint",
                "--fix",
                "--unsafe-fixes",
                "--config",
                "skillforge.toml",
                "vendor",
            ],
        ),
        (
            &proj,
            vec!["lint", "--fix", "--unsafe-fixes", "skills/../vendor"],
        ),
        (
            &temp.path,
            vec!["lint", "--fix", "--unsafe-fixes", "linked/vendor"],
        ),
    ] {
        let run = skillforge(folder, &args);
        assert!(
            run.stdout.contains("in 0 files"),
            "{args:?} linted an ignored file: {run:?}"
        );
        assert_eq!(
            std::fs::read_to_string(&vendored).unwrap_or_default(),
            text,
            "{args:?} rewrote an ignored file"
        );
    }
}
