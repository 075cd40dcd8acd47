use super::{claude_field, claude_fields, shown};
use crate::clients::claude_code::frontmatter::Js;
use crate::lint::{Applicability, Finding, SkillContext, TextEdit};

crate::declare_rule! {
    /// ## What it does
    /// Flags a `context` other than the exact text `fork`.
    ///
    /// ## Why it matters
    /// Claude Code 2.1.332 runs a skill in a subagent only for `context: fork`; with `forks` or `Fork`
    /// the binary loaded the skill into the conversation as if `context` were absent.
    ///
    /// ## Example
    /// ```yaml
    /// context: forks
    /// ```
    ///
    /// ## Fix
    /// Write `context: fork` (unsafe: the skill starts to run in a subagent), or remove the field.
    RULE {
        name: "context-not-fork",
        group: "fields",
        severity: Error,
        profiles: [ClaudeCode],
        fix: Unsafe,
        check: check,
    }
}

fn check(context: &SkillContext<'_>, findings: &mut Vec<Finding>) {
    let parsed = claude_fields(context);
    let Some((value, range)) = claude_field(context, parsed, "context") else {
        return;
    };
    if matches!(value, Js::String(text) if text == "fork") || value.is_null() {
        return;
    }
    let finding = Finding::new(
        range,
        format!(
            "`context` {} is not `fork`; Claude Code runs the skill inline",
            shown(value)
        ),
    );
    let near = matches!(value, Js::String(text) if text.trim().to_lowercase().starts_with("fork"));
    findings.push(if near {
        finding.with_fix(
            "Write `fork`",
            Applicability::Unsafe,
            vec![TextEdit {
                range,
                replacement: "fork".to_string(),
            }],
        )
    } else {
        finding
    });
}
