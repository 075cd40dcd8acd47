//! Claude Code 2.1.332's frontmatter: where the block is cut out of a SKILL.md, how its YAML is read,
//! and the retry that quotes values the first parse choked on.
//!
//! Rests on the client's own code (function `qd` and its helpers in the 2.1.332 bundle) and on the probe
//! projects of `tests/fidelity/client_probes.py` run through the real binary:
//! - the block is the regular expression `/^---\s*\n([\s\S]*?)---\s*\n?/` on the text with a leading
//!   BOM removed, tried only when a second `---` exists from offset 3 on: the block ends at the first
//!   `---` anywhere, even inside a value (`no-trailing-newline` lists `eof after`), CRLF is never
//!   normalised, and a CR-only file has no block (`cr-only`);
//! - the YAML is `Bun.YAML.parse` (YAML 1.2 core schema: `yes` stays a string, `1.50` is the number 1.5,
//!   `2024-01-02` a string); modelled here with the engine's YAML 1.2 parser
//!   ([`crate::frontmatter::yaml`]) and the core schema's plain-scalar resolution;
//! - on a parse error, every `key: value` line whose value holds one of `{}[]*&#!|>%@\`` or `: ` is
//!   double-quoted, leading tabs become two spaces each, and the YAML is parsed once more
//!   (`colon-unquoted`, `percent-start`, `alias-unknown`, `colon-quote-start`); when that fails too the
//!   frontmatter counts as empty and the skill still loads (`colon-end`, `colon-tab` → `Body.`).

use crate::frontmatter::yaml::{self, Node, Style, Value};
use std::rc::Rc;

/// A frontmatter value as the client's JavaScript sees it after `Bun.YAML.parse`. Arrays and objects
/// are shared, as JavaScript shares the value an alias names: an alias bomb costs no more than its text.
#[derive(Debug, Clone, PartialEq)]
pub enum Js {
    Null,
    Bool(bool),
    Number(f64),
    String(String),
    Array(Rc<Vec<Js>>),
    /// Keys in first-appearance order; a later duplicate replaces the value in place.
    Object(Rc<Vec<(String, Js)>>),
}

/// The most of a `String()` result the model builds: past it (only a list of aliases can get there) the
/// text is cut, where the client itself would run out of memory.
pub const STRING_MAX: usize = 4 << 20;

impl Js {
    /// `String(value)` in JavaScript, for the values the client passes through `String()`; cut at
    /// [`STRING_MAX`] bytes.
    pub fn to_js_string(&self) -> String {
        let mut out = String::new();
        self.write_js_string(&mut out);
        out
    }

    fn write_js_string(&self, out: &mut String) {
        if out.len() >= STRING_MAX {
            return;
        }
        match self {
            Js::Null => out.push_str("null"),
            Js::Bool(value) => out.push_str(if *value { "true" } else { "false" }),
            Js::Number(number) => out.push_str(&js_number(*number)),
            Js::String(text) => {
                let room = STRING_MAX - out.len();
                let mut end = text.len().min(room);
                while !text.is_char_boundary(end) {
                    end -= 1;
                }
                out.push_str(&text[..end]);
            }
            Js::Array(items) => {
                for (index, item) in items.iter().enumerate() {
                    if out.len() >= STRING_MAX {
                        return;
                    }
                    if index > 0 {
                        out.push(',');
                    }
                    if !item.is_null() {
                        item.write_js_string(out);
                    }
                }
            }
            Js::Object(_) => out.push_str("[object Object]"),
        }
    }

    /// `value == null` (null or undefined).
    pub fn is_null(&self) -> bool {
        matches!(self, Js::Null)
    }
}

/// The frontmatter object and the markdown after the block.
#[derive(Debug, Clone, PartialEq)]
pub struct Parsed {
    /// The top-level keys (empty when there is no block, the YAML failed twice, or it is not a map).
    pub fields: Vec<(String, Js)>,
    /// The markdown content the client keeps: after the block, or the whole text when there is none.
    pub content: String,
    /// Whether the YAML failed both parses (the client logs it and goes on with no fields).
    pub failed: bool,
}

impl Parsed {
    pub fn get(&self, key: &str) -> Option<&Js> {
        self.fields
            .iter()
            .find(|(name, _)| name == key)
            .map(|(_, value)| value)
    }
}

/// JavaScript's `\s` (WhiteSpace and LineTerminator).
pub fn js_space(c: char) -> bool {
    matches!(
        c,
        '\t' | '\n' | '\u{b}' | '\u{c}' | '\r' | ' ' | '\u{a0}' | '\u{1680}' | '\u{2000}'
            ..='\u{200a}'
                | '\u{2028}'
                | '\u{2029}'
                | '\u{202f}'
                | '\u{205f}'
                | '\u{3000}'
                | '\u{feff}'
    )
}

/// JavaScript's `String.prototype.trim`.
pub fn js_trim(text: &str) -> &str {
    text.trim_matches(js_space)
}

/// A character JavaScript's `.` does not match (a line terminator).
fn js_line_terminator(c: char) -> bool {
    matches!(c, '\n' | '\r' | '\u{2028}' | '\u{2029}')
}

/// Splits a SKILL.md (already decoded) as the client does and parses its frontmatter.
pub fn parse(text: &str) -> Parsed {
    let stripped = text.strip_prefix('\u{feff}').unwrap_or(text);
    let Some((yaml_text, content)) = split(stripped) else {
        return Parsed {
            fields: Vec::new(),
            // With no block the client keeps the text as read, BOM included.
            content: text.to_string(),
            failed: false,
        };
    };
    let (fields, failed) =
        match parse_yaml(yaml_text).or_else(|| parse_yaml(&retry_text(yaml_text))) {
            Some(Js::Object(fields)) => (Rc::unwrap_or_clone(fields), false),
            Some(_) => (Vec::new(), false),
            None => (Vec::new(), true),
        };
    Parsed {
        fields,
        content: content.to_string(),
        failed,
    }
}

/// `/^---\s*\n([\s\S]*?)---\s*\n?/` after the `indexOf("---", 3)` guard: (yaml, rest).
fn split(text: &str) -> Option<(&str, &str)> {
    if !text.get(3..).is_some_and(|rest| rest.contains("---")) {
        return None;
    }
    let after_open = text.strip_prefix("---")?;
    // `\s*\n`: the greedy run of whitespace, backed off to its last newline.
    let run = after_open.len() - after_open.trim_start_matches(js_space).len();
    let newline = after_open[..run].rfind('\n')?;
    let yaml_start = 3 + newline + 1;
    // `([\s\S]*?)---`: up to the first `---` from there, wherever it stands.
    let close = text[yaml_start..].find("---")? + yaml_start;
    let after_close = &text[close + 3..];
    // `\s*\n?`: every whitespace character after it (the newline is whitespace too).
    let rest = after_close.trim_start_matches(js_space);
    Some((&text[yaml_start..close], rest))
}

/// Where the engine's parser and `Bun.YAML` disagree: Bun takes a tab as the separator after a
/// top-level key's colon (`tab-value` lists `tab before value`), the engine's parser refuses it. The
/// separator is not part of the value, so it is given as one space; a tab anywhere else is left alone
/// (`colon-tab`, `a:\tb` in a value, fails in Bun as it does here).
fn tab_separators(text: &str) -> String {
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

/// The client's second try (`_u` and the tab rewrite): quote the values that hold an indicator.
fn retry_text(yaml: &str) -> String {
    let quoted: Vec<String> = yaml.split('\n').map(quote_line).collect();
    replace_leading_tabs(&quoted.join("\n"))
}

/// One line of `_u`: `/^([a-zA-Z_-]+):\s+(\S.*)$/`, then the quoting rules.
fn quote_line(line: &str) -> String {
    let key_end = line
        .find(|c: char| !(c.is_ascii_alphabetic() || c == '_' || c == '-'))
        .unwrap_or(line.len());
    if key_end == 0 || !line[key_end..].starts_with(':') {
        return line.to_string();
    }
    let key = &line[..key_end];
    let after = &line[key_end + 1..];
    let value = after.trim_start_matches(js_space);
    if value.len() == after.len() || value.is_empty() || value.contains(js_line_terminator) {
        return line.to_string();
    }
    let quoted_as_is = (value.starts_with('"') && value.ends_with('"'))
        || (value.starts_with('\'') && value.ends_with('\''));
    if quoted_as_is {
        return line.to_string();
    }
    if value.starts_with('[')
        && value.ends_with(']')
        && matches!(parse_yaml(value), Some(Js::Array(_)))
    {
        return line.to_string();
    }
    let indicator = value.contains(|c: char| "{}[]*&#!|>%@`".contains(c)) || value.contains(": ");
    if !indicator {
        return line.to_string();
    }
    let escaped = value.replace('\\', "\\\\").replace('"', "\\\"");
    format!("{key}: \"{escaped}\"")
}

/// `.replace(/^\t+/gm, tabs => "  ".repeat(tabs.length))`: `^` after any JavaScript line terminator.
fn replace_leading_tabs(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut at_line_start = true;
    for c in text.chars() {
        if c == '\t' && at_line_start {
            out.push_str("  ");
            continue;
        }
        at_line_start = js_line_terminator(c);
        out.push(c);
    }
    out
}

/// `Bun.YAML.parse`, modelled: `None` is a thrown error; an empty document is `null`.
fn parse_yaml(text: &str) -> Option<Js> {
    let text = &tab_separators(text);
    let parsed = yaml::parse_whole(text);
    let Some(node) = parsed.as_ref().as_ref().ok()? else {
        return Some(Js::Null);
    };
    let mut anchors = Vec::new();
    convert(node, &mut anchors)
}

/// The YAML tree as JavaScript values; `None` for an alias of an unknown anchor (an error in Bun).
fn convert(node: &Node, anchors: &mut Vec<(usize, Js)>) -> Option<Js> {
    let value = match &node.value {
        Value::Scalar { text, style } => {
            if node.tagged || *style != Style::Plain {
                Js::String(text.clone())
            } else {
                resolve_plain(text)
            }
        }
        Value::Sequence { items, .. } => Js::Array(Rc::new(
            items
                .iter()
                .map(|item| convert(item, anchors))
                .collect::<Option<Vec<_>>>()?,
        )),
        Value::Mapping { entries, .. } => {
            let mut fields: Vec<(String, Js)> = Vec::new();
            let mut slots: std::collections::HashMap<String, usize> =
                std::collections::HashMap::new();
            for entry in entries {
                let key = convert(&entry.key, anchors)?.to_js_string();
                let value = convert(&entry.value, anchors)?;
                match slots.get(&key) {
                    Some(&slot) => fields[slot].1 = value,
                    None => {
                        slots.insert(key.clone(), fields.len());
                        fields.push((key, value));
                    }
                }
            }
            Js::Object(Rc::new(fields))
        }
        Value::Alias { anchor } => anchors
            .iter()
            .rev()
            .find(|(id, _)| id == anchor)
            .map(|(_, value)| value.clone())?,
    };
    if node.anchor != 0 {
        anchors.push((node.anchor, value.clone()));
    }
    Some(value)
}

/// The YAML 1.2 core schema for a plain scalar: null, booleans, integers, floats, else a string.
fn resolve_plain(text: &str) -> Js {
    match text {
        "" | "~" | "null" | "Null" | "NULL" => return Js::Null,
        "true" | "True" | "TRUE" => return Js::Bool(true),
        "false" | "False" | "FALSE" => return Js::Bool(false),
        ".inf" | ".Inf" | ".INF" | "+.inf" | "+.Inf" | "+.INF" => return Js::Number(f64::INFINITY),
        "-.inf" | "-.Inf" | "-.INF" => return Js::Number(f64::NEG_INFINITY),
        ".nan" | ".NaN" | ".NAN" => return Js::Number(f64::NAN),
        _ => {}
    }
    if let Some(hex) = text.strip_prefix("0x") {
        if !hex.is_empty() && hex.chars().all(|c| c.is_ascii_hexdigit()) {
            if let Ok(value) = u128::from_str_radix(hex, 16) {
                return Js::Number(value as f64);
            }
        }
    }
    if let Some(octal) = text.strip_prefix("0o") {
        if !octal.is_empty() && octal.chars().all(|c| ('0'..='7').contains(&c)) {
            if let Ok(value) = u128::from_str_radix(octal, 8) {
                return Js::Number(value as f64);
            }
        }
    }
    if is_core_number(text) {
        if let Ok(value) = text.parse::<f64>() {
            return Js::Number(value);
        }
    }
    Js::String(text.to_string())
}

/// `[-+]?(\.[0-9]+|[0-9]+(\.[0-9]*)?)([eE][-+]?[0-9]+)?`
fn is_core_number(text: &str) -> bool {
    let bytes = text.as_bytes();
    let mut at = usize::from(matches!(bytes.first(), Some(b'-' | b'+')));
    let digits = |at: &mut usize| {
        let start = *at;
        while bytes.get(*at).is_some_and(u8::is_ascii_digit) {
            *at += 1;
        }
        *at - start
    };
    let whole = digits(&mut at);
    if bytes.get(at) == Some(&b'.') {
        at += 1;
        if digits(&mut at) == 0 && whole == 0 {
            return false;
        }
    } else if whole == 0 {
        return false;
    }
    if matches!(bytes.get(at), Some(b'e' | b'E')) {
        at += 1;
        if matches!(bytes.get(at), Some(b'-' | b'+')) {
            at += 1;
        }
        if digits(&mut at) == 0 {
            return false;
        }
    }
    at == bytes.len()
}

/// `String(number)` in JavaScript (Number::toString with radix 10).
pub fn js_number(number: f64) -> String {
    if number.is_nan() {
        return "NaN".to_string();
    }
    if number.is_infinite() {
        return if number > 0.0 {
            "Infinity"
        } else {
            "-Infinity"
        }
        .to_string();
    }
    if number == 0.0 {
        return "0".to_string();
    }
    let magnitude = number.abs();
    if (1e-6..1e21).contains(&magnitude) {
        // Rust's shortest round-trip digits, in plain notation, are JavaScript's too in this range.
        return format!("{number}");
    }
    // Exponent notation: `1e+21`, `1.5e-7`.
    let formatted = format!("{number:e}");
    let (mantissa, exponent) = formatted.split_once('e').unwrap_or((&formatted, "0"));
    let sign = if exponent.starts_with('-') { "" } else { "+" };
    format!("{mantissa}e{sign}{exponent}")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_block_ends_at_the_first_dashes_anywhere() {
        let parsed = parse("---\nname: x\ndescription: eof after ---");
        assert_eq!(
            parsed.get("description"),
            Some(&Js::String("eof after".into()))
        );
        assert_eq!(parsed.content, "");
    }

    #[test]
    fn a_failed_parse_is_retried_with_quotes() {
        let parsed = parse("---\ndescription: Use when: the user asks\n---\nBody.\n");
        assert_eq!(
            parsed.get("description"),
            Some(&Js::String("Use when: the user asks".into()))
        );
        assert!(!parsed.failed);
    }

    #[test]
    fn core_schema_numbers_print_as_javascript_does() {
        assert_eq!(resolve_plain("1.50").to_js_string(), "1.5");
        assert_eq!(resolve_plain("123").to_js_string(), "123");
        assert_eq!(resolve_plain("yes"), Js::String("yes".into()));
        assert_eq!(js_number(1e21), "1e+21");
    }

    #[test]
    fn no_block_without_a_second_delimiter_or_a_newline() {
        assert_eq!(parse("---\nname: x\n").fields, Vec::new());
        assert_eq!(parse("---\rname: x\r---\r").fields, Vec::new());
    }
}
