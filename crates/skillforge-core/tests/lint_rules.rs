//! Every rule against its fixture folder: snapshots of the rendered diagnostics and of the fixed text, and a
//! check that fixes converge (a second lint finds nothing left to fix).

use std::fmt::Write as _;
use std::path::{Path, PathBuf};

use skillforge_core::lint::config::Config;
use skillforge_core::lint::context::RealFiles;
use skillforge_core::lint::fix::fix_until_stable;
use skillforge_core::lint::registry::CODES;
use skillforge_core::lint::workspace::{collect, lint_file, LintOptions};
use skillforge_core::lint::Applicability;

fn fixtures() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/lint")
}

fn relative(root: &Path, text: &str) -> String {
    text.replace(&format!("{}/", root.display()), "")
}

fn render(root: &Path) -> (String, String) {
    let options = LintOptions::default();
    let files = match collect(&[root.to_path_buf()], &Config::default()) {
        Ok(files) => files,
        Err(error) => panic!("{}: {error}", root.display()),
    };
    let mut diagnostics = String::new();
    let mut fixed = String::new();
    for file in &files {
        let report = lint_file(file, &options, &RealFiles);
        let _ = writeln!(diagnostics, "== {}", relative(root, &report.path));
        for diagnostic in &report.diagnostics {
            let start = diagnostic.span.start;
            let profiles: Vec<&str> = diagnostic
                .profiles
                .iter()
                .map(|profile| profile.as_str())
                .collect();
            let _ = writeln!(
                diagnostics,
                "{}:{} (utf16 {}) {} {} [{}] {} <{}>",
                start.line,
                start.column,
                start.column_utf16,
                diagnostic.severity.as_str(),
                diagnostic.code,
                diagnostic.rule,
                relative(root, &diagnostic.message),
                profiles.join(",")
            );
            if let Some(fix) = &diagnostic.fix {
                let kind = match fix.applicability {
                    Applicability::Safe => "safe",
                    Applicability::Unsafe => "unsafe",
                    Applicability::DisplayOnly => "display-only",
                };
                let _ = writeln!(diagnostics, "    fix ({kind}): {}", fix.title);
            }
        }
        for verdict in &report.verdicts {
            let outcome = serde_json::to_string(&verdict.outcome).unwrap_or_default();
            let _ = writeln!(
                diagnostics,
                "  verdict {}: {}",
                verdict.profile,
                relative(root, &outcome)
            );
        }
        let result = fix_until_stable(file, &options, &RealFiles, true);
        assert!(
            result.converged,
            "fixes for {} do not converge",
            file.display_path
        );
        // Converged means a fresh lint of the fixed text offers no applicable fix any more.
        let mut again = file.clone();
        again.source = result.text.clone();
        let left = lint_file(&again, &options, &RealFiles);
        assert!(
            left.diagnostics.iter().all(|diagnostic| diagnostic
                .fix
                .as_ref()
                .is_none_or(|fix| fix.applicability == Applicability::DisplayOnly)),
            "fixable findings remain in {} after fixing",
            file.display_path
        );
        if result.applied > 0 {
            let _ = write!(
                fixed,
                "== {} ({} fixes)\n{}",
                relative(root, &file.display_path),
                result.applied,
                result.text
            );
        }
    }
    (diagnostics, fixed)
}

#[test]
fn every_rule_has_a_fixture_that_triggers_it_and_snapshots() {
    let mut settings = insta::Settings::clone_current();
    settings.set_prepend_module_to_snapshot(false);
    settings.bind(|| {
        for (code, rule) in CODES {
            let root = fixtures().join(rule.name);
            assert!(
                root.is_dir(),
                "{code} {} has no fixture folder at {}",
                rule.name,
                root.display()
            );
            let (diagnostics, fixed) = render(&root);
            assert!(
                diagnostics.contains(&format!(" {code} [{}]", rule.name)),
                "the fixture of {code} {} does not trigger it:\n{diagnostics}",
                rule.name
            );
            insta::assert_snapshot!(format!("{code}-{}", rule.name), diagnostics);
            if rule.fix != skillforge_core::lint::FixAvailability::None {
                assert!(
                    !fixed.is_empty(),
                    "{code} {} offers fixes but its fixture fixed nothing",
                    rule.name
                );
                insta::assert_snapshot!(format!("{code}-{}-fixed", rule.name), fixed);
            }
        }
    });
}

#[test]
fn every_rule_has_a_committed_snapshot() {
    let snapshots = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/snapshots");
    for (code, rule) in CODES {
        let path = snapshots.join(format!("{code}-{}.snap", rule.name));
        assert!(
            path.is_file(),
            "{code} {} has no snapshot at {}",
            rule.name,
            path.display()
        );
    }
}

#[test]
fn ignore_comments_silence_their_code_and_only_unused_ones_are_reported() {
    use skillforge_core::lint::context::SkillFile;
    let text = "---\n# skillforge: ignore[SF203, SF999]\nname: PDF-Tools\ndescription: Extract text. Use when asked.\n---\n";
    let file = SkillFile::from_bytes(
        PathBuf::from("PDF-Tools/SKILL.md"),
        "PDF-Tools/SKILL.md".into(),
        text.as_bytes().to_vec(),
    );
    let report = lint_file(&file, &LintOptions::default(), &RealFiles);
    let codes: Vec<&str> = report
        .diagnostics
        .iter()
        .map(|diagnostic| diagnostic.code.as_str())
        .collect();
    assert!(!codes.contains(&"SF203"), "{codes:?}");
    let unused: Vec<&str> = report
        .diagnostics
        .iter()
        .filter(|diagnostic| diagnostic.code == "SF901")
        .map(|diagnostic| diagnostic.message.as_str())
        .collect();
    assert_eq!(unused, ["`SF999` is not a Skillforge rule code"]);
}

#[test]
fn a_lowercase_skill_file_beside_skill_md_is_noticed_from_the_folder_and_from_the_file() {
    let dir = tempfile::tempdir().unwrap();
    let skill = dir.path().join("pdf-tools");
    std::fs::create_dir(&skill).unwrap();
    let text =
        "---\nname: pdf-tools\ndescription: Fills PDF forms. Use when PDFs come up.\n---\nBody\n";
    std::fs::write(skill.join("SKILL.md"), text).unwrap();
    let beside = |path: &Path| -> Vec<bool> {
        collect(&[path.to_path_buf()], &Config::default())
            .unwrap()
            .iter()
            .map(|file| file.placement.lowercase_beside)
            .collect()
    };
    assert_eq!(beside(dir.path()), [false]);
    assert_eq!(beside(&skill.join("SKILL.md")), [false]);

    std::fs::write(skill.join("skill.md"), text).unwrap();
    assert_eq!(beside(dir.path()), [true]);
    assert_eq!(beside(&skill.join("SKILL.md")), [true]);
    // The lowercase file given on its own is SF604's case, not this one.
    assert_eq!(beside(&skill.join("skill.md")), [false]);

    std::fs::remove_file(skill.join("SKILL.md")).unwrap();
    let alone = collect(&[dir.path().to_path_buf()], &Config::default()).unwrap();
    assert_eq!(alone.len(), 1);
    assert!(alone[0].path.ends_with("skill.md"));
    assert!(!alone[0].placement.lowercase_beside);
}
