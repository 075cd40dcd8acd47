use crate::lint::{Finding, SkillContext};

crate::declare_rule! {
    /// ## What it does
    /// Flags frontmatter that is not valid YAML, pointing at the character where the parser stopped.
    ///
    /// ## Why it matters
    /// skills-ref, Codex and upload refuse the skill; Claude Code loads the body with empty metadata;
    /// 10xGraph skips it unless quoting `: ` values repairs it (see `plain-scalar-colon`, reported instead).
    ///
    /// ## Example
    /// ```yaml
    /// name: pdf-tools
    /// description: "Extract text
    /// ```
    ///
    /// ## Fix
    /// Correct the YAML at the reported position; quote values that contain `:`, `#`, or start with a
    /// special character.
    RULE {
        name: "yaml-invalid",
        group: "frontmatter",
        severity: Error,
        profiles: [Spec, Tenxgraph, ClaudeCode, ClaudeUpload, Codex, Copilot, Opencode],
        fix: None,
        check: check,
    }
}

fn check(context: &SkillContext<'_>, findings: &mut Vec<Finding>) {
    let Some(Err(error)) = context.yaml() else {
        return;
    };
    // When quoting the `: ` lines repairs the YAML, plain-scalar-colon explains it with a fix.
    if context.repaired.is_some() {
        return;
    }
    findings.push(Finding::new(
        error.range,
        format!(
            "invalid YAML in the frontmatter (line {}, column {} of the YAML): {}",
            error.yaml_line, error.yaml_column, error.message
        ),
    ));
}
