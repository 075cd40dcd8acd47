//! Per-profile verdicts: does the client load the skill (under which name and description), skip it, or
//! fail its whole catalog because of it.
//!
//! 10xGraph is modelled step by step from `tenxgraph/core/skills/loader.py` (0.10.3): BOM strip, `---`
//! split, PyYAML `safe_load` with YAML 1.1 scalar resolution, the one retry that quotes `: ` values, the
//! skip rules, and `registry.build_catalog`'s text.

use serde::{Deserialize, Serialize};

use super::context::SkillContext;
use super::{Diagnostic, ProfileId, Severity};
use crate::frontmatter::lite;
use crate::frontmatter::yaml::{self, Node, Style, Value};
use crate::python;
use crate::text::TextRange;

/// What one client does with one skill.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
#[serde(tag = "outcome", rename_all = "kebab-case")]
pub enum Outcome {
    /// The skill is offered to the model under this name and description.
    Loads { name: String, description: String },
    /// The skill is left out; the others still load.
    Skipped { reason: String },
    /// Because of this skill, the client loads no skill at all.
    FailsCatalog { reason: String },
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
pub struct Verdict {
    pub profile: ProfileId,
    #[serde(flatten)]
    pub outcome: Outcome,
}

/// A frontmatter value as PyYAML's `safe_load` would type it.
#[derive(Debug, Clone, PartialEq)]
pub enum PyValue {
    Str(String),
    Int(i64),
    Float(String),
    Bool(bool),
    Null,
    Timestamp(String),
    List(Vec<PyValue>),
    Map(Vec<(PyValue, PyValue)>),
    /// An alias: PyYAML would expand it; we keep aliases unexpanded (see the parser's bounds).
    Unknown,
}

impl PyValue {
    pub fn from_scalar(text: &str, style: Style) -> Self {
        if style != Style::Plain {
            return PyValue::Str(text.to_string());
        }
        resolve_plain(text)
    }

    /// Python's `str(value)`.
    pub fn to_python_str(&self) -> String {
        match self {
            PyValue::Str(text) | PyValue::Float(text) | PyValue::Timestamp(text) => text.clone(),
            PyValue::Int(value) => value.to_string(),
            PyValue::Bool(true) => "True".to_string(),
            PyValue::Bool(false) => "False".to_string(),
            PyValue::Null => "None".to_string(),
            PyValue::List(_) | PyValue::Map(_) | PyValue::Unknown => String::new(),
        }
    }
}

/// Converts nodes as PyYAML's composer builds them, expanding aliases. Expansion is bounded: an alias bomb
/// stops at [`PyConverter::BUDGET`] converted nodes and the rest reads as [`PyValue::Unknown`].
pub struct PyConverter<'a> {
    anchors: std::collections::HashMap<usize, &'a Node>,
    budget: usize,
}

impl<'a> PyConverter<'a> {
    pub const BUDGET: usize = 100_000;

    pub fn new(root: &'a Node) -> Self {
        let mut anchors = std::collections::HashMap::new();
        let mut stack = vec![root];
        while let Some(node) = stack.pop() {
            if node.anchor != 0 {
                anchors.insert(node.anchor, node);
            }
            match &node.value {
                Value::Sequence { items, .. } => stack.extend(items),
                Value::Mapping { entries, .. } => {
                    stack.extend(entries.iter().flat_map(|entry| [&entry.key, &entry.value]));
                }
                Value::Scalar { .. } | Value::Alias { .. } => {}
            }
        }
        Self {
            anchors,
            budget: Self::BUDGET,
        }
    }

    pub fn convert(&mut self, node: &'a Node) -> PyValue {
        self.convert_at(node, 0)
    }

    fn convert_at(&mut self, node: &'a Node, depth: usize) -> PyValue {
        // Aliases can nest an anchored collection inside itself; depth and budget both end that.
        if self.budget == 0 || depth > 4 * crate::frontmatter::yaml::MAX_DEPTH {
            return PyValue::Unknown;
        }
        self.budget -= 1;
        match &node.value {
            Value::Scalar { text, style } => PyValue::from_scalar(text, *style),
            Value::Sequence { items, .. } => PyValue::List(
                items
                    .iter()
                    .map(|item| self.convert_at(item, depth + 1))
                    .collect(),
            ),
            Value::Mapping { entries, .. } => PyValue::Map(
                entries
                    .iter()
                    .map(|entry| {
                        (
                            self.convert_at(&entry.key, depth + 1),
                            self.convert_at(&entry.value, depth + 1),
                        )
                    })
                    .collect(),
            ),
            Value::Alias { anchor } => match self.anchors.get(anchor).copied() {
                Some(target) => self.convert_at(target, depth + 1),
                None => PyValue::Unknown,
            },
        }
    }
}

/// Whether PyYAML reads a plain scalar as a string (YAML 1.1 resolvers: bool, int, float, null, timestamp).
pub fn pyyaml_plain_is_string(text: &str) -> bool {
    matches!(resolve_plain(text), PyValue::Str(_))
}

fn resolve_plain(text: &str) -> PyValue {
    match text {
        "" | "~" | "null" | "Null" | "NULL" => return PyValue::Null,
        "yes" | "Yes" | "YES" | "true" | "True" | "TRUE" | "on" | "On" | "ON" => {
            return PyValue::Bool(true)
        }
        "no" | "No" | "NO" | "false" | "False" | "FALSE" | "off" | "Off" | "OFF" => {
            return PyValue::Bool(false)
        }
        _ => {}
    }
    if let Some(value) = yaml11_int(text) {
        return PyValue::Int(value);
    }
    if yaml11_float(text) {
        return PyValue::Float(python_float_text(text));
    }
    if yaml11_timestamp(text) {
        // str(date) is ISO; for the plain date form it equals what was written.
        return PyValue::Timestamp(text.to_string());
    }
    PyValue::Str(text.to_string())
}

fn yaml11_int(text: &str) -> Option<i64> {
    let (negative, body) = match text.as_bytes().first() {
        Some(b'-') => (true, &text[1..]),
        Some(b'+') => (false, &text[1..]),
        _ => (false, text),
    };
    let digits = |rest: &str, radix: u32| -> Option<i64> {
        let cleaned: String = rest.chars().filter(|character| *character != '_').collect();
        if rest.is_empty()
            || !rest
                .chars()
                .all(|character| character == '_' || character.is_digit(radix))
        {
            return None;
        }
        if cleaned.is_empty() {
            return Some(0);
        }
        i64::from_str_radix(&cleaned, radix).ok()
    };
    let value = if let Some(rest) = body.strip_prefix("0b") {
        digits(rest, 2)?
    } else if let Some(rest) = body.strip_prefix("0x") {
        digits(rest, 16)?
    } else if body.len() > 1 && body.starts_with('0') {
        digits(&body[1..], 8)?
    } else if body == "0" {
        0
    } else if body.starts_with(|character: char| ('1'..='9').contains(&character)) {
        if body.contains(':') {
            sexagesimal(body)?
        } else {
            digits(body, 10)?
        }
    } else {
        return None;
    };
    Some(if negative { -value } else { value })
}

fn sexagesimal(body: &str) -> Option<i64> {
    let mut value: i64 = 0;
    for (index, part) in body.split(':').enumerate() {
        let cleaned: String = part.chars().filter(|character| *character != '_').collect();
        if cleaned.is_empty() || !cleaned.bytes().all(|byte| byte.is_ascii_digit()) {
            return None;
        }
        if index > 0 && (part.len() > 2 || cleaned.parse::<u32>().ok()? > 59) {
            return None;
        }
        value = value
            .checked_mul(60)?
            .checked_add(cleaned.parse::<i64>().ok()?)?;
    }
    Some(value)
}

fn yaml11_float(text: &str) -> bool {
    let body = text.strip_prefix(['-', '+']).unwrap_or(text);
    if matches!(body, ".inf" | ".Inf" | ".INF") || matches!(text, ".nan" | ".NaN" | ".NAN") {
        return true;
    }
    let (mantissa, exponent) = match body.find(['e', 'E']) {
        Some(at) => (&body[..at], Some(&body[at + 1..])),
        None => (body, None),
    };
    if let Some(exponent) = exponent {
        // PyYAML's float pattern requires a signed exponent.
        let Some(digits) = exponent.strip_prefix(['-', '+']) else {
            return false;
        };
        if digits.is_empty() || !digits.bytes().all(|byte| byte.is_ascii_digit()) {
            return false;
        }
    }
    let Some(dot) = mantissa.find('.') else {
        return false;
    };
    let (whole, fraction) = (&mantissa[..dot], &mantissa[dot + 1..]);
    let digits_or_underscore = |part: &str| {
        part.bytes()
            .all(|byte| byte.is_ascii_digit() || byte == b'_')
    };
    if whole.is_empty() {
        return fraction.as_bytes().first().is_some_and(u8::is_ascii_digit)
            && digits_or_underscore(fraction);
    }
    if whole.contains(':') {
        return exponent.is_none() && digits_or_underscore(fraction);
    }
    whole.as_bytes().first().is_some_and(u8::is_ascii_digit)
        && digits_or_underscore(whole)
        && digits_or_underscore(fraction)
}

/// `str(float(text))` for the common forms; exotic spellings keep their text.
fn python_float_text(text: &str) -> String {
    let cleaned: String = text.chars().filter(|character| *character != '_').collect();
    match cleaned.parse::<f64>() {
        Ok(value) if value.is_finite() && value.fract() == 0.0 && value.abs() < 1e16 => {
            format!("{value:.1}")
        }
        Ok(value) if value.is_finite() => format!("{value}"),
        _ => text.to_string(),
    }
}

fn yaml11_timestamp(text: &str) -> bool {
    let bytes = text.as_bytes();
    let date = bytes.len() >= 8
        && bytes.len() <= 10
        && text.split('-').count() == 3
        && text.split('-').enumerate().all(|(index, part)| {
            let ok_len = if index == 0 {
                part.len() == 4
            } else {
                (1..=2).contains(&part.len())
            };
            ok_len && part.bytes().all(|byte| byte.is_ascii_digit())
        });
    // Only the date-only form is modelled; date-times are rare in frontmatter.
    date && (bytes.len() == 10 || text.contains('T'))
}

/// 10xGraph's `_parse_priority`: `int(str(value).strip())`, `None` meaning 0; `None` here when it warns.
pub fn priority_of(value: &PyValue) -> Option<i64> {
    match value {
        PyValue::Null => Some(0),
        PyValue::Int(number) => Some(*number),
        other => python::parse_int(&other.to_python_str()),
    }
}

/// A skill as 10xGraph's `SkillMeta` holds it, for its catalog.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TenxgraphSkill {
    pub name: String,
    pub description: String,
    pub triggers: Vec<String>,
    pub priority: i64,
}

/// 10xGraph's `load_skill` for one SKILL.md: `Ok(skill)` or `Err(reason)` (the skip diagnostic).
pub fn tenxgraph_load(context: &SkillContext<'_>) -> Result<TenxgraphSkill, String> {
    if context.file.invalid_utf8_at.is_some() {
        return Err("Cannot read file: not valid UTF-8".to_string());
    }
    // 10xGraph splits at Python's line boundaries (a lone `\r` or a form feed ends a line too), so its own
    // split is replayed here rather than reusing the linter's layout.
    let Some(raw_yaml) = tenxgraph_raw_yaml(context.source) else {
        return Err(
            "SKILL.md must start with YAML frontmatter delimited by '---' lines".to_string(),
        );
    };
    // Usually 10xGraph's YAML is exactly the linter's frontmatter block: reuse that parse instead of
    // parsing the same text again.
    let same_text = context
        .layout
        .as_ref()
        .is_ok_and(|layout| std::ptr::eq(layout.yaml.slice(context.source), raw_yaml));
    let parsed_here;
    let first = match (same_text, &context.yaml) {
        (true, Some(Ok(root))) => Ok(root.as_ref()),
        (true, Some(Err(error))) => Err(error),
        _ => {
            parsed_here = yaml::parse(raw_yaml, TextRange::new(0, raw_yaml.len()));
            match &parsed_here {
                Ok(root) => Ok(root.as_ref()),
                Err(error) => Err(error),
            }
        }
    };
    let repaired;
    let root = match first {
        Ok(root) => root,
        Err(error) => {
            let quoted = quote_plain_values(raw_yaml);
            match yaml::parse(&quoted, TextRange::new(0, quoted.len())) {
                Ok(root) => {
                    repaired = root;
                    repaired.as_ref()
                }
                Err(_) => return Err(format!("Invalid YAML in frontmatter: {}", error.message)),
            }
        }
    };
    let Some(root) = root else {
        return Err("Skipped: 'name' is missing or empty".to_string());
    };
    let mut converter = PyConverter::new(root);
    if root.entries().is_none() {
        return Err(format!(
            "Frontmatter must be a mapping, got {}",
            python_type_name(&converter.convert(root))
        ));
    }
    let mut field = |key: &str| root.get(key).map(|entry| converter.convert(&entry.value));
    let name = match field("name") {
        Some(PyValue::Str(name)) if !python::strip(&name).is_empty() => name,
        _ => return Err("Skipped: 'name' is missing or empty".to_string()),
    };
    let description = match field("description") {
        Some(PyValue::Str(description)) if !python::strip(&description).is_empty() => description,
        _ => return Err("Skipped: 'description' is missing or empty".to_string()),
    };
    let name = python::strip(&name).to_string();
    if name.chars().any(python_is_unsafe_name_char) {
        return Err(format!(
            "Skipped: Invalid skill name '{name}'. Names must not contain whitespace, path separators or control characters."
        ));
    }
    let metadata = match field("metadata") {
        Some(PyValue::Map(entries)) => entries,
        _ => Vec::new(),
    };
    let meta = |key: &str| {
        metadata
            .iter()
            .rev()
            .find(|(entry_key, _)| matches!(entry_key, PyValue::Str(text) if text == key))
            .map(|(_, value)| value.clone())
    };
    let triggers = match meta("triggers") {
        Some(PyValue::List(items)) => items.iter().map(PyValue::to_python_str).collect(),
        Some(PyValue::Str(text)) => text.split([';', '\n']).map(str::to_string).collect(),
        _ => Vec::new(),
    };
    let triggers = triggers
        .iter()
        .map(|trigger| python::strip(trigger).to_string())
        .filter(|trigger| !trigger.is_empty())
        .collect();
    let priority = meta("priority").map_or(0, |value| priority_of(&value).unwrap_or(0));
    Ok(TenxgraphSkill {
        name,
        description: python::strip(&description).to_string(),
        triggers,
        priority,
    })
}

/// `split_frontmatter`: after a BOM, line 1 stripped must be `---`; the YAML runs to the first later line
/// that strips to `---`. Lines end at Python's `splitlines` boundaries and are walked lazily, so a large
/// body after the frontmatter is never scanned.
fn tenxgraph_raw_yaml(source: &str) -> Option<&str> {
    let text = source.strip_prefix('\u{feff}').unwrap_or(source);
    let mut lines = PythonLines { text, at: 0 };
    let (first, _, yaml_start) = lines.next()?;
    if python::strip(first) != "---" {
        return None;
    }
    lines
        .find(|(line, _, _)| python::strip(line) == "---")
        .and_then(|(_, line_start, _)| text.get(yaml_start..line_start))
}

/// Python's `str.splitlines()` as a lazy iterator of `(line, its start, start of the next line)`.
struct PythonLines<'a> {
    text: &'a str,
    at: usize,
}

impl<'a> Iterator for PythonLines<'a> {
    type Item = (&'a str, usize, usize);

    fn next(&mut self) -> Option<Self::Item> {
        let rest = self.text.get(self.at..).filter(|rest| !rest.is_empty())?;
        let start = self.at;
        match rest
            .char_indices()
            .find(|(_, character)| is_python_line_break(*character))
        {
            Some((offset, character)) => {
                let mut next = start + offset + character.len_utf8();
                if character == '\r' && self.text.as_bytes().get(next) == Some(&b'\n') {
                    next += 1;
                }
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

/// 10xGraph's `_quote_plain_values`: top-level `key: value` lines whose plain value contains `: ` get the
/// value double-quoted; lines are re-joined with `\n`.
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
    let value = value.trim_end_matches([' ', '\t']);
    if value.is_empty()
        || !value.contains(": ")
        || value.starts_with(['\'', '"', '|', '>', '[', '{', '&', '*', '!', '#'])
    {
        return None;
    }
    Some(format!(
        "{key}: {}",
        crate::lint::rules::double_quoted(value)
    ))
}

/// The characters Python's `str.splitlines` breaks at.
fn is_python_line_break(character: char) -> bool {
    matches!(
        character,
        '\n' | '\r'
            | '\x0b'
            | '\x0c'
            | '\x1c'
            | '\x1d'
            | '\x1e'
            | '\u{85}'
            | '\u{2028}'
            | '\u{2029}'
    )
}

fn python_is_unsafe_name_char(character: char) -> bool {
    python::is_space(character)
        || character == '/'
        || character == '\\'
        || (character as u32) < 0x20
        || character == '\x7f'
}

fn python_type_name(value: &PyValue) -> &'static str {
    match value {
        PyValue::Str(_) => "str",
        PyValue::Int(_) => "int",
        PyValue::Float(_) => "float",
        PyValue::Bool(_) => "bool",
        PyValue::Null => "NoneType",
        PyValue::Timestamp(_) => "date",
        PyValue::List(_) => "list",
        PyValue::Map(_) => "dict",
        PyValue::Unknown => "object",
    }
}

/// `SkillsRegistry.build_catalog()` over skills already de-shadowed, byte for byte.
pub fn tenxgraph_catalog(skills: &[TenxgraphSkill]) -> String {
    if skills.is_empty() {
        return String::new();
    }
    let mut sorted: Vec<&TenxgraphSkill> = skills.iter().collect();
    // Python compares str by code point, as Rust's `str` ordering does.
    sorted.sort_by(|left, right| {
        right
            .priority
            .cmp(&left.priority)
            .then_with(|| left.name.cmp(&right.name))
    });
    let mut lines = vec!["<available_skills>".to_string()];
    for skill in sorted {
        lines.push("  <skill>".to_string());
        lines.push(format!(
            "    <name>{}</name>",
            python::html_escape(&skill.name, false)
        ));
        let description = collapse(&skill.description);
        lines.push(format!(
            "    <description>{}</description>",
            python::html_escape(&description, false)
        ));
        if !skill.triggers.is_empty() {
            let hints = skill
                .triggers
                .iter()
                .map(|trigger| collapse(trigger))
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
fn collapse(text: &str) -> String {
    text.split(python::is_space)
        .filter(|part| !part.is_empty())
        .collect::<Vec<_>>()
        .join(" ")
}

/// The verdict of each selected profile for one file, given its diagnostics.
pub fn verdicts(context: &SkillContext<'_>, diagnostics: &[Diagnostic]) -> Vec<Verdict> {
    context
        .profiles
        .iter()
        .map(|profile| Verdict {
            profile: *profile,
            outcome: outcome(context, *profile, diagnostics),
        })
        .collect()
}

fn first_error(diagnostics: &[Diagnostic], profile: ProfileId) -> Option<&Diagnostic> {
    diagnostics.iter().find(|diagnostic| {
        diagnostic.severity == Severity::Error && diagnostic.profiles.contains(&profile)
    })
}

fn outcome(context: &SkillContext<'_>, profile: ProfileId, diagnostics: &[Diagnostic]) -> Outcome {
    let placement = &context.file.placement;
    let loads_from_yaml = || Outcome::Loads {
        name: context.string_field("name").map_or_else(
            || context.file.dir_name.clone(),
            |(name, _)| name.trim().to_string(),
        ),
        description: context
            .string_field("description")
            .map(|(text, _)| text.trim().to_string())
            .unwrap_or_default(),
    };
    match profile {
        ProfileId::Nagents => {
            if placement.symlinked_dir || placement.symlinked_file {
                return Outcome::Skipped {
                    reason: "symbolic links are skipped during discovery".to_string(),
                };
            }
            if context.file.invalid_utf8_at.is_some() {
                return Outcome::Skipped {
                    reason: "SKILL.md is not valid UTF-8".to_string(),
                };
            }
            let location = context.file.display_path.clone();
            match lite::parse_skill_metadata(context.source, &location, &context.file.dir_name) {
                Ok(skill) if !placement.same_name_elsewhere.is_empty() => Outcome::FailsCatalog {
                    reason: format!(
                        "Duplicate skill name {} at {location}",
                        python::repr(&skill.name)
                    ),
                },
                Ok(skill) => Outcome::Loads {
                    name: skill.name,
                    description: skill.description,
                },
                Err(error) => Outcome::Skipped {
                    reason: error.to_string(),
                },
            }
        }
        ProfileId::Tenxgraph => match tenxgraph_load(context) {
            Ok(skill) if !placement.first_of_its_name => Outcome::Skipped {
                reason: format!(
                    "Skill '{}' is shadowed by {} and was not loaded",
                    skill.name,
                    placement
                        .same_name_elsewhere
                        .first()
                        .map_or("", String::as_str)
                ),
            },
            Ok(skill) => Outcome::Loads {
                name: skill.name,
                description: skill.description,
            },
            Err(reason) => Outcome::Skipped { reason },
        },
        ProfileId::ClaudeCode => {
            if context.yaml_parsed() {
                loads_from_yaml()
            } else {
                // Malformed YAML: Claude Code keeps the body and drops the metadata.
                Outcome::Loads {
                    name: context.file.dir_name.clone(),
                    description: String::new(),
                }
            }
        }
        ProfileId::Spec
        | ProfileId::ClaudeUpload
        | ProfileId::Codex
        | ProfileId::Copilot
        | ProfileId::Opencode => match first_error(diagnostics, profile) {
            Some(diagnostic) => Outcome::Skipped {
                reason: format!(
                    "{} {}: {}",
                    diagnostic.code, diagnostic.rule, diagnostic.message
                ),
            },
            None => loads_from_yaml(),
        },
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pyyaml_resolution() {
        assert_eq!(resolve_plain("yes"), PyValue::Bool(true));
        assert_eq!(resolve_plain("0x1F"), PyValue::Int(31));
        assert_eq!(resolve_plain("010"), PyValue::Int(8));
        assert_eq!(resolve_plain("1_000"), PyValue::Int(1000));
        assert_eq!(resolve_plain("1:30"), PyValue::Int(90));
        assert!(matches!(resolve_plain("1.5"), PyValue::Float(_)));
        assert!(matches!(resolve_plain("1e3"), PyValue::Str(_)));
        assert!(matches!(resolve_plain("2024-01-02"), PyValue::Timestamp(_)));
        assert!(matches!(resolve_plain("v1.2"), PyValue::Str(_)));
    }

    #[test]
    fn priority_follows_python_int() {
        assert_eq!(priority_of(&PyValue::Str(" 7 ".into())), Some(7));
        assert_eq!(priority_of(&PyValue::Str("high".into())), None);
        assert_eq!(priority_of(&PyValue::Bool(true)), None);
        assert_eq!(priority_of(&PyValue::Null), Some(0));
    }
}
