use crate::frontmatter::yaml::LayoutError;
use crate::lint::{Finding, ProfileId, SkillContext};

crate::declare_rule! {
    /// ## What it does
    /// Flags a frontmatter block opened with `---` on line 1 but never closed by another `---` line.
    ///
    /// ## Why it matters
    /// nagents refuses the file (`unterminated skill frontmatter`), 10xGraph and skills-ref treat it as
    /// having no frontmatter, and the whole file may be read as YAML by others.
    ///
    /// For `codex` it also flags a closing `---` that a lone carriage return joins to another line: Codex
    /// splits lines at LF only, finds no closing line and skips the skill (see `cr-line-endings`).
    ///
    /// ## Example
    /// ```markdown
    /// ---
    /// name: pdf-tools
    /// description: Extract text from PDFs.
    /// # PDF tools
    /// ```
    ///
    /// ## Fix
    /// Add a `---` line after the last frontmatter field.
    RULE {
        name: "frontmatter-unterminated",
        group: "frontmatter",
        severity: Error,
        profiles: [Spec, Nagents, Tenxgraph, ClaudeCode, ClaudeUpload, Codex, Copilot, Opencode],
        fix: None,
        check: check,
    }
}

fn check(context: &SkillContext<'_>, findings: &mut Vec<Finding>) {
    if let Err(LayoutError::Unterminated { open }) = &context.layout {
        findings.push(Finding::new(
            *open,
            "the frontmatter opened here is never closed: add a `---` line after the last field",
        ));
    } else if let (Ok(layout), Some(super::LfOnlySplit::Unterminated)) =
        (&context.layout, super::lf_only_difference(context))
    {
        findings.push(
            Finding::new(
                layout.close,
                "Codex reads lines at LF only: a lone carriage return joins this closing `---` to another \
                 line, so it finds no closing line and skips the skill (convert the line endings to LF)",
            )
            .for_profiles(vec![ProfileId::Codex]),
        );
    }
}
