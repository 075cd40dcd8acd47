use crate::clients::copilot;
use crate::lint::{Finding, SkillContext};

crate::declare_rule! {
    /// ## What it does
    /// Flags a skill that GitHub Copilot CLI refuses to load, with the message `copilot skill list`
    /// prints for it: frontmatter it cannot find, YAML its strict parser rejects (libyaml's message and
    /// position), a name or description of the wrong type, a name outside its alphabet or over 64
    /// characters, a description over 1,024 UTF-16 units, or `argument-hint`,
    /// `disable-model-invocation` or `allowed-tools` of the wrong type.
    ///
    /// ## Why it matters
    /// Copilot CLI 1.0.102 drops such a skill: it is never listed to the model and cannot be invoked. The
    /// reason shows only in `copilot skill list`, never in a session (observed on the binary; the
    /// fidelity suite compares every verdict with it). The other Copilot findings are warnings: the
    /// client loads those skills.
    ///
    /// ## Example
    /// ```yaml
    /// description: Use when: the user asks
    /// ```
    /// `failed to parse YAML frontmatter: mapping values are not allowed in this context at line 2
    /// column 22`
    ///
    /// ## Fix
    /// Quote the value, or correct the field the message names.
    RULE {
        name: "client-refuses-skill",
        group: "workspace",
        severity: Error,
        profiles: [Copilot],
        fix: None,
        check: check,
    }
}

fn check(context: &SkillContext<'_>, findings: &mut Vec<Finding>) {
    // A nested skill is never read at all (SF602 says so); invalid UTF-8 is read as U+FFFD, as the
    // client reads it.
    if context.file.placement.nested_in.is_some() || context.file.is_lowercase_skill_file() {
        return;
    }
    if let copilot::FileVerdict::Dropped(reason) = context.copilot() {
        findings.push(Finding::new(
            context.frontmatter_anchor(),
            format!(
                "GitHub Copilot CLI {} does not load this skill: {reason}",
                copilot::VERSION
            ),
        ));
    }
}
