//! The `name` field (SF2xx).

pub mod name_directory_mismatch;
pub mod name_hyphen_misplaced;
pub mod name_invalid_characters;
pub mod name_missing;
pub mod name_not_lowercase;
pub mod name_reserved_word;
pub mod name_too_long;

use crate::lint::SkillContext;
use crate::text::TextRange;

/// The name as a scalar with its value range, when it is written and not blank.
pub fn name_value<'a>(context: &'a SkillContext<'_>) -> Option<(&'a str, TextRange)> {
    context
        .string_field("name")
        .filter(|(name, _)| !name.trim().is_empty())
}
