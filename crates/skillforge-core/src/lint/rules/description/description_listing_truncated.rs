use crate::lint::{Finding, SkillContext};

crate::declare_rule! {
    /// ## What it does
    /// Flags a skill whose `description` plus `when_to_use` exceeds Claude Code's 1,536-character listing
    /// entry.
    ///
    /// ## Why it matters
    /// Claude Code cuts each listing entry at 1,536 characters; whatever comes later never reaches the
    /// model when it chooses a skill.
    ///
    /// ## Example
    /// A 1,000-character description with a 600-character `when_to_use`.
    ///
    /// ## Fix
    /// Shorten both; keep the trigger phrases near the start.
    RULE {
        name: "description-listing-truncated",
        group: "description",
        severity: Warning,
        profiles: [ClaudeCode],
        fix: None,
        check: check,
    }
}

fn check(context: &SkillContext<'_>, findings: &mut Vec<Finding>) {
    let Some((description, range)) = context.string_field("description") else {
        return;
    };
    let when = context
        .string_field("when_to_use")
        .map_or(0, |(text, _)| text.chars().count());
    let total = description.chars().count() + when;
    let Some(limit) = crate::lint::ProfileId::ClaudeCode
        .profile()
        .limits
        .listing_chars
    else {
        return;
    };
    if total > limit {
        findings.push(Finding::new(
            range,
            format!("description and when_to_use total {total} characters; Claude Code's listing shows only {limit}"),
        ));
    }
}
