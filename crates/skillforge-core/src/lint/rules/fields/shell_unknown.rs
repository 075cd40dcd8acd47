use super::{claude_field, claude_fields, shown};
use crate::clients::claude_code::fields::shell_valid;
use crate::lint::{Finding, SkillContext};

crate::declare_rule! {
    /// ## What it does
    /// Flags a `shell` other than `bash` or `powershell`.
    ///
    /// ## Why it matters
    /// The shell runs the skill's `` !`command` `` lines. Claude Code 2.1.332 logs ``Frontmatter 'shell:
    /// fish' in NAME is not recognized. Valid values: bash, powershell. Falling back to bash.`` and runs
    /// them with bash.
    ///
    /// ## Example
    /// ```yaml
    /// shell: fish
    /// ```
    ///
    /// ## Fix
    /// Use `bash` or `powershell`, or remove the field.
    RULE {
        name: "shell-unknown",
        group: "fields",
        severity: Error,
        profiles: [ClaudeCode],
        fix: None,
        check: check,
    }
}

fn check(context: &SkillContext<'_>, findings: &mut Vec<Finding>) {
    let parsed = claude_fields(context);
    let Some((value, range)) = claude_field(context, parsed, "shell") else {
        return;
    };
    if !shell_valid(value) {
        findings.push(Finding::new(
            range,
            format!(
                "`shell` {} is not bash or powershell; Claude Code falls back to bash",
                shown(value)
            ),
        ));
    }
}
