//! `skillforge export` end to end: the real binary on the export fixtures, full output and exit codes.

mod common;

use std::path::{Path, PathBuf};
use std::process::Command;

use common::run;

fn fixtures() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../tests/fixtures/export/skills")
}

fn workspace() -> tempfile::TempDir {
    let Ok(temp) = tempfile::tempdir() else {
        panic!("no temporary directory")
    };
    let copied = Command::new("cp")
        .arg("-R")
        .arg(fixtures())
        .arg(temp.path().join("skills"))
        .status();
    assert!(copied.is_ok_and(|status| status.success()));
    temp
}

#[test]
fn archives_are_written_with_a_summary() {
    let temp = workspace();
    let (code, stdout, stderr) = run(
        temp.path(),
        &[
            "export",
            "skills",
            "--to",
            "skill-archive",
            "--skills",
            "pdf-forms,release-notes",
            "--out",
            "out",
        ],
    );
    assert_eq!(code, 0, "{stdout}{stderr}");
    let out = temp.path().join("out");
    let expected = format!(
        "validated 2 skill(s) under claude-upload: 0 error(s), 0 warning(s)\n\
         created {} (3 file(s), {} bytes)\n  pdf-forms.skill\n  release-notes.skill\n",
        out.display(),
        ["bundle.json", "pdf-forms.skill", "release-notes.skill"]
            .iter()
            .map(|name| std::fs::metadata(out.join(name)).map_or(0, |meta| meta.len()))
            .sum::<u64>()
    );
    assert!(stdout.starts_with(&expected), "{stdout}");
    assert!(stdout.contains("  skill pdf-forms from "), "{stdout}");
}

#[test]
fn validation_errors_exit_1_and_usage_errors_exit_2() {
    let temp = workspace();
    // folder-named has no `name`, which the specification requires.
    let (code, stdout, _) = run(
        temp.path(),
        &[
            "export",
            "skills",
            "--to",
            "client-folder",
            "--client",
            "agents",
            "--out",
            "project",
        ],
    );
    assert_eq!(code, 1, "{stdout}");
    assert!(stdout.contains("SF201"), "{stdout}");
    assert!(stdout
        .ends_with("export blocked (client-folder): fix the errors above; nothing was written\n"));
    assert!(!temp.path().join("project").exists());

    let (code, _, stderr) = run(
        temp.path(),
        &[
            "export",
            "skills",
            "--to",
            "client-folder",
            "--out",
            "project",
        ],
    );
    assert_eq!(code, 2);
    assert!(stderr.contains("needs a client"), "{stderr}");

    let (code, _, stderr) = run(
        temp.path(),
        &[
            "export",
            "skills",
            "--to",
            "skill-archive",
            "--skills",
            "nope",
            "--out",
            "x",
        ],
    );
    assert_eq!(code, 2);
    assert!(stderr.contains("no skill named nope"), "{stderr}");

    std::fs::create_dir_all(temp.path().join("taken")).ok();
    std::fs::write(temp.path().join("taken/file"), "mine").ok();
    let (code, _, stderr) = run(
        temp.path(),
        &[
            "export",
            "skills",
            "--to",
            "python-package",
            "--out",
            "taken",
        ],
    );
    assert_eq!(code, 2);
    assert!(stderr.contains("already exists"), "{stderr}");
}

#[test]
fn json_report_lists_problems_and_written_destinations() {
    let temp = workspace();
    let (code, stdout, _) = run(
        temp.path(),
        &[
            "export",
            "skills",
            "--to",
            "python-package",
            "--out",
            "pkg",
            "--package-name",
            "acme-skills",
            "--format",
            "json",
        ],
    );
    assert_eq!(code, 0, "{stdout}");
    let Ok(report) = serde_json::from_str::<serde_json::Value>(&stdout) else {
        panic!("not JSON: {stdout}")
    };
    assert_eq!(report["target"], "python-package");
    assert_eq!(report["blocked"], false);
    assert_eq!(
        report["written"][0]["artifacts"][0],
        "dist/acme_skills-0.1.0-py3-none-any.whl"
    );
}

#[test]
fn an_output_inside_the_exported_root_is_refused_with_exit_2() {
    let temp = workspace();
    let link = std::os::unix::fs::symlink(temp.path().join("skills"), temp.path().join("alias"));
    assert!(link.is_ok());
    for out in ["skills/out", "skills", "alias/out"] {
        let (code, stdout, stderr) = run(
            temp.path(),
            &[
                "export",
                "skills",
                "--to",
                "skill-archive",
                "--skills",
                "pdf-forms",
                "--out",
                out,
            ],
        );
        assert_eq!(code, 2, "{out}: {stdout}{stderr}");
        assert!(stderr.contains(&format!("{out}:")), "{stderr}");
        assert!(
            stderr.contains(&temp.path().join("skills").display().to_string()),
            "{stderr}"
        );
        assert!(stderr.contains("choose an --out outside"), "{stderr}");
    }
    assert!(!temp.path().join("skills/out").exists());
}

#[test]
fn force_lists_what_it_deletes_and_keeps_what_the_user_added() {
    let temp = workspace();
    let export = |force: bool, skills: &str| {
        let mut args = vec![
            "export",
            "skills",
            "--to",
            "skill-archive",
            "--skills",
            skills,
            "--out",
            "out",
        ];
        if force {
            args.push("--force");
        }
        run(temp.path(), &args)
    };
    let (code, stdout, stderr) = export(false, "pdf-forms,release-notes");
    assert_eq!(code, 0, "{stdout}{stderr}");
    std::fs::write(temp.path().join("out/notes.txt"), "mine").ok();
    let (code, stdout, stderr) = export(true, "pdf-forms");
    assert_eq!(code, 0, "{stdout}{stderr}");
    assert!(
        stdout.contains("  deleted from the earlier export: release-notes.skill\n"),
        "{stdout}"
    );
    assert!(
        stdout.contains("  kept (no export wrote it): notes.txt\n"),
        "{stdout}"
    );
    assert!(temp.path().join("out/notes.txt").is_file());
    assert!(!temp.path().join("out/release-notes.skill").exists());

    // Kept in the way of a file this export writes: refused, naming the file.
    std::fs::write(temp.path().join("out/release-notes.skill"), "mine").ok();
    let (code, stdout, stderr) = export(true, "pdf-forms,release-notes");
    assert_eq!(code, 2, "{stdout}{stderr}");
    assert!(stderr.contains("out/release-notes.skill"), "{stderr}");
    assert!(stderr.contains("move it"), "{stderr}");
}

#[test]
fn client_folder_reexport_works_with_a_relative_out_from_any_folder() {
    let temp = workspace();
    std::fs::create_dir_all(temp.path().join("elsewhere")).ok();
    for (dir, root, out) in [
        (temp.path().to_path_buf(), "skills", "project"),
        (temp.path().join("elsewhere"), "../skills", "../project"),
    ] {
        for force in [false, true] {
            let mut args = vec![
                "export",
                root,
                "--to",
                "client-folder",
                "--client",
                "claude",
                "--skills",
                "pdf-forms",
                "--out",
                out,
            ];
            if force || dir != temp.path() {
                args.push("--force");
            }
            let (code, stdout, stderr) = run(&dir, &args);
            assert_eq!(code, 0, "{}: {stdout}{stderr}", dir.display());
        }
    }
    assert!(temp
        .path()
        .join("project/.claude/skills/pdf-forms/SKILL.md")
        .is_file());
}
