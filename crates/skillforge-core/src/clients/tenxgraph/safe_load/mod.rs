//! `yaml.safe_load(text)` of PyYAML 6.0 (the pure-Python loader 10xGraph 0.10.3 calls), ported step by
//! step: the reader's character check, the scanner, the parser, the composer and the safe constructor,
//! so that what loads, what fails and the error text are PyYAML's own. The project's YAML parser
//! (`frontmatter::yaml`, YAML 1.2) is right for the clients that use such a parser; PyYAML differs from it
//! in many places (a flow collection has no indentation rule, `? ` keys, `=` and `<<` are special
//! plain scalars, collections cannot be mapping keys, explicit tags are constructed or refused, ...),
//! and 10xGraph's verdict depends on them.
//!
//! Where PyYAML raises something that is not a `yaml.YAMLError` (a `ValueError` from `datetime.date`
//! for `2024-13-01`, `int('', 2)` for `0b_`, a `KeyError` for `!!bool maybe`, ...), 10xGraph does not
//! catch it and its whole discovery stops; that is [`LoadError::Crash`].

mod parser;
mod scanner;

use std::collections::{HashMap, VecDeque};

use parser::{Graph, NodeId, NodeValue};

use crate::clients::tenxgraph::pyyaml::PyValue;
use crate::frontmatter::yaml;
use crate::python;

/// Why `safe_load` did not return a value.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum LoadError {
    /// A `yaml.YAMLError`: its `str()`, lines and all, and the code point index its mark points at
    /// (the problem's mark, else the context's, else the reader's position).
    Yaml { message: String, at: usize },
    /// Any other exception: its type and message (10xGraph lets it propagate).
    Crash { kind: &'static str, message: String },
}

/// The code points of the text followed by `'\0'`, as PyYAML's reader buffers a `str`.
pub(super) struct Source {
    chars: Vec<char>,
}

impl Source {
    fn new(text: &str) -> Self {
        let mut chars: Vec<char> = text.chars().collect();
        chars.push('\0');
        Self { chars }
    }

    /// The character at `index`; past the end, `'\0'` (PyYAML never looks past its final `'\0'`
    /// except where a `'\0'` would answer the same).
    fn char_at(&self, index: usize) -> char {
        self.chars.get(index).copied().unwrap_or('\0')
    }

    fn slice(&self, start: usize, end: usize) -> String {
        let end = end.min(self.chars.len());
        self.chars
            .get(start.min(end)..end)
            .unwrap_or(&[])
            .iter()
            .collect()
    }
}

/// A position: code point index (also the buffer pointer, the whole text being one buffer), line and
/// column from 0.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub(super) struct Mark {
    index: usize,
    line: usize,
    column: usize,
}

impl Mark {
    /// `Mark.__str__` with its snippet (`get_snippet(indent=4, max_length=75)`).
    fn render(&self, source: &Source) -> String {
        let is_break =
            |c: char| matches!(c, '\0' | '\r' | '\n' | '\u{85}' | '\u{2028}' | '\u{2029}');
        let chars = &source.chars;
        let pointer = self.index;
        let half = 75.0 / 2.0 - 1.0;
        let mut head = "";
        let mut start = pointer;
        while start > 0 && !is_break(chars[start - 1]) {
            start -= 1;
            if (pointer - start) as f64 > half {
                head = " ... ";
                start += 5;
                break;
            }
        }
        let mut tail = "";
        let mut end = pointer;
        while end < chars.len() && !is_break(chars[end]) {
            end += 1;
            if (end - pointer) as f64 > half {
                tail = " ... ";
                end -= 5;
                break;
            }
        }
        let snippet = source.slice(start, end);
        let caret = " ".repeat(4 + pointer - start + head.len());
        format!(
            "  in \"<unicode string>\", line {}, column {}:\n    {head}{snippet}{tail}\n{caret}^",
            self.line + 1,
            self.column + 1
        )
    }
}

/// A `MarkedYAMLError`, rendered as its `str()` when raised, and where it points.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(super) struct MarkedError {
    message: String,
    at: usize,
    /// Set when what Python raises at this point is not a `YAMLError` (its exception type).
    crash: Option<&'static str>,
}

impl From<MarkedError> for LoadError {
    fn from(error: MarkedError) -> Self {
        match error.crash {
            Some(kind) => LoadError::Crash {
                kind,
                message: error.message,
            },
            None => LoadError::Yaml {
                message: error.message,
                at: error.at,
            },
        }
    }
}

impl MarkedError {
    fn new(
        source: &Source,
        context: Option<String>,
        context_mark: Option<Mark>,
        problem: Option<String>,
        problem_mark: Option<Mark>,
    ) -> Self {
        let at = problem_mark.or(context_mark).map_or(0, |mark| mark.index);
        let mut lines = Vec::new();
        if let Some(context) = context {
            lines.push(context);
        }
        if let Some(mark) = context_mark {
            let same = problem.is_some()
                && problem_mark.is_some_and(|problem| {
                    problem.line == mark.line && problem.column == mark.column
                });
            if !same {
                lines.push(mark.render(source));
            }
        }
        if let Some(problem) = problem {
            lines.push(problem);
        }
        if let Some(mark) = problem_mark {
            lines.push(mark.render(source));
        }
        Self {
            message: lines.join("\n"),
            at,
            crash: None,
        }
    }

    /// An exception other than a `YAMLError`, raised while scanning.
    fn crash(kind: &'static str, message: String) -> Self {
        Self {
            message,
            at: 0,
            crash: Some(kind),
        }
    }
}

/// `yaml.safe_load(text)`: the value, `None` for an empty stream.
pub fn safe_load(text: &str) -> Result<Option<PyValue>, LoadError> {
    if let Some((position, c)) = text
        .chars()
        .enumerate()
        .find(|(_, c)| !yaml::is_printable(*c))
    {
        return Err(LoadError::Yaml {
            message: format!(
                "unacceptable character #x{:04x}: special characters are not allowed\n  in \"<unicode string>\", position {position}",
                u32::from(c)
            ),
            at: position,
        });
    }
    let source = Source::new(text);
    let mut graph = parser::compose(&source)?;
    let Some(root) = graph.root else {
        return Ok(None);
    };
    let scalars = Constructor::new(&source, &mut graph).construct(root)?;
    let mut builder = Builder {
        graph: &graph,
        scalars: &scalars,
        budget: Builder::BUDGET,
    };
    Ok(Some(builder.build(root, 0)))
}

const TAG: &str = "tag:yaml.org,2002:";

/// The implicit resolvers of `yaml.resolver.Resolver`, tried as `resolve(ScalarNode, value, implicit)`
/// tries them (by first character, in the order they were added).
pub(super) fn resolve_scalar(value: &str, implicit: bool) -> &'static str {
    if !implicit {
        return "tag:yaml.org,2002:str";
    }
    match value {
        "<<" => return "tag:yaml.org,2002:merge",
        "=" => return "tag:yaml.org,2002:value",
        "!" | "&" | "*" => return "tag:yaml.org,2002:yaml",
        _ => {}
    }
    match PyValue::from_scalar(value, crate::frontmatter::yaml::Style::Plain) {
        PyValue::Null => "tag:yaml.org,2002:null",
        PyValue::Bool(_) => "tag:yaml.org,2002:bool",
        PyValue::Int(_) | PyValue::LargeInt(_) => "tag:yaml.org,2002:int",
        PyValue::Float(_) => "tag:yaml.org,2002:float",
        PyValue::Date(_) | PyValue::DateTime(_) => "tag:yaml.org,2002:timestamp",
        _ => "tag:yaml.org,2002:str",
    }
}

/// What `construct_object` made of a node, as far as the rest of construction cares.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Kind {
    /// A scalar constructor's value (kept in the scalar table).
    Scalar,
    List,
    Dict,
    Set,
}

/// `SafeConstructor`, in PyYAML's order: a collection's constructor is a generator that yields its
/// (empty) container at once and fills it when `construct_document` runs the pending generators,
/// first in, first out; scalars are constructed on the spot. Errors therefore surface in the order
/// PyYAML raises them.
struct Constructor<'a> {
    source: &'a Source,
    graph: &'a mut Graph,
    constructed: HashMap<NodeId, Kind>,
    scalars: HashMap<NodeId, PyValue>,
    pending: VecDeque<NodeId>,
}

impl<'a> Constructor<'a> {
    fn new(source: &'a Source, graph: &'a mut Graph) -> Self {
        Self {
            source,
            graph,
            constructed: HashMap::new(),
            scalars: HashMap::new(),
            pending: VecDeque::new(),
        }
    }

    fn error(
        &self,
        context: Option<&str>,
        context_node: Option<NodeId>,
        problem: String,
        node: NodeId,
    ) -> LoadError {
        MarkedError::new(
            self.source,
            context.map(str::to_string),
            context_node.map(|id| self.graph.nodes[id].start),
            Some(problem),
            Some(self.graph.nodes[node].start),
        )
        .into()
    }

    fn construct(mut self, root: NodeId) -> Result<HashMap<NodeId, PyValue>, LoadError> {
        self.construct_object(root)?;
        while let Some(node) = self.pending.pop_front() {
            self.run_generator(node)?;
        }
        Ok(self.scalars)
    }

    fn construct_object(&mut self, node: NodeId) -> Result<Kind, LoadError> {
        if let Some(kind) = self.constructed.get(&node) {
            return Ok(*kind);
        }
        let tag = self.graph.nodes[node].tag.clone();
        let kind = match tag.strip_prefix(TAG) {
            Some("seq" | "omap" | "pairs") => Kind::List,
            Some("map") => Kind::Dict,
            Some("set") => Kind::Set,
            Some(scalar @ ("null" | "bool" | "int" | "float" | "binary" | "timestamp" | "str")) => {
                let value = self.construct_scalar_tag(scalar, node)?;
                self.scalars.insert(node, value);
                Kind::Scalar
            }
            _ => {
                return Err(self.error(
                    None,
                    None,
                    format!(
                        "could not determine a constructor for the tag {}",
                        python::repr(&tag)
                    ),
                    node,
                ))
            }
        };
        if kind != Kind::Scalar {
            self.pending.push_back(node);
        }
        self.constructed.insert(node, kind);
        Ok(kind)
    }

    /// `SafeConstructor.construct_scalar`: a scalar's value, or the `=` entry of a mapping.
    fn construct_scalar(&self, node: NodeId) -> Result<String, LoadError> {
        match &self.graph.nodes[node].value {
            NodeValue::Scalar(value) => Ok(value.clone()),
            NodeValue::Mapping(entries) => {
                for (key, value) in entries {
                    if self.graph.nodes[*key].tag == "tag:yaml.org,2002:value" {
                        return self.construct_scalar(*value);
                    }
                }
                Err(self.expected("scalar", node))
            }
            NodeValue::Sequence(_) => Err(self.expected("scalar", node)),
        }
    }

    fn expected(&self, what: &str, node: NodeId) -> LoadError {
        let found = self.graph.nodes[node].id();
        self.error(
            None,
            None,
            format!("expected a {what} node, but found {found}"),
            node,
        )
    }

    fn construct_scalar_tag(&self, tag: &str, node: NodeId) -> Result<PyValue, LoadError> {
        let value = self.construct_scalar(node)?;
        let crash = |kind: &'static str, message: String| LoadError::Crash { kind, message };
        Ok(match tag {
            "null" => PyValue::Null,
            "str" => PyValue::Str(value),
            "bool" => match value.to_lowercase().as_str() {
                "yes" | "true" | "on" => PyValue::Bool(true),
                "no" | "false" | "off" => PyValue::Bool(false),
                _ => return Err(crash("KeyError", python::repr(&value.to_lowercase()))),
            },
            "int" => construct_int(&value).map_err(|(kind, message)| crash(kind, message))?,
            "float" => construct_float(&value).map_err(|(kind, message)| crash(kind, message))?,
            "timestamp" => {
                construct_timestamp(&value).map_err(|(kind, message)| crash(kind, message))?
            }
            _ => self.construct_binary(&value, node)?,
        })
    }

    fn construct_binary(&self, value: &str, node: NodeId) -> Result<PyValue, LoadError> {
        if let Some((position, c)) = value.chars().enumerate().find(|(_, c)| !c.is_ascii()) {
            let message = format!(
                "failed to convert base64 data into ascii: 'ascii' codec can't encode character {} in position {position}: ordinal not in range(128)",
                python::repr(&c.to_string())
            );
            return Err(self.error(None, None, message, node));
        }
        decode_base64(value.as_bytes())
            .map(PyValue::Bytes)
            .map_err(|message| {
                self.error(
                    None,
                    None,
                    format!("failed to decode base64 data: {message}"),
                    node,
                )
            })
    }

    /// The body of a collection's generator.
    fn run_generator(&mut self, node: NodeId) -> Result<(), LoadError> {
        let tag = self.graph.nodes[node].tag.clone();
        match tag.strip_prefix(TAG) {
            Some("seq") => {
                let NodeValue::Sequence(items) = self.graph.nodes[node].value.clone() else {
                    return Err(self.expected("sequence", node));
                };
                for item in items {
                    self.construct_object(item)?;
                }
            }
            Some("map" | "set") => self.construct_mapping(node)?,
            Some(pairs @ ("omap" | "pairs")) => {
                let context = if pairs == "omap" {
                    "while constructing an ordered map"
                } else {
                    "while constructing pairs"
                };
                let NodeValue::Sequence(items) = self.graph.nodes[node].value.clone() else {
                    let found = self.graph.nodes[node].id();
                    return Err(self.error(
                        Some(context),
                        Some(node),
                        format!("expected a sequence, but found {found}"),
                        node,
                    ));
                };
                for item in items {
                    let NodeValue::Mapping(entries) = self.graph.nodes[item].value.clone() else {
                        let found = self.graph.nodes[item].id();
                        return Err(self.error(
                            Some(context),
                            Some(node),
                            format!("expected a mapping of length 1, but found {found}"),
                            item,
                        ));
                    };
                    if entries.len() != 1 {
                        return Err(self.error(
                            Some(context),
                            Some(node),
                            format!(
                                "expected a single mapping item, but found {} items",
                                entries.len()
                            ),
                            item,
                        ));
                    }
                    self.construct_object(entries[0].0)?;
                    self.construct_object(entries[0].1)?;
                }
            }
            _ => {}
        }
        Ok(())
    }

    fn construct_mapping(&mut self, node: NodeId) -> Result<(), LoadError> {
        if !matches!(self.graph.nodes[node].value, NodeValue::Mapping(_)) {
            return Err(self.expected("mapping", node));
        }
        self.flatten_mapping(node, 0)?;
        let NodeValue::Mapping(entries) = self.graph.nodes[node].value.clone() else {
            return Ok(());
        };
        for (key, value) in entries {
            let kind = self.construct_object(key)?;
            if kind != Kind::Scalar {
                return Err(self.error(
                    Some("while constructing a mapping"),
                    Some(node),
                    "found unhashable key".to_string(),
                    key,
                ));
            }
            self.construct_object(value)?;
        }
        Ok(())
    }

    /// `flatten_mapping`: `<<` entries replaced by the entries they merge (merged first), `=` keys
    /// retagged as strings. Like PyYAML it rewrites the nodes in place, merged mappings included.
    fn flatten_mapping(&mut self, node: NodeId, depth: usize) -> Result<(), LoadError> {
        if depth > parser::MAX_DEPTH {
            return Err(self.error(
                None,
                None,
                "the frontmatter is too large to model (merges nested too deeply)".to_string(),
                node,
            ));
        }
        let NodeValue::Mapping(mut entries) = self.graph.nodes[node].value.clone() else {
            return Ok(());
        };
        let mut merge: Vec<(NodeId, NodeId)> = Vec::new();
        // PyYAML skips a merged pair whose key object it has seen (`id(pair[0].value)`); the same key
        // node merged twice is such a pair.
        let mut merged_keys = std::collections::HashSet::new();
        let mut index = 0;
        while index < entries.len() {
            let (key, value) = entries[index];
            let key_tag = self.graph.nodes[key].tag.clone();
            if key_tag == "tag:yaml.org,2002:merge" {
                entries.remove(index);
                self.graph.nodes[node].value = NodeValue::Mapping(entries.clone());
                let sources = match &self.graph.nodes[value].value {
                    NodeValue::Mapping(_) => vec![value],
                    NodeValue::Sequence(items) => {
                        let items = items.clone();
                        for item in &items {
                            if !matches!(self.graph.nodes[*item].value, NodeValue::Mapping(_)) {
                                let found = self.graph.nodes[*item].id();
                                return Err(self.error(
                                    Some("while constructing a mapping"),
                                    Some(node),
                                    format!("expected a mapping for merging, but found {found}"),
                                    *item,
                                ));
                            }
                        }
                        items
                    }
                    NodeValue::Scalar(_) => {
                        let found = self.graph.nodes[value].id();
                        return Err(self.error(
                            Some("while constructing a mapping"),
                            Some(node),
                            format!(
                                "expected a mapping or list of mappings for merging, but found {found}"
                            ),
                            value,
                        ));
                    }
                };
                for source in sources {
                    self.flatten_mapping(source, depth + 1)?;
                    if let NodeValue::Mapping(pairs) = &self.graph.nodes[source].value {
                        for pair in pairs {
                            if merged_keys.insert(pair.0) {
                                merge.push(*pair);
                            }
                        }
                    }
                }
                // The merged mapping may be this one (`&a {<<: *a}`): read the entries back.
                if let NodeValue::Mapping(current) = &self.graph.nodes[node].value {
                    entries = current.clone();
                }
            } else {
                if key_tag == "tag:yaml.org,2002:value" {
                    self.graph.nodes[key].tag = "tag:yaml.org,2002:str".to_string();
                }
                index += 1;
            }
        }
        if !merge.is_empty() {
            merge.extend(entries);
            entries = merge;
        }
        self.graph.nodes[node].value = NodeValue::Mapping(entries);
        Ok(())
    }
}

/// Builds the Python value of a constructed graph. Aliases are shared nodes; a container that holds
/// itself is cut by the budget and the depth limit (its deeper parts read as [`PyValue::Unknown`]).
struct Builder<'a> {
    graph: &'a Graph,
    scalars: &'a HashMap<NodeId, PyValue>,
    budget: usize,
}

impl Builder<'_> {
    /// Values built at most: a container that holds itself (`&a [*a]`) is finite this way.
    const BUDGET: usize = 100_000;

    fn build(&mut self, node: NodeId, depth: usize) -> PyValue {
        if self.budget == 0 || depth > 4 * parser::MAX_DEPTH {
            return PyValue::Unknown;
        }
        self.budget -= 1;
        if let Some(value) = self.scalars.get(&node) {
            return value.clone();
        }
        let tag = self.graph.nodes[node].tag.strip_prefix(TAG).unwrap_or("");
        match (&self.graph.nodes[node].value, tag) {
            (NodeValue::Sequence(items), "omap" | "pairs") => PyValue::List(
                items
                    .iter()
                    .map(|item| match &self.graph.nodes[*item].value {
                        NodeValue::Mapping(entries) if entries.len() == 1 => {
                            let (key, value) = entries[0];
                            PyValue::Tuple(vec![
                                self.build(key, depth + 1),
                                self.build(value, depth + 1),
                            ])
                        }
                        _ => PyValue::Unknown,
                    })
                    .collect(),
            ),
            (NodeValue::Sequence(items), _) => PyValue::List(
                items
                    .iter()
                    .map(|item| self.build(*item, depth + 1))
                    .collect(),
            ),
            (NodeValue::Mapping(entries), "set") => {
                let mut keys: Vec<PyValue> = Vec::new();
                for (key, _) in entries {
                    let key = self.build(*key, depth + 1);
                    if !keys.contains(&key) {
                        keys.push(key);
                    }
                }
                PyValue::Set(keys)
            }
            (NodeValue::Mapping(entries), _) => {
                // A dict keeps a key's first position and its last value.
                let mut built: Vec<(PyValue, PyValue)> = Vec::new();
                for (key, value) in entries {
                    let key = self.build(*key, depth + 1);
                    let value = self.build(*value, depth + 1);
                    match built.iter_mut().find(|(known, _)| known.same_key(&key)) {
                        Some(entry) => entry.1 = value,
                        None => built.push((key, value)),
                    }
                }
                PyValue::Map(built)
            }
            (NodeValue::Scalar(_), _) => PyValue::Unknown,
        }
    }
}

/// `construct_yaml_int` on any text (an explicit `!!int` reaches it with text the resolver would not
/// have typed); `Err` is the exception Python raises.
fn construct_int(text: &str) -> Result<PyValue, (&'static str, String)> {
    let cleaned: String = text.chars().filter(|c| *c != '_').collect();
    let Some(first) = cleaned.chars().next() else {
        return Err(("IndexError", "string index out of range".to_string()));
    };
    let negative = first == '-';
    let body = if matches!(first, '+' | '-') {
        &cleaned[1..]
    } else {
        &cleaned[..]
    };
    let parse = |digits: &str, radix: u32| -> Result<i128, (&'static str, String)> {
        let trimmed = python::strip(digits);
        i128::from_str_radix(trimmed, radix)
            .ok()
            .filter(|_| !trimmed.starts_with(['+', '-']) || radix == 10)
            .ok_or_else(|| {
                (
                    "ValueError",
                    format!(
                        "invalid literal for int() with base {radix}: {}",
                        python::repr(digits)
                    ),
                )
            })
    };
    let magnitude: i128 = if body == "0" {
        0
    } else if let Some(digits) = body.strip_prefix("0b") {
        parse(digits, 2)?
    } else if let Some(digits) = body.strip_prefix("0x") {
        parse(digits, 16)?
    } else if body.starts_with('0') {
        parse(body, 8)?
    } else if body.contains(':') {
        let mut value: i128 = 0;
        for part in body.split(':') {
            value = value.saturating_mul(60).saturating_add(parse(part, 10)?);
        }
        value
    } else {
        parse(body, 10)?
    };
    let value = if negative { -magnitude } else { magnitude };
    Ok(match i64::try_from(value) {
        Ok(value) => PyValue::Int(value),
        Err(_) => PyValue::LargeInt(value.to_string()),
    })
}

/// `construct_yaml_float` on any text.
fn construct_float(text: &str) -> Result<PyValue, (&'static str, String)> {
    let cleaned: String = text
        .chars()
        .filter(|c| *c != '_')
        .collect::<String>()
        .to_lowercase();
    let Some(first) = cleaned.chars().next() else {
        return Err(("IndexError", "string index out of range".to_string()));
    };
    let sign = if first == '-' { -1.0 } else { 1.0 };
    let body = if matches!(first, '+' | '-') {
        &cleaned[1..]
    } else {
        &cleaned[..]
    };
    let float = |part: &str| -> Result<f64, (&'static str, String)> {
        python::strip(part).parse::<f64>().map_err(|_| {
            (
                "ValueError",
                format!("could not convert string to float: {}", python::repr(part)),
            )
        })
    };
    let value = if body == ".inf" {
        sign * f64::INFINITY
    } else if body == ".nan" {
        f64::NAN
    } else if body.contains(':') {
        let mut value = 0.0;
        for part in body.split(':') {
            value = value * 60.0 + float(part)?;
        }
        sign * value
    } else {
        sign * float(body)?
    };
    Ok(PyValue::float(value))
}

/// `construct_yaml_timestamp`: a date or a date-time, or what `datetime` raises for impossible fields.
fn construct_timestamp(text: &str) -> Result<PyValue, (&'static str, String)> {
    let bytes = text.as_bytes();
    let number = |range: std::ops::Range<usize>| -> u32 {
        text.get(range)
            .and_then(|digits| digits.parse().ok())
            .unwrap_or(0)
    };
    // The shape was checked by the resolver for implicit scalars; an explicit `!!timestamp` on other
    // text makes PyYAML call `.groupdict()` on `None`.
    let shaped = matches!(
        PyValue::from_scalar(text, yaml::Style::Plain),
        PyValue::Date(_) | PyValue::DateTime(_)
    ) || is_loose_date(bytes);
    if !shaped {
        return Err((
            "AttributeError",
            "'NoneType' object has no attribute 'groupdict'".to_string(),
        ));
    }
    let year = number(0..4);
    let rest = &text[5..];
    let month_len = rest.find('-').unwrap_or(rest.len());
    let month = number(5..5 + month_len);
    let day_start = 5 + month_len + 1;
    let day_len = text[day_start..]
        .find(|c: char| !c.is_ascii_digit())
        .unwrap_or(text.len() - day_start);
    let day = number(day_start..day_start + day_len);
    if year == 0 {
        return Err(("ValueError", format!("year {year} is out of range")));
    }
    if !(1..=12).contains(&month) {
        return Err(("ValueError", "month must be in 1..12".to_string()));
    }
    let leap = (year % 4 == 0 && year % 100 != 0) || year % 400 == 0;
    let days = [
        31,
        if leap { 29 } else { 28 },
        31,
        30,
        31,
        30,
        31,
        31,
        30,
        31,
        30,
        31,
    ];
    if day == 0 || day > days[month as usize - 1] {
        return Err(("ValueError", "day is out of range for month".to_string()));
    }
    let time = &text[day_start + day_len..];
    if time.is_empty() {
        return Ok(PyValue::Date(text.to_string()));
    }
    let time = time.trim_start_matches(['T', 't', ' ', '\t']);
    let mut fields = time.splitn(3, ':');
    let hour: u32 = fields
        .next()
        .and_then(|part| part.parse().ok())
        .unwrap_or(0);
    let minute: u32 = fields
        .next()
        .and_then(|part| part.parse().ok())
        .unwrap_or(0);
    let second: u32 = fields
        .next()
        .and_then(|part| part.get(..2))
        .and_then(|part| part.parse().ok())
        .unwrap_or(0);
    if hour > 23 {
        return Err(("ValueError", "hour must be in 0..23".to_string()));
    }
    if minute > 59 {
        return Err(("ValueError", "minute must be in 0..59".to_string()));
    }
    if second > 59 {
        return Err(("ValueError", "second must be in 0..59".to_string()));
    }
    Ok(PyValue::DateTime(text.to_string()))
}

/// The date-only shape with one-digit month or day, which only the date-time branch of the resolver
/// accepts but `timestamp_regexp` (used by an explicit `!!timestamp`) accepts alone.
fn is_loose_date(bytes: &[u8]) -> bool {
    let text = std::str::from_utf8(bytes).unwrap_or("");
    let parts: Vec<&str> = text.split('-').collect();
    parts.len() == 3
        && parts[0].len() == 4
        && (1..=2).contains(&parts[1].len())
        && (1..=2).contains(&parts[2].len())
        && parts
            .iter()
            .all(|part| part.bytes().all(|byte| byte.is_ascii_digit()))
}

/// `base64.decodebytes` (binascii's lenient `a2b_base64`): characters outside the alphabet are skipped,
/// padding ends the data; the error texts are binascii's.
fn decode_base64(data: &[u8]) -> Result<Vec<u8>, String> {
    let value = |byte: u8| -> Option<u32> {
        Some(match byte {
            b'A'..=b'Z' => byte - b'A',
            b'a'..=b'z' => byte - b'a' + 26,
            b'0'..=b'9' => byte - b'0' + 52,
            b'+' => 62,
            b'/' => 63,
            _ => return None,
        } as u32)
    };
    let mut out = Vec::new();
    let mut quad = 0;
    let mut accumulator: u32 = 0;
    let mut pads = 0;
    let mut characters = 0;
    for &byte in data {
        if byte == b'=' {
            if quad >= 2 && quad + pads + 1 >= 4 {
                // Complete padding: the data ends here.
                return Ok(out);
            }
            pads += 1;
            continue;
        }
        let Some(bits) = value(byte) else {
            continue;
        };
        pads = 0;
        characters += 1;
        accumulator = (accumulator << 6) | bits;
        quad += 1;
        if quad == 4 {
            out.extend_from_slice(&[
                (accumulator >> 16) as u8,
                (accumulator >> 8) as u8,
                accumulator as u8,
            ]);
            quad = 0;
            accumulator = 0;
        }
    }
    match quad {
        0 => Ok(out),
        1 => Err(format!(
            "Invalid base64-encoded string: number of data characters ({characters}) cannot be 1 more than a multiple of 4"
        )),
        _ => Err("Incorrect padding".to_string()),
    }
}

#[cfg(test)]
mod tests;
