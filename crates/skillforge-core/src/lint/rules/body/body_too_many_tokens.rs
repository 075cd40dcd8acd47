use crate::lint::{Finding, SkillContext};
use crate::text::TextRange;

crate::declare_rule! {
    /// ## What it does
    /// Flags a body estimated above 5,000 tokens (one token per four bytes of UTF-8, as nagents estimates).
    ///
    /// ## Why it matters
    /// The specification recommends under 5,000 tokens for the instructions loaded on activation. Larger
    /// bodies crowd the context window and budgeted clients truncate them.
    ///
    /// ## Example
    /// A 30 KB SKILL.md body.
    ///
    /// ## Fix
    /// Move detail into `references/` files and keep the body to the steps the model always needs.
    RULE {
        name: "body-too-many-tokens",
        group: "body",
        severity: Warning,
        profiles: [Spec],
        fix: None,
        check: check,
    }
}

fn check(context: &SkillContext<'_>, findings: &mut Vec<Finding>) {
    let bytes = context.body().len();
    let tokens = bytes.div_ceil(4);
    if tokens > 5000 {
        let start = context.body_range().start();
        findings.push(Finding::new(
            TextRange::empty(start),
            format!("the body is about {tokens} tokens ({bytes} bytes); the specification recommends under 5000"),
        ));
    }
}
