use crate::lint::{Finding, SkillContext};
use crate::text::TextRange;

crate::declare_rule! {
    /// ## What it does
    /// Flags a body longer than 500 lines.
    ///
    /// ## Why it matters
    /// The whole body enters the model's context when the skill is used. The specification recommends
    /// under 500 lines, with details in `references/` files read only when needed; 10xGraph warns.
    ///
    /// ## Example
    /// A SKILL.md with a 900-line API reference pasted into it.
    ///
    /// ## Fix
    /// Move reference material into `references/*.md` and link to it from the body.
    RULE {
        name: "body-too-long",
        group: "body",
        severity: Warning,
        profiles: [Spec, Tenxgraph],
        fix: None,
        check: check,
    }
}

fn check(context: &SkillContext<'_>, findings: &mut Vec<Finding>) {
    // Count as 10xGraph does: the stripped body's lines, split as Python's `str.splitlines` splits them (a
    // lone `\r` ends a line, as it does in YAML and Markdown).
    let body = context.body();
    let limit = 500;
    // Every line but the last ends at a boundary, and every boundary holds a control byte (below 0x20) or
    // the lead byte of U+0085, U+2028 or U+2029 (0xC2, 0xE2): counting those bytes bounds the line count
    // from above in one vectorised pass, and only a body that may be too long is split exactly.
    // Counted in runs of 255 into a byte-wide total, which the compiler turns into wide vector adds.
    let most = body
        .as_bytes()
        .chunks(255)
        .map(|run| {
            run.iter().fold(0u8, |total, byte| {
                total + u8::from(*byte < 0x20 || *byte >= 0xC2)
            })
        })
        .map(usize::from)
        .sum::<usize>()
        + 1;
    if most <= limit {
        return;
    }
    let count = python_line_count(crate::python::strip(body));
    if count > limit {
        let leading = body.len() - body.trim_start_matches(crate::python::is_space).len();
        let offset = context.body_range().start() + leading;
        let line = context.lines().line_of(offset) + limit;
        let range = context.lines().line_range(context.source, line);
        findings.push(Finding::new(
            TextRange::new(range.start(), range.start()),
            format!("the body has {count} lines; keep it under {limit} and move details into references/"),
        ));
    }
}

/// `len(text.splitlines())` without collecting the lines: every line boundary Python knows (`\r\n` counted
/// once), plus a last line that has no boundary after it.
fn python_line_count(text: &str) -> usize {
    let bytes = text.as_bytes();
    let mut count = 0;
    let mut last_end = 0;
    let mut at = 0;
    while at < bytes.len() {
        let width = match bytes[at] {
            b'\r' if bytes.get(at + 1) == Some(&b'\n') => 2,
            b'\n' | b'\r' | b'\x0b' | b'\x0c' | b'\x1c' | b'\x1d' | b'\x1e' => 1,
            // U+0085, U+2028 and U+2029 in UTF-8.
            0xC2 if bytes.get(at + 1) == Some(&0x85) => 2,
            0xE2 if bytes.get(at + 1) == Some(&0x80)
                && matches!(bytes.get(at + 2), Some(0xA8 | 0xA9)) =>
            {
                3
            }
            _ => 0,
        };
        if width == 0 {
            at += 1;
        } else {
            count += 1;
            at += width;
            last_end = at;
        }
    }
    count + usize::from(last_end < bytes.len())
}

#[cfg(test)]
mod tests {
    use super::python_line_count;

    #[test]
    fn lines_are_counted_as_python_splits_them() {
        for (text, expected) in [
            ("", 0),
            ("a", 1),
            ("a\n", 1),
            ("a\nb", 2),
            ("a\r\nb\rc", 3),
            ("a\r\r\nb", 3),
            ("a\x0cb\u{85}c\u{2028}d\u{2029}", 4),
            ("\n\n", 2),
        ] {
            assert_eq!(python_line_count(text), expected, "{text:?}");
        }
    }
}
