use crate::lint::rules::contains_word;
use crate::lint::{Finding, SkillContext};

crate::declare_rule! {
    /// ## What it does
    /// Notes a `description` that says what the skill does but not when to use it (no "use when", "when",
    /// "use for", "if" or similar cue).
    ///
    /// ## Why it matters
    /// Models pick skills from the description alone. The specification's guidance is to state both what
    /// the skill does and when to use it; without a trigger the skill is used less often than it should be.
    ///
    /// ## Example
    /// ```yaml
    /// description: PDF utilities.
    /// ```
    ///
    /// ## Fix
    /// Add a sentence such as "Use when the user mentions PDF files or forms."
    RULE {
        name: "description-usage-cue-missing",
        group: "description",
        severity: Info,
        profiles: [Spec],
        fix: None,
        check: check,
    }
}

const CUES: &[&str] = &[
    "when", "use", "used", "using", "if", "for", "whenever", "trigger", "triggers", "asks",
    "before", "after",
];

fn check(context: &SkillContext<'_>, findings: &mut Vec<Finding>) {
    let Some((text, range)) = context.string_field("description") else {
        return;
    };
    if text.trim().is_empty() {
        return;
    }
    let lower = text.to_lowercase();
    if !CUES.iter().any(|cue| contains_word(&lower, cue)) {
        findings.push(Finding::new(
            range,
            "`description` does not say when to use the skill (for example \"Use when …\")",
        ));
    }
}
