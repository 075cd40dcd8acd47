use super::claude_fields;
use crate::clients::claude_code::fields::{argument_names, placeholders, PlaceholderKind};
use crate::lint::{Applicability, Finding, SkillContext, TextEdit};
use crate::text::TextRange;

crate::declare_rule! {
    /// ## What it does
    /// Flags `${ARGUMENTS}`, `${0}`, `${ARGUMENTS[0]}` or `${NAME}` (for a name of `arguments`) in the body.
    ///
    /// ## Why it matters
    /// Claude Code 2.1.332 fills `$ARGUMENTS`, `$N`, `$ARGUMENTS[N]` and `$NAME` only; invoked with
    /// arguments, the binary left `${1}` and `${file}` in the text the model received, as written.
    ///
    /// ## Example
    /// ```markdown
    /// Convert ${ARGUMENTS} to PDF.
    /// ```
    ///
    /// ## Fix
    /// Drop the braces: `$ARGUMENTS` (unsafe: the text changes when the skill runs).
    RULE {
        name: "argument-placeholder-braced",
        group: "fields",
        severity: Error,
        profiles: [ClaudeCode],
        fix: Unsafe,
        check: check,
    }
}

fn check(context: &SkillContext<'_>, findings: &mut Vec<Finding>) {
    let parsed = claude_fields(context);
    let names = argument_names(parsed.get("arguments"));
    let offset = context.body_range().start();
    for placeholder in placeholders(context.body(), &names) {
        let PlaceholderKind::Braced(inner) = placeholder.kind else {
            continue;
        };
        let range = TextRange::new(offset + placeholder.start, offset + placeholder.end);
        findings.push(
            Finding::new(
                range,
                format!("`${{{inner}}}` is never filled in; Claude Code fills `${inner}`"),
            )
            .with_fix(
                format!("Write `${inner}`"),
                Applicability::Unsafe,
                vec![TextEdit {
                    range,
                    replacement: format!("${inner}"),
                }],
            ),
        );
    }
}
