//! nagents' `parse_skill_metadata`: a deliberately small line parser, not YAML.
//!
//! It must accept and refuse exactly what nagents does, so it follows nagents' rules literally:
//! Python's `splitlines()` boundaries, Python's whitespace, code point lengths, and no BOM
//! stripping (a file that starts with a BOM has no frontmatter as far as nagents is concerned).

use crate::python;
use crate::skill::{Skill, SkillError, MAX_DESCRIPTION_CHARS};

/// The description nagents gives a skill that offers none.
pub const FALLBACK_DESCRIPTION: &str = "Load with skill(name) for instructions.";

/// Why nagents refuses a SKILL.md; the messages are nagents' own.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum MetadataError {
    #[error("{location}: unterminated skill frontmatter")]
    Unterminated { location: String },
    #[error("{location}: use one single-line {key} value")]
    NotSingleLine { location: String, key: &'static str },
    #[error("{location}: unclosed {key} quote")]
    UnclosedQuote { location: String, key: &'static str },
    #[error(transparent)]
    Skill(#[from] SkillError),
}

/// Reads the optional single-line `name`/`description` frontmatter of a SKILL.md.
///
/// `default_name` (the containing directory's name) is used when the frontmatter names nothing;
/// the description falls back to the first body line that is not blank and does not start with
/// `#`, then to [`FALLBACK_DESCRIPTION`].
pub fn parse_skill_metadata(
    content: &str,
    location: &str,
    default_name: &str,
) -> Result<Skill, MetadataError> {
    let mut name = default_name;
    let mut description = "";
    // Lines are split as they are read: the frontmatter and, at most, the body up to its first
    // line of text are all nagents looks at (a missing closing line still reads to the end).
    let mut lines = python::lines(content);
    if lines
        .clone()
        .next()
        .is_some_and(|line| python::strip(line) == "---")
    {
        lines.next();
        let mut frontmatter = Vec::new();
        loop {
            match lines.next() {
                Some(line) if python::rstrip(line) == "---" => break,
                Some(line) => frontmatter.push(line),
                None => {
                    return Err(MetadataError::Unterminated {
                        location: location.to_string(),
                    })
                }
            }
        }
        let mut seen_name = false;
        let mut seen_description = false;
        for line in frontmatter {
            // Indented lines belong to other keys' mappings or block text.
            match line.chars().next() {
                None => continue,
                Some(first) if python::is_space(first) => continue,
                Some(_) => {}
            }
            let (key, value, has_separator) = match line.split_once(':') {
                Some((key, value)) => (key, value, true),
                None => (line, "", false),
            };
            let (key, seen): (&'static str, &mut bool) = match python::strip(key) {
                "name" => ("name", &mut seen_name),
                "description" => ("description", &mut seen_description),
                _ => continue,
            };
            let value = python::strip(value);
            let starts_structure = value
                .chars()
                .next()
                .is_some_and(|first| "|>{[&*!".contains(first));
            if *seen || !has_separator || value.is_empty() || starts_structure {
                return Err(MetadataError::NotSingleLine {
                    location: location.to_string(),
                    key,
                });
            }
            *seen = true;
            let value = unquote(value).ok_or_else(|| MetadataError::UnclosedQuote {
                location: location.to_string(),
                key,
            })?;
            if key == "name" {
                name = value;
            } else {
                description = value;
            }
        }
    }
    let description = if description.is_empty() {
        lines
            .find(|line| !python::strip(line).is_empty() && !line.starts_with('#'))
            .map(python::strip)
            .unwrap_or("")
    } else {
        description
    };
    let description = if description.is_empty() {
        FALLBACK_DESCRIPTION
    } else {
        description
    };
    Ok(Skill::new(
        name,
        python::char_prefix(description, MAX_DESCRIPTION_CHARS),
        location,
    )?)
}

/// Removes matching surrounding quotes; `None` for an opening quote without its closing twin.
/// No escapes are interpreted, as in nagents.
fn unquote(value: &str) -> Option<&str> {
    let Some(quote) = value.chars().next().filter(|c| *c == '"' || *c == '\'') else {
        return Some(value);
    };
    // Both quotes are one byte, so byte slicing is safe once the ends are checked.
    if value.len() < 2 || !value.ends_with(quote) {
        return None;
    }
    Some(&value[1..value.len() - 1])
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parse(content: &str) -> Result<Skill, String> {
        parse_skill_metadata(content, "/x/dir/SKILL.md", "dir").map_err(|error| error.to_string())
    }

    fn described(name: &str, description: &str) -> Result<Skill, String> {
        Ok(Skill {
            name: name.into(),
            description: description.into(),
            location: "/x/dir/SKILL.md".into(),
        })
    }

    #[test]
    fn reads_single_line_keys() {
        assert_eq!(
            parse("---\nname: pdf\ndescription: Fill forms.\n---\n# Body\n"),
            described("pdf", "Fill forms.")
        );
        assert_eq!(
            parse("---\r\nname: 'pdf'\r\ndescription: \"a: b\"\r\n--- \r\nx"),
            described("pdf", "a: b")
        );
        // Indented keys and other keys are ignored; only the first colon splits.
        assert_eq!(
            parse("---\nmeta:\n  name: other\ndescription: a:b:c\n---\n"),
            described("dir", "a:b:c")
        );
    }

    #[test]
    fn refuses_what_nagents_refuses() {
        assert_eq!(
            parse("---\nname: a\n"),
            Err("/x/dir/SKILL.md: unterminated skill frontmatter".into())
        );
        assert_eq!(
            parse("---"),
            Err("/x/dir/SKILL.md: unterminated skill frontmatter".into())
        );
        for block in ["|", ">-", "{a: b}", "[a]", "&anchor x", "*alias", "!tag x"] {
            assert_eq!(
                parse(&format!("---\ndescription: {block}\n---\n")),
                Err("/x/dir/SKILL.md: use one single-line description value".into())
            );
        }
        assert_eq!(
            parse("---\nname: a\nname: b\n---\n"),
            Err("/x/dir/SKILL.md: use one single-line name value".into())
        );
        assert_eq!(
            parse("---\nname\n---\n"),
            Err("/x/dir/SKILL.md: use one single-line name value".into())
        );
        assert_eq!(
            parse("---\nname:   \n---\n"),
            Err("/x/dir/SKILL.md: use one single-line name value".into())
        );
        assert_eq!(
            parse("---\nname: 'a\n---\n"),
            Err("/x/dir/SKILL.md: unclosed name quote".into())
        );
        assert_eq!(
            parse("---\nname: \"\n---\n"),
            Err("/x/dir/SKILL.md: unclosed name quote".into())
        );
        assert_eq!(
            parse("---\nname: a b\n---\n"),
            Err(
                "Skill name must contain 1-64 ASCII letters, digits, underscores or hyphens".into()
            )
        );
    }

    #[test]
    fn description_falls_back_to_body_then_default() {
        assert_eq!(
            parse("# Title\n\n  Body line  \nmore"),
            described("dir", "Body line")
        );
        assert_eq!(
            parse("# Only\n## Headings\n"),
            described("dir", FALLBACK_DESCRIPTION)
        );
        assert_eq!(parse(""), described("dir", FALLBACK_DESCRIPTION));
        // An indented heading does not start with '#', so it becomes the description.
        assert_eq!(parse("  # Indented"), described("dir", "# Indented"));
        // Empty quotes give an empty description, which falls back too.
        assert_eq!(
            parse("---\ndescription: ''\n---\nbody"),
            described("dir", "body")
        );
    }

    #[test]
    fn bom_hides_frontmatter() {
        assert_eq!(
            parse("\u{feff}---\nname: x\n---\n"),
            described("dir", "\u{feff}---")
        );
    }

    #[test]
    fn description_is_cut_to_1000_code_points() {
        let long = "é".repeat(1500);
        let skill = parse(&format!("---\ndescription: {long}\n---\n")).map_err(|e| e.to_string());
        assert_eq!(skill.map(|s| s.description.chars().count()), Ok(1000));
    }

    #[test]
    fn python_line_boundaries_apply() {
        assert_eq!(
            parse("---\u{2028}name: a\u{85}description: d\u{c}---\u{1e}"),
            described("a", "d")
        );
    }
}
