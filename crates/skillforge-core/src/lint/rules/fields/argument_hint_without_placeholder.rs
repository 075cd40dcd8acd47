use super::claude_fields;
use crate::clients::claude_code::fields::{argument_names, placeholders, PlaceholderKind};
use crate::lint::{Finding, SkillContext};

crate::declare_rule! {
    /// ## What it does
    /// Flags an `argument-hint` in a skill whose body has no argument placeholder (`$ARGUMENTS`, `$0`,
    /// `$ARGUMENTS[0]`, `$NAME`).
    ///
    /// ## Why it matters
    /// The hint invites arguments, but the body never says where they go. Claude Code 2.1.332 then
    /// appends them after the body as a last line `ARGUMENTS: …`, away from the instructions that use
    /// them.
    ///
    /// ## Example
    /// ```yaml
    /// argument-hint: "[file]"
    /// ```
    ///
    /// ## Fix
    /// Put `$ARGUMENTS` (or `$0`, …) in the body where the arguments belong, or remove the hint.
    RULE {
        name: "argument-hint-without-placeholder",
        group: "fields",
        severity: Warning,
        profiles: [ClaudeCode],
        fix: None,
        check: check,
    }
}

fn check(context: &SkillContext<'_>, findings: &mut Vec<Finding>) {
    let parsed = claude_fields(context);
    if parsed
        .get("argument-hint")
        .is_none_or(|hint| hint.is_null())
    {
        return;
    }
    let names = argument_names(parsed.get("arguments"));
    let filled = placeholders(context.body(), &names)
        .iter()
        .any(|placeholder| !matches!(placeholder.kind, PlaceholderKind::Braced(_)));
    if filled {
        return;
    }
    let range = context
        .field("argument-hint")
        .map(|entry| entry.key.range)
        .unwrap_or_else(|| context.frontmatter_anchor());
    findings.push(Finding::new(
        range,
        "`argument-hint` but no `$ARGUMENTS` or `$0` in the body; Claude Code appends the arguments after the body as `ARGUMENTS: …`",
    ));
}
