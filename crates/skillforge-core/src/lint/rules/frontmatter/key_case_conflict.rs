use crate::lint::profile::SPEC_FIELDS;
use crate::lint::{Applicability, Finding, SkillContext, TextEdit};

crate::declare_rule! {
    /// ## What it does
    /// Flags top-level keys that differ from another key, or from a specification field, only in letter
    /// case: `Name`, `Description`, or both `name` and `NAME`.
    ///
    /// ## Why it matters
    /// Keys are case-sensitive: `Description:` is an unknown field and the skill has no description at all.
    ///
    /// ## Example
    /// ```yaml
    /// Name: pdf-tools
    /// Description: Extract text from PDFs.
    /// ```
    ///
    /// ## Fix
    /// Write the key in lowercase (unsafe when both spellings exist: one value will replace the other).
    RULE {
        name: "key-case-conflict",
        group: "frontmatter",
        severity: Error,
        profiles: [Spec, Nagents, Tenxgraph, ClaudeCode, ClaudeUpload, Codex, Copilot, Opencode],
        fix: Unsafe,
        check: check,
    }
}

fn check(context: &SkillContext<'_>, findings: &mut Vec<Finding>) {
    let Some(entries) = context.frontmatter().and_then(|root| root.entries()) else {
        return;
    };
    let keys: Vec<&str> = entries
        .iter()
        .filter_map(|entry| entry.key.as_scalar().map(|(key, _)| key))
        .collect();
    for entry in entries {
        let Some((key, _)) = entry.key.as_scalar() else {
            continue;
        };
        let lower = key.to_lowercase();
        if lower == key {
            continue;
        }
        let twin = keys
            .iter()
            .find(|other| **other != key && other.to_lowercase() == lower);
        let known = SPEC_FIELDS.contains(&lower.as_str());
        if twin.is_none() && !known {
            continue;
        }
        let message = match twin {
            Some(twin) => format!("`{key}` and `{twin}` differ only in case; keys are case-sensitive"),
            None => format!("`{key}` is not `{lower}`: keys are case-sensitive, so clients do not read this field"),
        };
        findings.push(Finding::new(entry.key.range, message).with_fix(
            format!("Rename to `{lower}`"),
            Applicability::Unsafe,
            vec![TextEdit {
                range: entry.key.range,
                replacement: lower.clone(),
            }],
        ));
    }
}
