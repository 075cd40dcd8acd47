use super::name_value;
use crate::lint::{Finding, ProfileId, SkillContext};

crate::declare_rule! {
    /// ## What it does
    /// Flags a `name` longer than a client allows (64 characters for the specification and every client
    /// with a limit).
    ///
    /// ## Why it matters
    /// nagents refuses the skill, skills-ref reports it invalid, 10xGraph reports an error.
    ///
    /// ## Example
    /// ```yaml
    /// name: extract-text-and-tables-from-pdf-files-and-scanned-documents-quickly
    /// ```
    ///
    /// ## Fix
    /// Shorten the name (and rename the folder to match).
    RULE {
        name: "name-too-long",
        group: "name",
        severity: Error,
        profiles: [Spec, Nagents, Tenxgraph, ClaudeUpload, Codex, Copilot, Opencode],
        fix: None,
        check: check,
    }
}

fn check(context: &SkillContext<'_>, findings: &mut Vec<Finding>) {
    let Some((name, range)) = name_value(context) else {
        return;
    };
    let length = name.trim().chars().count();
    let over: Vec<ProfileId> = RULE
        .profiles
        .iter()
        .copied()
        .filter(|profile| {
            profile
                .profile()
                .limits
                .name_chars
                .is_some_and(|limit| length > limit)
        })
        .collect();
    if let Some(limit) = over
        .first()
        .and_then(|profile| profile.profile().limits.name_chars)
    {
        findings.push(
            Finding::new(
                range,
                format!("`name` is {length} characters; the limit is {limit}"),
            )
            .for_profiles(over),
        );
    }
}
