use crate::frontmatter::yaml::LayoutError;
use crate::lint::{Finding, ProfileId, SkillContext};

crate::declare_rule! {
    /// ## What it does
    /// Flags a SKILL.md that has no frontmatter block at all.
    ///
    /// ## Why it matters
    /// The specification requires YAML frontmatter with at least `name` and `description`. skills-ref
    /// reports the skill invalid, 10xGraph skips it, and upload refuses it; only lenient clients fall back to
    /// the folder name and the first body line.
    ///
    /// For `gemini` it flags every file in which Gemini CLI's frontmatter expression finds no block (a BOM,
    /// a blank first line, `--- ` with a trailing blank, a lone CR, no later line starting with `---`): Gemini
    /// drops such a skill without a word.
    ///
    /// For `codex` it also flags a file whose opening `---` ends in a lone carriage return: Codex splits
    /// lines at LF only, so its line 1 runs on past the `---` and it skips the skill (see `cr-line-endings`).
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
        profiles: [Spec, Tenxgraph, ClaudeUpload, Codex, Copilot, Opencode, Gemini],
        fix: None,
        check: check,
    }
}

fn check(context: &SkillContext<'_>, findings: &mut Vec<Finding>) {
    // Gemini CLI matches its own regular expression on the file as read: a BOM, a blank first line, `--- `
    // or a lone CR leave it no block, and any line starting with `---` closes one. Its finding stands
    // alone, whatever the other clients see.
    if context.selects(&[ProfileId::Gemini])
        && crate::clients::gemini::frontmatter::frontmatter_block(context.source).is_none()
    {
        findings.push(
            Finding::new(
                context.frontmatter_anchor(),
                crate::clients::gemini::Drop::NoFrontmatter.to_string(),
            )
            .for_profiles(vec![ProfileId::Gemini]),
        );
    }
    let from = findings.len();
    check_yaml(context, findings);
    super::super::not_for_gemini(findings, from);
}

fn check_yaml(context: &SkillContext<'_>, findings: &mut Vec<Finding>) {
    let missing = matches!(context.layout, Err(LayoutError::Missing));
    // gray-matter wants `---` at the very start: an indented or spaced opener the layout accepts is none.
    if !missing
        && context.selects(&[ProfileId::Opencode])
        && *context.opencode() == Err(crate::clients::opencode::Drop::NoBlock)
    {
        findings.push(
            Finding::new(
                context.frontmatter_anchor(),
                "OpenCode drops this skill: the file does not start with `---` exactly (gray-matter's opener), so it \
                 finds no frontmatter and no `name`",
            )
            .for_profiles(vec![ProfileId::Opencode]),
        );
    }
    if missing {
        findings.push(Finding::new(
            context.frontmatter_anchor(),
            "SKILL.md has no frontmatter: it must start with a `---` line, the YAML fields, and a closing `---` line",
        ));
    } else if super::lf_only_difference(context) == Some(super::LfOnlySplit::Missing) {
        findings.push(
            Finding::new(
                context.frontmatter_anchor(),
                "Codex reads lines at LF only: the opening `---` ends in a lone carriage return, so its line 1 \
                 runs on and it finds no frontmatter (convert the line endings to LF)",
            )
            .for_profiles(vec![ProfileId::Codex]),
        );
    }
}
