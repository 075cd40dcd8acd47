use super::{claude_field, claude_fields};
use crate::clients::claude_code::fields::hook_problems;
use crate::lint::{Finding, SkillContext};

crate::declare_rule! {
    /// ## What it does
    /// Flags `hooks` that Claude Code cannot load: not a map of hook events, an unknown event, an event
    /// that is not a list of matchers, a matcher without a `hooks` list, a hook without a known `type` or
    /// without the text that type needs (`command` for a command hook).
    ///
    /// ## Why it matters
    /// Claude Code 2.1.332 drops an unknown event (`hooks.PreTooluse: unknown hook event; entry
    /// ignored`); for a malformed entry it logs an error and loads the skill with no hooks and no
    /// `allowed-tools` at all, so a guard the author meant to add is missing.
    ///
    /// ## Example
    /// ```yaml
    /// hooks:
    ///   PreToolUse:
    ///     matcher: Bash
    /// ```
    ///
    /// ## Fix
    /// Write each event as a list of `{matcher, hooks: [{type: command, command: …}]}` entries.
    RULE {
        name: "hooks-invalid",
        group: "fields",
        severity: Error,
        profiles: [ClaudeCode],
        fix: None,
        check: check,
    }
}

fn check(context: &SkillContext<'_>, findings: &mut Vec<Finding>) {
    let parsed = claude_fields(context);
    let Some((value, range)) = claude_field(context, parsed, "hooks") else {
        return;
    };
    for (path, problem) in hook_problems(value) {
        // Point at the event's key when it can be found.
        let at = path
            .first()
            .and_then(|event| context.field("hooks")?.value.get(event))
            .map(|entry| entry.key.range)
            .unwrap_or(range);
        let message = if problem.ends_with("ignores this entry") {
            problem
        } else {
            format!("{problem}; Claude Code does not load this entry")
        };
        findings.push(Finding::new(at, message));
    }
}
