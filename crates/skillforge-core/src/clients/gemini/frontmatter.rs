//! What Gemini CLI 0.61.0 reads from a `SKILL.md` (`loadSkillFromFile` in the core chunk of the
//! bundle, `packages/core/src/skills/skillLoader.ts`):
//!
//! 1. the file decoded as UTF-8, invalid bytes as U+FFFD, a BOM kept (`bom` is dropped);
//! 2. `/^---\r?\n([\s\S]*?)\r?\n---(?:\r?\n([\s\S]*))?/` on the whole text: any text may follow the
//!    closing `---` on its line (`y-closer-dashes`), and a line starting with `---` inside a block
//!    scalar closes the block (`y-dash-line-in-value`);
//! 3. js-yaml 4.1.1 `load()` with its default schema; when it throws, or when `name` and
//!    `description` are not both JavaScript strings, the line parser `parseSimpleFrontmatter`;
//! 4. the skill loads when both fields are then defined (the empty string counts), with each of
//!    `: \ / < > * ? " |` in the name turned into `-`; otherwise it is dropped without a word.
//!
//! js-yaml is modelled on the engine's YAML 1.2 parser ([`crate::frontmatter::yaml`]) plus what
//! js-yaml adds: its reader refuses non-printable characters, duplicate keys throw (after keys are
//! turned into strings, `<<` merges excepted), a plain scalar is typed by js-yaml's own core schema
//! with timestamps (`2024-01-02` is a `Date`, not a string), an unknown alias throws.

use crate::clients::claude_code::frontmatter::{js_number, js_space, js_trim};
use crate::frontmatter::yaml::{self, Node, Style, Value};
use std::collections::{HashMap, HashSet};
use std::rc::Rc;

/// Why Gemini drops a `SKILL.md`. It says nothing in either case, with or without `--debug`.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum Drop {
    /// The frontmatter regular expression does not match (no `---` line first, a BOM or a blank
    /// line before it, `--- ` with a trailing space, no closing `---` line, `---\n---`).
    #[error("Gemini CLI finds no frontmatter (the file must start with a `---` line and a later line must start with `---`), so it drops the skill silently")]
    NoFrontmatter,
    /// Neither js-yaml nor the line parser found a `name`.
    #[error("Gemini CLI finds no `name` (neither as YAML text nor on a `name:` line), so it drops the skill silently")]
    MissingName,
    /// Neither js-yaml nor the line parser found a `description`.
    #[error("Gemini CLI finds no `description` (neither as YAML text nor on a `description:` line), so it drops the skill silently")]
    MissingDescription,
}

/// How the fields were read.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Reading {
    /// js-yaml parsed the block and both fields are strings.
    Yaml,
    /// js-yaml threw (its message, as `--debug` logs it); the line parser read the fields.
    FallbackAfterError(String),
    /// js-yaml parsed the block but a field is not a string (or the block is not a mapping); the
    /// line parser read the fields as raw text.
    FallbackNotStrings,
}

/// A skill as Gemini loads it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Parsed {
    /// Sanitised: `: \ / < > * ? " |` become `-`.
    pub name: String,
    /// Exactly as read: no trim, no folding, no cut.
    pub description: String,
    pub reading: Reading,
}

/// Decodes, matches, parses: the skill, or why it is dropped.
pub fn parse_bytes(bytes: &[u8]) -> Result<Parsed, Drop> {
    parse_text(&crate::text::decode_lossy(bytes))
}

/// [`parse_bytes`] on text already decoded (invalid UTF-8 already U+FFFD).
pub fn parse_text(text: &str) -> Result<Parsed, Drop> {
    let yaml_text = frontmatter_block(text).ok_or(Drop::NoFrontmatter)?;
    let (name, description, reading) = match load_fields(yaml_text) {
        Ok((Some(name), Some(description))) => (Some(name), Some(description), Reading::Yaml),
        Ok(_) => {
            let (name, description) = simple_fields(yaml_text);
            (name, description, Reading::FallbackNotStrings)
        }
        Err(message) => {
            let (name, description) = simple_fields(yaml_text);
            (name, description, Reading::FallbackAfterError(message))
        }
    };
    let name = name.ok_or(Drop::MissingName)?;
    let description = description.ok_or(Drop::MissingDescription)?;
    Ok(Parsed {
        name: sanitize_name(&name),
        description,
        reading,
    })
}

/// `name.replace(/[:\\/<>*?"|]/g, "-")`.
pub fn sanitize_name(name: &str) -> String {
    name.chars()
        .map(|c| {
            if matches!(c, ':' | '\\' | '/' | '<' | '>' | '*' | '?' | '"' | '|') {
                '-'
            } else {
                c
            }
        })
        .collect()
}

/// Group 1 of `/^---\r?\n([\s\S]*?)\r?\n---(?:\r?\n([\s\S]*))?/`: the text after the opening line
/// up to the first line starting with `---` (a CR before that line's LF excluded).
pub fn frontmatter_block(text: &str) -> Option<&str> {
    let start = if text.starts_with("---\n") {
        4
    } else if text.starts_with("---\r\n") {
        5
    } else {
        return None;
    };
    // The lazy group ends at the first place `\r?\n---` matches; `\n---` may begin at the group's
    // very start (an empty group), but not before it.
    let newline = text[start..].find("\n---")? + start;
    let end = if newline > start && text.as_bytes()[newline - 1] == b'\r' {
        newline - 1
    } else {
        newline
    };
    Some(&text[start..end])
}

/// `parseSimpleFrontmatter`: the lines split at `\r?\n`; the last `name:` line (indented or not)
/// gives the name, the last `description:` line with its following indented lines the description.
pub fn simple_fields(content: &str) -> (Option<String>, Option<String>) {
    let lines: Vec<&str> = split_lines(content);
    let mut name = None;
    let mut description = None;
    let mut index = 0;
    while index < lines.len() {
        let line = lines[index];
        if let Some(value) = key_line(line, "name:") {
            name = Some(js_trim(value).to_string());
            index += 1;
            continue;
        }
        if let Some(value) = key_line(line, "description:") {
            let mut parts = vec![js_trim(value)];
            while let Some(next) = lines.get(index + 1) {
                if !continues(next) {
                    break;
                }
                parts.push(js_trim(next));
                index += 1;
            }
            let kept: Vec<&str> = parts.into_iter().filter(|part| !part.is_empty()).collect();
            description = Some(kept.join(" "));
        }
        index += 1;
    }
    (name, description)
}

/// `content.split(/\r?\n/)`: a CR belongs to the separator only right before a LF.
fn split_lines(content: &str) -> Vec<&str> {
    let mut lines: Vec<&str> = content.split('\n').collect();
    let last = lines.len() - 1;
    for line in &mut lines[..last] {
        *line = line.strip_suffix('\r').unwrap_or(line);
    }
    lines
}

/// `/^\s*KEY\s*(.*)$/` (no `m` flag: `$` is the end of the line, and `.` matches no line
/// terminator): the captured rest, or None.
fn key_line<'a>(line: &'a str, key: &str) -> Option<&'a str> {
    let rest = line.trim_start_matches(js_space).strip_prefix(key)?;
    let value = rest.trim_start_matches(js_space);
    // Backtracking the whitespace run cannot help `.*` past a line terminator.
    if value.contains(['\n', '\r', '\u{2028}', '\u{2029}']) {
        return None;
    }
    Some(value)
}

/// `/^[ \t]+\S/`.
fn continues(line: &str) -> bool {
    let rest = line.trim_start_matches([' ', '\t']);
    rest.len() < line.len() && rest.chars().next().is_some_and(|c| !js_space(c))
}

/// The top-level `name` and `description` when js-yaml's `load` returns an object and they are
/// strings (each `None` otherwise); `Err` with js-yaml's message kind when it throws.
pub fn load_fields(text: &str) -> Result<(Option<String>, Option<String>), String> {
    let Some(root) = load(text)? else {
        return Ok((None, None));
    };
    let JsValue::Object(fields) = root else {
        return Ok((None, None));
    };
    let field = |key: &str| {
        fields
            .iter()
            .find(|(name, _)| name == key)
            .and_then(|(_, value)| match value {
                JsValue::String(text) => Some(text.clone()),
                _ => None,
            })
    };
    Ok((field("name"), field("description")))
}

/// A value as js-yaml constructs it, as far as Gemini's reading needs: strings exactly, the other
/// scalars by the text `String()` gives them (a key is turned into one).
#[derive(Debug, Clone, PartialEq)]
pub enum JsValue {
    Null,
    String(String),
    /// A number, boolean or date: `String(value)` (a date's is approximated by its YAML text).
    Other(String),
    /// Shared, as JavaScript shares the value an alias names: an alias bomb costs no more than its text.
    Array(Rc<Vec<JsValue>>),
    /// Keys in first-appearance order; shared like arrays.
    Object(Rc<Vec<(String, JsValue)>>),
}

/// The longest key string built from a list key (see [`JsValue::key_string`]).
const KEY_MAX: usize = 4 << 20;

impl JsValue {
    /// `String(key)` after js-yaml's key rewrite (an object inside a key array is `[object Object]`).
    fn key_string(&self) -> Result<String, String> {
        Ok(match self {
            JsValue::Null => "null".to_string(),
            JsValue::String(text) | JsValue::Other(text) => text.clone(),
            JsValue::Object(_) => "[object Object]".to_string(),
            JsValue::Array(items) => {
                let mut joined = String::new();
                for (index, item) in items.iter().enumerate() {
                    if let JsValue::Array(_) = item {
                        return Err("nested arrays are not supported inside keys".to_string());
                    }
                    // Keys built from aliases could grow past any real key; past the bound they are
                    // cut, where the client would run out of memory.
                    if joined.len() >= KEY_MAX {
                        continue;
                    }
                    if index > 0 {
                        joined.push(',');
                    }
                    if !matches!(item, JsValue::Null) {
                        joined.push_str(&item.key_string()?);
                    }
                }
                joined
            }
        })
    }
}

/// js-yaml 4.1.1 `load(text)`: `Ok(None)` for an empty document (`undefined`).
pub fn load(text: &str) -> Result<Option<JsValue>, String> {
    // js-yaml drops one leading BOM before reading.
    let text = text.strip_prefix('\u{feff}').unwrap_or(text);
    if text.contains('\0') {
        return Err("null byte is not allowed in input".to_string());
    }
    if !text.chars().all(js_yaml_printable) {
        return Err("the stream contains non-printable characters".to_string());
    }
    let mut text = tab_separators(text);
    // js-yaml ends the input with a line break when it has none, which a block scalar's chomping sees.
    if !text.is_empty() && !text.ends_with(['\n', '\r']) {
        text.push('\n');
    }
    // js-yaml keeps a byte-order mark inside a value as a character; the engine's parser refuses it.
    // It is parsed as a private-use character the text does not hold, then put back.
    let stand_in = if text.contains('\u{feff}') {
        let free = ('\u{e000}'..='\u{f8ff}').rev().find(|c| !text.contains(*c));
        if let Some(free) = free {
            text = text.replace('\u{feff}', free.encode_utf8(&mut [0; 4]));
        }
        free
    } else {
        None
    };
    let parsed = yaml::parse_whole(&text);
    let node = match parsed.as_ref() {
        Ok(Some(node)) => node,
        Ok(None) => return Ok(None),
        Err(error) => return Err(error.message.clone()),
    };
    let mut anchors = Vec::new();
    let value = construct(&text, node, &mut anchors)?;
    Ok(Some(match stand_in {
        Some(free) => restore(value, free),
        None => value,
    }))
}

/// Puts the byte-order marks [`load`] stood in for back into the top-level strings, the only values
/// Gemini reads.
fn restore(value: JsValue, free: char) -> JsValue {
    let back = |text: &str| text.replace(free, "\u{feff}");
    match value {
        JsValue::String(text) => JsValue::String(back(&text)),
        JsValue::Object(fields) => JsValue::Object(Rc::new(
            fields
                .iter()
                .map(|(key, value)| {
                    let value = match value {
                        JsValue::String(text) => JsValue::String(back(text)),
                        other => other.clone(),
                    };
                    (back(key), value)
                })
                .collect(),
        )),
        other => other,
    }
}

/// js-yaml's `PATTERN_NON_PRINTABLE` negated: C0 controls but TAB, LF and CR; DEL; the C1
/// controls but NEL; U+FFFE and U+FFFF.
fn js_yaml_printable(c: char) -> bool {
    !matches!(c, '\0'..='\u{8}' | '\u{b}' | '\u{c}' | '\u{e}'..='\u{1f}' | '\u{7f}'..='\u{84}' | '\u{86}'..='\u{9f}' | '\u{fffe}' | '\u{ffff}')
}

/// js-yaml takes a tab after a key's colon as the separator (`is_WS_OR_EOL`); the engine's parser
/// wants a space there. The separator is not part of the value, so it is given as one space; a tab
/// anywhere else is left alone.
fn tab_separators(text: &str) -> String {
    if !text.contains(":\t") {
        return text.to_string();
    }
    let lines: Vec<String> = text
        .split('\n')
        .map(|line| {
            let starts_key = line
                .chars()
                .next()
                .is_some_and(|c| !c.is_whitespace() && !"#'\"[{-?:".contains(c));
            match line.find(':') {
                Some(colon) if starts_key && line[colon + 1..].starts_with('\t') => {
                    let value = line[colon + 1..].trim_start_matches([' ', '\t']);
                    format!("{} {value}", &line[..=colon])
                }
                _ => line.to_string(),
            }
        })
        .collect();
    lines.join("\n")
}

/// The tag written on a tagged node (`!!str`, `!`, `!custom`), read back from the text: the engine's
/// parser only says that a tag is there. It is the last `!` token at or before the node's start.
fn tag_of<'a>(text: &'a str, node: &Node) -> &'a str {
    let start = node.range.start().min(text.len());
    let at = if text[start..].starts_with('!') {
        Some(start)
    } else {
        text[..start].rfind('!')
    };
    match at {
        Some(at) => {
            let rest = &text[at..];
            // A verbatim tag `!<…>` may hold commas.
            if rest.starts_with("!<") {
                if let Some(close) = rest.find('>') {
                    return &rest[..=close];
                }
            }
            let end = rest
                .find(|c: char| c.is_whitespace() || matches!(c, ',' | '[' | ']' | '{' | '}'))
                .unwrap_or(rest.len());
            &rest[..end]
        }
        None => "!",
    }
}

/// js-yaml's explicit tags on a scalar: the value, or its error (an unknown tag, or text the tag's type
/// does not resolve).
fn tagged_scalar(tag: &str, text: &str) -> Result<JsValue, String> {
    let tag = short_tag(tag);
    let tag = tag.as_str();
    let cannot = || {
        format!(
            "cannot resolve a node with !<{}> explicit tag",
            long_tag(tag)
        )
    };
    match tag {
        "!" | "!!str" => Ok(JsValue::String(text.to_string())),
        "!!null" => match resolve_plain(text) {
            JsValue::Null => Ok(JsValue::Null),
            _ => Err(cannot()),
        },
        "!!bool" => match text {
            "true" | "True" | "TRUE" | "false" | "False" | "FALSE" => {
                Ok(JsValue::Other(text.to_ascii_lowercase()))
            }
            _ => Err(cannot()),
        },
        "!!int" => js_yaml_int(text)
            .map(|number| JsValue::Other(js_number(number)))
            .ok_or_else(cannot),
        "!!float" => {
            if js_yaml_float(text) {
                Ok(JsValue::Other(text.to_string()))
            } else {
                Err(cannot())
            }
        }
        "!!timestamp" => {
            if is_timestamp(text) {
                Ok(JsValue::Other(text.to_string()))
            } else {
                Err(cannot())
            }
        }
        // A Uint8Array: `resolveYamlBinary` counts 6 bits for each of `A-Za-z0-9+/=` (padding
        // included), skips line breaks, refuses anything else, and wants whole bytes.
        "!!binary" => {
            let mut bits = 0usize;
            for c in text.chars() {
                if c.is_ascii_alphanumeric() || matches!(c, '+' | '/' | '=') {
                    bits += 6;
                } else if !matches!(c, '\n' | '\r') {
                    return Err(cannot());
                }
            }
            if bits.is_multiple_of(8) {
                Ok(JsValue::Other(text.to_string()))
            } else {
                Err(cannot())
            }
        }
        "!!merge" => Ok(JsValue::String(text.to_string())),
        "!!map" | "!!seq" | "!!omap" | "!!pairs" | "!!set" => Err(format!(
            "unacceptable node kind for !<{}> tag; it should be \"{}\", not \"scalar\"",
            long_tag(tag),
            if tag == "!!map" || tag == "!!set" {
                "mapping"
            } else {
                "sequence"
            }
        )),
        _ => Err(format!("unknown tag !<{}>", long_tag(tag))),
    }
}

/// A verbatim tag of the YAML namespace (`!<tag:yaml.org,2002:str>`) as its `!!` shorthand.
fn short_tag(tag: &str) -> String {
    match tag
        .strip_prefix("!<tag:yaml.org,2002:")
        .and_then(|rest| rest.strip_suffix('>'))
    {
        Some(name) => format!("!!{name}"),
        None => tag.to_string(),
    }
}

/// `!!x` as js-yaml names it in messages.
fn long_tag(tag: &str) -> String {
    match tag.strip_prefix("!!") {
        Some(short) => format!("tag:yaml.org,2002:{short}"),
        None => tag.to_string(),
    }
}

fn construct(
    text: &str,
    node: &Node,
    anchors: &mut Vec<(usize, JsValue)>,
) -> Result<JsValue, String> {
    if node.tagged {
        let tag = short_tag(tag_of(text, node));
        let allowed: &[&str] = match &node.value {
            Value::Sequence { .. } => &["!", "!!seq", "!!omap", "!!pairs"],
            Value::Mapping { .. } => &["!", "!!map", "!!set"],
            _ => &[],
        };
        if !allowed.is_empty() && !allowed.contains(&tag.as_str()) {
            return Err(format!("unknown tag !<{}>", long_tag(&tag)));
        }
    }
    let value = match &node.value {
        Value::Scalar {
            text: scalar,
            style,
        } => {
            if node.tagged {
                tagged_scalar(tag_of(text, node), scalar)?
            } else if *style != Style::Plain {
                JsValue::String(scalar.clone())
            } else {
                resolve_plain(scalar)
            }
        }
        Value::Sequence { items, .. } => JsValue::Array(Rc::new(
            items
                .iter()
                .map(|item| construct(text, item, anchors))
                .collect::<Result<Vec<_>, _>>()?,
        )),
        Value::Mapping { entries, flow } => {
            // js-yaml reads an anchor or a tag before it knows a block mapping starts, so on the first
            // key of one (`&k key: v`, `- !!str key: v`) they leave a plain scalar followed by `:`,
            // which it refuses; on a later key, or an explicit `? key`, they are the key's own.
            if let Some(first) = entries.first() {
                if !flow
                    && (first.key.anchor != 0 || first.key.tagged)
                    && !explicit_key(text, &first.key)
                {
                    return Err("bad indentation of a mapping entry".to_string());
                }
            }
            let mut fields: Vec<(String, JsValue)> = Vec::new();
            // Where each key sits in `fields`, so that a mapping of many keys stays linear.
            let mut slots: HashMap<String, usize> = HashMap::new();
            // Keys a merge put there, which one explicit key may still replace.
            let mut overridable: HashSet<String> = HashSet::new();
            for entry in entries {
                let is_merge = !entry.key.tagged
                    && matches!(entry.key.as_scalar(), Some(("<<", Style::Plain)));
                let key = construct(text, &entry.key, anchors)?;
                let value = construct(text, &entry.value, anchors)?;
                if is_merge {
                    let sources = match value {
                        JsValue::Object(source) => vec![source],
                        JsValue::Array(items) => {
                            let mut sources = Vec::new();
                            for item in items.iter() {
                                match item {
                                    JsValue::Object(source) => sources.push(Rc::clone(source)),
                                    _ => return Err("cannot merge mappings; the provided source object is unacceptable".to_string()),
                                }
                            }
                            sources
                        }
                        _ => {
                            return Err(
                                "cannot merge mappings; the provided source object is unacceptable"
                                    .to_string(),
                            )
                        }
                    };
                    for source in sources {
                        for (key, value) in source.iter() {
                            if !slots.contains_key(key) {
                                overridable.insert(key.clone());
                                slots.insert(key.clone(), fields.len());
                                fields.push((key.clone(), value.clone()));
                            }
                        }
                    }
                    continue;
                }
                let key = key.key_string()?;
                match slots.get(&key) {
                    Some(&slot) => {
                        if !overridable.remove(&key) {
                            return Err("duplicated mapping key".to_string());
                        }
                        fields[slot].1 = value;
                    }
                    None => {
                        slots.insert(key.clone(), fields.len());
                        fields.push((key, value));
                    }
                }
            }
            JsValue::Object(Rc::new(fields))
        }
        Value::Alias { anchor } => anchors
            .iter()
            .rev()
            .find(|(id, _)| id == anchor)
            .map(|(_, value)| value.clone())
            .ok_or_else(|| "unidentified alias".to_string())?,
    };
    if node.anchor != 0 {
        anchors.push((node.anchor, value.clone()));
    }
    Ok(value)
}

/// Whether a key is written after `?` on its line.
fn explicit_key(text: &str, key: &Node) -> bool {
    let start = key.range.start().min(text.len());
    let line_start = text[..start].rfind('\n').map_or(0, |at| at + 1);
    text[line_start..start].trim_start().starts_with('?')
}

/// js-yaml's implicit types for a plain scalar, in its order: null, bool, int, float (its
/// `core` schema), then timestamp (its `default` schema). `<<` resolves to the merge type, whose
/// value is the text itself.
pub fn resolve_plain(text: &str) -> JsValue {
    match text {
        "" | "~" | "null" | "Null" | "NULL" => return JsValue::Null,
        "true" | "True" | "TRUE" | "false" | "False" | "FALSE" => {
            return JsValue::Other(text.to_ascii_lowercase())
        }
        _ => {}
    }
    if let Some(number) = js_yaml_int(text) {
        return JsValue::Other(js_number(number));
    }
    if js_yaml_float(text) {
        let cleaned = text.replace('_', "").to_ascii_lowercase();
        let number = match cleaned.as_str() {
            ".inf" | "+.inf" => f64::INFINITY,
            "-.inf" => f64::NEG_INFINITY,
            ".nan" => f64::NAN,
            other => other.parse::<f64>().unwrap_or(f64::NAN),
        };
        return JsValue::Other(js_number(number));
    }
    if is_timestamp(text) {
        return JsValue::Other(text.to_string());
    }
    JsValue::String(text.to_string())
}

/// `resolveYamlInteger` and `constructYamlInteger`: signs, `0b`, `0x`, `0o`, decimal, with `_`
/// anywhere but first and last.
fn js_yaml_int(text: &str) -> Option<f64> {
    let (negative, unsigned) = match text.as_bytes().first() {
        Some(b'-') => (true, &text[1..]),
        Some(b'+') => (false, &text[1..]),
        _ => (false, text),
    };
    let radix_digits = |prefix: &str, radix: u32| -> Option<Option<f64>> {
        let digits = unsigned.strip_prefix(prefix)?;
        let has_digits = digits.chars().any(|c| c != '_');
        let valid = digits.chars().all(|c| c == '_' || c.is_digit(radix));
        if !valid || !has_digits || digits.ends_with('_') {
            return Some(None);
        }
        let value = digits.chars().filter(|c| *c != '_').fold(0f64, |total, c| {
            total * f64::from(radix) + f64::from(c.to_digit(radix).unwrap_or(0))
        });
        Some(Some(if negative { -value } else { value }))
    };
    if unsigned == "0" {
        return Some(0.0);
    }
    for (prefix, radix) in [("0b", 2), ("0x", 16), ("0o", 8)] {
        if let Some(result) = radix_digits(prefix, radix) {
            return result;
        }
    }
    if unsigned.starts_with('_') || unsigned.ends_with('_') {
        return None;
    }
    if unsigned.is_empty() || !unsigned.chars().all(|c| c == '_' || c.is_ascii_digit()) {
        return None;
    }
    let value: f64 = unsigned.replace('_', "").parse().ok()?;
    Some(if negative { -value } else { value })
}

/// `YAML_FLOAT_PATTERN` and the rule that a float does not end with `_`.
fn js_yaml_float(text: &str) -> bool {
    if text.ends_with('_') {
        return false;
    }
    if matches!(
        text,
        ".inf" | ".Inf" | ".INF" | "+.inf" | "+.Inf" | "+.INF" | "-.inf" | "-.Inf" | "-.INF"
    ) || matches!(text, ".nan" | ".NaN" | ".NAN")
    {
        return true;
    }
    let bytes = text.as_bytes();
    let mut at = 0;
    let digits_or_underscore = |at: &mut usize| {
        let start = *at;
        while bytes
            .get(*at)
            .is_some_and(|b| b.is_ascii_digit() || *b == b'_')
        {
            *at += 1;
        }
        *at - start
    };
    let exponent = |at: &mut usize| -> bool {
        if matches!(bytes.get(*at), Some(b'e' | b'E')) {
            *at += 1;
            if matches!(bytes.get(*at), Some(b'-' | b'+')) {
                *at += 1;
            }
            let start = *at;
            while bytes.get(*at).is_some_and(u8::is_ascii_digit) {
                *at += 1;
            }
            return *at > start;
        }
        true
    };
    // `\.[0-9_]+([eE][-+]?[0-9]+)?`, without a sign.
    if bytes.first() == Some(&b'.') {
        at = 1;
        if digits_or_underscore(&mut at) == 0 {
            return false;
        }
        return exponent(&mut at) && at == bytes.len();
    }
    // `[-+]?[0-9][0-9_]*(\.[0-9_]*)?([eE][-+]?[0-9]+)?`
    if matches!(bytes.first(), Some(b'-' | b'+')) {
        at = 1;
    }
    if !bytes.get(at).is_some_and(u8::is_ascii_digit) {
        return false;
    }
    digits_or_underscore(&mut at);
    if bytes.get(at) == Some(&b'.') {
        at += 1;
        digits_or_underscore(&mut at);
    }
    exponent(&mut at) && at == bytes.len()
}

/// `YAML_DATE_REGEXP` or `YAML_TIMESTAMP_REGEXP`: js-yaml makes a `Date` of it.
fn is_timestamp(text: &str) -> bool {
    let bytes = text.as_bytes();
    let digit = |at: usize| bytes.get(at).is_some_and(u8::is_ascii_digit);
    if bytes.len() == 10 && (0..4).all(digit) && bytes[4] == b'-' && digit(5) && digit(6) {
        return bytes[7] == b'-' && digit(8) && digit(9);
    }
    // `YYYY-M?M-D?D([Tt]|[ \t]+)H?H:MM:SS(\.[0-9]*)?([ \t]*(Z|[-+]H?H(:MM)?))?`
    let mut at = 0;
    let run = |at: &mut usize, least: usize, most: usize| -> bool {
        let start = *at;
        while *at - start < most && digit(*at) {
            *at += 1;
        }
        *at - start >= least
    };
    let byte = |at: &mut usize, expected: u8| -> bool {
        if bytes.get(*at) == Some(&expected) {
            *at += 1;
            true
        } else {
            false
        }
    };
    if !(run(&mut at, 4, 4) && byte(&mut at, b'-') && run(&mut at, 1, 2) && byte(&mut at, b'-')) {
        return false;
    }
    if !run(&mut at, 1, 2) {
        return false;
    }
    if matches!(bytes.get(at), Some(b'T' | b't')) {
        at += 1;
    } else {
        let start = at;
        while matches!(bytes.get(at), Some(b' ' | b'\t')) {
            at += 1;
        }
        if at == start {
            return false;
        }
    }
    if !(run(&mut at, 1, 2)
        && byte(&mut at, b':')
        && run(&mut at, 2, 2)
        && byte(&mut at, b':')
        && run(&mut at, 2, 2))
    {
        return false;
    }
    if byte(&mut at, b'.') {
        while digit(at) {
            at += 1;
        }
    }
    let before_zone = at;
    while matches!(bytes.get(at), Some(b' ' | b'\t')) {
        at += 1;
    }
    if at == bytes.len() {
        // Trailing blanks without a zone do not match; none at all does.
        return before_zone == bytes.len();
    }
    if byte(&mut at, b'Z') {
        return at == bytes.len();
    }
    if matches!(bytes.get(at), Some(b'-' | b'+')) {
        at += 1;
        if !run(&mut at, 1, 2) {
            return false;
        }
        if byte(&mut at, b':') && !run(&mut at, 2, 2) {
            return false;
        }
        return at == bytes.len();
    }
    false
}

#[cfg(test)]
mod tests {
    use super::*;

    fn loads(text: &str) -> (String, String, Reading) {
        let parsed = parse_text(text).unwrap_or_else(|drop| panic!("{text:?}: {drop}"));
        (parsed.name, parsed.description, parsed.reading)
    }

    #[test]
    fn the_block_is_the_regular_expression_group() {
        assert_eq!(
            frontmatter_block("---\nname: a\n---\nBody"),
            Some("name: a")
        );
        assert_eq!(
            frontmatter_block("---\r\nname: a\r\n---\r\n"),
            Some("name: a")
        );
        assert_eq!(
            frontmatter_block("---\nname: a\n---trailing"),
            Some("name: a")
        );
        assert_eq!(frontmatter_block("---\n\n---\n"), Some(""));
        assert_eq!(frontmatter_block("---\n---\n"), None);
        assert_eq!(frontmatter_block("\u{feff}---\nname: a\n---\n"), None);
        assert_eq!(frontmatter_block("--- \nname: a\n---\n"), None);
        assert_eq!(frontmatter_block("---\nname: a\n...\n"), None);
    }

    #[test]
    fn strings_come_from_yaml_and_the_rest_from_the_lines() {
        assert_eq!(
            loads("---\nname: a\ndescription: \"quoted: ok\"\n---\n"),
            ("a".into(), "quoted: ok".into(), Reading::Yaml)
        );
        let (_, description, reading) = loads("---\nname: a\ndescription: 2024-01-02\n---\n");
        assert_eq!(description, "2024-01-02");
        assert_eq!(reading, Reading::FallbackNotStrings);
        let (_, description, reading) =
            loads("---\nname: a\ndescription: Use when: the user asks\n---\n");
        assert_eq!(description, "Use when: the user asks");
        assert!(matches!(reading, Reading::FallbackAfterError(_)));
        assert_eq!(
            loads("---\nname: a\ndescription: x\ndescription: y\n---\n").1,
            "y"
        );
        assert_eq!(
            loads("---\nname: a\ndescription: |\n  l1\n  l2\n---\n").1,
            "l1\nl2\n"
        );
        assert_eq!(loads("---\nname: a: b\ndescription: d\n---\n").0, "a- b");
        assert_eq!(loads("---\nname: 42\ndescription: d\n---\n").0, "42");
        assert_eq!(loads("---\nname:\ndescription: d\n---\n").0, "");
        assert_eq!(
            loads("---\nname: a\ndescription: first line\n  second: line\n---\n").1,
            "first line second: line"
        );
    }

    #[test]
    fn drops() {
        assert_eq!(
            parse_text("---\nname: a\n---\n"),
            Err(Drop::MissingDescription)
        );
        assert_eq!(
            parse_text("---\ndescription: a\n---\n"),
            Err(Drop::MissingName)
        );
        assert_eq!(parse_text("no block"), Err(Drop::NoFrontmatter));
    }

    #[test]
    fn js_yaml_scalar_types() {
        for text in [
            "1_000",
            "0x1F",
            "0b101",
            "-0o7",
            "1.50",
            ".5",
            "1e3",
            ".inf",
            "2024-01-02",
            "2001-12-14t21:59:43.10-05:00",
            "true",
            "~",
        ] {
            assert!(!matches!(resolve_plain(text), JsValue::String(_)), "{text}");
        }
        for text in [
            "yes", "1.2.3", "_1", "1_", "0x", "2024-1-2", "e3", "+", "1e",
        ] {
            assert!(matches!(resolve_plain(text), JsValue::String(_)), "{text}");
        }
    }
}
