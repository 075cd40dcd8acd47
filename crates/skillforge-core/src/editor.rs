//! The linter as an editor sees it: a snapshot of the workspace in which unsaved buffers take the
//! place of the files on disk, and every position is a UTF-16 offset (CodeMirror's unit), so the UI
//! converts nothing.

use std::collections::HashMap;
use std::path::{Path, PathBuf};

use serde::Serialize;

use crate::lint::config::Config;
use crate::lint::context::{FileProbe, RealFiles, SkillFile};
use crate::lint::verdict::Verdict;
use crate::lint::workspace::{self as lint_workspace, CollectError, LintOptions};
use crate::lint::{Applicability, Diagnostic, ProfileId, Severity};
use crate::text::LineIndex;

/// One replacement, in UTF-16 offsets of the text that was linted.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
pub struct EditorEdit {
    pub from: u32,
    pub to: u32,
    pub insert: String,
}

/// A quick fix: edits applied together as one undoable step.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
pub struct EditorFix {
    pub title: String,
    pub applicability: Applicability,
    pub edits: Vec<EditorEdit>,
}

/// A diagnostic positioned for the editor.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
pub struct EditorDiagnostic {
    pub code: String,
    pub rule: String,
    pub severity: Severity,
    pub message: String,
    /// UTF-16 offsets into the exact text.
    pub from: u32,
    pub to: u32,
    /// 1-based line and column (in characters), for lists.
    pub line: u32,
    pub column: u32,
    pub profiles: Vec<ProfileId>,
    pub fix: Option<EditorFix>,
}

/// What the linter says about one buffer.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
pub struct BufferLint {
    pub diagnostics: Vec<EditorDiagnostic>,
    /// Per profile: loads (with the name and description shown), skipped, or fails the catalog.
    pub verdicts: Vec<Verdict>,
}

/// The findings for one file of the workspace.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
pub struct FileLint {
    pub path: String,
    pub errors: u32,
    pub warnings: u32,
    pub infos: u32,
    pub diagnostics: Vec<EditorDiagnostic>,
    pub verdicts: Vec<Verdict>,
}

/// The findings for every SKILL.md of the workspace.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
pub struct WorkspaceLint {
    pub files: Vec<FileLint>,
}

/// The SKILL.md files of a workspace and its configuration, read once and linted on demand.
#[derive(Debug, Clone, Default)]
pub struct LintSession {
    files: Vec<SkillFile>,
    config: Config,
}

impl LintSession {
    /// Reads every SKILL.md under `roots` and the workspace's `skillforge.toml`, if any.
    pub fn open(roots: &[PathBuf]) -> Result<Self, CollectError> {
        let config = match roots.first() {
            Some(root) => Config::discover(root)
                .map_err(|error| CollectError::Io {
                    path: root.join("skillforge.toml").display().to_string(),
                    source: std::io::Error::new(std::io::ErrorKind::InvalidData, error.to_string()),
                })?
                .unwrap_or_default(),
            None => Config::default(),
        };
        let files = match lint_workspace::collect(roots, &config) {
            Ok(files) => files,
            // An empty folder is a workspace with no skills yet, not an error.
            Err(CollectError::NoSkills { .. }) => Vec::new(),
            Err(error) => return Err(error),
        };
        Ok(Self { files, config })
    }

    /// Lints `text` as if it were saved at `path`, with the rest of the workspace as on disk.
    pub fn lint_buffer(&self, path: &Path, text: &str, profiles: &[ProfileId]) -> BufferLint {
        let overlay = HashMap::from([(path.to_path_buf(), text.to_string())]);
        let files = self.files_with(&overlay);
        let options = self.options(profiles);
        let file = files
            .iter()
            .find(|file| file.path == path)
            .cloned()
            .unwrap_or_else(|| standalone(path, text));
        let report = lint_workspace::lint_file(&file, &options, &RealFiles);
        let lines = LineIndex::new(&file.source);
        BufferLint {
            diagnostics: report
                .diagnostics
                .iter()
                .map(|diagnostic| positioned(diagnostic, &lines, &file.source))
                .collect(),
            verdicts: report.verdicts,
        }
    }

    /// Lints every SKILL.md, with unsaved buffers in place of their files.
    pub fn lint_workspace(
        &self,
        overlay: &HashMap<PathBuf, String>,
        profiles: &[ProfileId],
    ) -> WorkspaceLint {
        self.lint_all(overlay, profiles, &RealFiles)
    }

    fn lint_all(
        &self,
        overlay: &HashMap<PathBuf, String>,
        profiles: &[ProfileId],
        probe: &dyn FileProbe,
    ) -> WorkspaceLint {
        let files = self.files_with(overlay);
        let options = self.options(profiles);
        let files = files
            .iter()
            .map(|file| {
                let report = lint_workspace::lint_file(file, &options, probe);
                let lines = LineIndex::new(&file.source);
                let count = |severity| {
                    report
                        .diagnostics
                        .iter()
                        .filter(|d| d.severity == severity)
                        .count() as u32
                };
                FileLint {
                    path: file.path.display().to_string(),
                    errors: count(Severity::Error),
                    warnings: count(Severity::Warning),
                    infos: count(Severity::Info),
                    diagnostics: report
                        .diagnostics
                        .iter()
                        .map(|diagnostic| positioned(diagnostic, &lines, &file.source))
                        .collect(),
                    verdicts: report.verdicts,
                }
            })
            .collect();
        WorkspaceLint { files }
    }

    fn options(&self, profiles: &[ProfileId]) -> LintOptions {
        let profiles = if profiles.is_empty() {
            ProfileId::ALL.to_vec()
        } else {
            profiles.to_vec()
        };
        LintOptions {
            profiles,
            config: self.config.clone(),
        }
    }

    /// The workspace's files with unsaved text swapped in; placement facts (duplicate names, nesting)
    /// are recomputed because a buffer may have renamed its skill.
    fn files_with(&self, overlay: &HashMap<PathBuf, String>) -> Vec<SkillFile> {
        if overlay.is_empty() {
            return self.files.clone();
        }
        let mut files: Vec<SkillFile> = self
            .files
            .iter()
            .map(|file| match overlay.get(&file.path) {
                Some(text) => with_text(file, text),
                None => file.clone(),
            })
            .collect();
        lint_workspace::place(&mut files);
        files
    }
}

fn with_text(file: &SkillFile, text: &str) -> SkillFile {
    let mut updated = SkillFile::from_bytes(
        file.path.clone(),
        file.display_path.clone(),
        text.as_bytes().to_vec(),
    );
    updated.placement = file.placement.clone();
    updated
}

/// A buffer that is not (yet) a SKILL.md of the workspace, e.g. one just created elsewhere.
fn standalone(path: &Path, text: &str) -> SkillFile {
    SkillFile::from_bytes(
        path.to_path_buf(),
        path.display().to_string(),
        text.as_bytes().to_vec(),
    )
}

fn positioned(diagnostic: &Diagnostic, lines: &LineIndex, source: &str) -> EditorDiagnostic {
    let fix = diagnostic.fix.as_ref().map(|fix| EditorFix {
        title: fix.title.clone(),
        applicability: fix.applicability,
        edits: fix
            .edits
            .iter()
            .map(|edit| EditorEdit {
                from: lines.position(source, edit.range.start()).offset_utf16,
                to: lines.position(source, edit.range.end()).offset_utf16,
                insert: edit.replacement.clone(),
            })
            .collect(),
    });
    EditorDiagnostic {
        code: diagnostic.code.clone(),
        rule: diagnostic.rule.clone(),
        severity: diagnostic.severity,
        message: diagnostic.message.clone(),
        from: diagnostic.span.start.offset_utf16,
        to: diagnostic.span.end.offset_utf16,
        line: diagnostic.span.start.line,
        column: diagnostic.span.start.column,
        profiles: diagnostic.profiles.clone(),
        fix,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn workspace(skills: &[(&str, &str)]) -> (tempfile::TempDir, PathBuf) {
        let directory = tempfile::tempdir().expect("temporary directory");
        let root = directory.path().join("skills");
        for (folder, text) in skills {
            std::fs::create_dir_all(root.join(folder)).expect("mkdir");
            std::fs::write(root.join(folder).join("SKILL.md"), text).expect("write");
        }
        (directory, root)
    }

    const GOOD: &str =
        "---\nname: good\ndescription: Checks things. Use when checking.\n---\n# Good\n";

    #[test]
    fn lints_the_unsaved_buffer_not_the_file() {
        let (_directory, root) = workspace(&[("good", GOOD)]);
        let session = LintSession::open(std::slice::from_ref(&root)).expect("open");
        let path = root.join("good/SKILL.md");
        let clean = session.lint_buffer(&path, GOOD, &[ProfileId::Spec]);
        assert!(
            clean
                .diagnostics
                .iter()
                .all(|d| d.severity != Severity::Error),
            "{:?}",
            clean.diagnostics
        );
        let broken = GOOD.replace("name: good", "name: Bad_Name");
        let report = session.lint_buffer(&path, &broken, &[ProfileId::Spec]);
        assert!(report
            .diagnostics
            .iter()
            .any(|d| d.severity == Severity::Error && d.rule.starts_with("name-")));
    }

    #[test]
    fn positions_and_fix_edits_are_utf16_offsets() {
        let (_directory, root) = workspace(&[("good", GOOD)]);
        let session = LintSession::open(std::slice::from_ref(&root)).expect("open");
        // Two astral characters before the problem: UTF-16 offsets differ from byte and char offsets.
        let text = "---\nname: good\ndescription: \u{1F600}\u{1F600} Use when: testing.\n---\n";
        let report = session.lint_buffer(&root.join("good/SKILL.md"), text, &ProfileId::ALL);
        let utf16: Vec<u16> = text.encode_utf16().collect();
        assert!(!report.diagnostics.is_empty());
        for diagnostic in &report.diagnostics {
            assert!(
                diagnostic.from <= diagnostic.to && diagnostic.to as usize <= utf16.len(),
                "{diagnostic:?}"
            );
            for edit in diagnostic.fix.iter().flat_map(|fix| &fix.edits) {
                assert!(
                    edit.from <= edit.to && edit.to as usize <= utf16.len(),
                    "{edit:?}"
                );
            }
        }
        let colon = report
            .diagnostics
            .iter()
            .find(|d| d.fix.is_some() && d.message.contains(": "))
            .expect("colon finding");
        let edit = &colon.fix.as_ref().expect("fix").edits[0];
        let replaced =
            String::from_utf16(&utf16[edit.from as usize..edit.to as usize]).expect("utf16");
        assert!(
            replaced.contains('\u{1F600}'),
            "edit does not cover the value: {replaced:?}"
        );
    }

    #[test]
    fn a_renamed_buffer_is_checked_against_the_other_skills() {
        let other = GOOD.replace("good", "other");
        let (_directory, root) = workspace(&[("good", GOOD), ("other", &other)]);
        let session = LintSession::open(std::slice::from_ref(&root)).expect("open");
        let renamed = GOOD.replace("name: good", "name: other");
        let report =
            session.lint_buffer(&root.join("good/SKILL.md"), &renamed, &[ProfileId::Nagents]);
        assert!(
            report
                .diagnostics
                .iter()
                .any(|d| d.rule == "duplicate-skill-name"),
            "{:?}",
            report.diagnostics
        );
        let overlay = HashMap::from([(root.join("good/SKILL.md"), renamed)]);
        let workspace = session.lint_workspace(&overlay, &[ProfileId::Nagents]);
        assert_eq!(workspace.files.len(), 2);
        assert!(workspace.files.iter().all(|file| file
            .diagnostics
            .iter()
            .any(|d| d.rule == "duplicate-skill-name")));
    }

    #[test]
    fn an_empty_folder_is_an_empty_workspace() {
        let directory = tempfile::tempdir().expect("temporary directory");
        let session = LintSession::open(&[directory.path().to_path_buf()]).expect("open");
        assert!(session
            .lint_workspace(&HashMap::new(), &[])
            .files
            .is_empty());
    }
}
