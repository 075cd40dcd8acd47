//! Frontmatter values as PyYAML's `safe_load` types them: the YAML 1.1 implicit resolvers (bool, int,
//! float, null, timestamp) of the PyYAML 10xGraph 0.10.3 runs on, and the `str()`, `repr()` and
//! `type().__name__` Python shows for each value. [`super::safe_load`] builds them.

use crate::frontmatter::yaml::Style;
use crate::python;

/// A frontmatter value as PyYAML's `safe_load` would type it.
#[derive(Debug, Clone, PartialEq)]
pub enum PyValue {
    Str(String),
    Int(i64),
    /// An int PyYAML reads but that does not fit in 64 bits; kept as written.
    LargeInt(String),
    /// `str(float)`.
    Float(String),
    Bool(bool),
    Null,
    /// A plain `YYYY-MM-DD` date, as written (which is also its `str()`).
    Date(String),
    /// A date with a time; kept as written.
    DateTime(String),
    List(Vec<PyValue>),
    Map(Vec<(PyValue, PyValue)>),
    /// `!!binary`'s `bytes`.
    Bytes(Vec<u8>),
    /// `!!set`'s `set`, members in the order written (Python's own order depends on string hashing).
    Set(Vec<PyValue>),
    /// A pair of `!!omap` or `!!pairs`.
    Tuple(Vec<PyValue>),
    /// Past the expansion budget of a value that holds itself (see [`super::safe_load`]).
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
            PyValue::Str(text)
            | PyValue::LargeInt(text)
            | PyValue::Float(text)
            | PyValue::Date(text)
            | PyValue::DateTime(text) => text.clone(),
            PyValue::Int(value) => value.to_string(),
            PyValue::Bool(true) => "True".to_string(),
            PyValue::Bool(false) => "False".to_string(),
            PyValue::Null => "None".to_string(),
            PyValue::List(_)
            | PyValue::Map(_)
            | PyValue::Bytes(_)
            | PyValue::Set(_)
            | PyValue::Tuple(_)
            | PyValue::Unknown => self.python_repr(),
        }
    }

    /// Python's `repr(value)`.
    pub fn python_repr(&self) -> String {
        match self {
            PyValue::Str(text) => python::repr(text),
            PyValue::Date(text) => {
                let parts: Vec<String> = text
                    .split('-')
                    .map(|part| part.trim_start_matches('0'))
                    .map(|part| if part.is_empty() { "0" } else { part }.to_string())
                    .collect();
                format!("datetime.date({})", parts.join(", "))
            }
            PyValue::List(items) => format!(
                "[{}]",
                items
                    .iter()
                    .map(PyValue::python_repr)
                    .collect::<Vec<_>>()
                    .join(", ")
            ),
            PyValue::Map(entries) => format!(
                "{{{}}}",
                entries
                    .iter()
                    .map(|(key, value)| format!("{}: {}", key.python_repr(), value.python_repr()))
                    .collect::<Vec<_>>()
                    .join(", ")
            ),
            PyValue::Bytes(bytes) => bytes_repr(bytes),
            PyValue::Set(items) if items.is_empty() => "set()".to_string(),
            PyValue::Set(items) => format!(
                "{{{}}}",
                items
                    .iter()
                    .map(PyValue::python_repr)
                    .collect::<Vec<_>>()
                    .join(", ")
            ),
            PyValue::Tuple(items) => format!(
                "({})",
                items
                    .iter()
                    .map(PyValue::python_repr)
                    .collect::<Vec<_>>()
                    .join(", ")
            ),
            PyValue::Unknown => "...".to_string(),
            other => other.to_python_str(),
        }
    }

    /// `type(value).__name__`.
    pub fn python_type_name(&self) -> &'static str {
        match self {
            PyValue::Str(_) => "str",
            PyValue::Int(_) | PyValue::LargeInt(_) => "int",
            PyValue::Float(_) => "float",
            PyValue::Bool(_) => "bool",
            PyValue::Null => "NoneType",
            PyValue::Date(_) => "date",
            PyValue::DateTime(_) => "datetime",
            PyValue::List(_) => "list",
            PyValue::Map(_) => "dict",
            PyValue::Bytes(_) => "bytes",
            PyValue::Set(_) => "set",
            PyValue::Tuple(_) => "tuple",
            PyValue::Unknown => "object",
        }
    }

    /// A float as Python shows it.
    pub fn float(value: f64) -> Self {
        PyValue::Float(python_float_repr(value))
    }

    /// Whether two dict keys are the same key in Python (`1`, `1.0` and `True` are).
    pub fn same_key(&self, other: &PyValue) -> bool {
        let number = |value: &PyValue| match value {
            PyValue::Int(number) => Some(*number as f64),
            PyValue::Bool(flag) => Some(f64::from(u8::from(*flag))),
            PyValue::Float(text) => text.parse::<f64>().ok(),
            _ => None,
        };
        match (number(self), number(other)) {
            (Some(left), Some(right)) => left == right,
            _ => self == other,
        }
    }

    /// The value under `key` when this is a mapping; the last duplicate wins, as in a Python dict.
    pub fn get(&self, key: &str) -> Option<&PyValue> {
        match self {
            PyValue::Map(entries) => entries
                .iter()
                .rev()
                .find(|(entry_key, _)| matches!(entry_key, PyValue::Str(text) if text == key))
                .map(|(_, value)| value),
            _ => None,
        }
    }
}

/// Python's `repr(bytes)`.
fn bytes_repr(bytes: &[u8]) -> String {
    let quote = if bytes.contains(&b'\'') && !bytes.contains(&b'"') {
        '"'
    } else {
        '\''
    };
    let mut out = format!("b{quote}");
    for &byte in bytes {
        match byte {
            b'\\' => out.push_str("\\\\"),
            b'\t' => out.push_str("\\t"),
            b'\n' => out.push_str("\\n"),
            b'\r' => out.push_str("\\r"),
            byte if char::from(byte) == quote => {
                out.push('\\');
                out.push(quote);
            }
            0x20..=0x7e => out.push(char::from(byte)),
            byte => out.push_str(&format!("\\x{byte:02x}")),
        }
    }
    out.push(quote);
    out
}

/// Whether PyYAML reads a plain scalar as a string.
pub fn pyyaml_plain_is_string(text: &str) -> bool {
    matches!(resolve_plain(text), PyValue::Str(_))
}

/// 10xGraph's `_parse_priority`: `int(str(value).strip())`, `None` meaning 0; `None` here when it warns.
pub fn priority_of(value: &PyValue) -> Option<i64> {
    match value {
        PyValue::Null => Some(0),
        PyValue::Int(number) => Some(*number),
        other => python::parse_int(&other.to_python_str()),
    }
}

/// PyYAML's implicit resolvers for a plain scalar, in the order they are tried.
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
    if let Some(value) = yaml11_float(text) {
        return PyValue::Float(python_float_repr(value));
    }
    if is_yaml11_int(text) {
        return match construct_int(text) {
            Some(value) => PyValue::Int(value),
            None => PyValue::LargeInt(text.to_string()),
        };
    }
    if is_yaml11_date(text) {
        return PyValue::Date(text.to_string());
    }
    if is_yaml11_datetime(text) {
        return PyValue::DateTime(text.to_string());
    }
    PyValue::Str(text.to_string())
}

/// A tiny matcher over ASCII bytes for the resolver patterns.
struct Cursor<'a> {
    bytes: &'a [u8],
    at: usize,
}

impl<'a> Cursor<'a> {
    fn new(text: &'a str) -> Self {
        Self {
            bytes: text.as_bytes(),
            at: 0,
        }
    }

    fn peek(&self) -> Option<u8> {
        self.bytes.get(self.at).copied()
    }

    fn eat(&mut self, byte: u8) -> bool {
        let matched = self.peek() == Some(byte);
        if matched {
            self.at += 1;
        }
        matched
    }

    fn eat_if(&mut self, accept: impl Fn(u8) -> bool) -> bool {
        let matched = self.peek().is_some_and(&accept);
        if matched {
            self.at += 1;
        }
        matched
    }

    /// Consumes bytes while `accept` holds; returns how many.
    fn eat_while(&mut self, accept: impl Fn(u8) -> bool) -> usize {
        let start = self.at;
        while self.eat_if(&accept) {}
        self.at - start
    }

    fn sign(&mut self) {
        let _ = self.eat(b'+') || self.eat(b'-');
    }

    fn done(&self) -> bool {
        self.at == self.bytes.len()
    }

    /// `(?::[0-5]?[0-9])+`
    fn base60_parts(&mut self) -> bool {
        let mut parts = 0;
        while self.eat(b':') {
            let digits = self.eat_while(|byte| byte.is_ascii_digit());
            let part = &self.bytes[self.at - digits..self.at];
            if !(digits == 1 || (digits == 2 && part[0] <= b'5')) {
                return false;
            }
            parts += 1;
        }
        parts > 0
    }

    /// `(?:[eE][-+][0-9]+)?`
    fn optional_exponent(&mut self) -> bool {
        if !self.eat_if(|byte| byte == b'e' || byte == b'E') {
            return true;
        }
        self.eat_if(|byte| byte == b'-' || byte == b'+')
            && self.eat_while(|byte| byte.is_ascii_digit()) > 0
    }
}

fn digit_or_underscore(byte: u8) -> bool {
    byte.is_ascii_digit() || byte == b'_'
}

/// The float resolver; `Some(value)` as `construct_yaml_float` builds it.
fn yaml11_float(text: &str) -> Option<f64> {
    let matches = |pattern: &dyn Fn(&mut Cursor) -> bool| {
        let mut cursor = Cursor::new(text);
        pattern(&mut cursor) && cursor.done()
    };
    let decimal = |cursor: &mut Cursor| {
        cursor.sign();
        cursor.eat_if(|byte| byte.is_ascii_digit())
            && {
                cursor.eat_while(digit_or_underscore);
                cursor.eat(b'.')
            }
            && {
                cursor.eat_while(digit_or_underscore);
                cursor.optional_exponent()
            }
    };
    let leading_dot = |cursor: &mut Cursor| {
        cursor.eat(b'.') && cursor.eat_if(|byte| byte.is_ascii_digit()) && {
            cursor.eat_while(digit_or_underscore);
            cursor.optional_exponent()
        }
    };
    let base60 = |cursor: &mut Cursor| {
        cursor.sign();
        cursor.eat_if(|byte| byte.is_ascii_digit())
            && {
                cursor.eat_while(digit_or_underscore);
                cursor.base60_parts()
            }
            && cursor.eat(b'.')
            && {
                cursor.eat_while(digit_or_underscore);
                true
            }
    };
    let unsigned = text.strip_prefix(['-', '+']).unwrap_or(text);
    let negative = text.starts_with('-');
    if matches!(unsigned, ".inf" | ".Inf" | ".INF") {
        return Some(if negative {
            f64::NEG_INFINITY
        } else {
            f64::INFINITY
        });
    }
    if matches!(text, ".nan" | ".NaN" | ".NAN") {
        return Some(f64::NAN);
    }
    if !(matches(&decimal) || matches(&leading_dot) || matches(&base60)) {
        return None;
    }
    let cleaned: String = unsigned.chars().filter(|c| *c != '_').collect();
    let magnitude = if cleaned.contains(':') {
        cleaned.split(':').try_fold(0.0, |total: f64, part| {
            part.parse::<f64>().ok().map(|part| total * 60.0 + part)
        })?
    } else {
        cleaned.parse::<f64>().ok()?
    };
    Some(if negative { -magnitude } else { magnitude })
}

fn is_yaml11_int(text: &str) -> bool {
    let matches = |pattern: &dyn Fn(&mut Cursor) -> bool| {
        let mut cursor = Cursor::new(text);
        cursor.sign();
        pattern(&mut cursor) && cursor.done()
    };
    matches(&|cursor| {
        cursor.eat(b'0')
            && cursor.eat(b'b')
            && cursor.eat_while(|byte| matches!(byte, b'0' | b'1' | b'_')) > 0
    }) || matches(&|cursor| {
        cursor.eat(b'0') && cursor.eat_while(|byte| matches!(byte, b'0'..=b'7' | b'_')) > 0
    }) || matches(&|cursor| {
        cursor.eat(b'0')
            || (cursor.eat_if(|byte| matches!(byte, b'1'..=b'9')) && {
                cursor.eat_while(digit_or_underscore);
                true
            })
    }) || matches(&|cursor| {
        cursor.eat(b'0')
            && cursor.eat(b'x')
            && cursor.eat_while(|byte| byte.is_ascii_hexdigit() || byte == b'_') > 0
    }) || matches(&|cursor| {
        cursor.eat_if(|byte| matches!(byte, b'1'..=b'9')) && {
            cursor.eat_while(digit_or_underscore);
            cursor.base60_parts()
        }
    })
}

/// `construct_yaml_int` on text the int resolver matched; `None` past 64 bits.
fn construct_int(text: &str) -> Option<i64> {
    let cleaned: String = text.chars().filter(|c| *c != '_').collect();
    let (negative, body) = match cleaned.strip_prefix('-') {
        Some(rest) => (true, rest),
        None => (false, cleaned.strip_prefix('+').unwrap_or(&cleaned)),
    };
    let radix_value = |digits: &str, radix: u32| {
        if digits.is_empty() {
            // `0b_` and the like: Python's int("") fails; nothing sensible to model, so 0.
            Some(0)
        } else {
            i64::from_str_radix(digits, radix).ok()
        }
    };
    let magnitude = if body == "0" {
        0
    } else if let Some(digits) = body.strip_prefix("0b") {
        radix_value(digits, 2)?
    } else if let Some(digits) = body.strip_prefix("0x") {
        radix_value(digits, 16)?
    } else if let Some(digits) = body.strip_prefix('0') {
        radix_value(digits, 8)?
    } else if body.contains(':') {
        body.split(':').try_fold(0i64, |total, part| {
            total
                .checked_mul(60)?
                .checked_add(part.parse::<i64>().ok()?)
        })?
    } else {
        body.parse::<i64>().ok()?
    };
    Some(if negative { -magnitude } else { magnitude })
}

fn is_yaml11_date(text: &str) -> bool {
    let bytes = text.as_bytes();
    bytes.len() == 10
        && bytes[4] == b'-'
        && bytes[7] == b'-'
        && bytes
            .iter()
            .enumerate()
            .all(|(index, byte)| index == 4 || index == 7 || byte.is_ascii_digit())
}

/// The timestamp resolver's date-time branch.
fn is_yaml11_datetime(text: &str) -> bool {
    let mut cursor = Cursor::new(text);
    let digits = |cursor: &mut Cursor, least: usize, most: usize| {
        let count = cursor.eat_while(|byte| byte.is_ascii_digit());
        (least..=most).contains(&count)
    };
    let blank = |byte: u8| byte == b' ' || byte == b'\t';
    let date_ok = digits(&mut cursor, 4, 4)
        && cursor.eat(b'-')
        && digits(&mut cursor, 1, 2)
        && cursor.eat(b'-')
        && digits(&mut cursor, 1, 2);
    let separator_ok =
        cursor.eat_if(|byte| byte == b'T' || byte == b't') || cursor.eat_while(blank) > 0;
    let time_ok = digits(&mut cursor, 1, 2)
        && cursor.eat(b':')
        && digits(&mut cursor, 2, 2)
        && cursor.eat(b':')
        && digits(&mut cursor, 2, 2);
    if !(date_ok && separator_ok && time_ok) {
        return false;
    }
    if cursor.eat(b'.') {
        cursor.eat_while(|byte| byte.is_ascii_digit());
    }
    if cursor.done() {
        return true;
    }
    cursor.eat_while(blank);
    if cursor.eat(b'Z') {
        return cursor.done();
    }
    cursor.eat_if(|byte| byte == b'+' || byte == b'-')
        && digits(&mut cursor, 1, 2)
        && (cursor.done() || (cursor.eat(b':') && digits(&mut cursor, 2, 2) && cursor.done()))
}

/// Python's `repr(float)`: the shortest round-trip digits, positional between 1e-4 and 1e16.
fn python_float_repr(value: f64) -> String {
    if value.is_nan() {
        return "nan".to_string();
    }
    if value.is_infinite() {
        return if value > 0.0 { "inf" } else { "-inf" }.to_string();
    }
    let scientific = format!("{:e}", value.abs());
    let sign = if value.is_sign_negative() { "-" } else { "" };
    let Some((mantissa, exponent)) = scientific.split_once('e') else {
        return scientific;
    };
    let Ok(exponent) = exponent.parse::<i32>() else {
        return scientific;
    };
    let digits: String = mantissa.chars().filter(|c| *c != '.').collect();
    if !(-4..16).contains(&exponent) {
        let exponent_sign = if exponent < 0 { '-' } else { '+' };
        return format!("{sign}{mantissa}e{exponent_sign}{:02}", exponent.abs());
    }
    let point = exponent + 1;
    let text = if point <= 0 {
        format!("0.{}{digits}", "0".repeat(point.unsigned_abs() as usize))
    } else if point as usize >= digits.len() {
        format!("{digits}{}.0", "0".repeat(point as usize - digits.len()))
    } else {
        format!(
            "{}.{}",
            &digits[..point as usize],
            &digits[point as usize..]
        )
    };
    format!("{sign}{text}")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn resolvers_match_pyyaml() {
        assert_eq!(resolve_plain("yes"), PyValue::Bool(true));
        assert_eq!(resolve_plain("0x1F"), PyValue::Int(31));
        assert_eq!(resolve_plain("010"), PyValue::Int(8));
        assert_eq!(resolve_plain("1_000"), PyValue::Int(1000));
        assert_eq!(resolve_plain("1:30"), PyValue::Int(90));
        assert_eq!(resolve_plain("-0b11"), PyValue::Int(-3));
        assert_eq!(resolve_plain("1.5"), PyValue::Float("1.5".into()));
        assert_eq!(resolve_plain("1.50"), PyValue::Float("1.5".into()));
        assert_eq!(resolve_plain("1:30.5"), PyValue::Float("90.5".into()));
        assert_eq!(resolve_plain("-.inf"), PyValue::Float("-inf".into()));
        assert_eq!(resolve_plain(".5"), PyValue::Float("0.5".into()));
        assert_eq!(resolve_plain("1.0e+20"), PyValue::Float("1e+20".into()));
        assert_eq!(resolve_plain("1.0e-5"), PyValue::Float("1e-05".into()));
        assert_eq!(resolve_plain("12.0"), PyValue::Float("12.0".into()));
        assert!(matches!(
            resolve_plain("99999999999999999999"),
            PyValue::LargeInt(_)
        ));
        assert!(matches!(resolve_plain("2024-01-02"), PyValue::Date(_)));
        assert!(matches!(
            resolve_plain("2024-1-2 10:00:00"),
            PyValue::DateTime(_)
        ));
        for string in [
            "1e3",
            "v1.2",
            "-.5",
            "0o17",
            "0xZZ",
            "08",
            "1:3_",
            "1:99.5",
            "2024-1-2",
            "2024-01-foo",
            "0X1F",
        ] {
            assert_eq!(
                resolve_plain(string),
                PyValue::Str(string.into()),
                "{string}"
            );
        }
    }

    #[test]
    fn priority_follows_python_int() {
        assert_eq!(priority_of(&PyValue::Str(" 7 ".into())), Some(7));
        assert_eq!(priority_of(&PyValue::Str("high".into())), None);
        assert_eq!(priority_of(&PyValue::Bool(true)), None);
        assert_eq!(priority_of(&PyValue::Null), Some(0));
    }

    #[test]
    fn repr_and_str_follow_python() {
        assert_eq!(PyValue::Bool(true).python_repr(), "True");
        assert_eq!(
            PyValue::Date("2024-01-02".into()).python_repr(),
            "datetime.date(2024, 1, 2)"
        );
        let list = PyValue::List(vec![
            PyValue::Str("a".into()),
            PyValue::Int(2),
            PyValue::Null,
        ]);
        assert_eq!(list.to_python_str(), "['a', 2, None]");
    }
}
