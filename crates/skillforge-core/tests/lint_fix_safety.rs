//! A quick fix never creates the next error: over every SKILL.md of the fixture corpus and the builtin
//! skills, each offered fix, applied alone, leaves a frontmatter that still parses (when it parsed) and adds
//! no finding (no code has more findings than before: a fix moves and resizes what follows it, and may
//! change what a finding quotes, so messages are not compared); and
//! `--fix --unsafe-fixes` as a whole ends with no finding the file did not have. The edits are applied and
//! the findings compared here, not with the engine's own check.

use std::collections::HashMap;
use std::path::{Path, PathBuf};

use skillforge_core::frontmatter::yaml;
use skillforge_core::lint::config::Config;
use skillforge_core::lint::context::{RealFiles, SkillFile};
use skillforge_core::lint::fix::fix_until_stable;
use skillforge_core::lint::workspace::{collect_all, lint_file, LintOptions};
use skillforge_core::lint::{Diagnostic, ProfileId, TextEdit};

/// Fixes checked over the corpus today are well above this; fewer means files or fixes went missing.
const MIN_FIXES_CHECKED: usize = 490;

fn corpus_roots() -> Vec<PathBuf> {
    let core = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut roots = Vec::new();
    for base in [
        core.join("tests/fixtures/lint"),
        core.join("../../tests/fixtures"),
        core.join("../../skills"),
    ] {
        let mut entries: Vec<PathBuf> = std::fs::read_dir(&base)
            .unwrap_or_else(|error| panic!("{}: {error}", base.display()))
            .flatten()
            .map(|entry| entry.path())
            .filter(|path| path.is_dir())
            .collect();
        entries.sort();
        roots.extend(entries);
    }
    roots
}

fn corpus() -> Vec<SkillFile> {
    let mut files = Vec::new();
    for root in corpus_roots() {
        // A tree with no skill at all (a fixture of what is not a skill) has nothing to fix.
        if let Ok(collected) = collect_all(std::slice::from_ref(&root), &Config::default()) {
            files.extend(collected.files);
        }
    }
    files
}

/// The edits put into the text, by position; `None` when they do not fit it or overlap.
fn applied(source: &str, edits: &[TextEdit]) -> Option<String> {
    let mut edits: Vec<&TextEdit> = edits.iter().collect();
    edits.sort_by_key(|edit| (edit.range.start(), edit.range.end()));
    let mut out = String::new();
    let mut at = 0;
    for edit in edits {
        let (start, end) = (edit.range.start(), edit.range.end());
        if start < at || end > source.len() {
            return None;
        }
        out.push_str(source.get(at..start)?);
        out.push_str(&edit.replacement);
        at = end;
    }
    out.push_str(source.get(at..)?);
    Some(out)
}

fn parses(source: &str) -> bool {
    yaml::layout(source).is_ok_and(|layout| yaml::parse(source, layout.yaml).is_ok())
}

/// How many findings have each code.
fn counts(diagnostics: &[Diagnostic]) -> HashMap<String, usize> {
    let mut counts = HashMap::new();
    for diagnostic in diagnostics {
        *counts.entry(diagnostic.code.clone()).or_insert(0) += 1;
    }
    counts
}

/// The codes `after` has more findings of than `before`, with the messages of `after`'s findings of
/// those codes.
fn added(before: &[Diagnostic], after: &[Diagnostic]) -> Vec<String> {
    let had = counts(before);
    let mut out: Vec<String> = counts(after)
        .into_iter()
        .filter(|(code, count)| *count > had.get(code).copied().unwrap_or(0))
        .flat_map(|(code, _)| {
            after
                .iter()
                .filter(move |diagnostic| diagnostic.code == code)
                .map(|diagnostic| format!("{} {}", diagnostic.code, diagnostic.message))
        })
        .collect();
    out.sort();
    out
}

fn with_text(file: &SkillFile, text: &str) -> SkillFile {
    let mut changed = file.clone();
    changed.source = text.to_string();
    changed
}

/// Every offered fix of `file` under `options`, each checked alone; returns how many were checked.
fn check_each_fix(file: &SkillFile, options: &LintOptions, label: &str) -> usize {
    let report = lint_file(file, options, &RealFiles);
    let parsed = parses(&file.source);
    let mut checked = 0;
    for diagnostic in &report.diagnostics {
        let Some(fix) = &diagnostic.fix else { continue };
        let what = format!(
            "{} [{label}] {} `{}`",
            file.display_path, diagnostic.code, fix.title
        );
        let Some(text) = applied(&file.source, &fix.edits) else {
            panic!("{what}: the edits do not fit the text or overlap");
        };
        assert!(
            !parsed || parses(&text),
            "{what}: the frontmatter no longer parses:\n{text}"
        );
        let after = lint_file(&with_text(file, &text), options, &RealFiles);
        let new = added(&report.diagnostics, &after.diagnostics);
        assert!(new.is_empty(), "{what}: adds {new:#?}\nfixed text:\n{text}");
        checked += 1;
    }
    // All fixes together, pass after pass, end with nothing the file did not have.
    let fixed = fix_until_stable(file, options, &RealFiles, true);
    assert!(
        fixed.converged,
        "{} [{label}]: fixes do not settle",
        file.display_path
    );
    assert!(
        !parsed || parses(&fixed.text),
        "{} [{label}]: --fix --unsafe-fixes leaves YAML that does not parse:\n{}",
        file.display_path,
        fixed.text
    );
    let after = lint_file(&with_text(file, &fixed.text), options, &RealFiles);
    let new = added(&report.diagnostics, &after.diagnostics);
    assert!(
        new.is_empty(),
        "{} [{label}]: --fix --unsafe-fixes adds {new:#?}\nfixed text:\n{}",
        file.display_path,
        fixed.text
    );
    checked
}

#[test]
fn every_offered_fix_in_the_corpus_parses_and_adds_no_finding() {
    let files = corpus();
    assert!(
        files.len() > 150,
        "only {} SKILL.md files found",
        files.len()
    );
    // All profiles at once, then each alone: which fixes are offered depends on the profiles.
    let mut selections: Vec<(String, Vec<ProfileId>)> =
        vec![("all".into(), ProfileId::ALL.to_vec())];
    selections.extend(
        ProfileId::ALL
            .iter()
            .map(|profile| (profile.as_str().to_string(), vec![*profile])),
    );
    let mut checked = 0;
    for (label, profiles) in &selections {
        let options = LintOptions {
            profiles: profiles.clone(),
            config: Config::default(),
        };
        for file in &files {
            checked += check_each_fix(file, &options, label);
        }
    }
    println!(
        "fixes checked: {checked} over {} files and {} profile selections",
        files.len(),
        selections.len()
    );
    assert!(
        checked >= MIN_FIXES_CHECKED,
        "only {checked} fixes checked; expected at least {MIN_FIXES_CHECKED}"
    );
}

/// A skill written into a temporary folder named `folder`, read back as the CLI reads it.
fn skill(temp: &Path, folder: &str, text: &str) -> SkillFile {
    let dir = temp.join(folder);
    std::fs::create_dir_all(&dir).unwrap_or_else(|error| panic!("{error}"));
    std::fs::write(dir.join("SKILL.md"), text).unwrap_or_else(|error| panic!("{error}"));
    let collected =
        collect_all(&[dir], &Config::default()).unwrap_or_else(|error| panic!("{error}"));
    collected
        .files
        .into_iter()
        .next()
        .unwrap_or_else(|| panic!("{folder}: not collected"))
}

fn fix_of<'a>(diagnostics: &'a [Diagnostic], code: &str) -> Option<&'a [TextEdit]> {
    diagnostics
        .iter()
        .filter(|diagnostic| diagnostic.code == code)
        .find_map(|diagnostic| diagnostic.fix.as_ref())
        .map(|fix| fix.edits.as_slice())
}

#[test]
fn metadata_moves_and_renames_that_used_to_break_the_file() {
    let temp = tempfile::tempdir().unwrap_or_else(|error| panic!("{error}"));
    let options = LintOptions::default();

    // A flow-style `metadata` map cannot take a block entry: nothing offered may break it.
    let flow = skill(
        temp.path(),
        "flow",
        "---\nname: flow\ndescription: Keep notes. Use when the user asks for notes.\nversion: \"1\"\nmetadata: { a: b }\n---\n# Steps\n",
    );
    check_each_fix(&flow, &options, "all");

    // Under a `metadata:` block indented by 4, the moved key takes 4 spaces too.
    let indented = skill(
        temp.path(),
        "indented",
        "---\nname: indented\ndescription: Keep notes. Use when the user asks for notes.\nversion: \"1\"\nmetadata:\n    author: S\n---\n# Steps\n",
    );
    let report = lint_file(&indented, &options, &RealFiles);
    let edits = fix_of(&report.diagnostics, "SF402")
        .unwrap_or_else(|| panic!("the move under `metadata` is not offered: {report:#?}"));
    assert_eq!(
        applied(&indented.source, edits).as_deref(),
        Some("---\nname: indented\ndescription: Keep notes. Use when the user asks for notes.\nmetadata:\n    author: S\n    version: \"1\"\n---\n# Steps\n")
    );
    check_each_fix(&indented, &options, "all");

    // `A11y Auditor` in `a11y-auditor/` is renamed to the folder's name, which no rule flags.
    let auditor = skill(
        temp.path(),
        "a11y-auditor",
        "---\nname: A11y Auditor\ndescription: Audit pages for accessibility. Use when the user asks for an audit.\n---\n# Steps\n",
    );
    let report = lint_file(&auditor, &options, &RealFiles);
    let edits = fix_of(&report.diagnostics, "SF203")
        .unwrap_or_else(|| panic!("the rename is not offered: {report:#?}"));
    let renamed = applied(&auditor.source, edits).unwrap_or_default();
    assert!(renamed.contains("\nname: a11y-auditor\n"), "{renamed}");
    let after = lint_file(&with_text(&auditor, &renamed), &options, &RealFiles);
    assert!(
        !after
            .diagnostics
            .iter()
            .any(|diagnostic| diagnostic.code.starts_with("SF20")),
        "{after:#?}"
    );
    check_each_fix(&auditor, &options, "all");

    // The same rename in a folder that has the old name would trade SF203 for SF206
    // (name-directory-mismatch), which the file did not have: not offered.
    let elsewhere = skill(
        temp.path(),
        "A11y Auditor",
        "---\nname: A11y Auditor\ndescription: Audit pages for accessibility. Use when the user asks for an audit.\n---\n# Steps\n",
    );
    let report = lint_file(&elsewhere, &options, &RealFiles);
    assert!(
        fix_of(&report.diagnostics, "SF203").is_none(),
        "a rename that makes the name differ from its folder is offered: {report:#?}"
    );
    check_each_fix(&elsewhere, &options, "all");
}

#[test]
fn a_fix_that_only_changes_the_numbers_of_a_finding_is_offered() {
    // Turning CRLF into LF makes the body fewer bytes: SF502's "about N tokens (M bytes)" changes, and
    // stays the same finding.
    let temp = tempfile::tempdir().unwrap_or_else(|error| panic!("{error}"));
    let mut text = "---\nname: long\ndescription: Keep notes. Use when the user asks for notes.\n---\n# Steps\n"
        .to_string();
    for line in 0..3000 {
        text.push_str(&format!("line {line}\n"));
    }
    let long = skill(temp.path(), "long", &text.replace('\n', "\r\n"));
    let options = LintOptions::default();
    let report = lint_file(&long, &options, &RealFiles);
    assert!(
        report
            .diagnostics
            .iter()
            .any(|diagnostic| diagnostic.code == "SF502"),
        "{report:#?}"
    );
    assert!(
        fix_of(&report.diagnostics, "SF111").is_some(),
        "the line-ending fix is not offered"
    );
    check_each_fix(&long, &options, "all");
}
