//! Python string semantics the peers rely on, reproduced exactly.
//!
//! The peers are Python programs: their limits count code points, `strip()` removes Unicode
//! whitespace (including the ASCII file/group/record/unit separators that Rust does not treat as
//! whitespace), `splitlines()` breaks at a wider set of characters than `\n`, and their messages
//! embed `repr()` of user text. Matching them byte for byte needs these rules, not Rust's; so do
//! the `\w` of Python's `re` ([`is_python_word`]) and the text of `json.dumps` ([`json`]).

pub mod json;
mod tables;
mod word_table;

use std::fmt::Write as _;

/// `str.isspace()` for one character (CPython 3.12).
pub fn is_space(c: char) -> bool {
    // Rust's White_Space set plus U+001C..U+001F, which CPython also counts as whitespace.
    c.is_whitespace() || ('\u{1c}'..='\u{1f}').contains(&c)
}

/// `str.strip()` with no argument.
pub fn strip(text: &str) -> &str {
    text.trim_matches(is_space)
}

/// `str.rstrip()` with no argument.
pub fn rstrip(text: &str) -> &str {
    text.trim_end_matches(is_space)
}

/// `str.splitlines()` without line ends: `\r\n` is one boundary, a final boundary adds no empty
/// line, and the empty string has no lines.
pub fn splitlines(text: &str) -> Vec<&str> {
    lines(text).collect()
}

/// The lines of `str.splitlines()`, one at a time, so a caller that needs only the first few does
/// not split the whole text.
pub fn lines(text: &str) -> Lines<'_> {
    Lines { text, at: 0 }
}

/// Iterator behind [`lines`].
#[derive(Debug, Clone)]
pub struct Lines<'a> {
    text: &'a str,
    at: usize,
}

impl<'a> Iterator for Lines<'a> {
    type Item = &'a str;

    fn next(&mut self) -> Option<&'a str> {
        let bytes = self.text.as_bytes();
        let start = self.at;
        if start >= bytes.len() {
            return None;
        }
        // In valid UTF-8 these byte patterns can only be the boundary characters themselves:
        // U+0085 is C2 85, U+2028 and U+2029 are E2 80 A8 and E2 80 A9.
        let mut index = start;
        while index < bytes.len() {
            let width = match bytes[index] {
                b'\n' | 0x0b | 0x0c | 0x1c | 0x1d | 0x1e => 1,
                b'\r' if bytes.get(index + 1) == Some(&b'\n') => 2,
                b'\r' => 1,
                0xc2 if bytes.get(index + 1) == Some(&0x85) => 2,
                0xe2 if bytes.get(index + 1) == Some(&0x80)
                    && matches!(bytes.get(index + 2), Some(0xa8 | 0xa9)) =>
                {
                    3
                }
                _ => {
                    index += 1;
                    continue;
                }
            };
            self.at = index + width;
            return Some(&self.text[start..index]);
        }
        self.at = bytes.len();
        Some(&self.text[start..])
    }
}

/// `len(text)`: the number of code points.
pub fn char_len(text: &str) -> usize {
    text.chars().count()
}

/// `text[:count]`: the first `count` code points.
pub fn char_prefix(text: &str, count: usize) -> &str {
    match text.char_indices().nth(count) {
        Some((index, _)) => &text[..index],
        None => text,
    }
}

/// `str.isprintable()` for one character (CPython 3.12, Unicode 15.0).
pub fn is_printable(c: char) -> bool {
    let code = c as u32;
    if code < 0x7f {
        return code >= 0x20;
    }
    !in_ranges(tables::UNPRINTABLE, code)
}

/// Whether Python's `re` matches `c` with `\w` (`str.isalnum()` or `_`, CPython 3.12).
pub fn is_python_word(c: char) -> bool {
    let code = c as u32;
    if code < 0x80 {
        return c.is_ascii_alphanumeric() || c == '_';
    }
    in_ranges(word_table::WORD, code)
}

/// Whether `code` lies in one of the sorted, disjoint inclusive `ranges`.
fn in_ranges(ranges: &[(u32, u32)], code: u32) -> bool {
    ranges
        .binary_search_by(|&(low, high)| {
            if high < code {
                std::cmp::Ordering::Less
            } else if low > code {
                std::cmp::Ordering::Greater
            } else {
                std::cmp::Ordering::Equal
            }
        })
        .is_ok()
}

/// `repr(text)` for a `str`: single quotes unless the text holds a single quote and no double
/// quote, with CPython's escapes.
pub fn repr(text: &str) -> String {
    let quote = if text.contains('\'') && !text.contains('"') {
        '"'
    } else {
        '\''
    };
    let mut out = String::with_capacity(text.len() + 2);
    out.push(quote);
    for c in text.chars() {
        match c {
            '\\' => out.push_str("\\\\"),
            '\t' => out.push_str("\\t"),
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            c if c == quote => {
                out.push('\\');
                out.push(c);
            }
            c if is_printable(c) => out.push(c),
            c => {
                let code = c as u32;
                // Writing to a String cannot fail.
                let _ = if code < 0x100 {
                    write!(out, "\\x{code:02x}")
                } else if code < 0x10000 {
                    write!(out, "\\u{code:04x}")
                } else {
                    write!(out, "\\U{code:08x}")
                };
            }
        }
    }
    out.push(quote);
    out
}

/// Appends `html.escape(text, quote)` to `out`.
pub fn html_escape_into(out: &mut String, text: &str, quote: bool) {
    let mut last = 0;
    for (index, byte) in text.bytes().enumerate() {
        let replacement = match byte {
            b'&' => "&amp;",
            b'<' => "&lt;",
            b'>' => "&gt;",
            b'"' if quote => "&quot;",
            b'\'' if quote => "&#x27;",
            _ => continue,
        };
        out.push_str(&text[last..index]);
        out.push_str(replacement);
        last = index + 1;
    }
    out.push_str(&text[last..]);
}

/// `html.escape(text, quote)`.
pub fn html_escape(text: &str, quote: bool) -> String {
    let mut out = String::with_capacity(text.len());
    html_escape_into(&mut out, text, quote);
    out
}

/// `int(text)` in base 10, or `None` where Python raises. Values beyond `i64` saturate: every
/// caller only range-checks them. Non-ASCII decimal digits, which Python also accepts, are refused.
pub fn parse_int(text: &str) -> Option<i64> {
    let body = strip(text);
    let (negative, digits) = match body.as_bytes().first() {
        Some(b'-') => (true, &body[1..]),
        Some(b'+') => (false, &body[1..]),
        _ => (false, body),
    };
    // Underscores may only separate digits: no leading, trailing or doubled underscore.
    if digits.is_empty() || digits.starts_with('_') || digits.ends_with('_') {
        return None;
    }
    let mut value: i64 = 0;
    let mut previous_underscore = false;
    for byte in digits.bytes() {
        match byte {
            b'_' if !previous_underscore => previous_underscore = true,
            b'0'..=b'9' => {
                previous_underscore = false;
                let digit = i64::from(byte - b'0');
                value = value.saturating_mul(10).saturating_add(digit);
            }
            _ => return None,
        }
    }
    Some(if negative { -value } else { value })
}

/// The `ValueError` text of a failed `int(text)`: CPython cuts the repr to 200 characters.
pub fn int_error(text: &str) -> String {
    format!(
        "invalid literal for int() with base 10: {}",
        char_prefix(&repr(text), 200)
    )
}

/// `str(error)` of the `UnicodeDecodeError` raised by `bytes.decode("utf-8")` (strict).
pub fn utf8_error(bytes: &[u8], error: &std::str::Utf8Error) -> String {
    let start = error.valid_up_to();
    let (end, reason) = match error.error_len() {
        None => (bytes.len(), "unexpected end of data"),
        Some(length) => {
            let lead = bytes.get(start).copied().unwrap_or(0);
            // CPython calls a byte that can never begin a sequence an invalid start byte; every
            // other failure is reported at the continuation byte that broke the sequence.
            let reason = if length == 1 && !(0xc2..=0xf4).contains(&lead) {
                "invalid start byte"
            } else {
                "invalid continuation byte"
            };
            (start + length, reason)
        }
    };
    if end - start == 1 {
        format!(
            "'utf-8' codec can't decode byte 0x{:02x} in position {start}: {reason}",
            bytes.get(start).copied().unwrap_or(0)
        )
    } else {
        format!(
            "'utf-8' codec can't decode bytes in position {start}-{}: {reason}",
            end - 1
        )
    }
}

/// `str(error)` of an `OSError`: `[Errno N] strerror` plus `: 'filename'` when Python knows it.
pub fn os_error(errno: i32, filename: Option<&str>) -> String {
    let described = std::io::Error::from_raw_os_error(errno).to_string();
    // std appends " (os error N)" to the C library's strerror text, which is what Python prints.
    let suffix = format!(" (os error {errno})");
    let strerror = described.strip_suffix(&suffix).unwrap_or(&described);
    match filename {
        Some(name) => format!("[Errno {errno}] {strerror}: {}", repr(name)),
        None => format!("[Errno {errno}] {strerror}"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Whether `c` ends a line for `str.splitlines()`.
    fn is_line_boundary(c: char) -> bool {
        matches!(
            c,
            '\n' | '\r'
                | '\u{b}'
                | '\u{c}'
                | '\u{1c}'
                | '\u{1d}'
                | '\u{1e}'
                | '\u{85}'
                | '\u{2028}'
                | '\u{2029}'
        )
    }

    /// `str.splitlines()` by its definition, one character at a time.
    fn splitlines_by_chars(text: &str) -> Vec<&str> {
        let mut lines = Vec::new();
        let mut start = 0;
        let mut chars = text.char_indices().peekable();
        while let Some((index, c)) = chars.next() {
            if !is_line_boundary(c) {
                continue;
            }
            lines.push(&text[start..index]);
            let mut end = index + c.len_utf8();
            if c == '\r' && chars.peek().is_some_and(|&(_, next)| next == '\n') {
                chars.next();
                end += 1;
            }
            start = end;
        }
        if start < text.len() {
            lines.push(&text[start..]);
        }
        lines
    }

    #[test]
    fn the_byte_scan_splits_where_the_definition_does() {
        // Every boundary, its neighbours in UTF-8 (same lead bytes, other continuations) and plain text.
        let pieces = [
            "a", "\n", "\r", "\r\n", "\u{b}", "\u{c}", "\u{1c}", "\u{1d}", "\u{1e}", "\u{1f}",
            "\u{85}", "\u{84}", "\u{86}", "\u{2028}", "\u{2029}", "\u{2027}", "\u{202a}",
            "\u{2000}", "é", "€", "😀", " ", "---",
        ];
        let mut seed: u64 = 0x9e37_79b9_7f4a_7c15;
        for _ in 0..20_000 {
            let mut text = String::new();
            for _ in 0..(seed % 12) {
                seed ^= seed << 13;
                seed ^= seed >> 7;
                seed ^= seed << 17;
                text.push_str(pieces[(seed % pieces.len() as u64) as usize]);
            }
            seed = seed.wrapping_add(1);
            assert_eq!(splitlines(&text), splitlines_by_chars(&text), "{text:?}");
        }
    }

    #[test]
    fn splitlines_matches_python() {
        assert_eq!(splitlines(""), Vec::<&str>::new());
        assert_eq!(splitlines("\n"), vec![""]);
        assert_eq!(splitlines("a\r\nb\rc\n"), vec!["a", "b", "c"]);
        assert_eq!(
            splitlines("a\u{b}b\u{c}c\u{1c}d\u{1d}e\u{1e}f\u{85}g\u{2028}h\u{2029}i"),
            vec!["a", "b", "c", "d", "e", "f", "g", "h", "i"]
        );
        assert_eq!(splitlines("a\u{1f}b"), vec!["a\u{1f}b"]);
        assert_eq!(splitlines("a\n\nb"), vec!["a", "", "b"]);
    }

    #[test]
    fn strip_uses_python_whitespace() {
        assert_eq!(strip("\u{1f}\u{3000} x \u{85}"), "x");
        assert_eq!(strip("\u{feff}x"), "\u{feff}x");
        assert_eq!(rstrip("--- \t"), "---");
    }

    #[test]
    fn repr_picks_quotes_and_escapes() {
        assert_eq!(repr("abc"), "'abc'");
        assert_eq!(repr("it's"), "\"it's\"");
        assert_eq!(repr("'\""), "'\\'\"'");
        assert_eq!(repr("a\\b\n\t\r"), "'a\\\\b\\n\\t\\r'");
        assert_eq!(repr("\u{0}\u{7f}\u{85}\u{a0}é"), "'\\x00\\x7f\\x85\\xa0é'");
        assert_eq!(repr("\u{2028}\u{e000}"), "'\\u2028\\ue000'");
        assert_eq!(repr("\u{f0000}😀"), "'\\U000f0000😀'");
    }

    #[test]
    fn html_escape_matches_python() {
        assert_eq!(
            html_escape("<a href=\"x\">'&'</a>", true),
            "&lt;a href=&quot;x&quot;&gt;&#x27;&amp;&#x27;&lt;/a&gt;"
        );
        assert_eq!(html_escape("\"'", false), "\"'");
    }

    #[test]
    fn parse_int_follows_python() {
        assert_eq!(parse_int(" 10_000\n"), Some(10000));
        assert_eq!(parse_int("+7"), Some(7));
        assert_eq!(parse_int("-3"), Some(-3));
        assert_eq!(parse_int("1__0"), None);
        assert_eq!(parse_int("_1"), None);
        assert_eq!(parse_int("1.0"), None);
        assert_eq!(parse_int(""), None);
        assert_eq!(parse_int("99999999999999999999999"), Some(i64::MAX));
        assert_eq!(
            int_error("x"),
            "invalid literal for int() with base 10: 'x'"
        );
    }

    #[test]
    fn utf8_errors_read_like_python() {
        let cases: &[(&[u8], &str)] = &[
            (
                b"\xff",
                "'utf-8' codec can't decode byte 0xff in position 0: invalid start byte",
            ),
            (
                b"a\xe2\x82",
                "'utf-8' codec can't decode bytes in position 1-2: unexpected end of data",
            ),
            (
                b"\xe2\x41",
                "'utf-8' codec can't decode byte 0xe2 in position 0: invalid continuation byte",
            ),
            (
                b"\xe2\x82\x41",
                "'utf-8' codec can't decode bytes in position 0-1: invalid continuation byte",
            ),
            (
                b"\xed\xa0\x80",
                "'utf-8' codec can't decode byte 0xed in position 0: invalid continuation byte",
            ),
        ];
        for (bytes, expected) in cases {
            let Err(error) = std::str::from_utf8(bytes) else {
                panic!("{bytes:?} should not decode");
            };
            assert_eq!(&utf8_error(bytes, &error), expected);
        }
    }

    #[test]
    fn os_errors_read_like_python() {
        assert_eq!(
            os_error(13, Some("secret")),
            "[Errno 13] Permission denied: 'secret'"
        );
        assert_eq!(os_error(2, None), "[Errno 2] No such file or directory");
    }
}
