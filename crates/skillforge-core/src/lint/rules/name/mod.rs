//! The `name` field (SF2xx).

pub mod name_directory_mismatch;
pub mod name_hyphen_misplaced;
pub mod name_invalid_characters;
pub mod name_missing;
pub mod name_not_lowercase;
pub mod name_reserved_word;
pub mod name_too_long;

use crate::lint::{Applicability, Finding, SkillContext, TextEdit};
use crate::text::TextRange;

/// The name as a scalar with its value range, when it is written and not blank.
pub fn name_value<'a>(context: &'a SkillContext<'_>) -> Option<(&'a str, TextRange)> {
    context
        .string_field("name")
        .filter(|(name, _)| !name.trim().is_empty())
}

/// The name made to follow the specification: lowercase, each run of characters other than a-z and
/// 0-9 turned into one `-`, no `-` at either end (`A11y Auditor` → `a11y-auditor`, `My_Skill` →
/// `my-skill`). `None` when nothing of it is left, or it already conforms.
pub fn conforming(name: &str) -> Option<String> {
    let mut out = String::with_capacity(name.len());
    for c in name.trim().to_lowercase().chars() {
        if c.is_ascii_lowercase() || c.is_ascii_digit() {
            out.push(c);
        } else if !out.ends_with('-') {
            out.push('-');
        }
    }
    let out = out.trim_matches('-').to_string();
    (!out.is_empty() && out != name).then_some(out)
}

/// Offers `renamed` in place of the name at `range` (unsafe: the folder and references keep the old one).
pub fn with_rename(finding: Finding, range: TextRange, renamed: Option<String>) -> Finding {
    match renamed {
        Some(renamed) => finding.with_fix(
            format!("Rename to `{renamed}`"),
            Applicability::Unsafe,
            vec![TextEdit {
                range,
                replacement: renamed,
            }],
        ),
        None => finding,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_conforming_name_has_no_space_capital_or_stray_hyphen() {
        assert_eq!(conforming("A11y Auditor").as_deref(), Some("a11y-auditor"));
        assert_eq!(conforming("My_Skill").as_deref(), Some("my-skill"));
        assert_eq!(conforming("--PDF  tools--").as_deref(), Some("pdf-tools"));
        assert_eq!(conforming("pdf-tools"), None);
        assert_eq!(conforming("日本"), None);
    }
}
