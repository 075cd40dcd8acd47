//! PyYAML's `Parser` and `Composer` (`yaml/parser.py`, `yaml/composer.py`), ported state by state:
//! the same events in the same order, the same errors, and a node graph in which an alias is the very
//! node its anchor names (PyYAML's composer returns the anchored node object itself).

use std::collections::HashMap;

use super::scanner::{Scanner, Token, TokenKind};
use super::{Mark, MarkedError, Source};
use crate::python;

type Parse<T> = Result<T, MarkedError>;

#[derive(Debug, Clone)]
enum EventKind {
    StreamStart,
    StreamEnd,
    DocumentStart,
    DocumentEnd,
    Alias(String),
    Scalar {
        anchor: Option<String>,
        tag: Option<String>,
        /// `implicit[0]`: the tag is to be resolved from the value.
        plain_implicit: bool,
        value: String,
    },
    SequenceStart {
        anchor: Option<String>,
        tag: Option<String>,
    },
    SequenceEnd,
    MappingStart {
        anchor: Option<String>,
        tag: Option<String>,
    },
    MappingEnd,
}

#[derive(Debug, Clone)]
struct Event {
    kind: EventKind,
    start: Mark,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum State {
    StreamStart,
    ImplicitDocumentStart,
    DocumentStart,
    DocumentEnd,
    DocumentContent,
    BlockNode,
    BlockSequenceFirstEntry,
    BlockSequenceEntry,
    IndentlessSequenceEntry,
    BlockMappingFirstKey,
    BlockMappingKey,
    BlockMappingValue,
    FlowSequenceFirstEntry,
    FlowSequenceEntry,
    FlowSequenceEntryMappingKey,
    FlowSequenceEntryMappingValue,
    FlowSequenceEntryMappingEnd,
    FlowMappingFirstKey,
    FlowMappingKey,
    FlowMappingValue,
    FlowMappingEmptyValue,
}

struct Parser<'a> {
    scanner: Scanner<'a>,
    source: &'a Source,
    current: Option<Event>,
    tag_handles: Vec<(String, String)>,
    states: Vec<State>,
    marks: Vec<Mark>,
    state: Option<State>,
}

fn default_tags() -> Vec<(String, String)> {
    vec![
        ("!".to_string(), "!".to_string()),
        ("!!".to_string(), "tag:yaml.org,2002:".to_string()),
    ]
}

impl<'a> Parser<'a> {
    fn new(source: &'a Source) -> Self {
        Self {
            scanner: Scanner::new(source),
            source,
            current: None,
            tag_handles: Vec::new(),
            states: Vec::new(),
            marks: Vec::new(),
            state: Some(State::StreamStart),
        }
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

    fn peek_event(&mut self) -> Parse<Option<&Event>> {
        if self.current.is_none() {
            if let Some(state) = self.state {
                self.current = Some(self.run(state)?);
            }
        }
        Ok(self.current.as_ref())
    }

    fn get_event(&mut self) -> Parse<Option<Event>> {
        self.peek_event()?;
        Ok(self.current.take())
    }

    // -- tokens --------------------------------------------------------------------------------

    /// The next token's kind; the stream always ends with `<stream end>`, past which the parser never
    /// asks.
    fn peek_kind(&mut self) -> Parse<TokenKind> {
        Ok(self
            .scanner
            .peek_token()?
            .map_or(TokenKind::StreamEnd, |token| token.kind.clone()))
    }

    fn peek_token(&mut self) -> Parse<Token> {
        let fallback = Token {
            kind: TokenKind::StreamEnd,
            start: Mark::default(),
            end: Mark::default(),
        };
        Ok(self.scanner.peek_token()?.cloned().unwrap_or(fallback))
    }

    fn get_token(&mut self) -> Parse<Token> {
        let fallback = Token {
            kind: TokenKind::StreamEnd,
            start: Mark::default(),
            end: Mark::default(),
        };
        Ok(self.scanner.get_token()?.unwrap_or(fallback))
    }

    fn check(&mut self, accept: impl Fn(&TokenKind) -> bool) -> Parse<bool> {
        Ok(accept(&self.peek_kind()?))
    }

    fn pop_state(&mut self) -> Option<State> {
        self.states.pop()
    }

    // -- states --------------------------------------------------------------------------------

    fn run(&mut self, state: State) -> Parse<Event> {
        match state {
            State::StreamStart => self.parse_stream_start(),
            State::ImplicitDocumentStart => self.parse_implicit_document_start(),
            State::DocumentStart => self.parse_document_start(),
            State::DocumentEnd => self.parse_document_end(),
            State::DocumentContent => self.parse_document_content(),
            State::BlockNode => self.parse_node(true, false),
            State::BlockSequenceFirstEntry => {
                let token = self.get_token()?;
                self.marks.push(token.start);
                self.parse_block_sequence_entry()
            }
            State::BlockSequenceEntry => self.parse_block_sequence_entry(),
            State::IndentlessSequenceEntry => self.parse_indentless_sequence_entry(),
            State::BlockMappingFirstKey => {
                let token = self.get_token()?;
                self.marks.push(token.start);
                self.parse_block_mapping_key()
            }
            State::BlockMappingKey => self.parse_block_mapping_key(),
            State::BlockMappingValue => self.parse_block_mapping_value(),
            State::FlowSequenceFirstEntry => {
                let token = self.get_token()?;
                self.marks.push(token.start);
                self.parse_flow_sequence_entry(true)
            }
            State::FlowSequenceEntry => self.parse_flow_sequence_entry(false),
            State::FlowSequenceEntryMappingKey => self.parse_flow_sequence_entry_mapping_key(),
            State::FlowSequenceEntryMappingValue => self.parse_flow_sequence_entry_mapping_value(),
            State::FlowSequenceEntryMappingEnd => {
                self.state = Some(State::FlowSequenceEntry);
                let token = self.peek_token()?;
                Ok(Event {
                    kind: EventKind::MappingEnd,
                    start: token.start,
                })
            }
            State::FlowMappingFirstKey => {
                let token = self.get_token()?;
                self.marks.push(token.start);
                self.parse_flow_mapping_key(true)
            }
            State::FlowMappingKey => self.parse_flow_mapping_key(false),
            State::FlowMappingValue => self.parse_flow_mapping_value(),
            State::FlowMappingEmptyValue => {
                self.state = Some(State::FlowMappingKey);
                let token = self.peek_token()?;
                Ok(empty_scalar(token.start))
            }
        }
    }

    fn parse_stream_start(&mut self) -> Parse<Event> {
        let token = self.get_token()?;
        self.state = Some(State::ImplicitDocumentStart);
        Ok(Event {
            kind: EventKind::StreamStart,
            start: token.start,
        })
    }

    fn parse_implicit_document_start(&mut self) -> Parse<Event> {
        let explicit = self.check(|kind| {
            matches!(
                kind,
                TokenKind::Directive
                    | TokenKind::YamlDirective(..)
                    | TokenKind::TagDirective(..)
                    | TokenKind::DocumentStart
                    | TokenKind::StreamEnd
            )
        })?;
        if explicit {
            return self.parse_document_start();
        }
        self.tag_handles = default_tags();
        let token = self.peek_token()?;
        self.states.push(State::DocumentEnd);
        self.state = Some(State::BlockNode);
        Ok(Event {
            kind: EventKind::DocumentStart,
            start: token.start,
        })
    }

    fn parse_document_start(&mut self) -> Parse<Event> {
        while self.check(|kind| matches!(kind, TokenKind::DocumentEnd))? {
            self.get_token()?;
        }
        if self.check(|kind| matches!(kind, TokenKind::StreamEnd))? {
            let token = self.get_token()?;
            self.state = None;
            return Ok(Event {
                kind: EventKind::StreamEnd,
                start: token.start,
            });
        }
        let start = self.peek_token()?.start;
        self.process_directives()?;
        let token = self.peek_token()?;
        if !matches!(token.kind, TokenKind::DocumentStart) {
            return Err(self.error(
                None,
                None,
                format!(
                    "expected '<document start>', but found {}",
                    python::repr(token.kind.id())
                ),
                token.start,
            ));
        }
        self.get_token()?;
        self.states.push(State::DocumentEnd);
        self.state = Some(State::DocumentContent);
        Ok(Event {
            kind: EventKind::DocumentStart,
            start,
        })
    }

    fn parse_document_end(&mut self) -> Parse<Event> {
        let token = self.peek_token()?;
        if matches!(token.kind, TokenKind::DocumentEnd) {
            self.get_token()?;
        }
        self.state = Some(State::DocumentStart);
        Ok(Event {
            kind: EventKind::DocumentEnd,
            start: token.start,
        })
    }

    fn parse_document_content(&mut self) -> Parse<Event> {
        let empty = self.check(|kind| {
            matches!(
                kind,
                TokenKind::Directive
                    | TokenKind::YamlDirective(..)
                    | TokenKind::TagDirective(..)
                    | TokenKind::DocumentStart
                    | TokenKind::DocumentEnd
                    | TokenKind::StreamEnd
            )
        })?;
        if empty {
            let token = self.peek_token()?;
            self.state = self.pop_state();
            return Ok(empty_scalar(token.start));
        }
        self.parse_node(true, false)
    }

    fn process_directives(&mut self) -> Parse<()> {
        let mut yaml_version = false;
        self.tag_handles = Vec::new();
        loop {
            let token = self.peek_token()?;
            match &token.kind {
                TokenKind::YamlDirective(major, _) => {
                    self.get_token()?;
                    if yaml_version {
                        return Err(self.error(
                            None,
                            None,
                            "found duplicate YAML directive".to_string(),
                            token.start,
                        ));
                    }
                    if *major != 1 {
                        return Err(self.error(
                            None,
                            None,
                            "found incompatible YAML document (version 1.* is required)"
                                .to_string(),
                            token.start,
                        ));
                    }
                    yaml_version = true;
                }
                TokenKind::TagDirective(handle, prefix) => {
                    self.get_token()?;
                    if self.tag_handles.iter().any(|(known, _)| known == handle) {
                        return Err(self.error(
                            None,
                            None,
                            format!("duplicate tag handle {}", python::repr(handle)),
                            token.start,
                        ));
                    }
                    self.tag_handles.push((handle.clone(), prefix.clone()));
                }
                TokenKind::Directive => {
                    self.get_token()?;
                }
                _ => break,
            }
        }
        for (handle, prefix) in default_tags() {
            if !self.tag_handles.iter().any(|(known, _)| *known == handle) {
                self.tag_handles.push((handle, prefix));
            }
        }
        Ok(())
    }

    fn parse_node(&mut self, block: bool, indentless_sequence: bool) -> Parse<Event> {
        let token = self.peek_token()?;
        if let TokenKind::Alias(anchor) = &token.kind {
            self.get_token()?;
            self.state = self.pop_state();
            return Ok(Event {
                kind: EventKind::Alias(anchor.clone()),
                start: token.start,
            });
        }
        let mut anchor = None;
        let mut tag = None;
        let mut start = None;
        let mut tag_mark = None;
        match &token.kind {
            TokenKind::Anchor(name) => {
                self.get_token()?;
                start = Some(token.start);
                anchor = Some(name.clone());
                let next = self.peek_token()?;
                if let TokenKind::Tag(handle, suffix) = &next.kind {
                    self.get_token()?;
                    tag_mark = Some(next.start);
                    tag = Some((handle.clone(), suffix.clone()));
                }
            }
            TokenKind::Tag(handle, suffix) => {
                self.get_token()?;
                start = Some(token.start);
                tag_mark = Some(token.start);
                tag = Some((handle.clone(), suffix.clone()));
                let next = self.peek_token()?;
                if let TokenKind::Anchor(name) = &next.kind {
                    self.get_token()?;
                    anchor = Some(name.clone());
                }
            }
            _ => {}
        }
        let tag = match tag {
            None => None,
            Some((None, suffix)) => Some(suffix),
            Some((Some(handle), suffix)) => {
                match self.tag_handles.iter().find(|(known, _)| *known == handle) {
                    Some((_, prefix)) => Some(format!("{prefix}{suffix}")),
                    None => {
                        return Err(self.error(
                            Some("while parsing a node"),
                            start,
                            format!("found undefined tag handle {}", python::repr(&handle)),
                            tag_mark.unwrap_or_default(),
                        ))
                    }
                }
            }
        };
        let token = self.peek_token()?;
        let start = start.unwrap_or(token.start);
        let implicit = tag.is_none() || tag.as_deref() == Some("!");
        if indentless_sequence && matches!(token.kind, TokenKind::BlockEntry) {
            self.state = Some(State::IndentlessSequenceEntry);
            return Ok(Event {
                kind: EventKind::SequenceStart { anchor, tag },
                start,
            });
        }
        match &token.kind {
            TokenKind::Scalar { value, plain, .. } => {
                self.get_token()?;
                let plain_implicit = (*plain && tag.is_none()) || tag.as_deref() == Some("!");
                self.state = self.pop_state();
                Ok(Event {
                    kind: EventKind::Scalar {
                        anchor,
                        tag,
                        plain_implicit,
                        value: value.clone(),
                    },
                    start,
                })
            }
            TokenKind::FlowSequenceStart => {
                self.state = Some(State::FlowSequenceFirstEntry);
                Ok(Event {
                    kind: EventKind::SequenceStart { anchor, tag },
                    start,
                })
            }
            TokenKind::FlowMappingStart => {
                self.state = Some(State::FlowMappingFirstKey);
                Ok(Event {
                    kind: EventKind::MappingStart { anchor, tag },
                    start,
                })
            }
            TokenKind::BlockSequenceStart if block => {
                self.state = Some(State::BlockSequenceFirstEntry);
                Ok(Event {
                    kind: EventKind::SequenceStart { anchor, tag },
                    start,
                })
            }
            TokenKind::BlockMappingStart if block => {
                self.state = Some(State::BlockMappingFirstKey);
                Ok(Event {
                    kind: EventKind::MappingStart { anchor, tag },
                    start,
                })
            }
            _ if anchor.is_some() || tag.is_some() => {
                self.state = self.pop_state();
                Ok(Event {
                    kind: EventKind::Scalar {
                        anchor,
                        tag,
                        plain_implicit: implicit,
                        value: String::new(),
                    },
                    start,
                })
            }
            _ => {
                let node = if block { "block" } else { "flow" };
                Err(self.error(
                    Some(&format!("while parsing a {node} node")),
                    Some(start),
                    format!(
                        "expected the node content, but found {}",
                        python::repr(token.kind.id())
                    ),
                    token.start,
                ))
            }
        }
    }

    fn collection_error(&self, context: &str, expected: &str, token: &Token) -> MarkedError {
        self.error(
            Some(context),
            self.marks.last().copied(),
            format!("{expected}{}", python::repr(token.kind.id())),
            token.start,
        )
    }

    fn end_collection(&mut self, kind: EventKind) -> Parse<Event> {
        let token = self.get_token()?;
        self.state = self.pop_state();
        self.marks.pop();
        Ok(Event {
            kind,
            start: token.start,
        })
    }

    fn parse_block_sequence_entry(&mut self) -> Parse<Event> {
        let token = self.peek_token()?;
        if matches!(token.kind, TokenKind::BlockEntry) {
            let token = self.get_token()?;
            if !self.check(|kind| matches!(kind, TokenKind::BlockEntry | TokenKind::BlockEnd))? {
                self.states.push(State::BlockSequenceEntry);
                return self.parse_node(true, false);
            }
            self.state = Some(State::BlockSequenceEntry);
            return Ok(empty_scalar(token.end));
        }
        if !matches!(token.kind, TokenKind::BlockEnd) {
            return Err(self.collection_error(
                "while parsing a block collection",
                "expected <block end>, but found ",
                &token,
            ));
        }
        self.end_collection(EventKind::SequenceEnd)
    }

    fn parse_indentless_sequence_entry(&mut self) -> Parse<Event> {
        let token = self.peek_token()?;
        if matches!(token.kind, TokenKind::BlockEntry) {
            let token = self.get_token()?;
            let empty = self.check(|kind| {
                matches!(
                    kind,
                    TokenKind::BlockEntry | TokenKind::Key | TokenKind::Value | TokenKind::BlockEnd
                )
            })?;
            if !empty {
                self.states.push(State::IndentlessSequenceEntry);
                return self.parse_node(true, false);
            }
            self.state = Some(State::IndentlessSequenceEntry);
            return Ok(empty_scalar(token.end));
        }
        self.state = self.pop_state();
        Ok(Event {
            kind: EventKind::SequenceEnd,
            start: token.start,
        })
    }

    fn parse_block_mapping_key(&mut self) -> Parse<Event> {
        let token = self.peek_token()?;
        if matches!(token.kind, TokenKind::Key) {
            let token = self.get_token()?;
            let empty = self.check(|kind| {
                matches!(
                    kind,
                    TokenKind::Key | TokenKind::Value | TokenKind::BlockEnd
                )
            })?;
            if !empty {
                self.states.push(State::BlockMappingValue);
                return self.parse_node(true, true);
            }
            self.state = Some(State::BlockMappingValue);
            return Ok(empty_scalar(token.end));
        }
        if !matches!(token.kind, TokenKind::BlockEnd) {
            return Err(self.collection_error(
                "while parsing a block mapping",
                "expected <block end>, but found ",
                &token,
            ));
        }
        self.end_collection(EventKind::MappingEnd)
    }

    fn parse_block_mapping_value(&mut self) -> Parse<Event> {
        let token = self.peek_token()?;
        if matches!(token.kind, TokenKind::Value) {
            let token = self.get_token()?;
            let empty = self.check(|kind| {
                matches!(
                    kind,
                    TokenKind::Key | TokenKind::Value | TokenKind::BlockEnd
                )
            })?;
            if !empty {
                self.states.push(State::BlockMappingKey);
                return self.parse_node(true, true);
            }
            self.state = Some(State::BlockMappingKey);
            return Ok(empty_scalar(token.end));
        }
        self.state = Some(State::BlockMappingKey);
        Ok(empty_scalar(token.start))
    }

    fn parse_flow_sequence_entry(&mut self, first: bool) -> Parse<Event> {
        if !self.check(|kind| matches!(kind, TokenKind::FlowSequenceEnd))? {
            if !first {
                let token = self.peek_token()?;
                if matches!(token.kind, TokenKind::FlowEntry) {
                    self.get_token()?;
                } else {
                    return Err(self.collection_error(
                        "while parsing a flow sequence",
                        "expected ',' or ']', but got ",
                        &token,
                    ));
                }
            }
            let token = self.peek_token()?;
            if matches!(token.kind, TokenKind::Key) {
                self.state = Some(State::FlowSequenceEntryMappingKey);
                return Ok(Event {
                    kind: EventKind::MappingStart {
                        anchor: None,
                        tag: None,
                    },
                    start: token.start,
                });
            } else if !matches!(token.kind, TokenKind::FlowSequenceEnd) {
                self.states.push(State::FlowSequenceEntry);
                return self.parse_node(false, false);
            }
        }
        self.end_collection(EventKind::SequenceEnd)
    }

    fn parse_flow_sequence_entry_mapping_key(&mut self) -> Parse<Event> {
        let token = self.get_token()?;
        let empty = self.check(|kind| {
            matches!(
                kind,
                TokenKind::Value | TokenKind::FlowEntry | TokenKind::FlowSequenceEnd
            )
        })?;
        if !empty {
            self.states.push(State::FlowSequenceEntryMappingValue);
            return self.parse_node(false, false);
        }
        self.state = Some(State::FlowSequenceEntryMappingValue);
        Ok(empty_scalar(token.end))
    }

    fn parse_flow_sequence_entry_mapping_value(&mut self) -> Parse<Event> {
        let token = self.peek_token()?;
        if matches!(token.kind, TokenKind::Value) {
            let token = self.get_token()?;
            let empty = self
                .check(|kind| matches!(kind, TokenKind::FlowEntry | TokenKind::FlowSequenceEnd))?;
            if !empty {
                self.states.push(State::FlowSequenceEntryMappingEnd);
                return self.parse_node(false, false);
            }
            self.state = Some(State::FlowSequenceEntryMappingEnd);
            return Ok(empty_scalar(token.end));
        }
        self.state = Some(State::FlowSequenceEntryMappingEnd);
        Ok(empty_scalar(token.start))
    }

    fn parse_flow_mapping_key(&mut self, first: bool) -> Parse<Event> {
        if !self.check(|kind| matches!(kind, TokenKind::FlowMappingEnd))? {
            if !first {
                let token = self.peek_token()?;
                if matches!(token.kind, TokenKind::FlowEntry) {
                    self.get_token()?;
                } else {
                    return Err(self.collection_error(
                        "while parsing a flow mapping",
                        "expected ',' or '}', but got ",
                        &token,
                    ));
                }
            }
            let token = self.peek_token()?;
            if matches!(token.kind, TokenKind::Key) {
                let token = self.get_token()?;
                let empty = self.check(|kind| {
                    matches!(
                        kind,
                        TokenKind::Value | TokenKind::FlowEntry | TokenKind::FlowMappingEnd
                    )
                })?;
                if !empty {
                    self.states.push(State::FlowMappingValue);
                    return self.parse_node(false, false);
                }
                self.state = Some(State::FlowMappingValue);
                return Ok(empty_scalar(token.end));
            } else if !matches!(token.kind, TokenKind::FlowMappingEnd) {
                self.states.push(State::FlowMappingEmptyValue);
                return self.parse_node(false, false);
            }
        }
        self.end_collection(EventKind::MappingEnd)
    }

    fn parse_flow_mapping_value(&mut self) -> Parse<Event> {
        let token = self.peek_token()?;
        if matches!(token.kind, TokenKind::Value) {
            let token = self.get_token()?;
            let empty = self
                .check(|kind| matches!(kind, TokenKind::FlowEntry | TokenKind::FlowMappingEnd))?;
            if !empty {
                self.states.push(State::FlowMappingKey);
                return self.parse_node(false, false);
            }
            self.state = Some(State::FlowMappingKey);
            return Ok(empty_scalar(token.end));
        }
        self.state = Some(State::FlowMappingKey);
        Ok(empty_scalar(token.start))
    }
}

fn empty_scalar(mark: Mark) -> Event {
    Event {
        kind: EventKind::Scalar {
            anchor: None,
            tag: None,
            plain_implicit: true,
            value: String::new(),
        },
        start: mark,
    }
}

// -- composer ----------------------------------------------------------------------------------

pub(super) type NodeId = usize;

#[derive(Debug, Clone)]
pub(super) enum NodeValue {
    Scalar(String),
    Sequence(Vec<NodeId>),
    Mapping(Vec<(NodeId, NodeId)>),
}

#[derive(Debug, Clone)]
pub(super) struct Node {
    /// The resolved tag, as `compose_*_node` sets it.
    pub tag: String,
    pub value: NodeValue,
    pub start: Mark,
}

impl Node {
    /// `node.id` in PyYAML's messages.
    pub(super) fn id(&self) -> &'static str {
        match self.value {
            NodeValue::Scalar(_) => "scalar",
            NodeValue::Sequence(_) => "sequence",
            NodeValue::Mapping(_) => "mapping",
        }
    }
}

/// The composed document: nodes in an arena, the root's id (`None` for an empty stream).
pub(super) struct Graph {
    pub nodes: Vec<Node>,
    pub root: Option<NodeId>,
}

/// Most nodes composed before giving up: PyYAML has no limit, but every real frontmatter is far below
/// this, and a hostile one must not exhaust memory here.
pub(super) const MAX_NODES: usize = 200_000;
/// Deepest nesting composed (PyYAML's recursive composer stops at Python's recursion limit, about
/// 1000 frames, with a `RecursionError` that is not a YAML error).
pub(super) const MAX_DEPTH: usize = 400;

struct Composer<'a> {
    parser: Parser<'a>,
    anchors: HashMap<String, NodeId>,
    nodes: Vec<Node>,
}

/// `yaml.safe_load`'s `get_single_node()`.
pub(super) fn compose(source: &Source) -> Parse<Graph> {
    let mut composer = Composer {
        parser: Parser::new(source),
        anchors: HashMap::new(),
        nodes: Vec::new(),
    };
    composer.get_single_node()
}

impl<'a> Composer<'a> {
    fn next_is(&mut self, accept: impl Fn(&EventKind) -> bool) -> Parse<bool> {
        Ok(self
            .parser
            .peek_event()?
            .is_some_and(|event| accept(&event.kind)))
    }

    fn get_single_node(&mut self) -> Parse<Graph> {
        self.parser.get_event()?; // stream start
        let mut root = None;
        if !self.next_is(|kind| matches!(kind, EventKind::StreamEnd))? {
            root = Some(self.compose_document()?);
        }
        if !self.next_is(|kind| matches!(kind, EventKind::StreamEnd))? {
            let event = self.parser.get_event()?;
            let document = root.map(|root| self.nodes[root].start);
            return Err(MarkedError::new(
                self.parser.source,
                Some("expected a single document in the stream".to_string()),
                document,
                Some("but found another document".to_string()),
                event.map(|event| event.start),
            ));
        }
        self.parser.get_event()?;
        Ok(Graph {
            nodes: std::mem::take(&mut self.nodes),
            root,
        })
    }

    fn compose_document(&mut self) -> Parse<NodeId> {
        self.parser.get_event()?; // document start
        let node = self.compose_node(0)?;
        self.parser.get_event()?; // document end
        self.anchors.clear();
        Ok(node)
    }

    fn limit_error(&self, mark: Mark, what: &str) -> MarkedError {
        MarkedError::new(
            self.parser.source,
            None,
            None,
            Some(format!("the frontmatter is too large to model ({what})")),
            Some(mark),
        )
    }

    fn add(&mut self, node: Node) -> Parse<NodeId> {
        if self.nodes.len() >= MAX_NODES {
            return Err(self.limit_error(node.start, "too many nodes"));
        }
        self.nodes.push(node);
        Ok(self.nodes.len() - 1)
    }

    fn compose_node(&mut self, depth: usize) -> Parse<NodeId> {
        let Some(event) = self.parser.get_event()? else {
            return Err(self.limit_error(Mark::default(), "no event"));
        };
        if depth > MAX_DEPTH {
            return Err(self.limit_error(event.start, "nested too deeply"));
        }
        let source = self.parser.source;
        let register = |composer: &mut Self, anchor: &Option<String>, id: NodeId| {
            if let Some(anchor) = anchor {
                composer.anchors.insert(anchor.clone(), id);
            }
        };
        let check_anchor = |composer: &Self, anchor: &Option<String>| match anchor {
            Some(name) => match composer.anchors.get(name) {
                Some(first) => Err(MarkedError::new(
                    source,
                    Some(format!(
                        "found duplicate anchor {}; first occurrence",
                        python::repr(name)
                    )),
                    Some(composer.nodes[*first].start),
                    Some("second occurrence".to_string()),
                    Some(event.start),
                )),
                None => Ok(()),
            },
            None => Ok(()),
        };
        match &event.kind {
            EventKind::Alias(anchor) => match self.anchors.get(anchor) {
                Some(id) => Ok(*id),
                None => Err(MarkedError::new(
                    source,
                    None,
                    None,
                    Some(format!("found undefined alias {}", python::repr(anchor))),
                    Some(event.start),
                )),
            },
            EventKind::Scalar {
                anchor,
                tag,
                plain_implicit,
                value,
                ..
            } => {
                check_anchor(self, anchor)?;
                let tag = match tag.as_deref() {
                    None | Some("!") => super::resolve_scalar(value, *plain_implicit).to_string(),
                    Some(tag) => tag.to_string(),
                };
                let id = self.add(Node {
                    tag,
                    value: NodeValue::Scalar(value.clone()),
                    start: event.start,
                })?;
                register(self, anchor, id);
                Ok(id)
            }
            EventKind::SequenceStart { anchor, tag } => {
                check_anchor(self, anchor)?;
                let tag = match tag.as_deref() {
                    None | Some("!") => "tag:yaml.org,2002:seq".to_string(),
                    Some(tag) => tag.to_string(),
                };
                let id = self.add(Node {
                    tag,
                    value: NodeValue::Sequence(Vec::new()),
                    start: event.start,
                })?;
                register(self, anchor, id);
                while !self.next_is(|kind| matches!(kind, EventKind::SequenceEnd))? {
                    let item = self.compose_node(depth + 1)?;
                    if let NodeValue::Sequence(items) = &mut self.nodes[id].value {
                        items.push(item);
                    }
                }
                self.parser.get_event()?;
                Ok(id)
            }
            EventKind::MappingStart { anchor, tag } => {
                check_anchor(self, anchor)?;
                let tag = match tag.as_deref() {
                    None | Some("!") => "tag:yaml.org,2002:map".to_string(),
                    Some(tag) => tag.to_string(),
                };
                let id = self.add(Node {
                    tag,
                    value: NodeValue::Mapping(Vec::new()),
                    start: event.start,
                })?;
                register(self, anchor, id);
                while !self.next_is(|kind| matches!(kind, EventKind::MappingEnd))? {
                    let key = self.compose_node(depth + 1)?;
                    let value = self.compose_node(depth + 1)?;
                    if let NodeValue::Mapping(entries) = &mut self.nodes[id].value {
                        entries.push((key, value));
                    }
                }
                self.parser.get_event()?;
                Ok(id)
            }
            EventKind::StreamStart
            | EventKind::StreamEnd
            | EventKind::DocumentStart
            | EventKind::DocumentEnd
            | EventKind::SequenceEnd
            | EventKind::MappingEnd => Err(self.limit_error(event.start, "unexpected event")),
        }
    }
}
