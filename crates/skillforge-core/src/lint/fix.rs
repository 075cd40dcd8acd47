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

/// Why fixed text could not be saved.
#[derive(Debug, thiserror::Error)]
pub enum WriteError {
    #[error("{path}: {source}")]
    Io {
        path: String,
        #[source]
        source: std::io::Error,
    },
}

/// Replaces a file's content atomically: a temporary file in the same folder (same filesystem, so the
/// rename is atomic), the original's permissions, fsync, then rename over the original. A symbolic link is
/// resolved first so the link stays a link and its target receives the text.
pub fn write_atomically(path: &std::path::Path, text: &str) -> Result<(), WriteError> {
    use std::io::Write as _;
    let io = |source: std::io::Error, path: &std::path::Path| WriteError::Io {
        path: path.display().to_string(),
        source,
    };
    let target = std::fs::canonicalize(path).map_err(|error| io(error, path))?;
    let permissions = std::fs::metadata(&target)
        .map_err(|error| io(error, &target))?
        .permissions();
    let folder = target.parent().unwrap_or(std::path::Path::new("."));
    let file_name = target
        .file_name()
        .map(|name| name.to_string_lossy().into_owned())
        .unwrap_or_default();
    let mut attempt = 0u32;
    let (temporary, mut file) = loop {
        let candidate = folder.join(format!(
            ".{file_name}.skillforge-{}-{attempt}.tmp",
            std::process::id()
        ));
        match std::fs::OpenOptions::new()
            .write(true)
            .create_new(true)
            .open(&candidate)
        {
            Ok(file) => break (candidate, file),
            Err(error) if error.kind() == std::io::ErrorKind::AlreadyExists && attempt < 100 => {
                attempt += 1
            }
            Err(error) => return Err(io(error, &candidate)),
        }
    };
    let result = file
        .write_all(text.as_bytes())
        .and_then(|()| file.set_permissions(permissions))
        .and_then(|()| file.sync_all())
        .and_then(|()| std::fs::rename(&temporary, &target));
    if let Err(error) = result {
        // Never leave a half-written temporary file behind; the original is untouched.
        let _ = std::fs::remove_file(&temporary);
        return Err(io(error, &target));
    }
    Ok(())
}
