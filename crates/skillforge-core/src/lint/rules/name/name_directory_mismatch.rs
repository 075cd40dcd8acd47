use unicode_normalization::UnicodeNormalization;

use super::name_value;
use crate::lint::{Applicability, Finding, SkillContext, TextEdit};

crate::declare_rule! {
    /// ## What it does
    /// Flags a `name` that differs from the name of the folder holding the SKILL.md.
    ///
    /// ## Why it matters
    /// The specification requires them to match; skills-ref and 10xGraph report an error and Copilot does
    /// not offer the skill. Clients that key skills by folder and by name then disagree on what exists.
    ///
    /// ## Example
    /// `skills/pdf/SKILL.md` with `name: pdf-tools`.
    ///
    /// ## Fix
    /// Rename the folder, or set `name` to the folder's name (the offered fix; unsafe because references to
    /// the old name break). No fix is offered when SKILL.md is a link: its text is another folder's skill.
    RULE {
        name: "name-directory-mismatch",
        group: "name",
        severity: Error,
        profiles: [Spec, Tenxgraph, ClaudeUpload, Copilot],
        fix: Unsafe,
        check: check,
    }
}

fn check(context: &SkillContext<'_>, findings: &mut Vec<Finding>) {
    let Some((name, range)) = name_value(context) else {
        return;
    };
    let dir = &context.file.dir_name;
    if dir.is_empty() {
        return;
    }
    // skills-ref compares both sides after NFKC normalisation.
    let normalised_name: String = name.trim().nfkc().collect();
    let normalised_dir: String = dir.nfkc().collect();
    if normalised_name == normalised_dir {
        return;
    }
    let mut finding = Finding::new(
        range,
        format!("`name` `{name}` does not match the folder name `{dir}`"),
    );
    let folder_is_valid = !dir.is_empty()
        && dir
            .bytes()
            .all(|byte| byte.is_ascii_lowercase() || byte.is_ascii_digit() || byte == b'-')
        && !dir.starts_with('-')
        && !dir.ends_with('-')
        && !dir.contains("--");
    // Through a linked SKILL.md the text belongs to another folder's skill: setting its name to this
    // folder's would rename that skill, so no fix is offered there.
    if folder_is_valid && !context.file.placement.symlinked_file {
        finding = finding.with_fix(
            format!("Set `name` to `{dir}`"),
            Applicability::Unsafe,
            vec![TextEdit {
                range,
                replacement: dir.clone(),
            }],
        );
    }
    findings.push(finding);
}
