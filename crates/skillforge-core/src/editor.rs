//! The linter as an editor sees it: a snapshot of the workspace in which unsaved buffers take the
//! place of the files on disk, and every position is a UTF-16 offset (CodeMirror's unit), so the UI
//! converts nothing.

mod buffer;

use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};

use serde::{Deserialize, Serialize};

pub use buffer::{BufferAnswer, BufferError, EditorBuffer};

use crate::builtin::EmbeddedOrDisk;
use crate::frontmatter::yaml::lines::SourceLines;
use crate::lint::config::Config;
use crate::lint::context::{FileProbe, SkillFile};
use crate::lint::verdict::Verdict;
use crate::lint::workspace::{self as lint_workspace, CollectError, LintOptions};
use crate::lint::{Applicability, Diagnostic, ProfileId, Severity};

/// One replacement, in UTF-16 offsets: of the text that was linted (a fix), or of the buffer's text
/// before the change (an edit the editor sends).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
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
    /// A file to create, relative to the skill folder, instead of (or besides) the edits.
    pub creates: Option<String>,
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
    /// Tells snapshots apart, so a buffer knows when facts computed against an older one are stale.
    id: u64,
}

static NEXT_SESSION_ID: AtomicU64 = AtomicU64::new(1);

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
        Ok(Self {
            files,
            config,
            id: NEXT_SESSION_ID.fetch_add(1, Ordering::Relaxed),
        })
    }

    /// Every SKILL.md of the workspace as last read.
    pub fn files(&self) -> &[SkillFile] {
        &self.files
    }

    /// The SKILL.md files the workspace's walk found, as paths.
    pub fn skill_paths(&self) -> Vec<PathBuf> {
        self.files.iter().map(|file| file.path.clone()).collect()
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
        let report = lint_workspace::lint_file(&file, &options, &EmbeddedOrDisk);
        BufferLint {
            diagnostics: positioned_all(&report.diagnostics, &file.source),
            verdicts: report.verdicts,
        }
    }

    /// Lints an open buffer as if it were saved at its path; the same findings as [`Self::lint_buffer`]
    /// on its text, without copying the text or the workspace when only the body changed.
    pub fn lint_open_buffer(
        &self,
        buffer: &mut EditorBuffer,
        profiles: &[ProfileId],
    ) -> BufferLint {
        self.place(buffer);
        let options = self.options(profiles);
        let file = buffer.file();
        let report = lint_workspace::lint_file(file, &options, &EmbeddedOrDisk);
        BufferLint {
            diagnostics: positioned_all(&report.diagnostics, &file.source),
            verdicts: report.verdicts,
        }
    }

    /// Applies the editor's `changes` (made to `version`) to `buffer` and lints the result; asks for the
    /// whole text when the buffer is not at that version.
    pub fn edit_open_buffer(
        &self,
        buffer: &mut EditorBuffer,
        version: u32,
        changes: &[EditorEdit],
        profiles: &[ProfileId],
    ) -> BufferAnswer {
        match buffer.apply(version, changes) {
            Ok(version) => BufferAnswer::Linted {
                version,
                lint: self.lint_open_buffer(buffer, profiles),
            },
            Err(error) => BufferAnswer::Resend {
                message: error.to_string(),
            },
        }
    }

    /// Brings the buffer's workspace facts (display path, duplicate names, nesting) up to date. They
    /// depend only on the frontmatter and the other files, so an edit of the body keeps them.
    fn place(&self, buffer: &mut EditorBuffer) {
        let key = buffer::PlacementKey::of(self.id, &buffer.file().source);
        if !buffer.needs_placing(&key) {
            return;
        }
        let path = buffer.file().path.clone();
        let placed = if self.files.iter().any(|file| file.path == path) {
            let overlay = HashMap::from([(path.clone(), buffer.file().source.clone())]);
            self.files_with(&overlay)
                .into_iter()
                .find(|file| file.path == path)
                .map(|file| (file.display_path, file.placement))
        } else {
            None
        };
        let (display_path, placement) =
            placed.unwrap_or_else(|| (path.display().to_string(), Default::default()));
        buffer.placed(key, display_path, placement);
    }

    /// Lints every SKILL.md, with unsaved buffers in place of their files.
    pub fn lint_workspace(
        &self,
        overlay: &HashMap<PathBuf, String>,
        profiles: &[ProfileId],
    ) -> WorkspaceLint {
        self.lint_all(overlay, profiles, &EmbeddedOrDisk)
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
                    diagnostics: positioned_all(&report.diagnostics, &file.source),
                    verdicts: report.verdicts,
                }
            })
            .collect();
        WorkspaceLint { files }
    }

    /// The profiles `skillforge.toml` chooses, if any (none: every profile).
    pub fn configured_profiles(&self) -> &[ProfileId] {
        &self.config.profiles
    }

    /// The buffer's text with every fix applied until none is left (safe ones, and unsafe ones when
    /// asked), or `None` when nothing changes or the fixes do not settle.
    pub fn fix_all(
        &self,
        buffer: &mut EditorBuffer,
        profiles: &[ProfileId],
        include_unsafe: bool,
    ) -> Option<String> {
        self.place(buffer);
        let options = self.options(profiles);
        let fixed = crate::lint::fix::fix_until_stable(
            buffer.file(),
            &options,
            &EmbeddedOrDisk,
            include_unsafe,
        );
        (fixed.converged && fixed.applied > 0 && fixed.text != buffer.text()).then_some(fixed.text)
    }

    /// The SKILL.md of the skill a client knows as `name` (its declared name, else its folder's), as
    /// the files are on disk.
    pub fn skill_named(&self, name: &str) -> Option<&Path> {
        self.files
            .iter()
            .find(|file| lint_workspace::declared_name(file).as_deref() == Some(name))
            .map(|file| file.path.as_path())
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

fn positioned_all(diagnostics: &[Diagnostic], source: &str) -> Vec<EditorDiagnostic> {
    // Spans are already positioned; only fix edits need a line index, and most findings have none.
    let lines = diagnostics
        .iter()
        .any(|diagnostic| diagnostic.fix.is_some())
        .then(|| SourceLines::new(source));
    diagnostics
        .iter()
        .map(|diagnostic| positioned(diagnostic, lines.as_ref(), source))
        .collect()
}

fn positioned(
    diagnostic: &Diagnostic,
    lines: Option<&SourceLines>,
    source: &str,
) -> EditorDiagnostic {
    let offset = |at: usize| lines.map_or(0, |lines| lines.position(source, at).offset_utf16);
    let fix = diagnostic.fix.as_ref().map(|fix| EditorFix {
        title: fix.title.clone(),
        applicability: fix.applicability,
        creates: fix.creates.clone(),
        edits: fix
            .edits
            .iter()
            .map(|edit| EditorEdit {
                from: offset(edit.range.start()),
                to: offset(edit.range.end()),
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

    /// A small deterministic generator, so a failing sequence can be replayed.
    struct Random(u64);

    impl Random {
        fn below(&mut self, bound: usize) -> usize {
            self.0 ^= self.0 << 13;
            self.0 ^= self.0 >> 7;
            self.0 ^= self.0 << 17;
            (self.0 % bound.max(1) as u64) as usize
        }
    }

    /// A random edit of `text` in UTF-16 offsets on character boundaries, biased towards the places
    /// where findings and workspace facts change: the frontmatter, its fences, names and links.
    fn random_edit(random: &mut Random, text: &str) -> EditorEdit {
        const PIECES: &[&str] = &[
            "x",
            "X",
            "\n",
            "\r\n",
            "---\n",
            "name: other\n",
            "name: Bad_Name",
            ": ",
            "\u{1F600}",
            "é",
            "[link](missing.md)",
            "<!-- skillforge: ignore[description-too-long] -->",
            "description: ",
            "",
        ];
        let boundaries: Vec<u32> = text
            .char_indices()
            .map(|(byte, _)| text[..byte].encode_utf16().count() as u32)
            .chain(std::iter::once(text.encode_utf16().count() as u32))
            .collect();
        let near_top = boundaries.len().min(80);
        let pick = |random: &mut Random| {
            if random.below(3) == 0 {
                boundaries[random.below(boundaries.len())]
            } else {
                boundaries[random.below(near_top)]
            }
        };
        let (a, b) = (pick(random), pick(random));
        let (from, mut to) = (a.min(b), a.max(b));
        if random.below(2) == 0 {
            to = from;
        } else if to - from > 12 {
            to = boundaries
                .iter()
                .copied()
                .find(|at| *at >= from + random.below(12) as u32)
                .unwrap_or(to);
        }
        let insert = PIECES[random.below(PIECES.len())].to_string();
        EditorEdit { from, to, insert }
    }

    #[test]
    fn an_open_buffer_lints_like_the_whole_text_after_random_edits() {
        let other = GOOD.replace("good", "other");
        let (_directory, root) =
            workspace(&[("good", GOOD), ("other", &other), ("good/inner", GOOD)]);
        let session = LintSession::open(std::slice::from_ref(&root)).expect("open");
        let starts = [
            (
                root.join("good/SKILL.md"),
                format!("{GOOD}\nSee [notes](references/notes.md).\n"),
            ),
            (root.join("good/inner/SKILL.md"), GOOD.replace("\n", "\r\n")),
            (
                root.join("new/SKILL.md"),
                format!("\u{FEFF}{GOOD}{}", "Body line.\n".repeat(50)),
            ),
        ];
        for (seed, (path, start)) in starts.iter().enumerate() {
            let mut random = Random(0x9E37_79B9_7F4A_7C15 ^ seed as u64);
            let mut buffer = EditorBuffer::new(path.clone(), start.clone());
            let mut expected = start.clone();
            for step in 0..300 {
                let profiles: &[ProfileId] = if step % 50 == 0 {
                    &ProfileId::ALL
                } else {
                    &[ProfileId::Spec, ProfileId::Nagents]
                };
                let change = random_edit(&mut random, &expected);
                let mut units: Vec<u16> = expected.encode_utf16().collect();
                units.splice(
                    change.from as usize..change.to as usize,
                    change.insert.encode_utf16(),
                );
                expected = String::from_utf16(&units).expect("valid UTF-16");
                let answer = session.edit_open_buffer(
                    &mut buffer,
                    step,
                    std::slice::from_ref(&change),
                    profiles,
                );
                assert_eq!(
                    buffer.text(),
                    expected,
                    "seed {seed}, step {step}: {change:?}"
                );
                assert_eq!(
                    answer,
                    BufferAnswer::Linted {
                        version: step + 1,
                        lint: session.lint_buffer(path, &expected, profiles),
                    },
                    "seed {seed}, step {step}: {change:?} on {expected:?}"
                );
            }
        }
    }

    #[test]
    fn an_open_buffer_follows_a_new_snapshot_of_the_workspace() {
        let (_directory, root) = workspace(&[("good", GOOD)]);
        let path = root.join("good/SKILL.md");
        let before = LintSession::open(std::slice::from_ref(&root)).expect("open");
        let mut buffer = EditorBuffer::new(path.clone(), GOOD.to_string());
        let clean = before.lint_open_buffer(&mut buffer, &[ProfileId::Nagents]);
        assert!(!clean
            .diagnostics
            .iter()
            .any(|d| d.rule == "duplicate-skill-name"));
        // Another skill with the same name appears on disk; the buffer's frontmatter is unchanged.
        std::fs::create_dir_all(root.join("twin")).expect("mkdir");
        std::fs::write(root.join("twin/SKILL.md"), GOOD).expect("write");
        let after = LintSession::open(std::slice::from_ref(&root)).expect("open");
        let report = after.lint_open_buffer(&mut buffer, &[ProfileId::Nagents]);
        assert_eq!(
            report,
            after.lint_buffer(&path, GOOD, &[ProfileId::Nagents])
        );
        assert!(
            report
                .diagnostics
                .iter()
                .any(|d| d.rule == "duplicate-skill-name"),
            "{report:?}"
        );
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
