//! The skill descriptor: the metadata a client shows a model, and nothing more.

use serde::{Deserialize, Serialize};

use crate::python;

/// The longest description nagents accepts, in code points.
pub const MAX_DESCRIPTION_CHARS: usize = 1000;
/// The longest location nagents accepts, in code points.
pub const MAX_LOCATION_CHARS: usize = 4096;
/// The longest name nagents accepts (ASCII, so bytes and code points agree).
pub const MAX_NAME_CHARS: usize = 64;

/// Immutable discovery metadata; `location` is an opaque identifier owned by the source.
#[derive(Debug, Clone, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
pub struct Skill {
    pub name: String,
    pub description: String,
    pub location: String,
}

/// Why nagents refuses a descriptor; the messages are nagents' own.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum SkillError {
    #[error("Skill name must contain 1-64 ASCII letters, digits, underscores or hyphens")]
    InvalidName,
    #[error("Skill {field} must be nonblank text of at most {limit} characters")]
    InvalidText { field: &'static str, limit: usize },
}

impl Skill {
    /// Builds a descriptor, validating it exactly as nagents' `Skill.__post_init__` does.
    pub fn new(
        name: impl Into<String>,
        description: impl Into<String>,
        location: impl Into<String>,
    ) -> Result<Self, SkillError> {
        let skill = Self {
            name: name.into(),
            description: description.into(),
            location: location.into(),
        };
        skill.validate()?;
        Ok(skill)
    }

    /// Checks the fields in nagents' order: name, then description, then location.
    pub fn validate(&self) -> Result<(), SkillError> {
        if !is_valid_name(&self.name) {
            return Err(SkillError::InvalidName);
        }
        for (field, value, limit) in [
            ("description", &self.description, MAX_DESCRIPTION_CHARS),
            ("location", &self.location, MAX_LOCATION_CHARS),
        ] {
            if python::strip(value).is_empty() || python::char_len(value) > limit {
                return Err(SkillError::InvalidText { field, limit });
            }
        }
        Ok(())
    }
}

/// `[A-Za-z0-9_-]{1,64}`, the whole string.
pub fn is_valid_name(name: &str) -> bool {
    (1..=MAX_NAME_CHARS).contains(&name.len())
        && name
            .bytes()
            .all(|byte| byte.is_ascii_alphanumeric() || byte == b'_' || byte == b'-')
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_follow_nagents_pattern() {
        assert!(Skill::new("Pdf_tools-2", "d", "l").is_ok());
        assert!(Skill::new("a".repeat(64), "d", "l").is_ok());
        for bad in ["", "a b", "é", "a.b", "a/b", "a\n"] {
            assert_eq!(
                Skill::new(bad, "d", "l"),
                Err(SkillError::InvalidName),
                "{bad:?}"
            );
        }
        assert_eq!(
            Skill::new("a".repeat(65), "d", "l"),
            Err(SkillError::InvalidName)
        );
    }

    #[test]
    fn text_fields_are_nonblank_and_bounded_in_code_points() {
        let description_error = SkillError::InvalidText {
            field: "description",
            limit: 1000,
        };
        assert_eq!(
            Skill::new("a", " \u{1f}\u{3000}", "l"),
            Err(description_error.clone())
        );
        assert!(Skill::new("a", "é".repeat(1000), "l").is_ok());
        assert_eq!(
            Skill::new("a", "é".repeat(1001), "l"),
            Err(description_error.clone())
        );
        assert_eq!(
            description_error.to_string(),
            "Skill description must be nonblank text of at most 1000 characters"
        );
        assert_eq!(
            Skill::new("a", "d", "x".repeat(4097)).map_err(|error| error.to_string()),
            Err("Skill location must be nonblank text of at most 4096 characters".to_string())
        );
        // A BOM is not whitespace to Python.
        assert!(Skill::new("a", "\u{feff}", "l").is_ok());
    }
}
