use crate::lint::{Finding, SkillContext};

crate::declare_rule! {
    /// ## What it does
    /// Flags a `description` that is still the placeholder "New skill…" wrote ("Describe what this skill
    /// does in one sentence. Use when the user asks to …").
    ///
    /// ## Why it matters
    /// The description is the only text a model sees before it decides to load a skill. Every client
    /// accepts the placeholder, so nothing else says the skill cannot be picked for any real request:
    /// it describes no task, and its "…" names no request.
    ///
    /// ## Example
    /// ```yaml
    /// name: pdf-tools
    /// description: Describe what this skill does in one sentence. Use when the user asks to … (name the requests it should answer).
    /// ```
    ///
    /// ## Fix
    /// Replace it with what the skill does and when to use it: "Fills PDF forms and extracts their
    /// fields. Use when the user asks to fill, read or check a PDF form."
    RULE {
        name: "description-placeholder",
        group: "description",
        severity: Warning,
        profiles: [Spec, Nagents, Tenxgraph, ClaudeCode, ClaudeUpload, Codex, Copilot, Opencode, Gemini],
        fix: None,
        check: check,
    }
}

/// The words of the placeholder that mark it, whatever the rest became.
const MARKER: &str = "Describe what this skill does";

fn check(context: &SkillContext<'_>, findings: &mut Vec<Finding>) {
    let Some((text, range)) = context.string_field("description") else {
        return;
    };
    let placeholder = crate::scaffold::PLACEHOLDER_DESCRIPTION;
    if text.trim() == placeholder || text.trim_start().starts_with(MARKER) {
        findings.push(Finding::new(
            range,
            "`description` is still the placeholder of a new skill; say what the skill does and when to use it"
                .to_string(),
        ));
    }
}
