use crate::lint::{Applicability, Finding, SkillContext, TextEdit};
use crate::text::TextRange;

crate::declare_rule! {
    /// ## What it does
    /// Flags frontmatter without a `name`, or with an empty one.
    ///
    /// ## Why it matters
    /// `name` is required by the specification. 10xGraph skips the skill (`Skipped: 'name' is missing or
    /// empty`), upload refuses it, Copilot cannot match it to its folder. nagents, Codex and Claude Code fall
    /// back to the folder name.
    ///
    /// For `gemini` it flags only a file in which Gemini CLI finds no `name` at all: it reads the value from
    /// the YAML, else from any `name:` line (indented ones too), lists an empty one, and drops the skill
    /// without a word when there is none.
    ///
    /// ## Example
    /// ```yaml
    /// description: Extract text from PDFs.
    /// ```
    ///
    /// ## Fix
    /// Add `name:` with the folder's name (unsafe: check the folder name is the name you want).
    RULE {
        name: "name-missing",
        group: "name",
        severity: Error,
        profiles: [Spec, Tenxgraph, ClaudeUpload, Copilot, Opencode, Gemini],
        fix: Unsafe,
        check: check,
    }
}

fn check(context: &SkillContext<'_>, findings: &mut Vec<Finding>) {
    // Gemini CLI reads `name` from the YAML, else from any `name:` line: its own model says when it finds
    // none (an empty value is listed, so it is not flagged for Gemini).
    if context.selects(&[crate::lint::ProfileId::Gemini])
        && *context.gemini() == Err(crate::clients::gemini::Drop::MissingName)
    {
        findings.push(
            Finding::new(
                context.frontmatter_anchor(),
                crate::clients::gemini::Drop::MissingName.to_string(),
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
    match root.get("name") {
        Some(entry) => {
            let blank = match entry.value.as_scalar() {
                Some((text, _)) => text.trim().is_empty(),
                None => false,
            };
            if blank {
                findings.push(Finding::new(
                    TextRange::new(entry.key.range.start(), entry.value.range.end()),
                    "`name` is empty",
                ));
            }
        }
        None => {
            let Ok(layout) = &context.layout else { return };
            let mut finding = Finding::new(layout.open, "the frontmatter has no `name` field");
            let dir = &context.file.dir_name;
            if !dir.is_empty() {
                let at = layout.yaml.start();
                finding = finding.with_fix(
                    format!("Add `name: {dir}`"),
                    Applicability::Unsafe,
                    vec![TextEdit {
                        range: TextRange::empty(at),
                        replacement: format!(
                            "name: {}{}",
                            crate::frontmatter::yaml::double_quoted(dir),
                            context.newline()
                        ),
                    }],
                );
            }
            findings.push(finding);
        }
    }
}
