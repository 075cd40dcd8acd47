//! Under the profiles of clients whose verdict comes from a model of the real client (Codex, Claude Code,
//! GitHub Copilot CLI, Gemini CLI, OpenCode),
//! a refused skill has an error finding saying why, and an error finding means the client refuses the
//! skill or misreads it (the rules in [`MISREADS`]): over every fixture SKILL.md, one profile at a time.
//! (That the verdicts are the clients' own is checked against the binaries in tests/fidelity.)

use std::path::{Path, PathBuf};

use skillforge_core::lint::config::Config;
use skillforge_core::lint::context::RealFiles;
use skillforge_core::lint::verdict::Outcome;
use skillforge_core::lint::workspace::{collect, lint_file, LintOptions};
use skillforge_core::lint::{ProfileId, Severity};

fn fixture_roots() -> Vec<PathBuf> {
    let core = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut roots = Vec::new();
    for base in [
        core.join("tests/fixtures/lint"),
        core.join("../../tests/fixtures"),
    ] {
        for entry in std::fs::read_dir(&base).into_iter().flatten().flatten() {
            if entry.path().is_dir() {
                roots.push(entry.path());
            }
        }
    }
    roots.sort();
    roots
}

/// Errors under a profile whose client loads the skill anyway, but not as written.
const MISREADS: &[(ProfileId, &str, &str)] = &[
    (
        ProfileId::ClaudeCode,
        "SF102",
        "no block on line 1: the first line of the text becomes the description",
    ),
    (
        ProfileId::ClaudeCode,
        "SF103",
        "an unclosed block is body: `---` becomes the description",
    ),
    (
        ProfileId::ClaudeCode,
        "SF110",
        "`Description` is not read: the description falls back to the body",
    ),
    (
        ProfileId::ClaudeCode,
        "SF113",
        "invalid UTF-8 is read as U+FFFD",
    ),
    (
        ProfileId::ClaudeCode,
        "SF406",
        "a list or map as the description is not read: the body's first line, else `Skill`",
    ),
    (
        ProfileId::ClaudeCode,
        "SF408",
        "an unknown tool name in `allowed-tools` grants nothing",
    ),
    (
        ProfileId::ClaudeCode,
        "SF409",
        "a model that is not an alias goes to the API as written; a non-string is ignored",
    ),
    (
        ProfileId::ClaudeCode,
        "SF410",
        "an invalid `effort` is dropped",
    ),
    (
        ProfileId::ClaudeCode,
        "SF411",
        "a `context` other than `fork` runs inline",
    ),
    (
        ProfileId::ClaudeCode,
        "SF412",
        "`agent` without `context: fork` has no effect",
    ),
    (
        ProfileId::ClaudeCode,
        "SF413",
        "an unknown `shell` falls back to bash",
    ),
    (
        ProfileId::ClaudeCode,
        "SF414",
        "malformed `hooks` are not loaded",
    ),
    (
        ProfileId::ClaudeCode,
        "SF415",
        "a flag that is neither true nor false reads as false",
    ),
    (
        ProfileId::ClaudeCode,
        "SF416",
        "a braced placeholder is never filled",
    ),
];

#[test]
fn errors_and_refusals_agree_for_the_modelled_clients() {
    let mut disagreements = Vec::new();
    let mut checked = 0;
    for profile in [
        ProfileId::Codex,
        ProfileId::ClaudeCode,
        ProfileId::Copilot,
        ProfileId::Gemini,
        ProfileId::Opencode,
    ] {
        let options = LintOptions {
            profiles: vec![profile],
            config: Config::default(),
        };
        for root in fixture_roots() {
            let Ok(files) = collect(std::slice::from_ref(&root), &Config::default()) else {
                continue;
            };
            for file in &files {
                let report = lint_file(file, &options, &RealFiles);
                let errors: Vec<&str> = report
                    .diagnostics
                    .iter()
                    .filter(|d| d.severity == Severity::Error && d.profiles.contains(&profile))
                    .map(|d| d.code.as_str())
                    .collect();
                let refused = !matches!(
                    report.verdicts[0].outcome,
                    Outcome::Loads { .. } | Outcome::Unlisted { .. }
                );
                checked += 1;
                let misread = |code: &&str| {
                    MISREADS
                        .iter()
                        .any(|(id, misread, _)| *id == profile && misread == code)
                };
                let agrees = if refused {
                    !errors.is_empty()
                } else {
                    errors.iter().all(misread)
                };
                if !agrees {
                    disagreements.push(format!(
                        "{profile} {}: errors {errors:?}, verdict {:?}",
                        report.path, report.verdicts[0].outcome
                    ));
                }
            }
        }
    }
    assert!(checked > 100, "only {checked} files checked");
    assert!(
        disagreements.is_empty(),
        "{} disagreements:\n{}",
        disagreements.len(),
        disagreements.join("\n")
    );
}
