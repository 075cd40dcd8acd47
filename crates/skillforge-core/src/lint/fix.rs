//! Applying fixes: non-overlapping edits in one pass, repeated until the file stops changing.

use super::context::{FileProbe, SkillFile};
use super::workspace::{lint_file, LintOptions};
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
    accepted.sort_by_key(|edit| (edit.range.start, edit.range.end));
    let mut out = String::with_capacity(source.len());
    let mut at = 0;
    for edit in accepted {
        out.push_str(source.get(at..edit.range.start()).unwrap_or(""));
        out.push_str(&edit.replacement);
        at = edit.range.end();
    }
    out.push_str(source.get(at..).unwrap_or(""));
    (out, applied)
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
        let (text, count) = apply(&current.source, &report.diagnostics, include_unsafe);
        if count == 0 || text == current.source {
            return Fixed {
                text: current.source,
                applied,
                converged: true,
            };
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
/// if the file still holds exactly the text the fixes were computed from.
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
    let expect = Expect::Content {
        bytes_digest: origin.fingerprint.clone(),
        identity: Some(origin.identity),
    };
    match write::replace_at(&parent, name, text.as_bytes(), &expect) {
        Ok(_) => Ok(()),
        Err(write::WriteError::Changed) => Err(WriteError::Changed { path }),
        Err(error) => Err(refused(error)),
    }
}
