use std::path::{Path, PathBuf};

use super::*;

fn write(path: &Path, text: &str) {
    if let Some(parent) = path.parent() {
        std::fs::create_dir_all(parent).ok();
    }
    std::fs::write(path, text).ok();
}

/// A root with two valid skills, some junk an export leaves out, and an `evals/` folder.
fn workspace() -> (tempfile::TempDir, PathBuf) {
    let Ok(temp) = tempfile::tempdir() else {
        panic!("no temporary directory");
    };
    let root = temp.path().join("skills");
    write(
        &root.join("alpha/SKILL.md"),
        "---\nname: alpha\ndescription: Formats alpha reports. Use when asked for an alpha report.\n---\n# Alpha\n\nRun scripts/run.sh.\n",
    );
    write(
        &root.join("alpha/scripts/run.sh"),
        "#!/bin/sh\necho alpha\n",
    );
    write(&root.join("alpha/references/guide.md"), "guide\n");
    write(&root.join("alpha/evals/cases.json"), "[]\n");
    write(&root.join("alpha/__pycache__/x.cpython-312.pyc"), "junk");
    write(&root.join("alpha/scripts/helper.pyc"), "junk");
    write(&root.join("alpha/.DS_Store"), "junk");
    write(
        &root.join("beta/SKILL.md"),
        "---\nname: beta\ndescription: Checks beta configuration files. Use for beta config questions.\n---\nBody.\n",
    );
    (temp, root)
}

fn request(root: &Path, target: Target, out: PathBuf) -> ExportRequest {
    ExportRequest {
        roots: vec![root.to_path_buf()],
        target,
        skills: None,
        out,
        package_name: Some("acme-skills".to_string()),
        package_version: None,
        client: Some(Client::Claude),
        force: false,
        links: LinkPolicy::Refuse,
    }
}

/// Every file under `folder`, relative path → bytes.
fn tree(folder: &Path) -> BTreeMap<String, Vec<u8>> {
    fn visit(base: &Path, folder: &Path, out: &mut BTreeMap<String, Vec<u8>>) {
        let Ok(entries) = std::fs::read_dir(folder) else {
            return;
        };
        for entry in entries.flatten() {
            let path = entry.path();
            if path.is_dir() {
                visit(base, &path, out);
            } else if let (Ok(relative), Ok(bytes)) =
                (path.strip_prefix(base), std::fs::read(&path))
            {
                out.insert(relative.display().to_string(), bytes);
            }
        }
    }
    let mut out = BTreeMap::new();
    visit(folder, folder, &mut out);
    out
}

fn run(request: &ExportRequest) -> ExportReport {
    match export(request) {
        Ok(report) => report,
        Err(error) => panic!("export failed: {error}"),
    }
}

#[test]
fn every_target_is_byte_identical_when_repeated() {
    let (temp, root) = workspace();
    for target in [
        Target::PythonPackage,
        Target::SkillArchive,
        Target::ClientFolder,
    ] {
        let first = temp.path().join(format!("{}-1", target.as_str()));
        let second = temp.path().join(format!("{}-2", target.as_str()));
        let one = run(&request(&root, target, first.clone()));
        let two = run(&request(&root, target, second.clone()));
        assert!(!one.blocked && !two.blocked, "{:?}", one.problems);
        let (first, second) = (tree(&first), tree(&second));
        assert!(!first.is_empty());
        // Stamps record the source folder, which is the same for both runs.
        assert_eq!(first, second, "{}", target.as_str());
    }
}

#[test]
fn python_package_holds_the_skills_the_wheel_and_a_manifest() {
    let (temp, root) = workspace();
    let out = temp.path().join("package");
    run(&request(&root, Target::PythonPackage, out.clone()));
    let files = tree(&out);
    for expected in [
        "pyproject.toml",
        "bundle.json",
        "src/acme_skills/__init__.py",
        "src/acme_skills/bundled/alpha/SKILL.md",
        "src/acme_skills/bundled/alpha/scripts/run.sh",
        "src/acme_skills/bundled/alpha/evals/cases.json",
        "src/acme_skills/bundled/beta/SKILL.md",
        "dist/acme_skills-0.1.0-py3-none-any.whl",
    ] {
        assert!(
            files.contains_key(expected),
            "{expected} missing: {:?}",
            files.keys()
        );
    }
    assert!(!files.keys().any(|path| path.contains("pycache")
        || path.ends_with(".pyc")
        || path.ends_with(".DS_Store")));
    let Some(manifest) = files.get("bundle.json") else {
        panic!("no manifest")
    };
    let Ok(manifest) = serde_json::from_slice::<serde_json::Value>(manifest) else {
        panic!("manifest is not JSON")
    };
    let listed = manifest["files"].as_array().map(Vec::len).unwrap_or(0);
    assert_eq!(
        listed,
        files.len() - 1,
        "every file but the manifest itself"
    );
    assert_eq!(
        manifest["skills"][0]["location"],
        "package:acme_skills/bundled/alpha/SKILL.md"
    );
}

#[test]
fn archives_leave_out_evals_and_junk_and_keep_the_folder_at_the_top() {
    let (temp, root) = workspace();
    let out = temp.path().join("archives");
    run(&request(&root, Target::SkillArchive, out.clone()));
    let Ok(bytes) = std::fs::read(out.join("alpha.skill")) else {
        panic!("no archive")
    };
    let Ok(mut archive) = zip::ZipArchive::new(std::io::Cursor::new(bytes)) else {
        panic!("unreadable archive")
    };
    let mut names = Vec::new();
    for index in 0..archive.len() {
        let Ok(member) = archive.by_index(index) else {
            panic!("unreadable member")
        };
        let name = member
            .name()
            .map(|name| name.to_string())
            .unwrap_or_default();
        assert_eq!(member.last_modified(), Some(zip::DateTime::default()));
        let mode = member.unix_mode().unwrap_or(0) & 0o777;
        assert!(mode == 0o644 || mode == 0o755, "{name}: {mode:o}");
        names.push(name);
    }
    assert_eq!(
        names,
        [
            "alpha/SKILL.md",
            "alpha/references/guide.md",
            "alpha/scripts/run.sh"
        ]
    );
}

#[test]
fn an_invalid_skill_blocks_the_export_and_nothing_is_written() {
    let (temp, root) = workspace();
    // Fields beyond the six of the specification are refused on upload.
    write(
        &root.join("beta/SKILL.md"),
        "---\nname: beta\ndescription: Checks beta configuration files.\nwhen_to_use: always\n---\nBody.\n",
    );
    let out = temp.path().join("archives");
    let report = run(&request(&root, Target::SkillArchive, out.clone()));
    assert!(report.blocked);
    assert!(report.errors() > 0);
    assert!(report
        .problems
        .iter()
        .any(|problem| problem.skill.as_deref() == Some("beta")));
    assert!(report.written.is_empty());
    assert!(!out.exists());
}

#[test]
fn an_unreadable_skill_blocks_exporting_everything() {
    let (temp, root) = workspace();
    write(&root.join("broken/SKILL.md"), "---\nname: broken\n");
    let report = run(&request(
        &root,
        Target::PythonPackage,
        temp.path().join("p"),
    ));
    assert!(report.blocked, "{:?}", report.problems);
    assert!(report
        .problems
        .iter()
        .any(|problem| problem.message.contains("unterminated skill frontmatter")));
}

#[test]
fn links_are_refused_or_copied_only_from_inside_the_skill() {
    let (temp, root) = workspace();
    write(&temp.path().join("secret.txt"), "secret");
    let inside = root.join("alpha/references/alias.md");
    let outside = root.join("beta/leak.md");
    let (Ok(()), Ok(())) = (
        std::os::unix::fs::symlink("guide.md", &inside),
        std::os::unix::fs::symlink("../../secret.txt", &outside),
    ) else {
        panic!("cannot create links")
    };
    let out = temp.path().join("package");
    let report = run(&request(&root, Target::PythonPackage, out.clone()));
    assert!(report.blocked);
    assert!(report
        .problems
        .iter()
        .any(|problem| problem.message.contains("alias.md: is a symbolic link")));
    assert!(!out.exists());

    let mut follow = request(&root, Target::PythonPackage, out.clone());
    follow.links = LinkPolicy::FollowInside;
    let report = run(&follow);
    assert!(report.blocked, "a link leaving the skill stays refused");
    assert!(report
        .problems
        .iter()
        .any(|problem| problem.message.contains("leaves the skill folder")));
    assert!(!out.exists());

    std::fs::remove_file(&outside).ok();
    let report = run(&follow);
    assert!(!report.blocked, "{:?}", report.problems);
    let copied = std::fs::read(out.join("src/acme_skills/bundled/alpha/references/alias.md"));
    assert_eq!(copied.ok().as_deref(), Some(&b"guide\n"[..]));

    // An absolute link is resolved the same way: inside the skill it is copied, outside refused.
    std::fs::remove_file(&inside).ok();
    let Ok(()) = std::os::unix::fs::symlink(root.join("alpha/references/guide.md"), &inside) else {
        panic!("cannot create a link")
    };
    let Ok(()) = std::os::unix::fs::symlink(temp.path().join("secret.txt"), &outside) else {
        panic!("cannot create a link")
    };
    let report = run(&follow);
    assert!(report.blocked);
    assert!(report
        .problems
        .iter()
        .all(|problem| !problem.message.contains("alias.md")));
    assert!(report
        .problems
        .iter()
        .any(|problem| problem.message.contains("leak.md: symbolic link")));
}

#[test]
fn hostile_file_names_never_leave_the_destination() {
    let (temp, root) = workspace();
    for name in ["..\\..\\evil.sh", "line\nbreak.md", "C:evil"] {
        write(&root.join("alpha").join(name), "x");
    }
    for target in [
        Target::SkillArchive,
        Target::PythonPackage,
        Target::ClientFolder,
    ] {
        let out = temp.path().join(format!("out-{}", target.as_str()));
        let report = run(&request(&root, target, out.clone()));
        assert!(report.blocked, "{}", target.as_str());
        let refused = report
            .problems
            .iter()
            .filter(|problem| problem.message.contains("rename it before exporting"))
            .count();
        assert_eq!(refused, 3, "{:?}", report.problems);
        assert!(!out.exists());
    }
    assert!(!temp.path().join("evil.sh").exists());
}

#[test]
fn existing_destinations_need_force() {
    let (temp, root) = workspace();
    let out = temp.path().join("archives");
    write(&out.join("keep.txt"), "mine");
    let refused = export(&request(&root, Target::SkillArchive, out.clone()));
    assert!(matches!(
        refused,
        Err(ExportError::Destination(DestinationError::Exists(_)))
    ));
    assert_eq!(
        std::fs::read_to_string(out.join("keep.txt"))
            .ok()
            .as_deref(),
        Some("mine")
    );
    // Force never replaces a folder an export did not write: it could be the author's project or home.
    let mut forced = request(&root, Target::SkillArchive, out.clone());
    forced.force = true;
    let refused = export(&forced);
    assert!(
        matches!(
            refused,
            Err(ExportError::Destination(DestinationError::NotAnExport(_)))
        ),
        "{refused:?}"
    );
    assert!(out.join("keep.txt").is_file());
    // An earlier export is replaced with force, and only with force.
    std::fs::remove_file(out.join("keep.txt")).ok();
    assert_eq!(
        run(&request(&root, Target::SkillArchive, out.clone())).written[0].action,
        WriteAction::Created
    );
    // Refused without force, saying what force would do: nothing of the earlier export goes that this
    // one does not write again, and the author's own file stays.
    write(&out.join("notes.txt"), "mine");
    let refused = export(&request(&root, Target::SkillArchive, out.clone()));
    let Err(ExportError::Destination(error @ DestinationError::EarlierExport { .. })) = refused
    else {
        panic!("{refused:?}");
    };
    assert_eq!(
        error.to_string(),
        format!(
            "{}: holds an earlier export; replacing it (--force) would delete nothing it wrote that this export does not write again and keep what no export wrote: notes.txt",
            out.display()
        )
    );
    std::fs::remove_file(out.join("notes.txt")).ok();
    let report = run(&forced);
    assert_eq!(report.written[0].action, WriteAction::Replaced);
    assert!(out.join("alpha.skill").is_file());
    let leftovers: Vec<_> = std::fs::read_dir(temp.path())
        .map(|entries| {
            entries
                .flatten()
                .map(|entry| entry.file_name().to_string_lossy().into_owned())
                .filter(|name| name.contains("skillforge"))
                .collect()
        })
        .unwrap_or_default();
    assert!(leftovers.is_empty(), "{leftovers:?}");
}

#[test]
fn client_installs_tell_updates_from_foreign_skills() {
    let (temp, root) = workspace();
    let project = temp.path().join("project");
    let installed = project.join(".claude/skills/alpha");
    let first = run(&request(&root, Target::ClientFolder, project.clone()));
    assert_eq!(first.written.len(), 2);
    assert!(installed.join(STAMP_FILE).is_file());
    assert!(matches!(
        installed_state(&installed, "alpha"),
        InstalledState::Unchanged(_)
    ));

    // Same skill, unchanged install: an update, but only when asked for.
    let again = export(&request(&root, Target::ClientFolder, project.clone()));
    assert!(
        matches!(&again, Err(ExportError::Installed { reason, .. }) if reason.contains("identical")),
        "{again:?}"
    );
    let mut forced = request(&root, Target::ClientFolder, project.clone());
    forced.force = true;
    assert_eq!(run(&forced).written[0].action, WriteAction::Replaced);

    // Edited after install: named in the refusal.
    write(&installed.join("references/guide.md"), "my notes\n");
    let edited = export(&request(&root, Target::ClientFolder, project.clone()));
    assert!(
        matches!(&edited, Err(ExportError::Installed { reason, .. }) if reason.contains("references/guide.md (edited)")),
        "{edited:?}"
    );

    // A skill folder nobody exported is never replaced, not even with force.
    let foreign = project.join(".claude/skills/beta");
    std::fs::remove_file(foreign.join(STAMP_FILE)).ok();
    let refused = export(&forced);
    assert!(
        matches!(refused, Err(ExportError::Foreign { .. })),
        "{refused:?}"
    );
    assert_eq!(
        std::fs::read_to_string(installed.join("references/guide.md"))
            .ok()
            .as_deref(),
        Some("my notes\n"),
        "a refusal writes nothing, not even the skills it could have replaced"
    );
}

#[test]
fn usage_problems_are_errors_not_findings() {
    let (temp, root) = workspace();
    let mut unknown = request(&root, Target::SkillArchive, temp.path().join("a"));
    unknown.skills = Some(vec!["nope".to_string()]);
    assert!(matches!(
        export(&unknown),
        Err(ExportError::UnknownSkills { .. })
    ));
    let mut no_client = request(&root, Target::ClientFolder, temp.path().join("b"));
    no_client.client = None;
    assert!(matches!(
        export(&no_client),
        Err(ExportError::MissingClient)
    ));
    let mut bad_name = request(&root, Target::PythonPackage, temp.path().join("c"));
    bad_name.package_name = Some("not a name".to_string());
    assert!(matches!(
        export(&bad_name),
        Err(ExportError::PackageName(_))
    ));
}

#[test]
fn a_selection_exports_only_the_named_skills() {
    let (temp, root) = workspace();
    let out = temp.path().join("archives");
    let mut selected = request(&root, Target::SkillArchive, out.clone());
    selected.skills = Some(vec!["beta".to_string()]);
    let report = run(&selected);
    assert_eq!(report.skills.len(), 1);
    assert!(out.join("beta.skill").is_file());
    assert!(!out.join("alpha.skill").exists());
}

#[test]
fn a_plan_validates_and_reports_without_writing() {
    let (temp, root) = workspace();
    for target in [
        Target::PythonPackage,
        Target::SkillArchive,
        Target::ClientFolder,
    ] {
        let out = temp.path().join(format!("{}-planned", target.as_str()));
        let planned = match plan(&request(&root, target, out.clone())) {
            Ok(report) => report,
            Err(error) => panic!("plan failed: {error}"),
        };
        assert!(!planned.blocked, "{:?}", planned.problems);
        assert!(planned.written.is_empty());
        assert!(!out.exists(), "a plan wrote {}", out.display());
        let exported = run(&request(&root, target, out));
        assert_eq!(planned.skills, exported.skills);
        assert_eq!(planned.problems, exported.problems);
    }
}

#[test]
fn an_output_inside_an_exported_root_is_refused() {
    let (temp, root) = workspace();
    let Ok(()) = std::os::unix::fs::symlink(&root, temp.path().join("alias")) else {
        panic!("cannot create a link")
    };
    for target in [
        Target::SkillArchive,
        Target::PythonPackage,
        Target::ClientFolder,
    ] {
        for out in [
            root.join("exported"),
            root.clone(),
            root.join("alpha/nested/deeper"),
            // Lexically outside the root, physically inside it.
            temp.path().join("alias/exported"),
            root.join("../skills/./exported"),
        ] {
            let refused = export(&request(&root, target, out.clone()));
            let Err(ExportError::Destination(error @ DestinationError::InsideRoot { .. })) =
                &refused
            else {
                panic!("{} into {}: {refused:?}", target.as_str(), out.display())
            };
            let message = error.to_string();
            assert!(message.contains(&root.display().to_string()), "{message}");
            assert!(message.contains("exported") || out == root, "{message}");
            assert!(matches!(
                plan(&request(&root, target, out.clone())),
                Err(ExportError::Destination(
                    DestinationError::InsideRoot { .. }
                ))
            ));
        }
    }
    assert!(!root.join("exported").exists());
    assert!(!root.join(".claude").exists());
    assert!(!root.join("alpha/nested").exists());
    // Beside the root is fine.
    run(&request(
        &root,
        Target::SkillArchive,
        temp.path().join("out"),
    ));
}

#[test]
fn force_keeps_files_the_user_added_and_lists_what_it_deletes() {
    let (temp, root) = workspace();
    let out = temp.path().join("archives");
    run(&request(&root, Target::SkillArchive, out.clone()));
    write(&out.join("notes.txt"), "mine\n");
    write(&out.join("drafts/idea.md"), "also mine\n");
    let mut forced = request(&root, Target::SkillArchive, out.clone());
    forced.force = true;
    forced.skills = Some(vec!["beta".to_string()]);
    let report = run(&forced);
    let written = &report.written[0];
    assert_eq!(written.action, WriteAction::Replaced);
    assert_eq!(written.removed, ["alpha.skill"]);
    assert_eq!(written.kept, ["drafts/", "notes.txt"]);
    assert_eq!(
        std::fs::read_to_string(out.join("notes.txt"))
            .ok()
            .as_deref(),
        Some("mine\n")
    );
    assert!(out.join("drafts/idea.md").is_file());
    assert!(out.join("beta.skill").is_file());
    assert!(!out.join("alpha.skill").exists());

    // A file the user put where this export writes: refused, naming it, nothing changed.
    write(&out.join("alpha.skill"), "my own archive");
    forced.skills = None;
    let refused = export(&forced);
    let Err(ExportError::Destination(error @ DestinationError::InTheWay { .. })) = &refused else {
        panic!("{refused:?}")
    };
    assert!(
        error
            .to_string()
            .contains(&out.join("alpha.skill").display().to_string()),
        "{error}"
    );
    assert_eq!(
        std::fs::read_to_string(out.join("alpha.skill"))
            .ok()
            .as_deref(),
        Some("my own archive")
    );
    assert!(out.join("notes.txt").is_file());

    // An edited file of the earlier export is replaced, and said so.
    std::fs::remove_file(out.join("alpha.skill")).ok();
    write(&out.join("beta.skill"), "edited");
    let report = run(&forced);
    assert_eq!(
        report.written[0].removed,
        ["beta.skill (edited since the earlier export)"]
    );
    assert!(out.join("alpha.skill").is_file() && out.join("notes.txt").is_file());
}

#[test]
fn force_on_a_python_package_keeps_the_authors_files() {
    let (temp, root) = workspace();
    let out = temp.path().join("package");
    run(&request(&root, Target::PythonPackage, out.clone()));
    write(&out.join("CHANGELOG.md"), "mine\n");
    write(&out.join("src/acme_skills/extra.py"), "x = 1\n");
    let mut forced = request(&root, Target::PythonPackage, out.clone());
    forced.force = true;
    forced.skills = Some(vec!["beta".to_string()]);
    let report = run(&forced);
    assert_eq!(
        report.written[0].kept,
        ["CHANGELOG.md", "src/acme_skills/extra.py"]
    );
    assert!(report.written[0]
        .removed
        .contains(&"src/acme_skills/bundled/alpha/SKILL.md".to_string()));
    assert!(out.join("CHANGELOG.md").is_file());
    assert!(out.join("src/acme_skills/extra.py").is_file());
    assert!(!out.join("src/acme_skills/bundled/alpha").exists());
}

#[test]
fn force_on_a_client_install_keeps_added_files_and_names_lost_edits() {
    let (temp, root) = workspace();
    let project = temp.path().join("project");
    let installed = project.join(".claude/skills/alpha");
    run(&request(&root, Target::ClientFolder, project.clone()));
    write(&installed.join("references/my-notes.md"), "mine\n");
    write(&installed.join("references/guide.md"), "edited\n");
    let refused = export(&request(&root, Target::ClientFolder, project.clone()));
    assert!(
        matches!(&refused, Err(ExportError::Installed { reason, .. })
            if reason.contains("references/guide.md (edited)")
                && reason.contains("references/my-notes.md (added)")),
        "{refused:?}"
    );
    let mut forced = request(&root, Target::ClientFolder, project.clone());
    forced.force = true;
    let report = run(&forced);
    let alpha = report
        .written
        .iter()
        .find(|written| written.path.ends_with("alpha"));
    let Some(alpha) = alpha else {
        panic!("{:?}", report.written)
    };
    assert_eq!(
        alpha.removed,
        ["references/guide.md (edited since the earlier export)"]
    );
    assert_eq!(alpha.kept, ["references/my-notes.md"]);
    assert_eq!(
        std::fs::read_to_string(installed.join("references/my-notes.md"))
            .ok()
            .as_deref(),
        Some("mine\n")
    );
    assert_eq!(
        std::fs::read_to_string(installed.join("references/guide.md"))
            .ok()
            .as_deref(),
        Some("guide\n")
    );
}

#[test]
fn an_unreadable_record_refuses_the_replacement() {
    let (temp, root) = workspace();
    let out = temp.path().join("archives");
    run(&request(&root, Target::SkillArchive, out.clone()));
    write(&out.join(MANIFEST_FILE), "not json");
    let mut forced = request(&root, Target::SkillArchive, out.clone());
    forced.force = true;
    let refused = export(&forced);
    let Err(ExportError::Destination(error @ DestinationError::UnreadableRecord { .. })) = &refused
    else {
        panic!("{refused:?}")
    };
    assert!(error.to_string().contains(&out.display().to_string()));
    assert!(out.join("alpha.skill").is_file());
}

#[test]
fn force_moves_a_link_it_finds_without_following_it() {
    let (temp, root) = workspace();
    let out = temp.path().join("archives");
    run(&request(&root, Target::SkillArchive, out.clone()));
    let outside = temp.path().join("outside");
    write(&outside.join("alpha.skill"), "theirs");
    let Ok(()) = std::os::unix::fs::symlink(&outside, out.join("linked")) else {
        panic!("cannot create a link")
    };
    let mut forced = request(&root, Target::SkillArchive, out.clone());
    forced.force = true;
    let report = run(&forced);
    assert_eq!(report.written[0].kept, ["linked"]);
    assert!(std::fs::symlink_metadata(out.join("linked")).is_ok_and(|meta| meta.is_symlink()));
    assert_eq!(
        std::fs::read_to_string(outside.join("alpha.skill"))
            .ok()
            .as_deref(),
        Some("theirs")
    );
}
