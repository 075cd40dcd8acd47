use crate::lint::{Finding, SkillContext};
use crate::text::TextRange;

crate::declare_rule! {
    /// ## What it does
    /// Flags frontmatter without a `description`, or with an empty one.
    ///
    /// ## Why it matters
    /// The description is the only text a model sees before it decides to load a skill. It is required by
    /// the specification; 10xGraph skips the skill (`Skipped: 'description' is missing or empty`) and upload
    /// refuses it. nagents falls back to the first body line.
    ///
    /// For `gemini` it flags only a file in which Gemini CLI finds no `description` at all: it reads the value from
    /// the YAML, else from any `description:` line (indented ones too), lists an empty one, and drops the skill
    /// without a word when there is none.
    ///
    /// ## Example
    /// ```yaml
    /// name: pdf-tools
    /// ```
    ///
    /// ## Fix
    /// Add `description:` saying what the skill does and when to use it.
    RULE {
        name: "description-missing",
        group: "description",
        severity: Error,
        profiles: [Spec, Tenxgraph, ClaudeUpload, Codex, Copilot, Opencode, Gemini],
        fix: None,
        check: check,
    }
}

fn check(context: &SkillContext<'_>, findings: &mut Vec<Finding>) {
    // Gemini CLI reads `description` from the YAML, else from any `description:` line: its own model says when it finds
    // none (an empty value is listed, so it is not flagged for Gemini).
    if context.selects(&[crate::lint::ProfileId::Gemini])
        && *context.gemini() == Err(crate::clients::gemini::Drop::MissingDescription)
    {
        findings.push(
            Finding::new(
                context.frontmatter_anchor(),
                crate::clients::gemini::Drop::MissingDescription.to_string(),
            )
            .for_profiles(vec![crate::lint::ProfileId::Gemini]),
        );
    }
    let from = findings.len();
    check_yaml(context, findings);
    super::super::not_for_gemini(findings, from);
}

fn check_yaml(context: &SkillContext<'_>, findings: &mut Vec<Finding>) {
    let Some(root) = context.frontmatter() else {
        return;
    };
    match root.get("description") {
        Some(entry) => {
            if entry
                .value
                .as_scalar()
                .is_some_and(|(text, _)| text.trim().is_empty())
            {
                findings.push(Finding::new(
                    TextRange::new(entry.key.range.start(), entry.value.range.end()),
                    "`description` is empty",
                ));
            }
        }
        None => {
            if let Ok(layout) = &context.layout {
                findings.push(Finding::new(
                    layout.open,
                    "the frontmatter has no `description` field",
                ));
            }
        }
    }
}
