//! 10xGraph 0.10.3, the whole client: its lenient skill loader, modelled step by step from
//! `tenxgraph/core/skills/loader.py`, `models.py` and `registry.py` (BOM strip, the `---` split at
//! Python's line boundaries, PyYAML's `safe_load` ported in [`safe_load`] with its YAML 1.1 typing
//! ([`pyyaml`]), the one retry that quotes `: ` values with `json.dumps`, the skip rules, shadowing and
//! `build_catalog`'s text), and around it:
//!
//! - [`registry`]: discovery, the registry, the catalog prompt and the tools `activate_skill` and
//!   `read_skill_resource` (bundled files reached through `skill_files`);
//! - [`repair`]: the frontmatter as the loader's retry reads it, for lint rules to check;
//! - [`catalog`]: the `<available_skills>` block of skills in discovery order; [`listing`]: the
//!   registry's block as a listing preview.
//!
//! One model serves everything that needs to know what 10xGraph makes of a SKILL.md: the 10xgraph lint
//! profile's verdicts and catalog, and the registry behind the tools and the catalog previews.

/// The 10xGraph version this model reproduces (its fidelity suite runs against this release).
pub const VERSION: &str = "0.10.3";

pub mod listing;
pub mod pyyaml;
pub mod registry;
pub mod repair;
pub mod safe_load;
mod skill_files;

use crate::python;
use pyyaml::{priority_of, PyValue};
use safe_load::LoadError;

pub const NO_FRONTMATTER: &str =
    "SKILL.md must start with YAML frontmatter delimited by '---' lines";

/// The frontmatter of a SKILL.md and its body, as `split_frontmatter` cuts them.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Split<'a> {
    /// The YAML between the delimiter lines, a slice of the content; `None` without frontmatter.
    pub yaml: Option<&'a str>,
    /// The stripped body (the whole stripped text without frontmatter).
    pub body: &'a str,
}

/// `split_frontmatter`: after a BOM, line 1 stripped must be `---`; the YAML runs to the first later line
/// that strips to `---`. Lines are walked lazily, so a large body after the frontmatter is never scanned.
pub fn split_frontmatter(content: &str) -> Split<'_> {
    let text = content.strip_prefix('\u{feff}').unwrap_or(content);
    let whole = Split {
        yaml: None,
        body: python::strip(text),
    };
    let mut lines = PythonLines { text, at: 0 };
    let Some((first, _, yaml_start)) = lines.next() else {
        return whole;
    };
    if python::strip(first) != "---" {
        return whole;
    }
    match lines.find(|(line, _, _)| python::strip(line) == "---") {
        Some((_, line_start, next)) => Split {
            yaml: Some(&text[yaml_start..line_start]),
            body: python::strip(&text[next..]),
        },
        None => whole,
    }
}

/// Python's `str.splitlines()` as a lazy iterator of `(line, its start, start of the next line)`.
pub(crate) struct PythonLines<'a> {
    text: &'a str,
    at: usize,
}

impl<'a> PythonLines<'a> {
    pub(crate) fn new(text: &'a str) -> Self {
        Self { text, at: 0 }
    }
}

impl<'a> Iterator for PythonLines<'a> {
    type Item = (&'a str, usize, usize);

    fn next(&mut self) -> Option<Self::Item> {
        let rest = self.text.get(self.at..).filter(|rest| !rest.is_empty())?;
        let start = self.at;
        match python_line_break(rest.as_bytes()) {
            Some((offset, width)) => {
                let next = start + offset + width;
                self.at = next;
                Some((&rest[..offset], start, next))
            }
            None => {
                self.at = self.text.len();
                Some((rest, start, self.text.len()))
            }
        }
    }
}

/// The first line boundary of `str.splitlines` in UTF-8 text: its offset and width (`\r\n` is one boundary).
/// Bytes are scanned directly; the two- and three-byte boundaries (U+0085, U+2028, U+2029) are checked
/// only where their lead byte appears.
fn python_line_break(bytes: &[u8]) -> Option<(usize, usize)> {
    let mut from = 0;
    loop {
        let offset = from
            + bytes
                .get(from..)?
                .iter()
                .position(|byte| matches!(byte, b'\n'..=b'\r' | b'\x1c'..=b'\x1e' | 0xC2 | 0xE2))?;
        let width = match bytes[offset] {
            b'\r' if bytes.get(offset + 1) == Some(&b'\n') => 2,
            0xC2 if bytes.get(offset + 1) == Some(&0x85) => 2,
            0xE2 if bytes.get(offset + 1) == Some(&0x80)
                && matches!(bytes.get(offset + 2), Some(0xA8 | 0xA9)) =>
            {
                3
            }
            0xC2 | 0xE2 => 0,
            _ => 1,
        };
        if width > 0 {
            return Some((offset, width));
        }
        from = offset + 1;
    }
}

/// `_quote_plain_values`: top-level `key: value` lines whose plain value contains `: ` get the value
/// double-quoted; lines are re-joined with `\n`.
fn quote_plain_values(raw_yaml: &str) -> String {
    let lines: Vec<String> = PythonLines {
        text: raw_yaml,
        at: 0,
    }
    .map(|(line, _, _)| quote_line(line).unwrap_or_else(|| line.to_string()))
    .collect();
    lines.join("\n")
}

fn quote_line(line: &str) -> Option<String> {
    let (key, value) = quotable_value(line)?;
    Some(format!(
        "{}: {}",
        &line[..key],
        python::json::dumps_ascii_str(&line[value])
    ))
}

/// The line test of `_quote_plain_values`, `^([A-Za-z0-9_-]+):[ \t]+(.+?)[ \t]*$` with `: ` in the value
/// and no YAML indicator first: the length of the key and the byte range of the value to quote (without
/// surrounding blanks), or `None` when the retry leaves the line alone.
pub fn quotable_value(line: &str) -> Option<(usize, std::ops::Range<usize>)> {
    let colon = line.find(':')?;
    let key = &line[..colon];
    if key.is_empty()
        || !key
            .bytes()
            .all(|byte| byte.is_ascii_alphanumeric() || byte == b'_' || byte == b'-')
    {
        return None;
    }
    let after = &line[colon + 1..];
    let value = after.trim_start_matches([' ', '\t']);
    if value.len() == after.len() {
        return None;
    }
    let start = line.len() - value.len();
    let value = value.trim_end_matches([' ', '\t']);
    if value.is_empty()
        || !value.contains(": ")
        || value.starts_with(['\'', '"', '|', '>', '[', '{', '&', '*', '!', '#'])
    {
        return None;
    }
    Some((colon, start..start + value.len()))
}

/// How serious a loader note is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Level {
    Error,
    Warning,
}

impl Level {
    pub fn as_str(self) -> &'static str {
        match self {
            Level::Error => "error",
            Level::Warning => "warning",
        }
    }
}

/// A `SkillDiagnostic` of `load_skill`, without its path.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Note {
    pub level: Level,
    pub message: String,
}

/// The fields of `SkillMeta` that come from the SKILL.md.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LoadedSkill {
    pub name: String,
    pub description: String,
    pub compatibility: Option<String>,
    pub triggers: Vec<String>,
    pub priority: i64,
}

/// What `load_skill` makes of one SKILL.md: the skill, or `None` when skipped, and its notes in order.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Loaded {
    pub skill: Option<LoadedSkill>,
    pub notes: Vec<Note>,
    /// Set when PyYAML refused the YAML as written and after the retry.
    pub yaml_failure: Option<YamlFailure>,
}

/// Where and why PyYAML refused a frontmatter (its first error, the one 10xGraph reports).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct YamlFailure {
    /// PyYAML's error on one line, as 10xGraph shows it after `Invalid YAML in frontmatter: `.
    pub message: String,
    /// The byte offset in the YAML text of the position PyYAML's error points at.
    pub offset: usize,
}

impl Loaded {
    fn skipped(notes: Vec<Note>, message: String) -> Self {
        let mut notes = notes;
        notes.push(Note {
            level: Level::Error,
            message,
        });
        Self {
            skill: None,
            notes,
            yaml_failure: None,
        }
    }

    /// The skill, or why it was skipped (the last note of a skipped skill is its reason).
    pub fn into_result(self) -> Result<LoadedSkill, String> {
        match self.skill {
            Some(skill) => Ok(skill),
            None => Err(self
                .notes
                .into_iter()
                .next_back()
                .map(|note| note.message)
                .unwrap_or_default()),
        }
    }
}

/// `load_skill` on the text of a SKILL.md.
pub fn load(content: &str) -> Loaded {
    match split_frontmatter(content).yaml {
        Some(raw_yaml) => load_yaml(raw_yaml),
        None => Loaded::skipped(Vec::new(), NO_FRONTMATTER.to_string()),
    }
}

/// `load_skill` from the frontmatter's YAML text: `parse_frontmatter_yaml`, PyYAML's `safe_load` as
/// [`safe_load`] reproduces it, with the one retry that quotes `: ` values.
pub fn load_yaml(raw_yaml: &str) -> Loaded {
    let mut notes = Vec::new();
    let parsed = match safe_load::safe_load(raw_yaml) {
        Ok(parsed) => parsed,
        Err(LoadError::Crash { kind, message }) => return crashed(kind, &message),
        Err(LoadError::Yaml { message, at }) => {
            let first_error = collapse_whitespace(&message);
            match safe_load::safe_load(&quote_plain_values(raw_yaml)) {
                Ok(parsed) => {
                    notes.push(Note {
                        level: Level::Error,
                        message: format!(
                            "Invalid YAML in frontmatter (a value contains ': '); loaded after quoting it. \
                             Quote the value to fix this. Parser said: {first_error}"
                        ),
                    });
                    parsed
                }
                Err(LoadError::Crash { kind, message }) => return crashed(kind, &message),
                Err(LoadError::Yaml { .. }) => {
                    let mut loaded = Loaded::skipped(
                        notes,
                        format!("Invalid YAML in frontmatter: {first_error}"),
                    );
                    let offset = raw_yaml
                        .char_indices()
                        .nth(at)
                        .map_or(raw_yaml.len(), |(offset, _)| offset);
                    loaded.yaml_failure = Some(YamlFailure {
                        message: first_error,
                        offset,
                    });
                    return loaded;
                }
            }
        }
    };
    // An empty document is `{}`.
    let frontmatter = parsed.unwrap_or(PyValue::Map(Vec::new()));
    read_frontmatter(&frontmatter, notes)
}

/// PyYAML raised something other than a `YAMLError`: `parse_frontmatter_yaml` does not catch it, so it
/// propagates out of `load_skill` and stops 10xGraph's whole discovery. The skill is reported as
/// skipped, with what Python raised.
fn crashed(kind: &str, message: &str) -> Loaded {
    Loaded::skipped(Vec::new(), format!("{CRASH_PREFIX}{kind}: {message}"))
}

/// How a skip reason starts when 10xGraph's loader raises instead of skipping.
pub const CRASH_PREFIX: &str =
    "10xGraph's loader raises (its discovery stops, no skill loads) on this frontmatter: ";

/// The rest of `load_skill` and `SkillMeta`'s validators, on the typed frontmatter.
fn read_frontmatter(frontmatter: &PyValue, mut notes: Vec<Note>) -> Loaded {
    if !matches!(frontmatter, PyValue::Map(_)) {
        let message = format!(
            "Frontmatter must be a mapping, got {}",
            frontmatter.python_type_name()
        );
        return Loaded::skipped(notes, message);
    }
    let name = match frontmatter.get("name") {
        Some(PyValue::Str(name)) if !python::strip(name).is_empty() => python::strip(name),
        _ => {
            return Loaded::skipped(notes, "Skipped: 'name' is missing or empty".to_string());
        }
    };
    let description = match frontmatter.get("description") {
        Some(PyValue::Str(text)) if !python::strip(text).is_empty() => python::strip(text),
        _ => {
            let message = "Skipped: 'description' is missing or empty".to_string();
            return Loaded::skipped(notes, message);
        }
    };
    let metadata = frontmatter
        .get("metadata")
        .filter(|value| matches!(value, PyValue::Map(_)));
    let metadata_field = |key: &str| metadata.and_then(|metadata| metadata.get(key));
    // `SkillMeta(...)`'s arguments are computed before its validators run, so a priority warning comes
    // before an invalid name's error.
    let priority = match metadata_field("priority") {
        None => 0,
        Some(value) => priority_of(value).unwrap_or_else(|| {
            notes.push(Note {
                level: Level::Warning,
                message: format!(
                    "metadata.priority must be an integer, got {}; using 0",
                    value.python_repr()
                ),
            });
            0
        }),
    };
    if name.chars().any(is_unsafe_name_char) {
        let message = format!(
            "Skipped: Invalid skill name '{name}'. Names must not contain whitespace, path separators or control characters."
        );
        return Loaded::skipped(notes, message);
    }
    let compatibility = frontmatter
        .get("compatibility")
        .filter(|value| !matches!(value, PyValue::Null))
        .map(|value| python::strip(&value.to_python_str()).to_string())
        .filter(|text| !text.is_empty());
    Loaded {
        skill: Some(LoadedSkill {
            name: name.to_string(),
            description: description.to_string(),
            compatibility,
            triggers: triggers(metadata_field("triggers")),
            priority,
        }),
        notes,
        yaml_failure: None,
    }
}

/// `_parse_triggers`: a list, or a string split at `;` and newlines; items stripped, empty ones dropped.
fn triggers(value: Option<&PyValue>) -> Vec<String> {
    let items: Vec<String> = match value {
        Some(PyValue::List(items)) => items.iter().map(PyValue::to_python_str).collect(),
        Some(PyValue::Str(text)) => text.split([';', '\n']).map(str::to_string).collect(),
        _ => return Vec::new(),
    };
    items
        .iter()
        .map(|item| python::strip(item).to_string())
        .filter(|item| !item.is_empty())
        .collect()
}

/// `_UNSAFE_NAME_RE`: whitespace, path separators and control characters.
fn is_unsafe_name_char(character: char) -> bool {
    python::is_space(character)
        || character == '/'
        || character == '\\'
        || (character as u32) < 0x20
        || character == '\x7f'
}

/// `SkillsRegistry.discover`'s warning for a later skill whose name is taken.
pub fn shadowed_message(name: &str, by: &str) -> String {
    format!("Skill '{name}' is shadowed by {by} and was not loaded")
}

/// What `build_catalog` shows of one skill.
#[derive(Debug, Clone, Copy)]
pub struct CatalogEntry<'a> {
    pub name: &'a str,
    pub description: &'a str,
    pub triggers: &'a [String],
    pub priority: i64,
}

impl<'a> From<&'a LoadedSkill> for CatalogEntry<'a> {
    fn from(skill: &'a LoadedSkill) -> Self {
        Self {
            name: &skill.name,
            description: &skill.description,
            triggers: &skill.triggers,
            priority: skill.priority,
        }
    }
}

/// The `<available_skills>` text 10xGraph builds from skills it loaded, given in its discovery order:
/// a later skill with an already-loaded name is shadowed (left out), as `SkillsRegistry.discover` does.
pub fn catalog<'a>(discovered: impl IntoIterator<Item = &'a LoadedSkill>) -> String {
    // Names already taken, so shadowing stays linear in the number of skills.
    let mut taken = std::collections::HashSet::new();
    let kept = discovered
        .into_iter()
        .filter(|skill| taken.insert(skill.name.as_str()))
        .map(CatalogEntry::from)
        .collect();
    build_catalog(kept)
}

/// `SkillsRegistry.build_catalog()` over skills already de-shadowed, byte for byte; `""` when empty.
pub fn build_catalog(mut skills: Vec<CatalogEntry<'_>>) -> String {
    if skills.is_empty() {
        return String::new();
    }
    // Python compares str by code point, as Rust's `str` ordering does.
    skills.sort_by(|left, right| {
        right
            .priority
            .cmp(&left.priority)
            .then_with(|| left.name.cmp(right.name))
    });
    let mut lines = vec!["<available_skills>".to_string()];
    for skill in skills {
        lines.push("  <skill>".to_string());
        lines.push(format!(
            "    <name>{}</name>",
            python::html_escape(skill.name, false)
        ));
        lines.push(format!(
            "    <description>{}</description>",
            python::html_escape(&collapse_whitespace(skill.description), false)
        ));
        if !skill.triggers.is_empty() {
            let hints = skill
                .triggers
                .iter()
                .map(|trigger| collapse_whitespace(trigger))
                .collect::<Vec<_>>()
                .join("; ");
            lines.push(format!(
                "    <triggers>{}</triggers>",
                python::html_escape(&hints, false)
            ));
        }
        lines.push("  </skill>".to_string());
    }
    lines.push("</available_skills>".to_string());
    lines.join("\n")
}

/// `" ".join(text.split())` with Python's whitespace.
pub fn collapse_whitespace(text: &str) -> String {
    text.split(python::is_space)
        .filter(|part| !part.is_empty())
        .collect::<Vec<_>>()
        .join(" ")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn frontmatter_split_matches_tenxgraph() {
        let split = split_frontmatter("\u{feff}---\r\nname: a\n --- \n\n body \n");
        assert_eq!(split.yaml, Some("name: a\n"));
        assert_eq!(split.body, "body");
        assert_eq!(split_frontmatter("no frontmatter\n").yaml, None);
        assert_eq!(split_frontmatter("---\nname: a\n").body, "---\nname: a");
        assert_eq!(split_frontmatter("").yaml, None);
    }

    #[test]
    fn line_breaks_are_python_s_splitlines_boundaries() {
        let text =
            "a\nb\r\nc\rd\u{b}e\u{c}f\u{1c}g\u{1d}h\u{1e}i\u{85}j\u{2028}k\u{2029}l\u{e9}\u{2027}m";
        let lines: Vec<&str> = PythonLines::new(text).map(|(line, _, _)| line).collect();
        assert_eq!(lines, crate::python::splitlines(text));
    }

    #[test]
    fn plain_values_with_colons_are_quoted() {
        assert_eq!(
            quote_plain_values("description: Use when: x  \nname: a"),
            "description: \"Use when: x\"\nname: a"
        );
        assert_eq!(
            quote_plain_values("description: 'a: b'"),
            "description: 'a: b'"
        );
    }

    fn reason(content: &str) -> String {
        load(content).into_result().err().unwrap_or_default()
    }

    #[test]
    fn skip_reasons_are_worded_as_tenxgraph_words_them() {
        assert_eq!(
            reason("---\n- a\n---\n"),
            "Frontmatter must be a mapping, got list"
        );
        assert_eq!(reason("---\n---\n"), "Skipped: 'name' is missing or empty");
        assert_eq!(
            reason("---\nname: 12\ndescription: d\n---\n"),
            "Skipped: 'name' is missing or empty"
        );
        assert_eq!(reason("body only\n"), NO_FRONTMATTER);
    }

    #[test]
    fn aliases_expand_and_warnings_keep_their_order() {
        let loaded = load(
            "---\nbase: &n alias-name\nname: *n\ndescription: d\nmetadata:\n  priority: [1]\n  triggers: [one, null, 2]\n---\n",
        );
        let skill = loaded.skill.clone().unwrap_or_else(|| panic!("{loaded:?}"));
        assert_eq!(skill.name, "alias-name");
        assert_eq!(skill.triggers, ["one", "None", "2"]);
        assert_eq!(
            loaded.notes[0].message,
            "metadata.priority must be an integer, got [1]; using 0"
        );
        let invalid = load("---\nname: a b\ndescription: d\nmetadata:\n  priority: true\n---\n");
        let messages: Vec<&str> = invalid
            .notes
            .iter()
            .map(|note| note.message.as_str())
            .collect();
        assert_eq!(
            messages[0],
            "metadata.priority must be an integer, got True; using 0"
        );
        assert!(messages[1].starts_with("Skipped: Invalid skill name 'a b'"));
    }

    #[test]
    fn empty_priority_is_zero_without_a_warning() {
        let loaded = load("---\nname: a\ndescription: d\nmetadata:\n  priority:\n---\n");
        assert!(loaded.notes.is_empty());
        assert_eq!(loaded.skill.map(|skill| skill.priority), Some(0));
    }
}
