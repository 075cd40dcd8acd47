use crate::clients::claude_code;
use crate::lint::{Finding, SkillContext};

crate::declare_rule! {
    /// ## What it does
    /// Flags a skill folder whose name Claude Code cannot turn into a command: longer than 256 UTF-16
    /// units, or holding a control character, `<` or `>`.
    ///
    /// ## Why it matters
    /// Claude Code names each skill after its folder (`/folder`) and passes over a folder whose name it
    /// refuses, without a word: the skill is never listed to the model and cannot be typed (Claude Code
    /// 2.1.332, observed on the binary with the hostile folder names of the fixture trees).
    ///
    /// ## Example
    /// `.claude/skills/pdf<tools>/SKILL.md`
    ///
    /// ## Fix
    /// Rename the folder to the skill's name: lowercase letters, digits and hyphens.
    RULE {
        name: "folder-name-refused",
        group: "workspace",
        severity: Error,
        profiles: [ClaudeCode],
        fix: None,
        check: check,
    }
}

fn check(context: &SkillContext<'_>, findings: &mut Vec<Finding>) {
    if context.file.placement.nested_in.is_none()
        && !claude_code::skill::folder_offered(&context.file.dir_name)
    {
        findings.push(Finding::new(
            context.frontmatter_anchor(),
            format!(
                "the folder name {:?} is over 256 UTF-16 units or holds a control character, `<` or `>`; \
                 Claude Code does not load a skill from it",
                context.file.dir_name
            ),
        ));
    }
}
