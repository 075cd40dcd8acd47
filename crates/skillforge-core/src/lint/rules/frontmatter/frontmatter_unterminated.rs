use crate::frontmatter::yaml::LayoutError;
use crate::lint::{Finding, SkillContext};

crate::declare_rule! {
    /// ## What it does
    /// Flags a frontmatter block opened with `---` on line 1 but never closed by another `---` line.
    ///
    /// ## Why it matters
    /// nagents refuses the file (`unterminated skill frontmatter`), 10xGraph and skills-ref treat it as
    /// having no frontmatter, and the whole file may be read as YAML by others.
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
    }
}
