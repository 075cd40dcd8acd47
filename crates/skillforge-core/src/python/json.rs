//! JSON text exactly as Python's `json.dumps(value, ensure_ascii=False)` writes it.
//!
//! Python escapes the same characters serde_json does (`"`, `\`, and control characters below
//! U+0020, with the short forms for `\b \f \n \r \t` and lowercase `\u00XX` otherwise) and leaves
//! everything else, U+2028 and DEL included, as it is. Only the separators differ: Python's
//! default is `", "` between items and `": "` after keys; `separators=(",", ":")` is serde_json's
//! compact form.

use std::io;

use serde::Serialize;
use serde_json::ser::Formatter;

/// Python's default separators: `", "` and `": "`.
struct PythonDefault;

impl Formatter for PythonDefault {
    fn begin_array_value<W: ?Sized + io::Write>(
        &mut self,
        writer: &mut W,
        first: bool,
    ) -> io::Result<()> {
        if first {
            Ok(())
        } else {
            writer.write_all(b", ")
        }
    }

    fn begin_object_key<W: ?Sized + io::Write>(
        &mut self,
        writer: &mut W,
        first: bool,
    ) -> io::Result<()> {
        if first {
            Ok(())
        } else {
            writer.write_all(b", ")
        }
    }

    fn begin_object_value<W: ?Sized + io::Write>(&mut self, writer: &mut W) -> io::Result<()> {
        writer.write_all(b": ")
    }
}

/// Why a value could not be written as JSON (a map with non-string keys, for instance).
#[derive(Debug, thiserror::Error)]
#[error("cannot write the value as JSON: {0}")]
pub struct JsonError(#[from] serde_json::Error);

/// `json.dumps(text)` of a `str` with the default `ensure_ascii=True`: `"` and `\\` escaped, `\\n`,
/// `\\r`, `\\t`, `\\b`, `\\f`, and every other character outside space..`~` as `\\uXXXX` (a character
/// beyond U+FFFF as its UTF-16 surrogate pair).
pub fn dumps_ascii_str(text: &str) -> String {
    use std::fmt::Write as _;
    let mut out = String::with_capacity(text.len() + 2);
    out.push('"');
    for c in text.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            '\t' => out.push_str("\\t"),
            '\u{8}' => out.push_str("\\b"),
            '\u{c}' => out.push_str("\\f"),
            ' '..='~' => out.push(c),
            _ => {
                let mut units = [0u16; 2];
                for unit in c.encode_utf16(&mut units) {
                    // Writing to a String cannot fail.
                    let _ = write!(out, "\\u{unit:04x}");
                }
            }
        }
    }
    out.push('"');
    out
}

/// `json.dumps(value, ensure_ascii=False)`.
pub fn dumps<T: Serialize + ?Sized>(value: &T) -> Result<String, JsonError> {
    let mut out = Vec::new();
    let mut serializer = serde_json::Serializer::with_formatter(&mut out, PythonDefault);
    value.serialize(&mut serializer)?;
    // serde_json only ever writes UTF-8.
    Ok(String::from_utf8_lossy(&out).into_owned())
}

/// `json.dumps(value, ensure_ascii=False, separators=(",", ":"))`.
pub fn dumps_compact<T: Serialize + ?Sized>(value: &T) -> Result<String, JsonError> {
    Ok(serde_json::to_string(value)?)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn matches_python_default_separators_and_escapes() {
        let value = serde_json::json!({"a": [1, true, null], "b": "é\u{2028}\u{7f}\"\\\n\t\u{1}\u{8}\u{c}"});
        assert_eq!(
            dumps(&value).ok(),
            Some(
                r#"{"a": [1, true, null], "b": "é\u{2028}\u{7f}\"\\\n\t\u0001\b\f"}"#
                    .replace("\\u{2028}", "\u{2028}")
                    .replace("\\u{7f}", "\u{7f}")
            )
        );
        assert_eq!(
            dumps_compact(&value).ok().as_deref(),
            Some("{\"a\":[1,true,null],\"b\":\"é\u{2028}\u{7f}\\\"\\\\\\n\\t\\u0001\\b\\f\"}")
        );
    }
}
