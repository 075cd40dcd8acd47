use super::claude_fields;
use crate::clients::claude_code::frontmatter::Js;
use crate::lint::{Finding, SkillContext};

crate::declare_rule! {
    /// ## What it does
    /// Flags `agent` in a skill whose `context` is not `fork`.
    ///
    /// ## Why it matters
    /// `agent` chooses the subagent a forked skill runs in. Without `context: fork`, Claude Code 2.1.332
    /// loaded the skill into the conversation and the agent had no effect (`agent: Explore` alone ran
    /// inline; with `context: fork` it ran in an Explore subagent).
    ///
    /// ## Example
    /// ```yaml
    /// agent: Explore
    /// ```
    ///
    /// ## Fix
    /// Add `context: fork`, or remove `agent`.
    RULE {
        name: "agent-without-fork",
        group: "fields",
        severity: Error,
        profiles: [ClaudeCode],
        fix: None,
        check: check,
    }
}

fn check(context: &SkillContext<'_>, findings: &mut Vec<Finding>) {
    let parsed = claude_fields(context);
    let Some(agent) = parsed.get("agent").filter(|agent| !agent.is_null()) else {
        return;
    };
    let _ = agent;
    if matches!(parsed.get("context"), Some(Js::String(text)) if text == "fork") {
        return;
    }
    let range = context
        .field("agent")
        .map(|entry| entry.key.range)
        .unwrap_or_else(|| context.frontmatter_anchor());
    findings.push(Finding::new(
        range,
        "`agent` takes effect only with `context: fork`; Claude Code runs this skill inline",
    ));
}
