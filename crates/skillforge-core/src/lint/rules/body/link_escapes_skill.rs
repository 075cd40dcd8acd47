use super::resolve_inside;
use crate::lint::{Finding, SkillContext};

crate::declare_rule! {
    /// ## What it does
    /// Flags a link or image path that leaves the skill folder: an absolute path, or `..` above the folder.
    ///
    /// ## Why it matters
    /// A skill is copied, zipped and uploaded as one folder. 10xGraph refuses to read outside it; after
    /// upload or installation the target is simply not there.
    ///
    /// ## Example
    /// ```markdown
    /// Follow [the shared style guide](../shared/style.md).
    /// ```
    ///
    /// ## Fix
    /// Copy the file into the skill (for example under `references/`) and link to it there.
    RULE {
        name: "link-escapes-skill",
        group: "body",
        severity: Warning,
        profiles: [Spec, Nagents, Tenxgraph, ClaudeCode, ClaudeUpload, Codex, Copilot, Opencode, Gemini],
        fix: None,
        check: check,
    }
}

fn check(context: &SkillContext<'_>, findings: &mut Vec<Finding>) {
    for link in context.local_links() {
        if let Err(reason) = resolve_inside(&link.target) {
            findings.push(Finding::new(
                link.range,
                format!(
                    "`{}` {reason}; it will not travel with the skill",
                    link.target
                ),
            ));
        }
    }
}
