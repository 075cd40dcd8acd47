//! The builtin skills, embedded from the repository's `skills/` folder at compile time.

use include_dir::{include_dir, Dir};

/// The repository's `skills/` folder, as it was when the engine was compiled.
pub static BUILTIN_SKILLS: Dir<'static> = include_dir!("$CARGO_MANIFEST_DIR/../../skills");

/// How builtin skill locations start: `package:skillforge/skills/<dir>/SKILL.md`.
pub const LOCATION_PREFIX: &str = "package:skillforge/skills/";

/// The text of a builtin file, by its location; `None` when there is no such text file.
pub fn file_text(location: &str) -> Option<&'static str> {
    let relative = location.strip_prefix(LOCATION_PREFIX)?;
    BUILTIN_SKILLS.get_file(relative)?.contents_utf8()
}

#[cfg(test)]
mod tests {
    #[test]
    fn builtin_files_are_found_by_location() {
        let text =
            super::file_text("package:skillforge/skills/writing-skill-descriptions/SKILL.md");
        assert!(text.is_some_and(|text| text.contains("name: writing-skill-descriptions")));
        assert_eq!(
            super::file_text("package:skillforge/skills/../Cargo.toml"),
            None
        );
        assert_eq!(super::file_text("/etc/passwd"), None);
    }
}
