//! Applying fixes: non-overlapping edits in one pass, repeated until the file stops changing; and the check
//! that keeps a fix from being offered when it would leave the file worse than it found it.

use std::collections::HashMap;

use super::context::{FileProbe, SkillFile};
use super::workspace::{lint_file, lint_unchecked, FileReport, LintOptions};
use super::{Applicability, Diagnostic, TextEdit};

/// Most passes before giving up. Each pass applies every non-overlapping fix, so real files settle in two or
/// three; a file with dozens of conflicting findings on one line may need more, a true oscillation never ends.
pub const MAX_PASSES: usize = 32;

/// Applies the applicable fixes of `diagnostics` to `source`. Returns the new text and how many fixes were
/// applied; fixes overlapping an earlier one wait for the next pass.
pub fn apply(source: &str, diagnostics: &[Diagnostic], include_unsafe: bool) -> (String, usize) {
    let mut accepted: Vec<&TextEdit> = Vec::new();
    let mut applied = 0;
    let mut candidates: Vec<&Diagnostic> = diagnostics
        .iter()
        .filter(|diagnostic| {
            diagnostic
                .fix
                .as_ref()
                .is_some_and(|fix| match fix.applicability {
                    Applicability::Safe => true,
                    Applicability::Unsafe => include_unsafe,
                    Applicability::DisplayOnly => false,
                })
        })
        .collect();
    candidates.sort_by_key(|diagnostic| diagnostic.range.start);
    for diagnostic in candidates {
        let Some(fix) = &diagnostic.fix else { continue };
        let valid = fix.edits.iter().all(|edit| {
            edit.range.end() <= source.len()
                && source.is_char_boundary(edit.range.start())
                && source.is_char_boundary(edit.range.end())
        });
        let overlaps = fix.edits.iter().any(|edit| {
            accepted.iter().any(|other| overlap(edit, other))
                || fix.edits.iter().filter(|twin| overlap(edit, twin)).count() > 1
        });
        if !valid || overlaps {
            continue;
        }
        accepted.extend(fix.edits.iter());
        applied += 1;
    }
    (splice(source, accepted), applied)
}

/// The text with `edits` (valid and not overlapping) put in, in order of position.
fn splice(source: &str, mut edits: Vec<&TextEdit>) -> String {
    edits.sort_by_key(|edit| (edit.range.start, edit.range.end));
    let mut out = String::with_capacity(source.len());
    let mut at = 0;
    for edit in edits {
        out.push_str(source.get(at..edit.range.start()).unwrap_or(""));
        out.push_str(&edit.replacement);
        at = edit.range.end();
    }
    out.push_str(source.get(at..).unwrap_or(""));
    out
}

/// The text after one fix's edits, or `None` when they do not fit the text or overlap each other.
pub fn apply_one(source: &str, edits: &[TextEdit]) -> Option<String> {
    let fits = edits.iter().all(|edit| {
        edit.range.end() <= source.len()
            && source.is_char_boundary(edit.range.start())
            && source.is_char_boundary(edit.range.end())
    });
    let overlapping = edits
        .iter()
        .any(|edit| edits.iter().any(|other| overlap(edit, other)));
    (fits && !overlapping).then(|| splice(source, edits.iter().collect()))
}

/// What a file's lint said before a fix, to judge the text after it by.
struct Before {
    /// The frontmatter block was found and its YAML parsed.
    parses: bool,
    /// How many findings have each code ([`finding_key`]).
    findings: HashMap<String, usize>,
}

/// What makes a finding the same one after a fix: its code. A fix moves and resizes what follows it and
/// may change what a finding quotes (`Bad` does not match the folder, then `bad` does not), so a
/// message may change while the finding stays what it was; a fix adds a finding when it leaves more
/// findings of some code than there were.
fn finding_key(diagnostic: &Diagnostic) -> String {
    diagnostic.code.clone()
}

impl Before {
    fn of(source: &str, diagnostics: &[Diagnostic]) -> Before {
        let mut findings = HashMap::new();
        for diagnostic in diagnostics {
            *findings.entry(finding_key(diagnostic)).or_insert(0) += 1;
        }
        Before {
            parses: frontmatter_parses(source),
            findings,
        }
    }

    /// Whether `text` (the file after some fixes) still parses if it did, and has no more findings of
    /// any code than there were.
    fn holds_for(
        &self,
        file: &SkillFile,
        text: String,
        options: &LintOptions,
        files: &dyn FileProbe,
    ) -> bool {
        if self.parses && !frontmatter_parses(&text) {
            return false;
        }
        let mut candidate = file.clone();
        candidate.source = text;
        let after = lint_unchecked(&candidate, options, files);
        let mut left = self.findings.clone();
        after.diagnostics.iter().all(|diagnostic| {
            // A finding absent before fails at once.
            left.get_mut(&finding_key(diagnostic)).is_some_and(|count| {
                let had = *count > 0;
                *count = count.saturating_sub(1);
                had
            })
        })
    }
}

/// Whether the text has a frontmatter block whose YAML parses.
fn frontmatter_parses(source: &str) -> bool {
    crate::frontmatter::yaml::layout(source)
        .is_ok_and(|layout| crate::frontmatter::yaml::parse(source, layout.yaml).is_ok())
}

/// The answers of [`withhold_harmful`] for one text under one set of options, by a fix's edits.
#[derive(Debug, Default)]
pub struct FixChecks {
    holds_for: Option<(String, LintOptions)>,
    harmless: HashMap<Vec<TextEdit>, bool>,
}

/// Removes from `report` every fix that, applied alone to the file, makes a frontmatter that parsed fail to
/// parse, or adds a finding (more findings of some code than the file had). Only diagnostics with a fix cost
/// anything: one lint of the fixed text per distinct fix, remembered with the file for its text.
pub(crate) fn withhold_harmful(
    file: &SkillFile,
    options: &LintOptions,
    files: &dyn FileProbe,
    report: &mut FileReport,
) {
    // A fix without edits (one that creates a missing file) leaves the text as it is: nothing to check.
    let edits_text = |diagnostic: &Diagnostic| {
        diagnostic
            .fix
            .as_ref()
            .is_some_and(|fix| !fix.edits.is_empty())
    };
    if !report.diagnostics.iter().any(edits_text) {
        return;
    }
    // Taken out while the fixed texts are linted, so no lock is held meanwhile; put back after.
    let mut known = {
        let mut checks = file
            .fix_checks
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner);
        let current = checks
            .holds_for
            .as_ref()
            .is_some_and(|(text, kept)| *text == file.source && kept == options);
        if current {
            std::mem::take(&mut checks.harmless)
        } else {
            HashMap::new()
        }
    };
    let before = Before::of(&file.source, &report.diagnostics);
    for diagnostic in &mut report.diagnostics {
        let Some(fix) = &diagnostic.fix else { continue };
        if fix.edits.is_empty() {
            continue;
        }
        let harmless = match known.get(&fix.edits) {
            Some(harmless) => *harmless,
            None => {
                let harmless = apply_one(&file.source, &fix.edits)
                    .is_some_and(|text| before.holds_for(file, text, options, files));
                known.insert(fix.edits.clone(), harmless);
                harmless
            }
        };
        if !harmless {
            diagnostic.fix = None;
        }
    }
    let mut checks = file
        .fix_checks
        .lock()
        .unwrap_or_else(std::sync::PoisonError::into_inner);
    checks.holds_for = Some((file.source.clone(), options.clone()));
    checks.harmless = known;
}

/// Two edits conflict when their ranges intersect, or when one inserts strictly inside the other's range.
fn overlap(left: &TextEdit, right: &TextEdit) -> bool {
    if std::ptr::eq(left, right) {
        return false;
    }
    let (left, right) = (left.range, right.range);
    // Two insertions at one point are both kept, in the order their fixes were accepted (by position, then
    // rule order): each inserts whole lines, so neither can split the other.
    if left.is_empty() && right.is_empty() {
        return false;
    }
    left.start < right.end && right.start < left.end
        || (left.is_empty() && right.start < left.start && left.start < right.end)
        || (right.is_empty() && left.start < right.start && right.start < left.end)
}

/// The result of fixing one file until it is stable.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Fixed {
    pub text: String,
    pub applied: usize,
    /// False when fixes kept changing the file for [`MAX_PASSES`] passes: a bug in a rule's fix.
    pub converged: bool,
}

/// Lints and fixes repeatedly until no applicable fix remains.
pub fn fix_until_stable(
    file: &SkillFile,
    options: &LintOptions,
    files: &dyn FileProbe,
    include_unsafe: bool,
) -> Fixed {
    let mut current = file.clone();
    let mut applied = 0;
    for _ in 0..MAX_PASSES {
        let report = lint_file(&current, options, files);
        let (mut text, mut count) = apply(&current.source, &report.diagnostics, include_unsafe);
        if count == 0 || text == current.source {
            return Fixed {
                text: current.source,
                applied,
                converged: true,
            };
        }
        // Each fix was found harmless alone; fixes that are not harmless together are applied one per pass
        // instead, the first by position (harmless alone on this very text), so a pass never breaks the file.
        if count > 1
            && !Before::of(&current.source, &report.diagnostics).holds_for(
                &current,
                text.clone(),
                options,
                files,
            )
        {
            let first = first_applicable(&report.diagnostics, include_unsafe);
            (text, count) = apply(&current.source, first, include_unsafe);
        }
        applied += count;
        current.source = text;
    }
    Fixed {
        text: current.source,
        applied,
        converged: false,
    }
}

/// The applicable fix that comes first by position, as a slice for [`apply`].
fn first_applicable(diagnostics: &[Diagnostic], include_unsafe: bool) -> &[Diagnostic] {
    let first = diagnostics
        .iter()
        .enumerate()
        .filter(|(_, diagnostic)| {
            diagnostic
                .fix
                .as_ref()
                .is_some_and(|fix| match fix.applicability {
                    Applicability::Safe => true,
                    Applicability::Unsafe => include_unsafe,
                    Applicability::DisplayOnly => false,
                })
        })
        .min_by_key(|(_, diagnostic)| diagnostic.range.start)
        .map(|(index, _)| index);
    first.map_or(&[], |index| &diagnostics[index..=index])
}

/// Why fixed text was not saved. In every case the file on disk is as it was.
#[derive(Debug, thiserror::Error)]
pub enum WriteError {
    #[error("{path}: changed on disk while fixing; nothing written")]
    Changed { path: String },
    #[error("{path}: {source}")]
    Refused {
        path: String,
        #[source]
        source: crate::fs::write::WriteError,
    },
    #[error("{path}: was not read from disk; nothing written")]
    NotFromDisk { path: String },
}

/// Writes the fixed text of `file` back where it was read, atomically, keeping mode and owner, and only
/// if the file still holds exactly the text the fixes were computed from (`file.source`, as read).
pub fn write_fixed(file: &super::context::SkillFile, text: &str) -> Result<(), WriteError> {
    use crate::fs::write::{self, Expect};
    let path = file.display_path.clone();
    let origin = file
        .origin
        .as_ref()
        .ok_or_else(|| WriteError::NotFromDisk { path: path.clone() })?;
    let refused = |source| WriteError::Refused {
        path: path.clone(),
        source,
    };
    let Some((name, parents)) = origin.names.split_last() else {
        return Err(WriteError::NotFromDisk { path });
    };
    let parent = crate::fs::open::directory_beneath(
        &*origin.descriptor,
        parents.iter().map(std::ffi::OsString::as_os_str),
    )
    .map_err(|(errno, _)| refused(write::WriteError::Io(errno.into())))?;
    // The text is the bytes that were read, exactly: a file that was not valid UTF-8 is never fixed.
    if file.invalid_utf8_at.is_some() {
        return Err(WriteError::NotFromDisk { path });
    }
    let expect = Expect::Content {
        bytes_digest: crate::fs::Fingerprint::of(file.source.as_bytes()),
        identity: Some(origin.identity),
    };
    match write::replace_at(&parent, name, text.as_bytes(), &expect) {
        Ok(_) => Ok(()),
        Err(write::WriteError::Changed) => Err(WriteError::Changed { path }),
        Err(error) => Err(refused(error)),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::lint::context::RealFiles;
    use crate::lint::{Fix, Severity};
    use crate::text::TextRange;

    fn diagnostic_with(source: &str, range: TextRange, replacement: &str) -> Diagnostic {
        Diagnostic {
            code: "SF999".into(),
            rule: "made-up".into(),
            severity: Severity::Warning,
            message: "made up".into(),
            range,
            span: crate::frontmatter::yaml::lines::SourceLines::new(source).span(source, range),
            profiles: vec![crate::lint::ProfileId::Spec],
            fix: Some(Fix {
                title: "Made up".into(),
                edits: vec![TextEdit {
                    range,
                    replacement: replacement.into(),
                }],
                applicability: Applicability::Safe,
                creates: None,
            }),
        }
    }

    /// Fixes no rule proposes, to show the check does not rest on any rule: one breaks the YAML, one adds
    /// a finding, one is harmless; only the harmless one stays, and the answers are kept with the file.
    #[test]
    fn fixes_that_break_the_yaml_or_add_a_finding_are_withheld() {
        let source = "---\nname: pdf-tools\ndescription: Extract text from PDFs. Use when the user mentions PDFs.\n---\n# Steps\n";
        let file = SkillFile::from_bytes(
            "pdf-tools/SKILL.md".into(),
            "pdf-tools/SKILL.md".into(),
            source.as_bytes().to_vec(),
        );
        let options = LintOptions::default();
        let at = |needle: &str| {
            let start = source.find(needle).unwrap_or(0);
            TextRange::new(start, start + needle.len())
        };
        let mut report = lint_file(&file, &options, &RealFiles);
        assert!(report.diagnostics.is_empty(), "{report:#?}");
        report.diagnostics = vec![
            // `name: [pdf-tools` is an unclosed flow sequence.
            diagnostic_with(source, at("pdf-tools\n"), "[pdf-tools\n"),
            // A valid but uppercase name: SF203 appears.
            diagnostic_with(source, at("pdf-tools\n"), "Pdf-tools\n"),
            // A longer heading in the body: nothing any rule looks at.
            diagnostic_with(source, at("# Steps"), "# Steps to follow"),
        ];
        withhold_harmful(&file, &options, &RealFiles, &mut report);
        let kept: Vec<bool> = report
            .diagnostics
            .iter()
            .map(|diagnostic| diagnostic.fix.is_some())
            .collect();
        assert_eq!(kept, [false, false, true]);
        let checks = file
            .fix_checks
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner);
        assert_eq!(checks.harmless.len(), 3);
        assert_eq!(
            checks.holds_for.as_ref().map(|(text, _)| text.as_str()),
            Some(source)
        );
    }
}
