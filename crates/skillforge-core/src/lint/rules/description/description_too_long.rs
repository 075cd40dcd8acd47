use std::collections::BTreeMap;

use crate::lint::{Finding, ProfileId, SkillContext};

crate::declare_rule! {
    /// ## What it does
    /// Flags a `description` longer than a client allows: 1,024 characters for the specification, Codex and
    /// upload; 1,000 for nagents, which silently cuts the rest.
    ///
    /// ## Why it matters
    /// Strict clients reject the skill; nagents truncates it, so the "when to use" sentence at the end is
    /// what the model never sees.
    ///
    /// ## Example
    /// A description of 1,100 characters.
    ///
    /// ## Fix
    /// Shorten it; move detail into the body, which is loaded only when the skill is used.
    RULE {
        name: "description-too-long",
        group: "description",
        severity: Error,
        profiles: [Spec, Nagents, Tenxgraph, ClaudeUpload, Codex, Copilot, Opencode],
        fix: None,
        check: check,
    }
}

fn check(context: &SkillContext<'_>, findings: &mut Vec<Finding>) {
    let Some((text, range)) = context.string_field("description") else {
        return;
    };
    let length = text.trim().chars().count();
    // One finding per distinct limit, so nagents' truncation and the spec's refusal read separately.
    let mut by_limit: BTreeMap<usize, Vec<ProfileId>> = BTreeMap::new();
    for profile in RULE.profiles {
        if let Some(limit) = profile.profile().limits.description_chars {
            if length > limit {
                by_limit.entry(limit).or_default().push(*profile);
            }
        }
    }
    for (limit, profiles) in by_limit {
        let consequence = if profiles == [ProfileId::Nagents] {
            "nagents cuts the rest"
        } else {
            "the skill is refused or reported invalid"
        };
        findings.push(
            Finding::new(
                range,
                format!("`description` is {length} characters; over {limit}, {consequence}"),
            )
            .for_profiles(profiles),
        );
    }
}
