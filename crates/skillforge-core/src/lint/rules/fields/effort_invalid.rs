use super::{claude_field, claude_fields, shown};
use crate::clients::claude_code::fields::effort_valid;
use crate::lint::{Finding, SkillContext};

crate::declare_rule! {
    /// ## What it does
    /// Flags an `effort` that is not `low`, `medium`, `high`, `xhigh`, `max` or an integer.
    ///
    /// ## Why it matters
    /// Claude Code 2.1.332 drops any other value: its debug log says `Skill NAME has invalid effort
    /// 'extreme'` and the skill runs at the session's effort (`effort: high` sent `"effort": "high"`,
    /// `effort: extreme` kept `"medium"`). A trailing space (`"high "`) is not trimmed.
    ///
    /// ## Example
    /// ```yaml
    /// effort: extreme
    /// ```
    ///
    /// ## Fix
    /// Use one of the levels, e.g. `effort: max`.
    RULE {
        name: "effort-invalid",
        group: "fields",
        severity: Error,
        profiles: [ClaudeCode],
        fix: None,
        check: check,
    }
}

fn check(context: &SkillContext<'_>, findings: &mut Vec<Finding>) {
    let parsed = claude_fields(context);
    let Some((value, range)) = claude_field(context, parsed, "effort") else {
        return;
    };
    if !effort_valid(value) {
        findings.push(Finding::new(
            range,
            format!(
                "`effort` {} is not low, medium, high, xhigh, max or an integer; Claude Code ignores it",
                shown(value)
            ),
        ));
    }
}
