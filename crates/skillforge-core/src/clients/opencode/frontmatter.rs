//! OpenCode 1.18.33's frontmatter: gray-matter's framing, js-yaml 3's `safeLoad`, and the sanitizer
//! the client retries with when that throws (`ConfigMarkdown.parse` / `fallbackSanitization` in the
//! binary, quoted in docs/clients-observed.md).
//!
//! ```js
//! function parse(q){ try { return matter(q) } catch { return matter(sanitize(q)) } }
//! ```
//!
//! What js-yaml 3 (DEFAULT_SAFE_SCHEMA) does is modelled on the engine's YAML parser
//! ([`crate::frontmatter::yaml`]) plus what js-yaml refuses that the parser takes (duplicate keys,
//! non-printable characters, unknown tags) and js-yaml's own scalar types (YAML 1.1-style timestamps
//! are `Date`s, `0b`/`0x`/legacy-octal/`_`/base-60 integers are numbers). Only whether `name` and
//! `description` are strings, and which strings, matters to the client, so scalars are typed only as
//! far as that.

use crate::clients::claude_code::frontmatter::{js_space, js_trim};
use crate::frontmatter::yaml::{self, Node, Style, Value};
use crate::text::TextRange;

/// A frontmatter value as far as OpenCode looks at it.
#[derive(Debug, Clone, PartialEq)]
pub enum Js {
    String(String),
    /// Any other scalar: null, a boolean, a number, a `Date`, a `Buffer` (`!!binary`).
    Other(&'static str),
    Array,
    /// Keys in first-appearance order (js-yaml refuses a duplicate, so keys are unique).
    Object(Vec<(String, Js)>),
}

impl Js {
    /// How the value reads to an author, for a reason ("a number", "a list").
    pub fn kind(&self) -> &'static str {
        match self {
            Js::String(_) => "a string",
            Js::Other(kind) => kind,
            Js::Array => "a list",
            Js::Object(_) => "a mapping",
        }
    }
}

/// Why the frontmatter yields no object.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Failure {
    /// The YAML throws, before and after the sanitizer: js-yaml's complaint, in the engine's words.
    Yaml(String),
    /// gray-matter names a language it has no engine for after `---`.
    Language(String),
}

/// What `matter(text)` gives OpenCode: the data, or the error it throws.
pub type Matter = Result<Option<Js>, Failure>;

/// The frontmatter as OpenCode reads it, with whether it took the sanitizer to read it.
#[derive(Debug, Clone, PartialEq)]
pub struct Parsed {
    /// `None`: gray-matter found no block (the data is `{}`), or the YAML is empty (`undefined`).
    pub data: Result<Option<Js>, Failure>,
    /// The first parse threw and the sanitized text was read instead.
    pub sanitized: bool,
}

/// Bun's `file.text()`: invalid UTF-8 becomes U+FFFD; gray-matter strips a leading BOM.
pub fn decode(bytes: &[u8]) -> String {
    let text = crate::text::decode_lossy(bytes);
    match text.strip_prefix('\u{feff}') {
        Some(rest) => rest.to_string(),
        None => text.into_owned(),
    }
}

/// `ConfigMarkdown.parse` on the decoded text.
pub fn parse(text: &str) -> Parsed {
    match matter(text) {
        Ok(data) => Parsed {
            data: Ok(data),
            sanitized: false,
        },
        Err(_) => Parsed {
            data: matter(&sanitize(text)),
            sanitized: true,
        },
    }
}

/// gray-matter 4 with its default options: the block and its parse.
pub fn matter(text: &str) -> Matter {
    match block(text) {
        None => Ok(Some(Js::Object(Vec::new()))),
        Some((matter, language)) => match language {
            "" | "yaml" | "yml" => safe_load(matter),
            "json" => Ok(Some(json(matter)?)),
            other => Err(Failure::Language(other.to_string())),
        },
    }
}

/// gray-matter's `parseMatter` framing: (the frontmatter text, the trimmed language name).
/// The text must start with `---` not followed by `-`; the rest of the first line is a language name
/// (only when it is not blank is it cut off); the block ends at the first `\n---` anywhere (`\n----`
/// and `\n---x` too), or runs to the end of the text when there is none.
fn block(text: &str) -> Option<(&str, &str)> {
    let rest = text.strip_prefix("---")?;
    if rest.starts_with('-') {
        return None;
    }
    // `str.slice(0, str.search(/\r?\n/))`; with no newline, search gives -1 and slice drops the last
    // UTF-16 unit (a last character outside the BMP is halved, which trim does not change).
    let line_end = match rest.find('\n') {
        Some(at) if at > 0 && rest.as_bytes()[at - 1] == b'\r' => at - 1,
        Some(at) => at,
        None => rest.char_indices().last().map_or(0, |(at, _)| at),
    };
    let raw = &rest[..line_end];
    let language = js_trim(raw);
    let rest = if language.is_empty() {
        rest
    } else {
        &rest[raw.len()..]
    };
    let close = rest.find("\n---").unwrap_or(rest.len());
    Some((&rest[..close], language))
}

/// `fallbackSanitization`, exactly as the binary's JavaScript (see the module documentation): every
/// top-level `key: value` line whose value holds a `:` and is not quoted or a block indicator becomes
/// `key: |-` and the value on the next line, indented by two spaces.
pub fn sanitize(text: &str) -> String {
    // `/^---\r?\n([\s\S]*?)\r?\n---/`
    let Some(after) = text.strip_prefix("---") else {
        return text.to_string();
    };
    let after = after.strip_prefix('\r').unwrap_or(after);
    let Some(after) = after.strip_prefix('\n') else {
        return text.to_string();
    };
    let start = text.len() - after.len();
    let Some(found) = text[start..].find("\n---") else {
        return text.to_string();
    };
    let newline = start + found;
    let end = if newline > start && text.as_bytes()[newline - 1] == b'\r' {
        newline - 1
    } else {
        newline
    };
    let frontmatter = &text[start..end];
    let lines: Vec<String> = split_lines(frontmatter)
        .into_iter()
        .flat_map(sanitize_line)
        .collect();
    // `q.replace(Z, () => …)`: the first place the frontmatter's text occurs, which can be before it
    // when it is short (an empty one is found at offset 0).
    let at = text.find(frontmatter).unwrap_or(start);
    let mut out = String::with_capacity(text.len() + 16);
    out.push_str(&text[..at]);
    out.push_str(&lines.join("\n"));
    out.push_str(&text[at + frontmatter.len()..]);
    out
}

/// `Z.split(/\r?\n/)`.
fn split_lines(text: &str) -> Vec<&str> {
    let mut lines = Vec::new();
    let mut from = 0;
    while let Some(found) = text[from..].find('\n') {
        let newline = from + found;
        let end = if newline > from && text.as_bytes()[newline - 1] == b'\r' {
            newline - 1
        } else {
            newline
        };
        lines.push(&text[from..end]);
        from = newline + 1;
    }
    lines.push(&text[from..]);
    lines
}

/// JavaScript's `.`: anything but a line terminator.
fn js_dot(c: char) -> bool {
    !matches!(c, '\n' | '\r' | '\u{2028}' | '\u{2029}')
}

fn sanitize_line(line: &str) -> Vec<String> {
    let keep = vec![line.to_string()];
    let trimmed = js_trim(line);
    if trimmed.starts_with('#') || trimmed.is_empty() || line.starts_with(js_space) {
        return keep;
    }
    // `/^([a-zA-Z_][a-zA-Z0-9_]*)\s*:\s*(.*)$/`
    let key_end = line
        .char_indices()
        .find(|&(at, c)| !(c.is_ascii_alphabetic() || c == '_' || (at > 0 && c.is_ascii_digit())))
        .map_or(line.len(), |(at, _)| at);
    if key_end == 0 {
        return keep;
    }
    let key = &line[..key_end];
    let Some(value) = line[key_end..]
        .trim_start_matches(js_space)
        .strip_prefix(':')
    else {
        return keep;
    };
    let value = value.trim_start_matches(js_space);
    if !value.chars().all(js_dot) {
        return keep;
    }
    let value = js_trim(value);
    if value.is_empty()
        || value == ">"
        || value == "|"
        || value.starts_with('"')
        || value.starts_with('\'')
        || !value.contains(':')
    {
        return keep;
    }
    vec![format!("{key}: |-"), format!("  {value}")]
}

/// js-yaml's `PATTERN_NON_PRINTABLE`: it refuses the whole stream when any of these occurs (a lone
/// surrogate cannot occur in Rust text).
fn js_yaml_non_printable(c: char) -> bool {
    matches!(c, '\u{0}'..='\u{8}' | '\u{b}' | '\u{c}' | '\u{e}'..='\u{1f}' | '\u{7f}'..='\u{84}'
        | '\u{86}'..='\u{9f}' | '\u{fffe}' | '\u{ffff}')
}

/// js-yaml 3's `safeLoad`: `Ok(None)` for an empty document (`undefined`).
pub fn safe_load(text: &str) -> Matter {
    if let Some(c) = text.chars().find(|&c| js_yaml_non_printable(c)) {
        return Err(Failure::Yaml(format!(
            "the stream contains non-printable characters (U+{:04X})",
            u32::from(c)
        )));
    }
    let parsed = yaml::parse_whole(text);
    let node = match parsed.as_ref() {
        Ok(node) => node,
        Err(error) => {
            // Where js-yaml is laxer than the engine's parser, the text is given to the parser in the
            // form js-yaml reads it; the values are unchanged.
            let lenient = js_yaml_lenient(text);
            if lenient == text {
                return Err(Failure::Yaml(error.message.clone()));
            }
            return match yaml::parse(&lenient, TextRange::new(0, lenient.len())) {
                Ok(None) => Ok(None),
                Ok(Some(node)) => convert(&lenient, &node, &mut Vec::new()).map(Some),
                Err(_) => Err(Failure::Yaml(error.message.clone())),
            };
        }
    };
    let Some(node) = node else {
        return Ok(None);
    };
    let mut anchors = Vec::new();
    convert(text, node, &mut anchors).map(Some)
}

/// What js-yaml 3 reads on a top-level line that the engine's parser refuses, rewritten the way js-yaml
/// takes it:
/// - a tab as the separator after a key's colon (`description:\tx`, `tab-value`) is a space;
/// - after a quoted value, more `key: value` on the same line is another pair (`description: "a" b: c`
///   gives `a`, `colon-quote-start` and `colon-single-then`): it is put on a line of its own;
/// - tabs before a `key:` are separation, not indentation (js-yaml counts only spaces): the key is a
///   top-level one (`f-tab-meta` loads).
fn js_yaml_lenient(text: &str) -> String {
    let lines: Vec<String> = text
        .split('\n')
        .map(|line| {
            let untabbed = line.trim_start_matches('\t');
            let line = if untabbed.len() < line.len()
                && untabbed.find(':').is_some_and(|at| {
                    untabbed[at + 1..].is_empty()
                        || untabbed[at + 1..].starts_with([' ', '\t', '\r'])
                }) {
                untabbed
            } else {
                line
            };
            let starts_key = line
                .chars()
                .next()
                .is_some_and(|c| !c.is_whitespace() && !"#'\"[{-?:&*!|>%@`".contains(c));
            let Some(colon) = line.find(':').filter(|_| starts_key) else {
                return line.to_string();
            };
            let after = &line[colon + 1..];
            let value = after.trim_start_matches([' ', '\t']);
            if value.len() == after.len() {
                return line.to_string();
            }
            let key = &line[..=colon];
            if let Some(end) = quoted_end(value) {
                let rest = value[end..].trim_start_matches([' ', '\t']);
                let pair = rest.find(':').is_some_and(|at| {
                    rest[at + 1..].is_empty() || rest[at + 1..].starts_with([' ', '\t', '\r'])
                });
                if rest.len() < value[end..].len() && pair {
                    return format!("{key} {}\n{rest}", &value[..end]);
                }
            }
            format!("{key} {value}")
        })
        .collect();
    lines.join("\n")
}

/// The end of a quoted scalar that opens `value` and closes on the same line.
fn quoted_end(value: &str) -> Option<usize> {
    let quote = value.chars().next().filter(|c| *c == '"' || *c == '\'')?;
    let mut chars = value.char_indices().skip(1).peekable();
    while let Some((at, c)) = chars.next() {
        match c {
            '\\' if quote == '"' => {
                chars.next();
            }
            '\'' if quote == '\'' => {
                if chars.peek().is_some_and(|(_, next)| *next == '\'') {
                    chars.next();
                } else {
                    return Some(at + 1);
                }
            }
            c if c == quote => return Some(at + 1),
            _ => {}
        }
    }
    None
}

/// The tag written on a node that starts at `start`, if any (the engine's tree keeps only that one
/// was written): the `!…` word among the node's properties, which the parser's span may or may not
/// cover (`&anchor !tag value` in either order).
fn tag_of(text: &str, start: usize) -> Option<&str> {
    let is_tag = |word: &&str| word.starts_with('!');
    let property = |word: &&str| word.starts_with('!') || word.starts_with('&');
    let after = text.get(start..)?;
    if let Some(tag) = after
        .split(char::is_whitespace)
        .take_while(property)
        .find(is_tag)
    {
        return Some(tag);
    }
    text.get(..start)?
        .rsplit(char::is_whitespace)
        .filter(|word| !word.is_empty())
        .take_while(property)
        .find(is_tag)
}

/// The type a tag gives a scalar in DEFAULT_SAFE_SCHEMA; `Err` for a tag js-yaml does not know.
fn tagged_scalar(tag: &str, text: &str) -> Result<Js, Failure> {
    match tag {
        "!" | "!!str" => Ok(Js::String(text.to_string())),
        "!!null" => Ok(Js::Other("null")),
        "!!bool" => Ok(Js::Other("a boolean")),
        "!!int" | "!!float" => Ok(Js::Other("a number")),
        "!!timestamp" => Ok(Js::Other("a date")),
        "!!binary" => Ok(Js::Other("binary data")),
        other => Err(Failure::Yaml(format!("unknown tag !<{other}>"))),
    }
}

fn convert(text: &str, node: &Node, anchors: &mut Vec<(usize, Js)>) -> Result<Js, Failure> {
    let tag = if node.tagged {
        tag_of(text, node.range.start())
    } else {
        None
    };
    let value = match &node.value {
        Value::Scalar {
            text: scalar,
            style,
        } => match tag {
            Some(tag) => tagged_scalar(tag, scalar)?,
            None if *style == Style::Plain => resolve_plain(scalar),
            None => Js::String(scalar.clone()),
        },
        Value::Sequence { items, .. } => {
            for item in items {
                convert(text, item, anchors)?;
            }
            Js::Array
        }
        Value::Mapping { entries, .. } => {
            let mut fields: Vec<(String, Js)> = Vec::new();
            // Keys a `<<` merge brought in: a key written in the mapping itself replaces one of these
            // instead of being a duplicate.
            let mut merged_keys: Vec<String> = Vec::new();
            for entry in entries {
                let key = convert(text, &entry.key, anchors)?;
                let value = convert(text, &entry.value, anchors)?;
                let merge = entry
                    .key
                    .as_scalar()
                    .is_some_and(|(key, style)| key == "<<" && style == Style::Plain);
                if merge {
                    // `<<: *base` merges the mapping's keys without overriding those already set.
                    if let Js::Object(merged) = value {
                        for (name, value) in merged {
                            if !fields.iter().any(|(existing, _)| *existing == name) {
                                merged_keys.push(name.clone());
                                fields.push((name, value));
                            }
                        }
                    }
                    continue;
                }
                let key = match key {
                    Js::String(key) => key,
                    Js::Object(_) => "[object Object]".to_string(),
                    other => entry
                        .key
                        .as_scalar()
                        .map_or_else(|| other.kind().to_string(), |(text, _)| text.to_string()),
                };
                match fields.iter().position(|(existing, _)| *existing == key) {
                    Some(slot) if merged_keys.contains(&key) => {
                        merged_keys.retain(|merged| *merged != key);
                        fields[slot].1 = value;
                    }
                    Some(_) => {
                        return Err(Failure::Yaml(format!("duplicated mapping key `{key}`")));
                    }
                    None => fields.push((key, value)),
                }
            }
            Js::Object(fields)
        }
        Value::Alias { anchor } => anchors
            .iter()
            .rev()
            .find(|(id, _)| id == anchor)
            .map(|(_, value)| value.clone())
            .ok_or_else(|| Failure::Yaml("unidentified alias".to_string()))?,
    };
    if node.anchor != 0 {
        anchors.push((node.anchor, value.clone()));
    }
    Ok(value)
}

/// A plain scalar in js-yaml 3's DEFAULT_SAFE_SCHEMA: null, bool, int, float, timestamp, else a string.
pub fn resolve_plain(text: &str) -> Js {
    match text {
        "" | "~" | "null" | "Null" | "NULL" => Js::Other("null"),
        "true" | "True" | "TRUE" | "false" | "False" | "FALSE" => Js::Other("a boolean"),
        _ if is_int(text) || is_float(text) => Js::Other("a number"),
        _ if is_timestamp(text) => Js::Other("a date"),
        _ => Js::String(text.to_string()),
    }
}

/// js-yaml 3's `resolveYamlInteger`.
fn is_int(text: &str) -> bool {
    let bytes = text.as_bytes();
    let mut at = 0;
    if matches!(bytes.first(), Some(b'-' | b'+')) {
        at += 1;
    }
    let Some(&first) = bytes.get(at) else {
        return false;
    };
    let digits = |from: usize, ok: fn(u8) -> bool| {
        let rest = &bytes[from..];
        rest.iter().all(|&b| b == b'_' || ok(b))
            && rest.iter().any(|&b| b != b'_')
            && rest.last() != Some(&b'_')
    };
    if first == b'0' {
        if at + 1 == bytes.len() {
            return true;
        }
        return match bytes[at + 1] {
            b'b' => digits(at + 2, |b| b == b'0' || b == b'1'),
            b'x' => digits(at + 2, |b| b.is_ascii_hexdigit()),
            _ => digits(at + 1, |b| (b'0'..=b'7').contains(&b)),
        };
    }
    if first == b'_' {
        return false;
    }
    let colon = bytes[at..].iter().position(|&b| b == b':').map(|c| c + at);
    let decimal_end = colon.unwrap_or(bytes.len());
    let decimal = &bytes[at..decimal_end];
    if !decimal.iter().all(|&b| b == b'_' || b.is_ascii_digit())
        || !decimal.iter().any(u8::is_ascii_digit)
    {
        return false;
    }
    match colon {
        // The last character checked before the colon must not be `_`.
        None => decimal.last() != Some(&b'_'),
        Some(colon) => {
            if decimal.last() == Some(&b'_') {
                return false;
            }
            sexagesimal_tail(&text[colon..])
        }
    }
}

/// `/^(:[0-5]?[0-9])+$/`
fn sexagesimal_tail(text: &str) -> bool {
    !text.is_empty()
        && text.split(':').skip(1).all(|part| {
            let b = part.as_bytes();
            match b.len() {
                1 => b[0].is_ascii_digit(),
                2 => (b'0'..=b'5').contains(&b[0]) && b[1].is_ascii_digit(),
                _ => false,
            }
        })
        && text.starts_with(':')
}

/// js-yaml 3's `YAML_FLOAT_PATTERN` and its "no trailing `_`" check.
fn is_float(text: &str) -> bool {
    if text.ends_with('_') {
        return false;
    }
    let unsigned = text.strip_prefix(['-', '+']).unwrap_or(text);
    if matches!(unsigned, ".inf" | ".Inf" | ".INF") || matches!(text, ".nan" | ".NaN" | ".NAN") {
        return true;
    }
    let exponent_ok = |rest: &str| -> bool {
        if rest.is_empty() {
            return true;
        }
        let Some(rest) = rest.strip_prefix(['e', 'E']) else {
            return false;
        };
        let rest = rest.strip_prefix(['-', '+']).unwrap_or(rest);
        !rest.is_empty() && rest.bytes().all(|b| b.is_ascii_digit())
    };
    let digits_or_underscore = |s: &str| s.bytes().all(|b| b == b'_' || b.is_ascii_digit());
    // `\.[0-9_]+(?:[eE][-+]?[0-9]+)?` (no sign).
    if let Some(fraction) = text.strip_prefix('.') {
        let end = fraction.find(['e', 'E']).unwrap_or(fraction.len());
        return end > 0 && digits_or_underscore(&fraction[..end]) && exponent_ok(&fraction[end..]);
    }
    // `[-+]?(?:0|[1-9][0-9_]*)(?:\.[0-9_]*)?(?:[eE][-+]?[0-9]+)?`
    let bytes = unsigned.as_bytes();
    let whole_end = unsigned
        .find(|c: char| !(c.is_ascii_digit() || c == '_'))
        .unwrap_or(unsigned.len());
    let whole = &unsigned[..whole_end];
    let whole_ok = whole == "0"
        || (bytes.first().is_some_and(|b| (b'1'..=b'9').contains(b)) && !whole.is_empty());
    if whole_ok {
        let rest = &unsigned[whole_end..];
        let rest = match rest.strip_prefix('.') {
            Some(fraction) => {
                let end = fraction
                    .find(|c: char| !(c.is_ascii_digit() || c == '_'))
                    .unwrap_or(fraction.len());
                &fraction[end..]
            }
            None => rest,
        };
        if exponent_ok(rest) {
            return true;
        }
    }
    // `[-+]?[0-9][0-9_]*(?::[0-5]?[0-9])+\.[0-9_]*`
    if let Some(dot) = unsigned.rfind('.') {
        let (head, fraction) = (&unsigned[..dot], &unsigned[dot + 1..]);
        if let Some(colon) = head.find(':') {
            let lead = &head[..colon];
            return lead.bytes().next().is_some_and(|b| b.is_ascii_digit())
                && digits_or_underscore(lead)
                && sexagesimal_tail(&head[colon..])
                && digits_or_underscore(fraction);
        }
    }
    false
}

/// js-yaml 3's `YAML_DATE_REGEXP` or `YAML_TIMESTAMP_REGEXP`: the scalar becomes a `Date`.
fn is_timestamp(text: &str) -> bool {
    let b = text.as_bytes();
    let digit = |i: usize| b.get(i).is_some_and(u8::is_ascii_digit);
    if b.len() == 10 && (0..4).all(digit) && b[4] == b'-' && digit(5) && digit(6) && b[7] == b'-' {
        return digit(8) && digit(9);
    }
    // YYYY-M(M)-D(D)(T|t|[ \t]+)H(H):MM:SS(.frac)?([ \t]*(Z|[-+]H(H)(:MM)?))?
    let mut at = 0;
    let take = |min: usize, max: usize, at: &mut usize| -> bool {
        let start = *at;
        while *at - start < max && digit(*at) {
            *at += 1;
        }
        *at - start >= min
    };
    if !(take(4, 4, &mut at) && b.get(at) == Some(&b'-')) {
        return false;
    }
    at += 1;
    if !(take(1, 2, &mut at) && b.get(at) == Some(&b'-')) {
        return false;
    }
    at += 1;
    if !take(1, 2, &mut at) {
        return false;
    }
    match b.get(at) {
        Some(b'T' | b't') => at += 1,
        Some(b' ' | b'\t') => {
            while matches!(b.get(at), Some(b' ' | b'\t')) {
                at += 1;
            }
        }
        _ => return false,
    }
    if !(take(1, 2, &mut at) && b.get(at) == Some(&b':')) {
        return false;
    }
    at += 1;
    if !(take(2, 2, &mut at) && b.get(at) == Some(&b':')) {
        return false;
    }
    at += 1;
    if !take(2, 2, &mut at) {
        return false;
    }
    if b.get(at) == Some(&b'.') {
        at += 1;
        while digit(at) {
            at += 1;
        }
    }
    if at == b.len() {
        return true;
    }
    while matches!(b.get(at), Some(b' ' | b'\t')) {
        at += 1;
    }
    match b.get(at) {
        Some(b'Z') => at + 1 == b.len(),
        Some(b'-' | b'+') => {
            at += 1;
            if !take(1, 2, &mut at) {
                return false;
            }
            if b.get(at) == Some(&b':') {
                at += 1;
                if !take(2, 2, &mut at) {
                    return false;
                }
            }
            at == b.len()
        }
        _ => false,
    }
}

/// gray-matter's `json` engine (`---json`): `JSON.parse`, which throws on anything else.
fn json(text: &str) -> Result<Js, Failure> {
    fn from(value: serde_json::Value) -> Js {
        match value {
            serde_json::Value::String(text) => Js::String(text),
            serde_json::Value::Null => Js::Other("null"),
            serde_json::Value::Bool(_) => Js::Other("a boolean"),
            serde_json::Value::Number(_) => Js::Other("a number"),
            serde_json::Value::Array(_) => Js::Array,
            serde_json::Value::Object(map) => {
                Js::Object(map.into_iter().map(|(k, v)| (k, from(v))).collect())
            }
        }
    }
    serde_json::from_str(text)
        .map(from)
        .map_err(|error| Failure::Yaml(format!("JSON.parse: {error}")))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn data(text: &str) -> Result<Option<Js>, Failure> {
        parse(text).data
    }

    fn field(text: &str, key: &str) -> Option<Js> {
        match data(text) {
            Ok(Some(Js::Object(fields))) => fields
                .into_iter()
                .find(|(name, _)| name == key)
                .map(|(_, value)| value),
            _ => None,
        }
    }

    #[test]
    fn the_sanitizer_turns_a_colon_value_into_a_block() {
        assert_eq!(
            sanitize("---\nname: x\ndescription: Use when: asked\n---\nBody"),
            "---\nname: x\ndescription: |-\n  Use when: asked\n---\nBody"
        );
        assert_eq!(
            field("---\nname: x\ndescription: a:\tb # c\n---\n", "description"),
            Some(Js::String("a:\tb # c".into()))
        );
        // Quoted, indented and hyphenated keys are left alone.
        let text = "---\nname: x\nallowed-tools: a: b\n---\n";
        assert_eq!(sanitize(text), text);
    }

    #[test]
    fn gray_matter_framing() {
        assert!(block("----\nname: x\n---\n").is_none());
        assert_eq!(
            block("---\nname: x\ndescription: never closed\n"),
            Some(("\nname: x\ndescription: never closed\n", ""))
        );
        assert_eq!(block("---  \nname: x\n---"), Some(("  \nname: x", "")));
        assert_eq!(block("---yaml\nname: x\n---"), Some(("\nname: x", "yaml")));
        assert!(matches!(
            matter("---toml\nname = 1\n---\n"),
            Err(Failure::Language(_))
        ));
    }

    #[test]
    fn js_yaml_types() {
        assert_eq!(resolve_plain("yes"), Js::String("yes".into()));
        assert_eq!(resolve_plain("2024-01-02"), Js::Other("a date"));
        assert_eq!(resolve_plain("1.50"), Js::Other("a number"));
        assert_eq!(resolve_plain("0x1F"), Js::Other("a number"));
        assert_eq!(resolve_plain("1_000"), Js::Other("a number"));
        assert_eq!(resolve_plain("1:30"), Js::Other("a number"));
        assert_eq!(resolve_plain("1:30.5"), Js::Other("a number"));
        assert_eq!(resolve_plain("1e5"), Js::Other("a number"));
        assert_eq!(resolve_plain("2024-1-2 3:04:05"), Js::Other("a date"));
        assert_eq!(resolve_plain("v1.2"), Js::String("v1.2".into()));
        assert_eq!(resolve_plain("1.2.3"), Js::String("1.2.3".into()));
        assert_eq!(resolve_plain("09"), Js::String("09".into()));
    }

    #[test]
    fn js_yaml_leniencies() {
        assert_eq!(
            field(
                "---\nname: a\ndescription: \"starts quoted\" then: more\n---\n",
                "description"
            ),
            Some(Js::String("starts quoted".into()))
        );
        assert_eq!(
            field(
                "---\nname: a\ndescription: 'single: q' extra: x\n---\n",
                "description"
            ),
            Some(Js::String("single: q".into()))
        );
        assert_eq!(
            field("---\nname: a\ndescription:\ttab\n---\n", "description"),
            Some(Js::String("tab".into()))
        );
    }

    #[test]
    fn js_yaml_refusals() {
        assert!(data("---\nname: a\nname: b\n---\n").is_err());
        assert!(data("---\nname: a\u{1}\n---\n").is_err());
        assert!(data("---\nname: !bang\n---\n").is_err());
        assert_eq!(
            field("---\nname: !!str 123\n---\n", "name"),
            Some(Js::String("123".into()))
        );
        assert_eq!(
            field("---\nd: &d anchored\nname: *d\n---\n", "name"),
            Some(Js::String("anchored".into()))
        );
    }
}
