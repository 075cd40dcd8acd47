//! One skill as Claude Code 2.1.332 loads it: its listed name, its description and whether the model
//! is told about it.
//!
//! Rests on the client's code (`BQe`, `GIe`, `Ize`, `Lyn`, `yzt`, `rBn`, `Rdn`, `W3n`, the sanitiser
//! `D`/`Yv` in the 2.1.332 bundle) and on the probe projects run through the binary:
//! - the description is the frontmatter `description` trimmed (a number or boolean as its text; a list,
//!   a map, null or blank does not count), else the first non-blank line of the markdown (a heading
//!   without its `#`s, over 100 characters cut to 97 + `...`), else `Skill` (`desc-missing`,
//!   `no-frontmatter` → `Title`, `unclosed` → `---`);
//! - `when_to_use` is appended as ` - WHEN_TO_USE` (`when-to-use`, `when-to-use-only`);
//! - both go through the client's sanitiser: runs of control, format, private-use and invisible
//!   characters become one space, `<` and `>` become `&lt;` and `&gt;` (`pipe-in-value`, `cr-only`);
//! - `disable-model-invocation` true (also `"true"`, `yes`, `on`, `1`) keeps the skill out of the
//!   listing (`disable-model`, `disable-model-str`);
//! - the listed name is the folder; the frontmatter `name` (at most 256 UTF-16 units) is shown after it
//!   in parentheses when it differs, is made of letters, marks, digits, `_`, `:`, `.`, `-`, and no
//!   earlier entry already answers to it (`name-differs`, `name-upper`, `tree-duplicate-names`).

use super::frontmatter::{self, js_trim, Js};

/// The client's cap on a shown name and on a folder name (`bU`).
pub const NAME_MAX: usize = 256;
/// The client's cap on a description in the listing (`skillListingMaxDescChars` default), in UTF-16
/// units.
pub const DESCRIPTION_MAX: usize = 1536;
/// Longest first markdown line used as a description before it is cut (`Ize`).
const FALLBACK_MAX: usize = 100;

/// A skill folder the client loaded.
#[derive(Debug, Clone, PartialEq)]
pub struct Skill {
    /// The folder name: the skill's name in the listing.
    pub folder: String,
    /// The frontmatter name when it is kept (`Lyn`), else the folder name (`userFacingName`).
    pub shown_name: String,
    /// The sanitised description (before the listing's cut), `when_to_use` not included.
    pub description: String,
    /// The sanitised `when_to_use`, when one is given.
    pub when_to_use: Option<String>,
    /// `disable-model-invocation`: the model is not told about the skill.
    pub model_invocation_disabled: bool,
    /// Whether the frontmatter YAML failed both of the client's parses (it loads anyway).
    pub yaml_failed: bool,
}

impl Skill {
    /// Loads a SKILL.md's bytes (decoded as the client does: invalid UTF-8 becomes U+FFFD).
    pub fn load(folder: &str, bytes: &[u8]) -> Skill {
        let text = crate::text::decode_lossy(bytes);
        let parsed = frontmatter::parse(&text);
        let description = match parsed.get("description") {
            Some(Js::String(text)) => {
                Some(js_trim(text).to_string()).filter(|text| !text.is_empty())
            }
            Some(value @ (Js::Number(_) | Js::Bool(_))) => Some(value.to_js_string()),
            _ => None,
        }
        .unwrap_or_else(|| markdown_fallback(&parsed.content));
        let shown = match parsed.get("name") {
            Some(value) if !value.is_null() => {
                Some(value.to_js_string()).filter(|name| utf16_len(name) <= NAME_MAX)
            }
            _ => None,
        };
        let when_to_use = parsed
            .get("when_to_use")
            .filter(|value| !value.is_null())
            .map(|value| sanitize(&value.to_js_string()));
        Skill {
            folder: folder.to_string(),
            // `n || e`: an empty name is the folder's.
            shown_name: shown
                .filter(|name| !name.is_empty())
                .unwrap_or_else(|| folder.to_string()),
            description: sanitize(&description),
            when_to_use,
            model_invocation_disabled: parsed.get("disable-model-invocation").is_some_and(truthy),
            yaml_failed: parsed.failed,
        }
    }

    /// `Rdn`: the description, with ` - WHEN_TO_USE` when that is not empty.
    pub fn listing_description(&self) -> String {
        match self.when_to_use.as_deref() {
            Some(when) if !when.is_empty() => format!("{} - {when}", self.description),
            _ => self.description.clone(),
        }
    }
}

/// Whether the client offers a skill from this folder name at all (`gX`): not empty, at most 256 UTF-16
/// units, no control character and no `<` or `>`. (Names the client accepts through its other rule,
/// `gQt`, are a superset for plain names; that rule is not modelled.)
pub fn folder_offered(folder: &str) -> bool {
    !folder.is_empty()
        && utf16_len(folder) <= NAME_MAX
        && !folder.chars().any(|c| {
            matches!(c, '\0'..='\u{1f}' | '\u{7f}'..='\u{9f}' | '\u{2028}' | '\u{2029}' | '<' | '>')
        })
}

/// `DSt`: a name that may be shown after the folder.
pub fn showable_name(name: &str) -> bool {
    utf16_len(name) <= NAME_MAX
        && !name.is_empty()
        && name
            .chars()
            .all(|c| c.is_alphanumeric() || is_mark(c) || matches!(c, '_' | ':' | '.' | '-'))
}

/// `zIe` as `LDr` uses it: true, or a string or number reading `1`, `true`, `yes` or `on`.
fn truthy(value: &Js) -> bool {
    match value {
        Js::Bool(value) => *value,
        Js::String(_) | Js::Number(_) => {
            let text = value.to_js_string().to_lowercase();
            matches!(js_trim(&text), "1" | "true" | "yes" | "on")
        }
        _ => false,
    }
}

/// `Ize(content, "Skill")`.
fn markdown_fallback(content: &str) -> String {
    for line in content.split('\n') {
        let line = js_trim(line);
        if line.is_empty() {
            continue;
        }
        let text = heading_text(line).unwrap_or(line);
        if utf16_len(text) > FALLBACK_MAX {
            return format!("{}...", utf16_prefix(text, FALLBACK_MAX - 3));
        }
        return text.to_string();
    }
    "Skill".to_string()
}

/// `/^#+\s+(\S.*)$/` on a trimmed line.
fn heading_text(line: &str) -> Option<&str> {
    let rest = line.trim_start_matches('#');
    if rest.len() == line.len() {
        return None;
    }
    let text = rest.trim_start_matches(frontmatter::js_space);
    if text.len() == rest.len()
        || text.is_empty()
        || text.contains(['\n', '\r', '\u{2028}', '\u{2029}'])
    {
        return None;
    }
    Some(text)
}

/// The client's description sanitiser `D` = `RW(Yv(text, " ", {keepSpelledJoiners: true}))`.
///
/// Each run of characters in `Cc`, `Cf`, `Co`, U+2028/U+2029, the default-ignorable list and U+2800
/// becomes one space; then `<` and `>` are escaped. Modelled approximately: unassigned code points
/// (`Cn`, which need the Unicode tables Bun ships) are kept, ANSI escapes are removed as CSI/OSC
/// sequences, and joiners are kept only right after a non-ASCII symbol (the client keeps them inside
/// RGI emoji sequences).
pub fn sanitize(text: &str) -> String {
    let text = strip_ansi(text);
    let mut out = String::with_capacity(text.len());
    let mut previous: Option<char> = None;
    let mut in_run = false;
    for c in text.chars() {
        let joiner = matches!(
            c,
            '\u{200c}' | '\u{200d}' | '\u{fe0f}' | '\u{e0020}'..='\u{e007f}'
        );
        let keep_joiner =
            joiner && previous.is_some_and(|p| p as u32 > 0x2000 && !p.is_alphanumeric());
        if invisible(c) && !keep_joiner {
            // One space per run, whatever precedes it (`l.endsWith(n) ? "" : n` looks at the run only).
            if !in_run {
                out.push(' ');
            }
            in_run = true;
        } else {
            in_run = false;
            out.push(c);
        }
        previous = Some(c);
    }
    out.replace('<', "&lt;").replace('>', "&gt;")
}

/// The character class `F` of the client's sanitiser, without `Cn`.
fn invisible(c: char) -> bool {
    let code = c as u32;
    matches!(code,
        0x00..=0x1f | 0x7f..=0x9f // Cc
        | 0x2028 | 0x2029 | 0x2800
        | 0xe000..=0xf8ff | 0xf0000..=0xffffd | 0x100000..=0x10fffd // Co
        | 0xad | 0x34f | 0x61c | 0x115f | 0x1160 | 0x17b4 | 0x17b5 | 0x180b..=0x180f
        | 0x200b..=0x200f | 0x202a..=0x202e | 0x2060..=0x206f | 0x3164
        | 0xfe00..=0xfe0f | 0xfeff | 0xffa0 | 0xfff0..=0xfffb
        | 0x1107f | 0x13430..=0x1343f | 0x16fe4 | 0x1bca0..=0x1bca3 | 0x1d173..=0x1d17a
        | 0xe0000..=0xe0fff
        // Cf beyond the list above
        | 0x600..=0x605 | 0x6dd | 0x70f | 0x890 | 0x891 | 0x8e2 | 0x110bd | 0x110cd
    )
}

/// Removes ANSI escape sequences (`Bun.stripANSI`): CSI `ESC [ … final`, OSC `ESC ] … BEL|ESC \`, and a
/// two-character `ESC x`.
fn strip_ansi(text: &str) -> String {
    if !text.contains('\u{1b}') && !text.contains('\u{9b}') {
        return text.to_string();
    }
    let mut out = String::with_capacity(text.len());
    let mut chars = text.chars().peekable();
    while let Some(c) = chars.next() {
        match c {
            '\u{1b}' => match chars.peek() {
                Some('[') => {
                    chars.next();
                    for d in chars.by_ref() {
                        if ('\u{40}'..='\u{7e}').contains(&d) {
                            break;
                        }
                    }
                }
                Some(']') => {
                    chars.next();
                    while let Some(d) = chars.next() {
                        if d == '\u{7}' {
                            break;
                        }
                        if d == '\u{1b}' && chars.peek() == Some(&'\\') {
                            chars.next();
                            break;
                        }
                    }
                }
                Some(_) => {
                    chars.next();
                }
                None => {}
            },
            '\u{9b}' => {
                for d in chars.by_ref() {
                    if ('\u{40}'..='\u{7e}').contains(&d) {
                        break;
                    }
                }
            }
            other => out.push(other),
        }
    }
    out
}

/// Combining marks (`\p{M}`), approximately: the main combining blocks.
fn is_mark(c: char) -> bool {
    matches!(c as u32,
        0x300..=0x36f | 0x483..=0x489 | 0x591..=0x5bd | 0x610..=0x61a | 0x64b..=0x65f
        | 0x900..=0x903 | 0x93a..=0x94f | 0x1ab0..=0x1aff | 0x1dc0..=0x1dff | 0x20d0..=0x20ff
        | 0x302a..=0x302f | 0x3099 | 0x309a | 0xfe20..=0xfe2f)
}

/// Length in UTF-16 code units (JavaScript's `length`).
pub fn utf16_len(text: &str) -> usize {
    text.chars().map(char::len_utf16).sum()
}

/// The first `units` UTF-16 code units of `text`. A surrogate pair cut in half leaves a lone surrogate
/// in the client's string, which its request body carries as U+FFFD (`desc-astral`); so it is given here.
pub fn utf16_prefix(text: &str, units: usize) -> String {
    let mut out = String::new();
    let mut count = 0;
    for c in text.chars() {
        let width = c.len_utf16();
        if count + width > units {
            if count < units {
                out.push('\u{fffd}');
            }
            break;
        }
        out.push(c);
        count += width;
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn descriptions_fall_back_to_the_first_markdown_line() {
        let skill = Skill::load("x", b"---\nname: x\n---\n\n# Title\n");
        assert_eq!(skill.description, "Title");
        let skill = Skill::load("x", b"---\nname: x\n---\n");
        assert_eq!(skill.description, "Skill");
    }

    #[test]
    fn the_sanitiser_joins_lines_and_escapes_angles() {
        assert_eq!(sanitize("a\nb > c"), "a b &gt; c");
        assert_eq!(sanitize("a \r\r b"), "a   b");
    }

    #[test]
    fn a_cut_inside_a_surrogate_pair_leaves_a_replacement() {
        assert_eq!(utf16_prefix("a😀", 2), "a\u{fffd}");
    }
}
