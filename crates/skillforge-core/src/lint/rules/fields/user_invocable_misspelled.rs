use crate::lint::{Applicability, Finding, SkillContext, TextEdit};

crate::declare_rule! {
    /// ## What it does
    /// Flags the key `user-invokable`, a common misspelling of Claude Code's `user-invocable`.
    ///
    /// ## Why it matters
    /// Claude Code reads only `user-invocable`; the misspelled key is ignored and the skill keeps its
    /// default visibility in the slash-command menu.
    ///
    /// ## Example
    /// ```yaml
    /// user-invokable: false
    /// ```
    ///
    /// ## Fix
    /// Rename the key to `user-invocable` (unsafe: the setting starts to take effect).
    RULE {
        name: "user-invocable-misspelled",
        group: "fields",
        severity: Warning,
        profiles: [ClaudeCode],
        fix: Unsafe,
        check: check,
    }
}

fn check(context: &SkillContext<'_>, findings: &mut Vec<Finding>) {
    let Some(entry) = context.field("user-invokable") else {
        return;
    };
    findings.push(
        Finding::new(
            entry.key.range,
            "`user-invokable` is ignored; Claude Code reads `user-invocable`",
        )
        .with_fix(
            "Rename to `user-invocable`",
            Applicability::Unsafe,
            vec![TextEdit {
                range: entry.key.range,
                replacement: "user-invocable".to_string(),
            }],
        ),
    );
}
