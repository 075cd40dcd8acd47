//! `$name` references in a user's message, found exactly as nagents finds them.
//!
//! nagents uses `(?<![\w$\\])\$([A-Za-z0-9_-]{1,64})(?![\w-])` with Python's Unicode `\w`. Rust's
//! `regex` has no look-around, so the rule is applied by hand. Because every character the name
//! class accepts is also refused by the look-ahead, backtracking to a shorter name can never
//! succeed: the only candidate at a `$` is its longest run of name characters, capped at 64.

use crate::python::is_python_word;

/// At most this many distinct references are tried per message; later ones are ignored.
pub const MAX_REFERENCES: usize = 32;
/// The longest name the pattern captures.
const MAX_NAME_LEN: usize = 64;

fn is_name_byte(byte: u8) -> bool {
    byte.is_ascii_alphanumeric() || byte == b'_' || byte == b'-'
}

/// Every match of the reference pattern, in order, repeats included (Python's `finditer`).
pub fn reference_matches(text: &str) -> Vec<&str> {
    let bytes = text.as_bytes();
    let mut found = Vec::new();
    let mut previous: Option<char> = None;
    let mut index = 0;
    while index < bytes.len() {
        // Name characters are ASCII, so the scan can step through bytes and decode only where a
        // neighbour's class matters.
        let Some(c) = text[index..].chars().next() else {
            break;
        };
        if c == '$' && !previous.is_some_and(|p| p == '$' || p == '\\' || is_python_word(p)) {
            let start = index + 1;
            let run = bytes[start..]
                .iter()
                .take(MAX_NAME_LEN)
                .take_while(|byte| is_name_byte(**byte))
                .count();
            let end = start + run;
            let next = text[end..].chars().next();
            if run > 0 && !next.is_some_and(|n| n == '-' || is_python_word(n)) {
                found.push(&text[start..end]);
                // A match consumes its text; the scan resumes after the name.
                previous = text[..end].chars().next_back();
                index = end;
                continue;
            }
        }
        previous = Some(c);
        index += c.len_utf8();
    }
    found
}

/// nagents' `explicit_skill_names`: distinct references in order of first appearance.
pub fn explicit_skill_names(text: &str) -> Vec<String> {
    let mut names: Vec<String> = Vec::new();
    for name in reference_matches(text) {
        if !names.iter().any(|seen| seen == name) {
            names.push(name.to_string());
        }
    }
    names
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn finds_plain_references_in_order_without_repeats() {
        assert_eq!(explicit_skill_names("use $b then $a and $b"), ["b", "a"]);
        assert_eq!(
            explicit_skill_names("($pdf-tools), $x."),
            ["pdf-tools", "x"]
        );
        assert_eq!(explicit_skill_names("$a-"), ["a-"]);
        assert!(explicit_skill_names("").is_empty());
    }

    #[test]
    fn respects_the_look_behind() {
        for text in ["\\$x", "a$x", "$$x", "é$x", "_$x", "٣$x"] {
            assert!(explicit_skill_names(text).is_empty(), "{text:?}");
        }
        for text in ["-$x", " $x", ".$x", "\u{93e}$x", "€$x"] {
            assert_eq!(explicit_skill_names(text), ["x"], "{text:?}");
        }
    }

    #[test]
    fn respects_the_look_ahead_and_the_length_cap() {
        for text in ["$xé", "$x_é", "$x٣", "$x\u{4e00}"] {
            assert!(explicit_skill_names(text).is_empty(), "{text:?}");
        }
        // A combining mark is not `\w` to Python, although Rust calls it alphabetic.
        assert_eq!(explicit_skill_names("$x\u{93e}"), ["x"]);
        let exact = "a".repeat(64);
        assert_eq!(
            explicit_skill_names(&format!("${exact}!")),
            vec![exact.clone()]
        );
        assert!(explicit_skill_names(&format!("${exact}a")).is_empty());
    }

    #[test]
    fn a_match_consumes_its_text() {
        // After `$a` matches, the next `$` follows a name character that was consumed; Python's
        // look-behind still sees it, so `$b` is refused.
        assert_eq!(explicit_skill_names("$a$b"), ["a"]);
        assert_eq!(reference_matches("$a $a"), ["a", "a"]);
    }
}
