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
    // Count as 10xGraph does: the stripped body's lines.
    let body = context.body();
    let trimmed = body.trim();
    let count = trimmed.lines().count();
    let limit = 500;
    if count > limit {
        let offset = context.body_range().start() + (body.len() - body.trim_start().len());
        let line = context.lines.line_of(offset) + limit;
        let range = context.lines.line_range(context.source, line);
        findings.push(Finding::new(
            TextRange::new(range.start(), range.start()),
            format!("the body has {count} lines; keep it under {limit} and move details into references/"),
        ));
    }
}
