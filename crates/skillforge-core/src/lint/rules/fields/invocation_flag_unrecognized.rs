use super::{claude_field, claude_fields, shown};
use crate::clients::claude_code::fields::flag_value;
use crate::lint::{Finding, SkillContext};

crate::declare_rule! {
    /// ## What it does
    /// Flags `user-invocable` or `disable-model-invocation` values that Claude Code reads as neither true
    /// nor false (`ture`, `nope`, a list).
    ///
    /// ## Why it matters
    /// Claude Code 2.1.332 accepts `true`/`false`, and `1`, `yes`, `on` / `0`, `no`, `off` in any case;
    /// anything else counts as false. With `disable-model-invocation: ture` the model's Skill tool call
    /// loaded the skill (with `true` it was refused); `user-invocable: nope` hides the skill from the
    /// command menu.
    ///
    /// ## Example
    /// ```yaml
    /// disable-model-invocation: ture
    /// ```
    ///
    /// ## Fix
    /// Write `true` or `false`.
    RULE {
        name: "invocation-flag-unrecognized",
        group: "fields",
        severity: Error,
        profiles: [ClaudeCode],
        fix: None,
        check: check,
    }
}

fn check(context: &SkillContext<'_>, findings: &mut Vec<Finding>) {
    let parsed = claude_fields(context);
    for key in ["user-invocable", "disable-model-invocation"] {
        let Some((value, range)) = claude_field(context, parsed, key) else {
            continue;
        };
        // An empty `disable-model-invocation` is false, its default; an empty `user-invocable` also reads
        // as false, which is not its default.
        if flag_value(value).is_some() || value.is_null() && key == "disable-model-invocation" {
            continue;
        }
        findings.push(Finding::new(
            range,
            format!(
                "`{key}` {} is neither true nor false; Claude Code reads it as false",
                shown(value)
            ),
        ));
    }
}
