//! What Codex 0.171.0 reads from a `SKILL.md`: its frontmatter block, the YAML parse with the
//! line-oriented repair added in 0.142.0, and the verdict (a loaded skill, or the message
//! `skills/list` reports for a dropped one).
//!
//! Every rule rests on the probe set run against the real binary (docs/clients-observed.md, "Parse
//! verdicts", and the extra probes of tests/fidelity/test_codex.py); the probe id is named beside
//! each rule. Codex deserialises with serde_yaml (libyaml, YAML 1.1); the engine's YAML layer
//! ([`crate::frontmatter::yaml`], YAML 1.2) stands in for it, with libyaml's reader check on
//! control characters and serde's typing rules written out here.

use crate::frontmatter::yaml::{self, Node, Style, Value};
use crate::text::TextRange;

/// Longest name Codex accepts, in characters (`name-64` loads, `name-65` does not).
pub const MAX_NAME_CHARS: usize = 64;

/// Why Codex drops a `SKILL.md`, worded as `skills/list` reports it (`errors[].message`).
///
/// YAML messages are Skillforge's own where libyaml's wording and positions are not reproduced; only
/// the category (`invalid YAML: …`) is Codex's.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum Drop {
    /// Not UTF-8 (`latin1`): Codex reads the file as a `String`.
    #[error("failed to read file: {0}")]
    Read(String),
    /// No `---` on the first line, no closing `---`, or nothing between them (`bom`, `cr-only`,
    /// `leading-blank`, `dots-close`, `unclosed`, `empty-frontmatter`, `no-frontmatter`).
    #[error("missing YAML frontmatter delimited by ---")]
    MissingFrontmatter,
    /// The YAML does not parse, or a known field has the wrong type or comes twice.
    #[error("invalid YAML: {0}")]
    InvalidYaml(String),
    /// `description` absent, null or blank after whitespace folding (`desc-*`, `hash-start`).
    #[error("missing field `description`")]
    MissingDescription,
    /// `name-65`.
    #[error("invalid name: exceeds maximum length of {MAX_NAME_CHARS} characters")]
    NameTooLong,
}

/// The fields Codex keeps from a frontmatter that loads.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Parsed {
    /// Whitespace-folded; the folder name when missing or blank (`no-name`, `empty-name`).
    pub name: String,
    /// Whitespace-folded, never empty, not yet cut for the listing.
    pub description: String,
}

/// Codex's whitespace folding of a name or description: runs of Unicode white space become one
/// space, the ends are trimmed (`literal` → `literal line1 literal line2`, `colon-tab` → `a: b`).
pub fn single_line(text: &str) -> String {
    text.split_whitespace().collect::<Vec<_>>().join(" ")
}

/// The verdict on a `SKILL.md`'s bytes; `folder` is the name of the folder holding it.
pub fn parse_skill(bytes: &[u8], folder: &str) -> Result<Parsed, Drop> {
    let contents = std::str::from_utf8(bytes).map_err(|error| Drop::Read(error.to_string()))?;
    parse_text(contents, folder)
}

/// [`parse_skill`] on a file already read as UTF-8.
pub fn parse_text(contents: &str, folder: &str) -> Result<Parsed, Drop> {
    let frontmatter = extract(contents).ok_or(Drop::MissingFrontmatter)?;
    let fields = match deserialize(&frontmatter) {
        Ok(fields) => fields,
        // Since 0.142.0 a frontmatter that fails is retried once with plain values quoted; when the
        // retry fails too, the first error stands (`colon-unquoted` loads, `colon-end` does not).
        Err(original) => match repair(&frontmatter) {
            Some(repaired) => deserialize(&repaired).map_err(|_| original)?,
            None => return Err(original),
        },
    };
    let name = fields
        .name
        .as_deref()
        .map(single_line)
        .filter(|name| !name.is_empty())
        .unwrap_or_else(|| {
            Some(single_line(folder))
                .filter(|name| !name.is_empty())
                .unwrap_or_else(|| "skill".to_string())
        });
    let description = single_line(fields.description.as_deref().unwrap_or(""));
    if name.chars().count() > MAX_NAME_CHARS {
        return Err(Drop::NameTooLong);
    }
    if description.is_empty() {
        return Err(Drop::MissingDescription);
    }
    Ok(Parsed { name, description })
}

/// The frontmatter text: the lines after a first line that is `---` (surrounding white space
/// ignored: `indented-delim`, `delims-spaces`) up to the next such line (also an indented one),
/// joined with `\n`. Lines end at `\n`, a `\r` before it dropped (`crlf`); a lone `\r` ends no line
/// (`cr-only`), and a BOM is not white space (`bom`). None when unclosed or empty.
pub fn extract(contents: &str) -> Option<String> {
    let mut lines = rust_lines(contents);
    if lines.next()?.trim() != "---" {
        return None;
    }
    let mut kept = Vec::new();
    for line in lines {
        if line.trim() == "---" {
            return (!kept.is_empty()).then(|| kept.join("\n"));
        }
        kept.push(line);
    }
    None
}

/// Lines as Rust's `str::lines` cuts them (Codex's own reader): at `\n`, one `\r` before it dropped.
fn rust_lines(text: &str) -> impl Iterator<Item = &str> {
    let body = text.strip_suffix('\n').unwrap_or(text);
    let mut pieces = if text.is_empty() {
        None
    } else {
        Some(body.split('\n'))
    };
    std::iter::from_fn(move || pieces.as_mut()?.next())
        .map(|line| line.strip_suffix('\r').unwrap_or(line))
}

/// The fields as serde reads them into Codex's frontmatter struct.
#[derive(Debug, Default)]
struct Fields {
    name: Option<String>,
    description: Option<String>,
}

/// Parses and types the frontmatter as serde_yaml does for Codex's struct
/// `{name: Option<String>, description: Option<String>, metadata: {short-description: Option<String>}}`.
fn deserialize(frontmatter: &str) -> Result<Fields, Drop> {
    control_characters(frontmatter)?;
    // libyaml takes a tab after `:` as the white space that makes it a value indicator
    // (`tab-value` loads); the YAML 1.2 parser wants a space. Every value Codex keeps is folded
    // to single spaces afterwards, so the swap changes what parses, never what is kept.
    let mut frontmatter = frontmatter.replace(":\t", ": ");
    // YAML 1.1 also ends lines at NEL, LS and PS (a NEL inside a description breaks the mapping,
    // `p11`); YAML 1.2 does not.
    if frontmatter.contains(['\u{85}', '\u{2028}', '\u{2029}']) {
        frontmatter = frontmatter.replace(['\u{85}', '\u{2028}', '\u{2029}'], "\n");
    }
    // libyaml keeps a byte-order mark inside a value as a character (`p20`); the YAML 1.2 parser
    // refuses it. It is parsed as a private-use character the text does not hold, then put back.
    let stand_in = if frontmatter.contains('\u{feff}') {
        let free = ('\u{e000}'..='\u{f8ff}')
            .rev()
            .find(|c| !frontmatter.contains(*c));
        if let Some(free) = free {
            frontmatter = frontmatter.replace('\u{feff}', free.encode_utf8(&mut [0; 4]));
        }
        free
    } else {
        None
    };
    let frontmatter = frontmatter.as_str();
    let parsed = yaml::parse_whole(frontmatter);
    let root = match parsed.as_ref() {
        Ok(root) => root.as_ref(),
        Err(error) => return Err(Drop::InvalidYaml(error.message.clone())),
    };
    let restore = |text: Option<String>| match (text, stand_in) {
        (Some(text), Some(free)) => Some(text.replace(free, "\u{feff}")),
        (text, _) => text,
    };
    // An empty or comment-only document is a struct of defaults (`p10` of the extra probes).
    let Some(root) = root else {
        return Ok(Fields::default());
    };
    let anchors = Anchors::of(root);
    let root = anchors.resolve(root)?;
    let Some(entries) = root.entries() else {
        return Err(Drop::InvalidYaml(format!(
            "invalid type: {}, expected struct SkillFrontmatter",
            kind(root)
        )));
    };
    let mut fields = Fields::default();
    let mut seen = [false; 3];
    for entry in entries {
        let Some((key, _)) = anchors.resolve(&entry.key)?.as_scalar() else {
            continue;
        };
        let slot = match key {
            "name" => 0,
            "description" => 1,
            "metadata" => 2,
            // Unknown keys are ignored, duplicates of them too (`unknown-keys`, `p13`).
            _ => continue,
        };
        if std::mem::replace(&mut seen[slot], true) {
            // `dup-description`, `dup-name`, `p14` (metadata).
            return Err(Drop::InvalidYaml(format!("duplicate field `{key}`")));
        }
        let value = anchors.resolve(&entry.value)?;
        match slot {
            0 => fields.name = restore(optional_string(value, "name")?),
            1 => fields.description = restore(optional_string(value, "description")?),
            _ => metadata(value, &anchors)?,
        }
    }
    Ok(fields)
}

/// `metadata` is a struct with one optional string, `short-description`: a mapping (or null);
/// a number or a list is an error (`p3a`, `p3d`), and so is a list as `short-description` (`p3b`),
/// while a number there reads as its text (`p3c`).
fn metadata(value: &Node, anchors: &Anchors) -> Result<(), Drop> {
    if is_null(value) {
        return Ok(());
    }
    let Some(entries) = value.entries() else {
        return Err(Drop::InvalidYaml(format!(
            "metadata: invalid type: {}, expected struct SkillFrontmatterMetadata",
            kind(value)
        )));
    };
    let mut seen = false;
    for entry in entries {
        let Some(("short-description", _)) = anchors.resolve(&entry.key)?.as_scalar() else {
            continue;
        };
        if std::mem::replace(&mut seen, true) {
            return Err(Drop::InvalidYaml(
                "metadata: duplicate field `short-description`".to_string(),
            ));
        }
        optional_string(anchors.resolve(&entry.value)?, "metadata.short-description")?;
    }
    Ok(())
}

/// serde_yaml's `Option<String>`: a null scalar is None; any other scalar is its text, whatever it
/// looks like (`desc-float` → `1.50`, `desc-bool` → `yes`, `tag-str` → `123`, `!!int 5` → `5`);
/// a list or a mapping is an error (`desc-list`, `desc-map`, `flow-seq-desc`).
fn optional_string(value: &Node, field: &str) -> Result<Option<String>, Drop> {
    if is_null(value) {
        return Ok(None);
    }
    match &value.value {
        Value::Scalar { text, .. } => Ok(Some(text.clone())),
        _ => Err(Drop::InvalidYaml(format!(
            "{field}: invalid type: {}, expected a string",
            kind(value)
        ))),
    }
}

/// A plain scalar YAML 1.1 reads as null: empty, `~`, `null`, `Null`, `NULL` (`desc-null`,
/// `desc-tilde`, `desc-empty`, `p8-1`, `p8-2`).
fn is_null(node: &Node) -> bool {
    matches!(&node.value, Value::Scalar { text, style: Style::Plain }
        if matches!(text.as_str(), "" | "~" | "null" | "Null" | "NULL"))
}

fn kind(node: &Node) -> &'static str {
    match &node.value {
        Value::Sequence { .. } => "sequence",
        Value::Mapping { .. } => "map",
        Value::Scalar { .. } | Value::Alias { .. } => "string",
    }
}

/// libyaml's reader refuses characters outside YAML's printable set before parsing (`nul-byte`, a
/// BEL in `p19`; a BOM inside a value is allowed, `p20`).
fn control_characters(text: &str) -> Result<(), Drop> {
    let printable = |c: char| {
        matches!(c, '\t' | '\n' | '\r' | ' '..='~' | '\u{85}' | '\u{a0}'..='\u{d7ff}'
            | '\u{e000}'..='\u{fffd}' | '\u{10000}'..)
    };
    match text.char_indices().find(|(_, c)| !printable(*c)) {
        Some((at, _)) => Err(Drop::InvalidYaml(format!(
            "control characters are not allowed at position {at}"
        ))),
        None => Ok(()),
    }
}

/// Anchored nodes of a document, so an alias reads as what it names (`anchor-alias`); an alias to
/// an anchor never defined is an error (`alias-unknown`).
struct Anchors<'a> {
    nodes: Vec<(usize, &'a Node)>,
}

impl<'a> Anchors<'a> {
    fn of(root: &'a Node) -> Self {
        let mut nodes = Vec::new();
        let mut stack = vec![root];
        while let Some(node) = stack.pop() {
            if node.anchor != 0 {
                nodes.push((node.anchor, node));
            }
            match &node.value {
                Value::Sequence { items, .. } => stack.extend(items.iter()),
                Value::Mapping { entries, .. } => {
                    for entry in entries {
                        stack.push(&entry.key);
                        stack.push(&entry.value);
                    }
                }
                Value::Scalar { .. } | Value::Alias { .. } => {}
            }
        }
        Self { nodes }
    }

    fn resolve(&self, node: &'a Node) -> Result<&'a Node, Drop> {
        match node.value {
            Value::Alias { anchor } => self
                .nodes
                .iter()
                .find(|(id, _)| *id == anchor)
                .map(|(_, node)| *node)
                .ok_or_else(|| Drop::InvalidYaml("unknown anchor".to_string())),
            _ => Ok(node),
        }
    }
}

/// The retry Codex makes after a failed parse (0.142.0 and later): every `key: value` line whose
/// plain value holds a `:` followed by white space, or starts with `[`, `{`, `@` or `` ` `` and is
/// not valid YAML on its own, gets the value single-quoted, a trailing ` # comment` kept outside the
/// quotes. Lines of a block scalar, quoted values and `key:value` without a space are left alone.
/// None when no line changed. Observed: `colon-unquoted`, `colon-twice`, `colon-in-name`,
/// `colon-tab`, `colon-comment` (→ `foo: bar`), `colon-nested-meta`, `flow-map-desc` (→ `{a: b}`),
/// `flow-unclosed`, `at-start`, `p16`, `p17`, `p18`; not repaired: `colon-end`, `colon-multiline`,
/// `colon-quote-start`, `colon-single-then`, `percent-start`.
pub fn repair(frontmatter: &str) -> Option<String> {
    let mut changed = false;
    let mut block_indent: Option<usize> = None;
    let mut lines = Vec::new();
    for line in rust_lines(frontmatter) {
        let indent = line.chars().take_while(|c| *c == ' ').count();
        if let Some(block) = block_indent {
            if line.trim().is_empty() || indent > block {
                lines.push(line.to_string());
                continue;
            }
            block_indent = None;
        }
        let Some((key, value)) = line.split_once(':') else {
            lines.push(line.to_string());
            continue;
        };
        if key.trim().is_empty() || !value.chars().next().is_none_or(char::is_whitespace) {
            lines.push(line.to_string());
            continue;
        }
        let trimmed = value.trim_start();
        let leading = &value[..value.len() - trimmed.len()];
        let (scalar, comment) = split_comment(trimmed);
        let scalar = scalar.trim_end();
        let Some(first) = scalar.chars().next() else {
            lines.push(line.to_string());
            continue;
        };
        if matches!(first, '|' | '>') {
            block_indent = Some(indent);
            lines.push(line.to_string());
            continue;
        }
        if matches!(first, '\'' | '"') {
            lines.push(line.to_string());
            continue;
        }
        let mut chars = scalar.chars().peekable();
        let mut colon_space = false;
        while let Some(c) = chars.next() {
            if c == ':' && chars.peek().is_some_and(|next| next.is_whitespace()) {
                colon_space = true;
                break;
            }
        }
        let invalid_flow_like = matches!(first, '[' | '{' | '@' | '`')
            && yaml::parse(scalar, TextRange::new(0, scalar.len())).is_err();
        if !colon_space && !invalid_flow_like {
            lines.push(line.to_string());
            continue;
        }
        lines.push(format!(
            "{key}:{leading}'{}'{comment}",
            scalar.replace('\'', "''")
        ));
        changed = true;
    }
    changed.then(|| lines.join("\n"))
}

/// A value split before a `#` that starts it or follows white space; the white space goes with the
/// comment.
fn split_comment(value: &str) -> (&str, &str) {
    for (index, c) in value.char_indices() {
        if c == '#'
            && (index == 0
                || value[..index]
                    .chars()
                    .next_back()
                    .is_some_and(char::is_whitespace))
        {
            let start = value[..index].trim_end().len();
            return (&value[..start], &value[start..]);
        }
    }
    (value, "")
}

#[cfg(test)]
mod tests {
    use super::*;

    fn verdict(text: &str) -> Result<Parsed, Drop> {
        parse_skill(text.as_bytes(), "folder")
    }

    #[test]
    fn the_frontmatter_block_follows_rust_lines() {
        assert_eq!(extract("---\na: b\n---\n").as_deref(), Some("a: b"));
        assert_eq!(extract("  ---\r\na: b\r\n---").as_deref(), Some("a: b"));
        assert_eq!(extract("---\ra: b\r---\r"), None);
        assert_eq!(extract("\u{feff}---\na: b\n---\n"), None);
        assert_eq!(extract("---\n---\n"), None);
        assert_eq!(extract("---\na: b\n"), None);
        assert_eq!(
            extract("---\na: b\n  ---  \nrest\n---\n").as_deref(),
            Some("a: b")
        );
    }

    #[test]
    fn repaired_values_load_and_others_keep_the_first_error() {
        let loaded = verdict("---\nname: x\ndescription: foo: bar # comment\n---\n");
        assert_eq!(loaded.map(|p| p.description), Ok("foo: bar".to_string()));
        let flow = verdict("---\nname: x\ndescription: {a: b}\n---\n");
        assert_eq!(flow.map(|p| p.description), Ok("{a: b}".to_string()));
        assert!(matches!(
            verdict("---\nname: x\ndescription: ends with a colon:\n---\n"),
            Err(Drop::InvalidYaml(_))
        ));
        assert!(matches!(
            verdict("---\nname: x\ndescription: first\n  second: line\n---\n"),
            Err(Drop::InvalidYaml(_))
        ));
    }

    #[test]
    fn typing_follows_serde_yaml() {
        let description = |value: &str| {
            verdict(&format!("---\nname: x\ndescription: {value}\n---\n")).map(|p| p.description)
        };
        assert_eq!(description("1.50"), Ok("1.50".to_string()));
        assert_eq!(description("!!str 123"), Ok("123".to_string()));
        assert_eq!(description("Null"), Err(Drop::MissingDescription));
        assert_eq!(description("'  '"), Err(Drop::MissingDescription));
        assert!(matches!(description("[a, b]"), Err(Drop::InvalidYaml(_))));
        assert!(matches!(
            description("a \u{0} b"),
            Err(Drop::InvalidYaml(_))
        ));
        assert!(matches!(
            verdict("---\nname: x\ndescription: a\ndescription: b\n---\n"),
            Err(Drop::InvalidYaml(_))
        ));
        assert!(verdict("---\nname: x\ndescription: a\nfoo: 1\nfoo: 2\n---\n").is_ok());
        assert_eq!(
            verdict("---\ndescription: d\n---\n").map(|p| p.name),
            Ok("folder".to_string())
        );
        let long = format!("---\nname: {}\ndescription: d\n---\n", "n".repeat(65));
        assert_eq!(verdict(&long), Err(Drop::NameTooLong));
    }
}
