//! The full YAML frontmatter parser: every key and value keeps its byte range in the whole SKILL.md.
//!
//! Library choice: `saphyr-parser` (the maintained successor of `yaml-rust`, YAML 1.2, pure Rust, no
//! `unsafe` in our use). It is an event parser whose every event carries a span, which is exactly what a
//! linter needs: we build our own small tree from the events and never lose where a value came from.
//! `serde_yaml` is unmaintained and hides positions; `yaml-rust2` offers the same events with less active
//! upstream work, so it was not preferred. Spans are counted in characters; [`CharToByte`] turns them into
//! byte offsets.
//!
//! Bounds: aliases are kept as references and never expanded, so an alias bomb costs one node per `*ref`
//! written; nesting deeper than [`MAX_DEPTH`] and more than [`MAX_NODES`] nodes are refused with an error,
//! so hostile input can neither exhaust the stack of later tree walks nor memory.

pub mod lines;

use std::borrow::Cow;

use saphyr_parser::{Event, Parser, ScalarStyle, Span as YamlSpan};

use crate::text::{CharToByte, TextRange};

/// Deepest nesting accepted. Real frontmatter uses two or three levels; 64 leaves room for odd but
/// legitimate files and keeps every recursive walk far from the stack limit.
pub const MAX_DEPTH: usize = 64;
/// Most nodes accepted in one frontmatter; far above any real skill, far below what exhausts memory.
pub const MAX_NODES: usize = 200_000;

const UTF8_BOM: &str = "\u{feff}";

/// Where the frontmatter and the body sit in a SKILL.md.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Layout {
    /// Whether the file starts with a UTF-8 byte-order mark (it is part of no other range).
    pub bom: bool,
    /// The opening `---` line, without its line terminator.
    pub open: TextRange,
    /// The YAML text between the delimiter lines (may be empty).
    pub yaml: TextRange,
    /// The closing `---` line, without its line terminator.
    pub close: TextRange,
    /// Everything after the closing line.
    pub body: TextRange,
}

/// Why a file has no usable frontmatter block.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum LayoutError {
    #[error("the file does not start with a `---` frontmatter line")]
    Missing,
    /// A `---` block exists but something precedes it; `open` is that later `---` line.
    #[error("the frontmatter does not start on line 1")]
    NotAtStart { open: TextRange },
    /// The opening line is never closed by another `---` line.
    #[error("the frontmatter opened on line 1 is never closed by a `---` line")]
    Unterminated { open: TextRange },
}

/// Splits a SKILL.md into frontmatter and body.
///
/// The opening line is `---` on line 1 (after an optional BOM, surrounding blanks ignored, as every client
/// does); the block closes at the first later line that is `---` up to trailing blanks. Lines end at LF,
/// CRLF or a lone CR, as YAML 1.2 reads them ([`lines`]).
pub fn layout(source: &str) -> Result<Layout, LayoutError> {
    let bom = source.starts_with(UTF8_BOM);
    let start = if bom { UTF8_BOM.len() } else { 0 };
    let mut lines = LineCursor::new(source, start);
    let Some(first) = lines.next() else {
        return Err(LayoutError::Missing);
    };
    if first.content(source).trim() != "---" {
        // Look for a delimiter that only blank lines or stray text pushed down.
        let mut cursor = LineCursor::new(source, start);
        for line in cursor.by_ref() {
            let text = line.content(source);
            if text.trim() == "---" {
                return Err(LayoutError::NotAtStart { open: line.range });
            }
            if !text.trim().is_empty() {
                break;
            }
        }
        return Err(LayoutError::Missing);
    }
    for line in lines {
        if line.content(source).trim_end() == "---" {
            return Ok(Layout {
                bom,
                open: first.range,
                yaml: TextRange::new(first.next_start, line.range.start()),
                close: line.range,
                body: TextRange::new(line.next_start, source.len()),
            });
        }
    }
    Err(LayoutError::Unterminated { open: first.range })
}

#[derive(Debug, Clone, Copy)]
struct Line {
    /// The line without its terminator.
    range: TextRange,
    /// Where the following line starts.
    next_start: usize,
}

impl Line {
    fn content(self, source: &str) -> &str {
        self.range.slice(source)
    }
}

struct LineCursor<'a> {
    source: &'a str,
    at: usize,
}

impl<'a> LineCursor<'a> {
    fn new(source: &'a str, at: usize) -> Self {
        Self { source, at }
    }
}

impl Iterator for LineCursor<'_> {
    type Item = Line;

    fn next(&mut self) -> Option<Line> {
        if self.at >= self.source.len() {
            return None;
        }
        let bytes = self.source.as_bytes();
        let (end, next_start) = match lines::next_break(bytes, self.at) {
            Some(at) => (at, at + lines::break_len(bytes, at)),
            None => (self.source.len(), self.source.len()),
        };
        let line = Line {
            range: TextRange::new(self.at, end),
            next_start,
        };
        self.at = next_start;
        Some(line)
    }
}

/// How a scalar was written; it decides which clients can read it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Style {
    Plain,
    SingleQuoted,
    DoubleQuoted,
    Literal,
    Folded,
}

impl Style {
    pub fn is_block(self) -> bool {
        matches!(self, Style::Literal | Style::Folded)
    }

    pub fn is_quoted(self) -> bool {
        matches!(self, Style::SingleQuoted | Style::DoubleQuoted)
    }
}

impl From<ScalarStyle> for Style {
    fn from(style: ScalarStyle) -> Self {
        match style {
            ScalarStyle::SingleQuoted => Style::SingleQuoted,
            ScalarStyle::DoubleQuoted => Style::DoubleQuoted,
            ScalarStyle::Literal => Style::Literal,
            ScalarStyle::Folded => Style::Folded,
            ScalarStyle::Plain => Style::Plain,
        }
    }
}

/// One YAML node with its byte range in the whole file.
#[derive(Debug, Clone, PartialEq)]
pub struct Node {
    pub value: Value,
    pub range: TextRange,
    /// Whether an explicit tag (`!!str`, `!custom`) was written; strict clients refuse tags.
    pub tagged: bool,
    /// The anchor (`&name`) written on this node, as the parser numbers anchors; 0 when there is none.
    pub anchor: usize,
}

#[derive(Debug, Clone, PartialEq)]
pub enum Value {
    Scalar {
        text: String,
        style: Style,
    },
    Sequence {
        items: Vec<Node>,
        /// `[a, b]` rather than `- a` lines.
        flow: bool,
    },
    Mapping {
        entries: Vec<Entry>,
        /// `{a: b}` rather than indented lines.
        flow: bool,
    },
    /// `*name`: a reference to the node carrying `anchor`, deliberately not expanded.
    Alias {
        anchor: usize,
    },
}

#[derive(Debug, Clone, PartialEq)]
pub struct Entry {
    pub key: Node,
    pub value: Node,
}

impl Node {
    /// The scalar text, if this is a scalar.
    pub fn as_scalar(&self) -> Option<(&str, Style)> {
        match &self.value {
            Value::Scalar { text, style } => Some((text.as_str(), *style)),
            _ => None,
        }
    }

    pub fn entries(&self) -> Option<&[Entry]> {
        match &self.value {
            Value::Mapping { entries, .. } => Some(entries),
            _ => None,
        }
    }

    /// The last entry whose key is this scalar (later duplicates win, as in most YAML loaders).
    pub fn get(&self, key: &str) -> Option<&Entry> {
        self.entries()?
            .iter()
            .rev()
            .find(|entry| entry.key.as_scalar().is_some_and(|(text, _)| text == key))
    }

    pub fn kind_name(&self) -> &'static str {
        match &self.value {
            Value::Scalar { .. } => "a scalar",
            Value::Sequence { .. } => "a list",
            Value::Mapping { .. } => "a mapping",
            Value::Alias { .. } => "an alias",
        }
    }
}

/// A YAML syntax error, or input that exceeds the parser's bounds.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{message}")]
pub struct YamlError {
    pub message: String,
    /// Where the parser stopped, in the whole file (empty range at the failing character).
    pub range: TextRange,
    /// 1-based line and column inside the YAML text, as the parser reports them.
    pub yaml_line: usize,
    pub yaml_column: usize,
}

/// YAML's printable characters (`c-printable`, the same in YAML 1.1 and 1.2): tab, LF, CR, printable
/// ASCII, NEL, and the rest of Unicode but the C1 controls, surrogates and U+FFFE/U+FFFF. PyYAML's and
/// libyaml's readers refuse a document holding any other character before parsing it.
pub fn is_printable(c: char) -> bool {
    matches!(c, '\t' | '\n' | '\r' | ' '..='~' | '\u{85}' | '\u{a0}'..='\u{d7ff}'
        | '\u{e000}'..='\u{fffd}' | '\u{10000}'..)
}

/// How many whole-text parses [`parse_whole`] keeps per thread.
const KEPT_PARSES: usize = 4;

/// A whole text's parse, as [`parse_whole`] hands it out.
pub type SharedParse = std::rc::Rc<Result<Option<Node>, YamlError>>;

std::thread_local! {
    /// The last whole-text parses on this thread, newest last.
    static KEPT: std::cell::RefCell<Vec<(Box<str>, SharedParse)>> =
        const { std::cell::RefCell::new(Vec::new()) };
}

/// [`parse`] of the whole of `text`, shared: the client models each read a file's frontmatter with this
/// parser, most of them the very same text, so the last few results on this thread are handed out again
/// instead of parsing that text anew (a parse is a function of the text alone).
pub fn parse_whole(text: &str) -> SharedParse {
    let kept = KEPT.with_borrow(|kept| {
        kept.iter()
            .rev()
            .find(|(seen, _)| **seen == *text)
            .map(|(_, parsed)| std::rc::Rc::clone(parsed))
    });
    if let Some(parsed) = kept {
        return parsed;
    }
    let parsed = std::rc::Rc::new(parse(text, TextRange::new(0, text.len())));
    KEPT.with_borrow_mut(|kept| {
        if kept.len() == KEPT_PARSES {
            kept.remove(0);
        }
        kept.push((text.into(), std::rc::Rc::clone(&parsed)));
    });
    parsed
}

/// Parses the YAML text at `yaml` inside `source`. `Ok(None)` is an empty (or comment-only) document.
pub fn parse(source: &str, yaml: TextRange) -> Result<Option<Node>, YamlError> {
    let text = yaml.slice(source);
    let chars = CharToByte::new(text);
    let base = yaml.start();
    let mut builder = Builder {
        source,
        text,
        chars: &chars,
        base,
        stack: Vec::new(),
        root: None,
        nodes: 0,
        documents: 0,
    };
    for event in Parser::new_from_str(text) {
        match event {
            Ok((event, span)) => builder.event(event, span)?,
            Err(error) => {
                let marker = error.marker();
                let at = base + chars.byte(marker.index());
                return Err(YamlError {
                    message: error.info().to_string(),
                    range: TextRange::empty(at),
                    yaml_line: marker.line(),
                    yaml_column: marker.col() + 1,
                });
            }
        }
    }
    Ok(builder.root)
}

enum Open {
    Sequence {
        start: usize,
        items: Vec<Node>,
        flow: bool,
        tagged: bool,
        anchor: usize,
    },
    Mapping {
        start: usize,
        entries: Vec<Entry>,
        pending_key: Option<Node>,
        flow: bool,
        tagged: bool,
        anchor: usize,
    },
}

struct Builder<'a> {
    source: &'a str,
    text: &'a str,
    chars: &'a CharToByte,
    base: usize,
    stack: Vec<Open>,
    root: Option<Node>,
    nodes: usize,
    documents: usize,
}

impl Builder<'_> {
    fn range(&self, span: YamlSpan) -> TextRange {
        TextRange::new(
            self.base + self.chars.byte(span.start.index()),
            self.base + self.chars.byte(span.end.index()),
        )
    }

    fn error_at(&self, span: YamlSpan, message: impl Into<String>) -> YamlError {
        YamlError {
            message: message.into(),
            range: TextRange::empty(self.base + self.chars.byte(span.start.index())),
            yaml_line: span.start.line(),
            yaml_column: span.start.col() + 1,
        }
    }

    fn count_node(&mut self, span: YamlSpan) -> Result<(), YamlError> {
        self.nodes += 1;
        if self.nodes > MAX_NODES {
            return Err(self.error_at(
                span,
                format!("the frontmatter has more than {MAX_NODES} YAML nodes"),
            ));
        }
        Ok(())
    }

    fn event(&mut self, event: Event<'_>, span: YamlSpan) -> Result<(), YamlError> {
        match event {
            Event::DocumentStart(_) => {
                self.documents += 1;
                if self.documents > 1 {
                    return Err(
                        self.error_at(span, "expected a single YAML document in the frontmatter")
                    );
                }
            }
            Event::Scalar(text, style, anchor, tag) => {
                self.count_node(span)?;
                let style = Style::from(style);
                let mut range = self.range(span);
                if style.is_block() {
                    range = self.block_scalar_start(range);
                }
                let node = Node {
                    value: Value::Scalar {
                        text: text.into_owned(),
                        style,
                    },
                    range,
                    tagged: tag.is_some(),
                    anchor,
                };
                self.push(node);
            }
            Event::Alias(anchor) => {
                self.count_node(span)?;
                let node = Node {
                    value: Value::Alias { anchor },
                    range: self.range(span),
                    tagged: false,
                    anchor: 0,
                };
                self.push(node);
            }
            Event::SequenceStart(anchor, tag) => {
                self.open(span)?;
                let range = self.range(span);
                self.stack.push(Open::Sequence {
                    start: range.start(),
                    items: Vec::new(),
                    flow: self.starts_flow(range, '['),
                    tagged: tag.is_some(),
                    anchor,
                });
            }
            Event::MappingStart(anchor, tag) => {
                self.open(span)?;
                let range = self.range(span);
                self.stack.push(Open::Mapping {
                    start: range.start(),
                    entries: Vec::new(),
                    pending_key: None,
                    flow: self.starts_flow(range, '{'),
                    tagged: tag.is_some(),
                    anchor,
                });
            }
            Event::SequenceEnd | Event::MappingEnd => {
                let end_range = self.range(span);
                let Some(open) = self.stack.pop() else {
                    return Err(self.error_at(span, "unbalanced YAML collection"));
                };
                let node = match open {
                    Open::Sequence {
                        start,
                        items,
                        flow,
                        tagged,
                        anchor,
                    } => {
                        let end = collection_end(
                            flow,
                            end_range,
                            items.last().map(|item| item.range.end()),
                            start,
                        );
                        Node {
                            value: Value::Sequence { items, flow },
                            range: TextRange::new(start, end),
                            tagged,
                            anchor,
                        }
                    }
                    Open::Mapping {
                        start,
                        entries,
                        flow,
                        tagged,
                        anchor,
                        ..
                    } => {
                        let last = entries.last().map(|entry| entry.value.range.end());
                        let end = collection_end(flow, end_range, last, start);
                        Node {
                            value: Value::Mapping { entries, flow },
                            range: TextRange::new(start, end),
                            tagged,
                            anchor,
                        }
                    }
                };
                self.push(node);
            }
            Event::Nothing | Event::StreamStart | Event::StreamEnd | Event::DocumentEnd => {}
        }
        Ok(())
    }

    fn open(&mut self, span: YamlSpan) -> Result<(), YamlError> {
        self.count_node(span)?;
        if self.stack.len() >= MAX_DEPTH {
            return Err(self.error_at(
                span,
                format!("the frontmatter nests deeper than {MAX_DEPTH} levels"),
            ));
        }
        Ok(())
    }

    fn starts_flow(&self, range: TextRange, bracket: char) -> bool {
        // The start event's span covers the bracket itself (after any anchor or tag).
        range.slice(self.source).ends_with(bracket)
    }

    /// The scanner's span of a block scalar starts at its content; move it back to the `|` or `>` so a
    /// diagnostic and a fix cover the whole value.
    fn block_scalar_start(&self, range: TextRange) -> TextRange {
        let local_end = range.start().saturating_sub(self.base);
        let before = self.text.get(..local_end).unwrap_or("");
        match before.rfind(['|', '>']) {
            Some(indicator) => TextRange::new(self.base + indicator, range.end()),
            None => range,
        }
    }

    fn push(&mut self, node: Node) {
        match self.stack.last_mut() {
            None => {
                if self.root.is_none() {
                    self.root = Some(node);
                }
            }
            Some(Open::Sequence { items, .. }) => items.push(node),
            Some(Open::Mapping {
                entries,
                pending_key,
                ..
            }) => match pending_key.take() {
                None => *pending_key = Some(node),
                Some(key) => entries.push(Entry { key, value: node }),
            },
        }
    }
}

fn collection_end(
    flow: bool,
    end_event: TextRange,
    last_child_end: Option<usize>,
    start: usize,
) -> usize {
    if flow {
        end_event.end()
    } else {
        // A block collection's end event sits at the next token, possibly lines later.
        last_child_end.unwrap_or(start).max(start)
    }
}

/// The keys of a mapping node as written, with their ranges; a helper for rules that compare keys.
pub fn scalar_keys(node: &Node) -> Vec<(Cow<'_, str>, TextRange)> {
    node.entries()
        .unwrap_or(&[])
        .iter()
        .filter_map(|entry| {
            entry
                .key
                .as_scalar()
                .map(|(text, _)| (Cow::Borrowed(text), entry.key.range))
        })
        .collect()
}

/// A YAML double-quoted scalar that reads back as exactly `text`.
pub fn double_quoted(text: &str) -> String {
    let mut out = String::with_capacity(text.len() + 2);
    out.push('"');
    for character in text.chars() {
        match character {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            '\t' => out.push_str("\\t"),
            '\r' => out.push_str("\\r"),
            control if control.is_control() => {
                out.push_str(&format!("\\u{:04X}", u32::from(control)));
            }
            other => out.push(other),
        }
    }
    out.push('"');
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parse_all(source: &str) -> Result<Option<Node>, YamlError> {
        let layout = layout(source).map_err(|error| YamlError {
            message: error.to_string(),
            range: TextRange::default(),
            yaml_line: 0,
            yaml_column: 0,
        })?;
        parse(source, layout.yaml)
    }

    #[test]
    fn values_keep_ranges_in_the_whole_file() {
        let source = "---\nname: café\ndescription: |\n  two\n  lines\n---\nbody\n";
        let root = parse_all(source).ok().flatten();
        let root = root.as_ref();
        let name = root.and_then(|root| root.get("name"));
        assert_eq!(
            name.map(|entry| entry.value.range.slice(source)),
            Some("café")
        );
        let description = root.and_then(|root| root.get("description"));
        assert_eq!(
            description.map(|entry| entry.value.range.slice(source)),
            Some("|\n  two\n  lines\n")
        );
    }

    #[test]
    fn layout_reports_each_failure() {
        assert_eq!(layout("# title"), Err(LayoutError::Missing));
        assert!(matches!(
            layout("\n---\na: b\n---\n"),
            Err(LayoutError::NotAtStart { .. })
        ));
        assert!(matches!(
            layout("---\na: b\n"),
            Err(LayoutError::Unterminated { .. })
        ));
        let with_bom = layout("\u{feff}---\r\na: b\r\n---\r\nbody");
        assert!(with_bom.as_ref().is_ok_and(|layout| layout.bom));
    }

    #[test]
    fn lone_carriage_returns_end_lines_in_the_layout_and_the_parser() {
        let source = "---\rname: cr\rdescription: |\r  one\r  two\r---\rbody\r";
        let split = layout(source);
        assert_eq!(
            split.as_ref().map(|layout| layout.body.slice(source)),
            Ok("body\r")
        );
        let root = parse_all(source).ok().flatten();
        let value = |key: &str| {
            root.as_ref()
                .and_then(|root| root.get(key))
                .and_then(|entry| entry.value.as_scalar().map(|(text, _)| text.to_string()))
        };
        assert_eq!(value("name").as_deref(), Some("cr"));
        assert_eq!(value("description").as_deref(), Some("one\ntwo\n"));
        let mixed = "---\r\nname: mixed\rdescription: d\n---\r\n";
        assert!(parse_all(mixed)
            .is_ok_and(|root| root.is_some_and(|root| root.get("description").is_some())));
        // A `\r` that ends the file still ends the closing line.
        assert!(layout("---\na: b\n---\r").is_ok());
    }

    #[test]
    fn errors_point_at_the_failing_character() {
        let source = "---\ndescription: Use when: x\n---\n";
        let error = parse_all(source).err();
        assert_eq!(error.as_ref().map(|error| error.yaml_line), Some(1));
        assert_eq!(error.map(|error| error.range.start()), Some(4 + 21));
    }

    #[test]
    fn alias_bombs_and_deep_nesting_are_bounded() {
        let mut bomb = String::from("---\na: &a [x, x, x, x, x, x, x, x, x]\n");
        for level in 0..20 {
            let previous = if level == 0 {
                "a".to_string()
            } else {
                format!("l{}", level - 1)
            };
            bomb.push_str(&format!(
                "l{level}: &l{level} [*{previous}, *{previous}, *{previous}, *{previous}]\n"
            ));
        }
        bomb.push_str("---\n");
        assert!(parse_all(&bomb).is_ok());
        let deep = format!(
            "---\na: {}{}\n---\n",
            "[".repeat(10_000),
            "]".repeat(10_000)
        );
        // The scanner's own recursion limit stops runaway flow nesting before our depth bound does.
        assert!(parse_all(&deep).is_err());
        let mut block = String::from("---\n");
        for level in 0..100 {
            block.push_str(&format!("{}k:\n", "  ".repeat(level)));
        }
        block.push_str("---\n");
        let error = parse_all(&block).err().map(|error| error.message);
        assert!(error.is_some_and(|message| message.contains("deeper")));
    }

    #[test]
    fn flow_collections_are_marked() {
        let source = "---\na: [x, y]\nb:\n  - x\nc: {k: v}\n---\n";
        let root = parse_all(source).ok().flatten();
        let flow = |key: &str| match root
            .as_ref()
            .and_then(|root| root.get(key))
            .map(|entry| &entry.value.value)
        {
            Some(Value::Sequence { flow, .. }) | Some(Value::Mapping { flow, .. }) => Some(*flow),
            _ => None,
        };
        assert_eq!(flow("a"), Some(true));
        assert_eq!(flow("b"), Some(false));
        assert_eq!(flow("c"), Some(true));
    }

    #[test]
    fn double_quoting_escapes() {
        assert_eq!(double_quoted("a \"b\" \\ c"), "\"a \\\"b\\\" \\\\ c\"");
    }
}
