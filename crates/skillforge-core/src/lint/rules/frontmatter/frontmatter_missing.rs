use crate::frontmatter::yaml::LayoutError;
use crate::lint::{Finding, SkillContext};

crate::declare_rule! {
    /// ## What it does
    /// Flags a SKILL.md that has no frontmatter block at all.
    ///
    /// ## Why it matters
    /// The specification requires YAML frontmatter with at least `name` and `description`. skills-ref
    /// reports the skill invalid, 10xGraph skips it, and upload refuses it; only lenient clients fall back to
    /// the folder name and the first body line.
    ///
    /// ## Example
    /// ```markdown
    /// # PDF tools
    /// Extract text from PDFs.
    /// ```
    ///
    /// ## Fix
    /// Start the file with a frontmatter block:
    /// ```markdown
    /// ---
    /// name: pdf-tools
    /// description: Extract text from PDFs. Use when the user mentions PDF files.
    /// ---
    /// ```
    RULE {
        name: "frontmatter-missing",
        group: "frontmatter",
        severity: Error,
        profiles: [Spec, Tenxgraph, ClaudeUpload, Codex, Copilot, Opencode],
        fix: None,
        check: check,
    }
}

fn check(context: &SkillContext<'_>, findings: &mut Vec<Finding>) {
    if matches!(context.layout, Err(LayoutError::Missing)) {
        findings.push(Finding::new(
            context.frontmatter_anchor(),
            "SKILL.md has no frontmatter: it must start with a `---` line, the YAML fields, and a closing `---` line",
        ));
    }
}
