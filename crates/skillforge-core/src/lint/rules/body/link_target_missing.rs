use super::resolve_inside;
use crate::lint::{Finding, SkillContext};

crate::declare_rule! {
    /// ## What it does
    /// Flags a relative link or image in the body whose file does not exist in the skill folder.
    ///
    /// ## Why it matters
    /// When the model follows the link (10xGraph's `read_skill_resource`, Claude Code's file reads), it gets
    /// an error instead of the instructions the author meant it to read.
    ///
    /// ## Example
    /// ```markdown
    /// See [the form guide](references/forms.md).
    /// ```
    /// with no `references/forms.md` next to SKILL.md.
    ///
    /// ## Fix
    /// Create the file, or correct the path (paths are relative to the skill folder).
    RULE {
        name: "link-target-missing",
        group: "body",
        severity: Warning,
        profiles: [Spec, Nagents, Tenxgraph, ClaudeCode, ClaudeUpload, Codex, Copilot, Opencode],
        fix: None,
        check: check,
    }
}

fn check(context: &SkillContext<'_>, findings: &mut Vec<Finding>) {
    // Long bodies link the same few files many times; ask the filesystem once per target.
    let mut known: std::collections::HashMap<std::path::PathBuf, bool> =
        std::collections::HashMap::new();
    for link in context.local_links() {
        let Ok(inside) = resolve_inside(&link.target) else {
            continue;
        };
        if inside.as_os_str().is_empty() {
            continue;
        }
        let exists = *known
            .entry(inside.clone())
            .or_insert_with(|| context.files.exists(context.file.dir(), &inside));
        if !exists {
            findings.push(Finding::new(
                link.range,
                format!("`{}` does not exist in the skill folder", link.target),
            ));
        }
    }
}
