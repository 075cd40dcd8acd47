//! PyYAML's `Reader` and `Scanner` (`yaml/reader.py`, `yaml/scanner.py` of PyYAML 6.0), ported
//! method by method so that every token, every simple-key decision and every error message is the one
//! PyYAML produces. The reader works on the code points of a Python `str` followed by `'\0'`, as
//! PyYAML's does; marks count code points.

use std::collections::{BTreeMap, VecDeque};

use super::{Mark, MarkedError, Source};
use crate::python;

/// Characters after which a `---`, `...`, `-`, `?` or `:` is an indicator (`'\0 \t\r\n\x85\u2028\u2029'`).
fn is_blank_or_break(c: char) -> bool {
    matches!(
        c,
        '\0' | ' ' | '\t' | '\r' | '\n' | '\u{85}' | '\u{2028}' | '\u{2029}'
    )
}

/// `'\0\r\n\x85\u2028\u2029'`.
fn is_break_or_end(c: char) -> bool {
    matches!(c, '\0' | '\r' | '\n' | '\u{85}' | '\u{2028}' | '\u{2029}')
}

/// `'\r\n\x85\u2028\u2029'`.
fn is_break(c: char) -> bool {
    matches!(c, '\r' | '\n' | '\u{85}' | '\u{2028}' | '\u{2029}')
}

/// `'\0 \r\n\x85\u2028\u2029'` (no tab).
fn is_space_break_or_end(c: char) -> bool {
    c == ' ' || is_break_or_end(c)
}

fn is_word(c: char) -> bool {
    c.is_ascii_alphanumeric() || c == '-' || c == '_'
}

fn repr(c: char) -> String {
    python::repr(&c.to_string())
}

#[derive(Debug, Clone, PartialEq)]
pub(super) enum TokenKind {
    StreamStart,
    StreamEnd,
    Directive,
    DocumentStart,
    DocumentEnd,
    BlockSequenceStart,
    BlockMappingStart,
    BlockEnd,
    FlowSequenceStart,
    FlowMappingStart,
    FlowSequenceEnd,
    FlowMappingEnd,
    Key,
    Value,
    BlockEntry,
    FlowEntry,
    Alias(String),
    Anchor(String),
    /// `(handle, suffix)`.
    Tag(Option<String>, String),
    Scalar {
        value: String,
        plain: bool,
        style: Option<char>,
    },
    /// A `%YAML` directive's version; other directives carry their name only.
    YamlDirective(u64, u64),
    /// A `%TAG` directive's handle and prefix.
    TagDirective(String, String),
}

impl TokenKind {
    /// The token's `id`, as PyYAML's error messages name it.
    pub(super) fn id(&self) -> &'static str {
        match self {
            TokenKind::StreamStart => "<stream start>",
            TokenKind::StreamEnd => "<stream end>",
            TokenKind::Directive | TokenKind::YamlDirective(..) | TokenKind::TagDirective(..) => {
                "<directive>"
            }
            TokenKind::DocumentStart => "<document start>",
            TokenKind::DocumentEnd => "<document end>",
            TokenKind::BlockSequenceStart => "<block sequence start>",
            TokenKind::BlockMappingStart => "<block mapping start>",
            TokenKind::BlockEnd => "<block end>",
            TokenKind::FlowSequenceStart => "[",
            TokenKind::FlowMappingStart => "{",
            TokenKind::FlowSequenceEnd => "]",
            TokenKind::FlowMappingEnd => "}",
            TokenKind::Key => "?",
            TokenKind::Value => ":",
            TokenKind::BlockEntry => "-",
            TokenKind::FlowEntry => ",",
            TokenKind::Alias(_) => "<alias>",
            TokenKind::Anchor(_) => "<anchor>",
            TokenKind::Tag(..) => "<tag>",
            TokenKind::Scalar { .. } => "<scalar>",
        }
    }
}

#[derive(Debug, Clone)]
pub(super) struct Token {
    pub kind: TokenKind,
    pub start: Mark,
    pub end: Mark,
}

#[derive(Debug, Clone, Copy)]
struct SimpleKey {
    token_number: usize,
    required: bool,
    index: usize,
    line: usize,
    mark: Mark,
    column: usize,
}

pub(super) struct Scanner<'a> {
    source: &'a Source,
    pointer: usize,
    line: usize,
    column: usize,
    done: bool,
    /// An `isize` as in PyYAML, where a stray `]` or `}` takes the level below zero (and then counts
    /// as flow context, since Python tests it for truth).
    flow_level: isize,
    tokens: VecDeque<Token>,
    tokens_taken: usize,
    indent: isize,
    indents: Vec<isize>,
    allow_simple_key: bool,
    possible_simple_keys: BTreeMap<isize, SimpleKey>,
}

type Scan<T> = Result<T, MarkedError>;

impl<'a> Scanner<'a> {
    pub(super) fn new(source: &'a Source) -> Self {
        let mut scanner = Self {
            source,
            pointer: 0,
            line: 0,
            column: 0,
            done: false,
            flow_level: 0,
            tokens: VecDeque::new(),
            tokens_taken: 0,
            indent: -1,
            indents: Vec::new(),
            allow_simple_key: true,
            possible_simple_keys: BTreeMap::new(),
        };
        let mark = scanner.mark();
        scanner.tokens.push_back(Token {
            kind: TokenKind::StreamStart,
            start: mark,
            end: mark,
        });
        scanner
    }

    // -- reader --------------------------------------------------------------------------------

    fn peek(&self, index: usize) -> char {
        self.source.char_at(self.pointer + index)
    }

    fn prefix(&self, length: usize) -> String {
        self.source.slice(self.pointer, self.pointer + length)
    }

    fn forward(&mut self, length: usize) {
        for _ in 0..length {
            let c = self.source.char_at(self.pointer);
            self.pointer += 1;
            if matches!(c, '\n' | '\u{85}' | '\u{2028}' | '\u{2029}')
                || (c == '\r' && self.source.char_at(self.pointer) != '\n')
            {
                self.line += 1;
                self.column = 0;
            } else if c != '\u{feff}' {
                self.column += 1;
            }
        }
    }

    fn mark(&self) -> Mark {
        Mark {
            index: self.pointer,
            line: self.line,
            column: self.column,
        }
    }

    /// After a `\\uXXXX` escape whose hex digits start at the pointer: whether a `\\uDC00`..`\\uDFFF`
    /// escape follows at once.
    fn low_surrogate_follows(&self, length: usize) -> bool {
        let at = self.pointer + length;
        self.source.char_at(at) == '\\'
            && self.source.char_at(at + 1) == 'u'
            && (0..4).all(|k| self.source.char_at(at + 2 + k).is_ascii_hexdigit())
            && u32::from_str_radix(&self.source.slice(at + 2, at + 6), 16)
                .is_ok_and(|low| (0xDC00..0xE000).contains(&low))
    }

    fn crash(&self, message: String) -> MarkedError {
        MarkedError::crash("ValueError", message)
    }

    fn error(
        &self,
        context: Option<&str>,
        context_mark: Option<Mark>,
        problem: String,
        problem_mark: Mark,
    ) -> MarkedError {
        MarkedError::new(
            self.source,
            context.map(str::to_string),
            context_mark,
            Some(problem),
            Some(problem_mark),
        )
    }

    // -- public interface ----------------------------------------------------------------------

    pub(super) fn peek_token(&mut self) -> Scan<Option<&Token>> {
        self.fill()?;
        Ok(self.tokens.front())
    }

    pub(super) fn get_token(&mut self) -> Scan<Option<Token>> {
        self.fill()?;
        let token = self.tokens.pop_front();
        if token.is_some() {
            self.tokens_taken += 1;
        }
        Ok(token)
    }

    fn fill(&mut self) -> Scan<()> {
        while self.need_more_tokens()? {
            self.fetch_more_tokens()?;
        }
        Ok(())
    }

    fn need_more_tokens(&mut self) -> Scan<bool> {
        if self.done {
            return Ok(false);
        }
        if self.tokens.is_empty() {
            return Ok(true);
        }
        self.stale_possible_simple_keys()?;
        Ok(self.next_possible_simple_key() == Some(self.tokens_taken))
    }

    fn fetch_more_tokens(&mut self) -> Scan<()> {
        self.scan_to_next_token();
        self.stale_possible_simple_keys()?;
        self.unwind_indent(self.column as isize);
        let c = self.peek(0);
        match c {
            '\0' => return self.fetch_stream_end(),
            '%' if self.column == 0 => return self.fetch_directive(),
            '-' if self.check_document_indicator("---") => {
                return self.fetch_document_indicator(TokenKind::DocumentStart)
            }
            '.' if self.check_document_indicator("...") => {
                return self.fetch_document_indicator(TokenKind::DocumentEnd)
            }
            '[' => return self.fetch_flow_collection_start(TokenKind::FlowSequenceStart),
            '{' => return self.fetch_flow_collection_start(TokenKind::FlowMappingStart),
            ']' => return self.fetch_flow_collection_end(TokenKind::FlowSequenceEnd),
            '}' => return self.fetch_flow_collection_end(TokenKind::FlowMappingEnd),
            ',' => return self.fetch_flow_entry(),
            '-' if is_blank_or_break(self.peek(1)) => return self.fetch_block_entry(),
            '?' if self.flow_level != 0 || is_blank_or_break(self.peek(1)) => {
                return self.fetch_key()
            }
            ':' if self.flow_level != 0 || is_blank_or_break(self.peek(1)) => {
                return self.fetch_value()
            }
            '*' => return self.fetch_anchor(true),
            '&' => return self.fetch_anchor(false),
            '!' => return self.fetch_tag(),
            '|' if self.flow_level == 0 => return self.fetch_block_scalar(false),
            '>' if self.flow_level == 0 => return self.fetch_block_scalar(true),
            '\'' => return self.fetch_flow_scalar(false),
            '"' => return self.fetch_flow_scalar(true),
            _ => {}
        }
        if self.check_plain() {
            return self.fetch_plain();
        }
        Err(self.error(
            Some("while scanning for the next token"),
            None,
            format!("found character {} that cannot start any token", repr(c)),
            self.mark(),
        ))
    }

    // -- simple keys ---------------------------------------------------------------------------

    fn next_possible_simple_key(&self) -> Option<usize> {
        self.possible_simple_keys
            .values()
            .map(|key| key.token_number)
            .min()
    }

    fn stale_possible_simple_keys(&mut self) -> Scan<()> {
        let levels: Vec<isize> = self.possible_simple_keys.keys().copied().collect();
        for level in levels {
            let key = self.possible_simple_keys[&level];
            if key.line != self.line || self.pointer - key.index > 1024 {
                if key.required {
                    return Err(self.error(
                        Some("while scanning a simple key"),
                        Some(key.mark),
                        "could not find expected ':'".to_string(),
                        self.mark(),
                    ));
                }
                self.possible_simple_keys.remove(&level);
            }
        }
        Ok(())
    }

    fn save_possible_simple_key(&mut self) -> Scan<()> {
        let required = self.flow_level == 0 && self.indent == self.column as isize;
        if self.allow_simple_key {
            self.remove_possible_simple_key()?;
            let token_number = self.tokens_taken + self.tokens.len();
            let key = SimpleKey {
                token_number,
                required,
                index: self.pointer,
                line: self.line,
                column: self.column,
                mark: self.mark(),
            };
            self.possible_simple_keys.insert(self.flow_level, key);
        }
        Ok(())
    }

    fn remove_possible_simple_key(&mut self) -> Scan<()> {
        if let Some(key) = self.possible_simple_keys.get(&self.flow_level).copied() {
            if key.required {
                return Err(self.error(
                    Some("while scanning a simple key"),
                    Some(key.mark),
                    "could not find expected ':'".to_string(),
                    self.mark(),
                ));
            }
            self.possible_simple_keys.remove(&self.flow_level);
        }
        Ok(())
    }

    // -- indentation ---------------------------------------------------------------------------

    fn unwind_indent(&mut self, column: isize) {
        // In the flow context indentation is ignored.
        if self.flow_level != 0 {
            return;
        }
        while self.indent > column {
            let mark = self.mark();
            self.indent = self.indents.pop().unwrap_or(-1);
            self.push(TokenKind::BlockEnd, mark, mark);
        }
    }

    fn add_indent(&mut self, column: usize) -> bool {
        if self.indent < column as isize {
            self.indents.push(self.indent);
            self.indent = column as isize;
            return true;
        }
        false
    }

    fn push(&mut self, kind: TokenKind, start: Mark, end: Mark) {
        self.tokens.push_back(Token { kind, start, end });
    }

    /// Moves past one indicator character and queues its token.
    fn push_indicator(&mut self, kind: TokenKind) {
        let start = self.mark();
        self.forward(1);
        let end = self.mark();
        self.push(kind, start, end);
    }

    // -- fetchers ------------------------------------------------------------------------------

    fn fetch_stream_end(&mut self) -> Scan<()> {
        self.unwind_indent(-1);
        self.remove_possible_simple_key()?;
        self.allow_simple_key = false;
        self.possible_simple_keys.clear();
        let mark = self.mark();
        self.push(TokenKind::StreamEnd, mark, mark);
        self.done = true;
        Ok(())
    }

    fn fetch_directive(&mut self) -> Scan<()> {
        self.unwind_indent(-1);
        self.remove_possible_simple_key()?;
        self.allow_simple_key = false;
        let token = self.scan_directive()?;
        self.tokens.push_back(token);
        Ok(())
    }

    fn check_document_indicator(&self, indicator: &str) -> bool {
        self.column == 0 && self.prefix(3) == indicator && is_blank_or_break(self.peek(3))
    }

    fn fetch_document_indicator(&mut self, kind: TokenKind) -> Scan<()> {
        self.unwind_indent(-1);
        self.remove_possible_simple_key()?;
        self.allow_simple_key = false;
        let start = self.mark();
        self.forward(3);
        let end = self.mark();
        self.push(kind, start, end);
        Ok(())
    }

    fn fetch_flow_collection_start(&mut self, kind: TokenKind) -> Scan<()> {
        self.save_possible_simple_key()?;
        self.flow_level += 1;
        self.allow_simple_key = true;
        self.push_indicator(kind);
        Ok(())
    }

    fn fetch_flow_collection_end(&mut self, kind: TokenKind) -> Scan<()> {
        self.remove_possible_simple_key()?;
        self.flow_level -= 1;
        self.allow_simple_key = false;
        self.push_indicator(kind);
        Ok(())
    }

    fn fetch_flow_entry(&mut self) -> Scan<()> {
        self.allow_simple_key = true;
        self.remove_possible_simple_key()?;
        self.push_indicator(TokenKind::FlowEntry);
        Ok(())
    }

    fn fetch_block_entry(&mut self) -> Scan<()> {
        if self.flow_level == 0 {
            if !self.allow_simple_key {
                return Err(self.error(
                    None,
                    None,
                    "sequence entries are not allowed here".to_string(),
                    self.mark(),
                ));
            }
            if self.add_indent(self.column) {
                let mark = self.mark();
                self.push(TokenKind::BlockSequenceStart, mark, mark);
            }
        }
        self.allow_simple_key = true;
        self.remove_possible_simple_key()?;
        self.push_indicator(TokenKind::BlockEntry);
        Ok(())
    }

    fn fetch_key(&mut self) -> Scan<()> {
        if self.flow_level == 0 {
            if !self.allow_simple_key {
                return Err(self.error(
                    None,
                    None,
                    "mapping keys are not allowed here".to_string(),
                    self.mark(),
                ));
            }
            if self.add_indent(self.column) {
                let mark = self.mark();
                self.push(TokenKind::BlockMappingStart, mark, mark);
            }
        }
        self.allow_simple_key = self.flow_level == 0;
        self.remove_possible_simple_key()?;
        self.push_indicator(TokenKind::Key);
        Ok(())
    }

    fn fetch_value(&mut self) -> Scan<()> {
        if let Some(key) = self.possible_simple_keys.remove(&self.flow_level) {
            let at = key.token_number - self.tokens_taken;
            self.tokens.insert(
                at,
                Token {
                    kind: TokenKind::Key,
                    start: key.mark,
                    end: key.mark,
                },
            );
            if self.flow_level == 0 && self.add_indent(key.column) {
                self.tokens.insert(
                    at,
                    Token {
                        kind: TokenKind::BlockMappingStart,
                        start: key.mark,
                        end: key.mark,
                    },
                );
            }
            self.allow_simple_key = false;
        } else {
            if self.flow_level == 0 {
                if !self.allow_simple_key {
                    return Err(self.error(
                        None,
                        None,
                        "mapping values are not allowed here".to_string(),
                        self.mark(),
                    ));
                }
                if self.add_indent(self.column) {
                    let mark = self.mark();
                    self.push(TokenKind::BlockMappingStart, mark, mark);
                }
            }
            self.allow_simple_key = self.flow_level == 0;
            self.remove_possible_simple_key()?;
        }
        self.push_indicator(TokenKind::Value);
        Ok(())
    }

    fn fetch_anchor(&mut self, alias: bool) -> Scan<()> {
        self.save_possible_simple_key()?;
        self.allow_simple_key = false;
        let token = self.scan_anchor(alias)?;
        self.tokens.push_back(token);
        Ok(())
    }

    fn fetch_tag(&mut self) -> Scan<()> {
        self.save_possible_simple_key()?;
        self.allow_simple_key = false;
        let token = self.scan_tag()?;
        self.tokens.push_back(token);
        Ok(())
    }

    fn fetch_block_scalar(&mut self, folded: bool) -> Scan<()> {
        self.allow_simple_key = true;
        self.remove_possible_simple_key()?;
        let token = self.scan_block_scalar(folded)?;
        self.tokens.push_back(token);
        Ok(())
    }

    fn fetch_flow_scalar(&mut self, double: bool) -> Scan<()> {
        self.save_possible_simple_key()?;
        self.allow_simple_key = false;
        let token = self.scan_flow_scalar(double)?;
        self.tokens.push_back(token);
        Ok(())
    }

    fn fetch_plain(&mut self) -> Scan<()> {
        self.save_possible_simple_key()?;
        self.allow_simple_key = false;
        let token = self.scan_plain()?;
        self.tokens.push_back(token);
        Ok(())
    }

    fn check_plain(&self) -> bool {
        let c = self.peek(0);
        let indicator = is_blank_or_break(c)
            || matches!(
                c,
                '-' | '?'
                    | ':'
                    | ','
                    | '['
                    | ']'
                    | '{'
                    | '}'
                    | '#'
                    | '&'
                    | '*'
                    | '!'
                    | '|'
                    | '>'
                    | '\''
                    | '"'
                    | '%'
                    | '@'
                    | '`'
            );
        !indicator
            || (!is_blank_or_break(self.peek(1))
                && (c == '-' || (self.flow_level == 0 && matches!(c, '?' | ':'))))
    }

    // -- scanners ------------------------------------------------------------------------------

    fn scan_to_next_token(&mut self) {
        if self.pointer == 0 && self.peek(0) == '\u{feff}' {
            self.forward(1);
        }
        loop {
            while self.peek(0) == ' ' {
                self.forward(1);
            }
            if self.peek(0) == '#' {
                while !is_break_or_end(self.peek(0)) {
                    self.forward(1);
                }
            }
            if self.scan_line_break().is_empty() {
                break;
            }
            if self.flow_level == 0 {
                self.allow_simple_key = true;
            }
        }
    }

    fn directive_error(&self, start: Mark, problem: String) -> MarkedError {
        self.error(
            Some("while scanning a directive"),
            Some(start),
            problem,
            self.mark(),
        )
    }

    fn scan_directive(&mut self) -> Scan<Token> {
        let start = self.mark();
        self.forward(1);
        let name = self.scan_directive_name(start)?;
        let kind = match name.as_str() {
            "YAML" => {
                let (major, minor) = self.scan_yaml_directive_value(start)?;
                TokenKind::YamlDirective(major, minor)
            }
            "TAG" => {
                let (handle, prefix) = self.scan_tag_directive_value(start)?;
                TokenKind::TagDirective(handle, prefix)
            }
            _ => {
                while !is_break_or_end(self.peek(0)) {
                    self.forward(1);
                }
                TokenKind::Directive
            }
        };
        let end = self.mark();
        self.scan_directive_ignored_line(start)?;
        Ok(Token { kind, start, end })
    }

    fn scan_directive_name(&mut self, start: Mark) -> Scan<String> {
        let mut length = 0;
        while is_word(self.peek(length)) {
            length += 1;
        }
        if length == 0 {
            let c = self.peek(length);
            return Err(self.directive_error(
                start,
                format!(
                    "expected alphabetic or numeric character, but found {}",
                    repr(c)
                ),
            ));
        }
        let value = self.prefix(length);
        self.forward(length);
        let c = self.peek(0);
        if !is_space_break_or_end(c) {
            return Err(self.directive_error(
                start,
                format!(
                    "expected alphabetic or numeric character, but found {}",
                    repr(c)
                ),
            ));
        }
        Ok(value)
    }

    fn scan_yaml_directive_value(&mut self, start: Mark) -> Scan<(u64, u64)> {
        while self.peek(0) == ' ' {
            self.forward(1);
        }
        let major = self.scan_yaml_directive_number(start)?;
        if self.peek(0) != '.' {
            return Err(self.directive_error(
                start,
                format!("expected a digit or '.', but found {}", repr(self.peek(0))),
            ));
        }
        self.forward(1);
        let minor = self.scan_yaml_directive_number(start)?;
        if !is_space_break_or_end(self.peek(0)) {
            return Err(self.directive_error(
                start,
                format!("expected a digit or ' ', but found {}", repr(self.peek(0))),
            ));
        }
        Ok((major, minor))
    }

    fn scan_yaml_directive_number(&mut self, start: Mark) -> Scan<u64> {
        let c = self.peek(0);
        if !c.is_ascii_digit() {
            return Err(
                self.directive_error(start, format!("expected a digit, but found {}", repr(c)))
            );
        }
        let mut length = 0;
        while self.peek(length).is_ascii_digit() {
            length += 1;
        }
        // Python's int() has no size limit; a version number past u64 is as wrong as any other.
        let value = self.prefix(length).parse().unwrap_or(u64::MAX);
        self.forward(length);
        Ok(value)
    }

    fn scan_tag_directive_value(&mut self, start: Mark) -> Scan<(String, String)> {
        while self.peek(0) == ' ' {
            self.forward(1);
        }
        let handle = self.scan_tag_handle("directive", start)?;
        if self.peek(0) != ' ' {
            return Err(self.directive_error(
                start,
                format!("expected ' ', but found {}", repr(self.peek(0))),
            ));
        }
        while self.peek(0) == ' ' {
            self.forward(1);
        }
        let prefix = self.scan_tag_uri("directive", start)?;
        if !is_space_break_or_end(self.peek(0)) {
            return Err(self.directive_error(
                start,
                format!("expected ' ', but found {}", repr(self.peek(0))),
            ));
        }
        Ok((handle, prefix))
    }

    fn scan_directive_ignored_line(&mut self, start: Mark) -> Scan<()> {
        while self.peek(0) == ' ' {
            self.forward(1);
        }
        if self.peek(0) == '#' {
            while !is_break_or_end(self.peek(0)) {
                self.forward(1);
            }
        }
        let c = self.peek(0);
        if !is_break_or_end(c) {
            return Err(self.directive_error(
                start,
                format!("expected a comment or a line break, but found {}", repr(c)),
            ));
        }
        self.scan_line_break();
        Ok(())
    }

    fn scan_anchor(&mut self, alias: bool) -> Scan<Token> {
        let start = self.mark();
        let name = if alias { "alias" } else { "anchor" };
        self.forward(1);
        let mut length = 0;
        while is_word(self.peek(length)) {
            length += 1;
        }
        let context = format!("while scanning an {name}");
        if length == 0 {
            let c = self.peek(length);
            return Err(self.error(
                Some(&context),
                Some(start),
                format!(
                    "expected alphabetic or numeric character, but found {}",
                    repr(c)
                ),
                self.mark(),
            ));
        }
        let value = self.prefix(length);
        self.forward(length);
        let c = self.peek(0);
        if !(is_blank_or_break(c) || matches!(c, '?' | ':' | ',' | ']' | '}' | '%' | '@' | '`')) {
            return Err(self.error(
                Some(&context),
                Some(start),
                format!(
                    "expected alphabetic or numeric character, but found {}",
                    repr(c)
                ),
                self.mark(),
            ));
        }
        let end = self.mark();
        let kind = if alias {
            TokenKind::Alias(value)
        } else {
            TokenKind::Anchor(value)
        };
        Ok(Token { kind, start, end })
    }

    fn scan_tag(&mut self) -> Scan<Token> {
        let start = self.mark();
        let mut c = self.peek(1);
        let (handle, suffix) = if c == '<' {
            self.forward(2);
            let suffix = self.scan_tag_uri("tag", start)?;
            if self.peek(0) != '>' {
                return Err(self.error(
                    Some("while parsing a tag"),
                    Some(start),
                    format!("expected '>', but found {}", repr(self.peek(0))),
                    self.mark(),
                ));
            }
            self.forward(1);
            (None, suffix)
        } else if is_blank_or_break(c) {
            self.forward(1);
            (None, "!".to_string())
        } else {
            let mut length = 1;
            let mut use_handle = false;
            while !is_space_break_or_end(c) {
                if c == '!' {
                    use_handle = true;
                    break;
                }
                length += 1;
                c = self.peek(length);
            }
            let handle = if use_handle {
                self.scan_tag_handle("tag", start)?
            } else {
                self.forward(1);
                "!".to_string()
            };
            let suffix = self.scan_tag_uri("tag", start)?;
            (Some(handle), suffix)
        };
        let c = self.peek(0);
        if !is_space_break_or_end(c) {
            return Err(self.error(
                Some("while scanning a tag"),
                Some(start),
                format!("expected ' ', but found {}", repr(c)),
                self.mark(),
            ));
        }
        let end = self.mark();
        Ok(Token {
            kind: TokenKind::Tag(handle, suffix),
            start,
            end,
        })
    }

    fn scan_block_scalar(&mut self, folded: bool) -> Scan<Token> {
        let mut chunks = String::new();
        let start = self.mark();
        self.forward(1);
        let (chomping, increment) = self.scan_block_scalar_indicators(start)?;
        self.scan_block_scalar_ignored_line(start)?;
        let min_indent = (self.indent + 1).max(1) as usize;
        let (mut breaks, indent, mut end) = match increment {
            None => {
                let (breaks, max_indent, end) = self.scan_block_scalar_indentation();
                (breaks, min_indent.max(max_indent), end)
            }
            Some(increment) => {
                let indent = min_indent + increment - 1;
                let (breaks, end) = self.scan_block_scalar_breaks(indent);
                (breaks, indent, end)
            }
        };
        let mut line_break = String::new();
        while self.column == indent && self.peek(0) != '\0' {
            chunks.push_str(&breaks.concat());
            let leading_non_space = !matches!(self.peek(0), ' ' | '\t');
            let mut length = 0;
            while !is_break_or_end(self.peek(length)) {
                length += 1;
            }
            chunks.push_str(&self.prefix(length));
            self.forward(length);
            line_break = self.scan_line_break();
            (breaks, end) = self.scan_block_scalar_breaks(indent);
            if self.column == indent && self.peek(0) != '\0' {
                if folded
                    && line_break == "\n"
                    && leading_non_space
                    && !matches!(self.peek(0), ' ' | '\t')
                {
                    if breaks.is_empty() {
                        chunks.push(' ');
                    }
                } else {
                    chunks.push_str(&line_break);
                }
            } else {
                break;
            }
        }
        if chomping != Some(false) {
            chunks.push_str(&line_break);
        }
        if chomping == Some(true) {
            chunks.push_str(&breaks.concat());
        }
        Ok(Token {
            kind: TokenKind::Scalar {
                value: chunks,
                plain: false,
                style: Some(if folded { '>' } else { '|' }),
            },
            start,
            end,
        })
    }

    fn block_scalar_error(&self, start: Mark, problem: String) -> MarkedError {
        self.error(
            Some("while scanning a block scalar"),
            Some(start),
            problem,
            self.mark(),
        )
    }

    fn scan_block_scalar_indicators(&mut self, start: Mark) -> Scan<(Option<bool>, Option<usize>)> {
        let mut chomping = None;
        let mut increment = None;
        let zero = "expected indentation indicator in the range 1-9, but found 0";
        let mut c = self.peek(0);
        if matches!(c, '+' | '-') {
            chomping = Some(c == '+');
            self.forward(1);
            c = self.peek(0);
            if let Some(digit) = c.to_digit(10) {
                if digit == 0 {
                    return Err(self.block_scalar_error(start, zero.to_string()));
                }
                increment = Some(digit as usize);
                self.forward(1);
            }
        } else if let Some(digit) = c.to_digit(10) {
            if digit == 0 {
                return Err(self.block_scalar_error(start, zero.to_string()));
            }
            increment = Some(digit as usize);
            self.forward(1);
            c = self.peek(0);
            if matches!(c, '+' | '-') {
                chomping = Some(c == '+');
                self.forward(1);
            }
        }
        let c = self.peek(0);
        if !is_space_break_or_end(c) {
            return Err(self.block_scalar_error(
                start,
                format!(
                    "expected chomping or indentation indicators, but found {}",
                    repr(c)
                ),
            ));
        }
        Ok((chomping, increment))
    }

    fn scan_block_scalar_ignored_line(&mut self, start: Mark) -> Scan<()> {
        while self.peek(0) == ' ' {
            self.forward(1);
        }
        if self.peek(0) == '#' {
            while !is_break_or_end(self.peek(0)) {
                self.forward(1);
            }
        }
        let c = self.peek(0);
        if !is_break_or_end(c) {
            return Err(self.block_scalar_error(
                start,
                format!("expected a comment or a line break, but found {}", repr(c)),
            ));
        }
        self.scan_line_break();
        Ok(())
    }

    fn scan_block_scalar_indentation(&mut self) -> (Vec<String>, usize, Mark) {
        let mut chunks = Vec::new();
        let mut max_indent = 0;
        let mut end = self.mark();
        while self.peek(0) == ' ' || is_break(self.peek(0)) {
            if self.peek(0) != ' ' {
                chunks.push(self.scan_line_break());
                end = self.mark();
            } else {
                self.forward(1);
                max_indent = max_indent.max(self.column);
            }
        }
        (chunks, max_indent, end)
    }

    fn scan_block_scalar_breaks(&mut self, indent: usize) -> (Vec<String>, Mark) {
        let mut chunks = Vec::new();
        let mut end = self.mark();
        while self.column < indent && self.peek(0) == ' ' {
            self.forward(1);
        }
        while is_break(self.peek(0)) {
            chunks.push(self.scan_line_break());
            end = self.mark();
            while self.column < indent && self.peek(0) == ' ' {
                self.forward(1);
            }
        }
        (chunks, end)
    }

    fn scan_flow_scalar(&mut self, double: bool) -> Scan<Token> {
        let mut chunks = String::new();
        let start = self.mark();
        let quote = self.peek(0);
        self.forward(1);
        self.scan_flow_scalar_non_spaces(double, start, &mut chunks)?;
        while self.peek(0) != quote {
            self.scan_flow_scalar_spaces(double, start, &mut chunks)?;
            self.scan_flow_scalar_non_spaces(double, start, &mut chunks)?;
        }
        self.forward(1);
        let end = self.mark();
        Ok(Token {
            kind: TokenKind::Scalar {
                value: chunks,
                plain: false,
                style: Some(if double { '"' } else { '\'' }),
            },
            start,
            end,
        })
    }

    fn scan_flow_scalar_non_spaces(
        &mut self,
        double: bool,
        start: Mark,
        chunks: &mut String,
    ) -> Scan<()> {
        let context = Some("while scanning a double-quoted scalar");
        loop {
            let mut length = 0;
            while !(matches!(self.peek(length), '\'' | '"' | '\\' | '\t')
                || is_blank_or_break(self.peek(length)))
            {
                length += 1;
            }
            if length > 0 {
                chunks.push_str(&self.prefix(length));
                self.forward(length);
            }
            let c = self.peek(0);
            if !double && c == '\'' && self.peek(1) == '\'' {
                chunks.push('\'');
                self.forward(2);
            } else if (double && c == '\'') || (!double && matches!(c, '"' | '\\')) {
                chunks.push(c);
                self.forward(1);
            } else if double && c == '\\' {
                self.forward(1);
                let c = self.peek(0);
                if let Some(replacement) = escape_replacement(c) {
                    chunks.push(replacement);
                    self.forward(1);
                } else if let Some(length) = escape_code_length(c) {
                    self.forward(1);
                    for k in 0..length {
                        if !self.peek(k).is_ascii_hexdigit() {
                            return Err(self.error(
                                context,
                                Some(start),
                                format!(
                                    "expected escape sequence of {length} hexadecimal numbers, but found {}",
                                    repr(self.peek(k))
                                ),
                                self.mark(),
                            ));
                        }
                    }
                    let code = u32::from_str_radix(&self.prefix(length), 16).unwrap_or(0);
                    if (0xD800..0xDC00).contains(&code) && self.low_surrogate_follows(length) {
                        // Python keeps the two halves as two lone surrogates; a Rust string cannot hold
                        // them, so the pair becomes the character it encodes (a listed deviation).
                        let low = u32::from_str_radix(
                            &self
                                .source
                                .slice(self.pointer + length + 2, self.pointer + length + 6),
                            16,
                        )
                        .unwrap_or(0xDC00);
                        let combined = 0x10000 + ((code - 0xD800) << 10) + (low - 0xDC00);
                        chunks.push(char::from_u32(combined).unwrap_or('\u{fffd}'));
                        self.forward(length + 6);
                        continue;
                    }
                    match char::from_u32(code) {
                        Some(character) => chunks.push(character),
                        // A lone surrogate (kept as such by Python) cannot be held either: U+FFFD
                        // stands in for it.
                        None if (0xD800..0xE000).contains(&code) => chunks.push('\u{fffd}'),
                        None => {
                            // Python's chr() refuses past U+10FFFF with a ValueError.
                            return Err(self.crash("chr() arg not in range(0x110000)".to_string()));
                        }
                    }
                    self.forward(length);
                } else if is_break(c) {
                    self.scan_line_break();
                    self.scan_flow_scalar_breaks(start, chunks)?;
                } else {
                    return Err(self.error(
                        context,
                        Some(start),
                        format!("found unknown escape character {}", repr(c)),
                        self.mark(),
                    ));
                }
            } else {
                return Ok(());
            }
        }
    }

    fn scan_flow_scalar_spaces(
        &mut self,
        _double: bool,
        start: Mark,
        chunks: &mut String,
    ) -> Scan<()> {
        let mut length = 0;
        while matches!(self.peek(length), ' ' | '\t') {
            length += 1;
        }
        let whitespaces = self.prefix(length);
        self.forward(length);
        let c = self.peek(0);
        if c == '\0' {
            return Err(self.error(
                Some("while scanning a quoted scalar"),
                Some(start),
                "found unexpected end of stream".to_string(),
                self.mark(),
            ));
        } else if is_break(c) {
            let line_break = self.scan_line_break();
            let mut breaks = String::new();
            let found = self.scan_flow_scalar_breaks(start, &mut breaks)?;
            if line_break != "\n" {
                chunks.push_str(&line_break);
            } else if found == 0 {
                chunks.push(' ');
            }
            chunks.push_str(&breaks);
        } else {
            chunks.push_str(&whitespaces);
        }
        Ok(())
    }

    /// Appends the line breaks of a quoted scalar's continuation; returns how many there were.
    fn scan_flow_scalar_breaks(&mut self, start: Mark, chunks: &mut String) -> Scan<usize> {
        let mut count = 0;
        loop {
            let prefix = self.prefix(3);
            if (prefix == "---" || prefix == "...") && is_blank_or_break(self.peek(3)) {
                return Err(self.error(
                    Some("while scanning a quoted scalar"),
                    Some(start),
                    "found unexpected document separator".to_string(),
                    self.mark(),
                ));
            }
            while matches!(self.peek(0), ' ' | '\t') {
                self.forward(1);
            }
            if is_break(self.peek(0)) {
                chunks.push_str(&self.scan_line_break());
                count += 1;
            } else {
                return Ok(count);
            }
        }
    }

    fn scan_plain(&mut self) -> Scan<Token> {
        let mut chunks = String::new();
        let start = self.mark();
        let mut end = start;
        let indent = self.indent + 1;
        let mut spaces: Option<String> = Some(String::new());
        loop {
            let mut length = 0;
            if self.peek(0) == '#' {
                break;
            }
            loop {
                let c = self.peek(length);
                let next = self.peek(length + 1);
                if is_blank_or_break(c)
                    || (c == ':'
                        && (is_blank_or_break(next)
                            || (self.flow_level != 0
                                && matches!(next, ',' | '[' | ']' | '{' | '}'))))
                    || (self.flow_level != 0 && matches!(c, ',' | '?' | '[' | ']' | '{' | '}'))
                {
                    break;
                }
                length += 1;
            }
            if length == 0 {
                break;
            }
            self.allow_simple_key = false;
            if let Some(spaces) = &spaces {
                chunks.push_str(spaces);
            }
            chunks.push_str(&self.prefix(length));
            self.forward(length);
            end = self.mark();
            spaces = self.scan_plain_spaces();
            match &spaces {
                None => break,
                Some(text) if text.is_empty() => break,
                Some(_) => {}
            }
            if self.peek(0) == '#' || (self.flow_level == 0 && (self.column as isize) < indent) {
                break;
            }
        }
        Ok(Token {
            kind: TokenKind::Scalar {
                value: chunks,
                plain: true,
                style: None,
            },
            start,
            end,
        })
    }

    /// `scan_plain_spaces`: `None` where PyYAML returns `None` (a document marker follows), else the
    /// chunks joined (empty when PyYAML's list is empty).
    fn scan_plain_spaces(&mut self) -> Option<String> {
        let mut chunks = String::new();
        let mut length = 0;
        while self.peek(length) == ' ' {
            length += 1;
        }
        let whitespaces = self.prefix(length);
        self.forward(length);
        let c = self.peek(0);
        let at_document_marker = |scanner: &Self| {
            let prefix = scanner.prefix(3);
            (prefix == "---" || prefix == "...") && is_blank_or_break(scanner.peek(3))
        };
        if is_break(c) {
            let line_break = self.scan_line_break();
            self.allow_simple_key = true;
            if at_document_marker(self) {
                return None;
            }
            let mut breaks = Vec::new();
            while self.peek(0) == ' ' || is_break(self.peek(0)) {
                if self.peek(0) == ' ' {
                    self.forward(1);
                } else {
                    breaks.push(self.scan_line_break());
                    if at_document_marker(self) {
                        return None;
                    }
                }
            }
            if line_break != "\n" {
                chunks.push_str(&line_break);
            } else if breaks.is_empty() {
                chunks.push(' ');
            }
            chunks.push_str(&breaks.concat());
        } else if !whitespaces.is_empty() {
            chunks.push_str(&whitespaces);
        }
        Some(chunks)
    }

    fn scan_tag_handle(&mut self, name: &str, start: Mark) -> Scan<String> {
        let context = format!("while scanning a {name}");
        let c = self.peek(0);
        if c != '!' {
            return Err(self.error(
                Some(&context),
                Some(start),
                format!("expected '!', but found {}", repr(c)),
                self.mark(),
            ));
        }
        let mut length = 1;
        let mut c = self.peek(length);
        if c != ' ' {
            while is_word(c) {
                length += 1;
                c = self.peek(length);
            }
            if c != '!' {
                self.forward(length);
                return Err(self.error(
                    Some(&context),
                    Some(start),
                    format!("expected '!', but found {}", repr(c)),
                    self.mark(),
                ));
            }
            length += 1;
        }
        let value = self.prefix(length);
        self.forward(length);
        Ok(value)
    }

    fn scan_tag_uri(&mut self, name: &str, start: Mark) -> Scan<String> {
        let mut chunks = String::new();
        let mut length = 0;
        let mut c = self.peek(length);
        while c.is_ascii_alphanumeric() || "-;/?:@&=+$,_.!~*'()[]%".contains(c) {
            if c == '%' {
                chunks.push_str(&self.prefix(length));
                self.forward(length);
                length = 0;
                chunks.push_str(&self.scan_uri_escapes(name, start)?);
            } else {
                length += 1;
            }
            c = self.peek(length);
        }
        if length > 0 {
            chunks.push_str(&self.prefix(length));
            self.forward(length);
        }
        if chunks.is_empty() {
            return Err(self.error(
                Some(&format!("while parsing a {name}")),
                Some(start),
                format!("expected URI, but found {}", repr(c)),
                self.mark(),
            ));
        }
        Ok(chunks)
    }

    fn scan_uri_escapes(&mut self, name: &str, start: Mark) -> Scan<String> {
        let context = format!("while scanning a {name}");
        let mut codes = Vec::new();
        let mark = self.mark();
        while self.peek(0) == '%' {
            self.forward(1);
            for k in 0..2 {
                if !self.peek(k).is_ascii_hexdigit() {
                    return Err(self.error(
                        Some(&context),
                        Some(start),
                        format!(
                            "expected URI escape sequence of 2 hexadecimal numbers, but found {}",
                            repr(self.peek(k))
                        ),
                        self.mark(),
                    ));
                }
            }
            codes.push(u8::from_str_radix(&self.prefix(2), 16).unwrap_or(0));
            self.forward(2);
        }
        match String::from_utf8(codes.clone()) {
            Ok(value) => Ok(value),
            Err(error) => {
                let utf8 = error.utf8_error();
                Err(self.error(
                    Some(&context),
                    Some(start),
                    python::utf8_error(&codes, &utf8),
                    mark,
                ))
            }
        }
    }

    fn scan_line_break(&mut self) -> String {
        let c = self.peek(0);
        match c {
            '\r' | '\n' | '\u{85}' => {
                if self.prefix(2) == "\r\n" {
                    self.forward(2);
                } else {
                    self.forward(1);
                }
                "\n".to_string()
            }
            '\u{2028}' | '\u{2029}' => {
                self.forward(1);
                c.to_string()
            }
            _ => String::new(),
        }
    }
}

fn escape_replacement(c: char) -> Option<char> {
    Some(match c {
        '0' => '\0',
        'a' => '\x07',
        'b' => '\x08',
        't' | '\t' => '\t',
        'n' => '\n',
        'v' => '\x0b',
        'f' => '\x0c',
        'r' => '\r',
        'e' => '\x1b',
        ' ' => ' ',
        '"' => '"',
        '\\' => '\\',
        '/' => '/',
        'N' => '\u{85}',
        '_' => '\u{a0}',
        'L' => '\u{2028}',
        'P' => '\u{2029}',
        _ => return None,
    })
}

fn escape_code_length(c: char) -> Option<usize> {
    match c {
        'x' => Some(2),
        'u' => Some(4),
        'U' => Some(8),
        _ => None,
    }
}
