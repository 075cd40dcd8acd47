use crate::lint::{Finding, ProfileId, SkillContext};

crate::declare_rule! {
    /// ## What it does
    /// Flags a skill whose `name` is also declared by another SKILL.md in the linted tree.
    ///
    /// ## Why it matters
    /// nagents' directory source fails the whole catalog on one duplicate among the skills it loads (a
    /// linked or unparsable copy does not count): no skill loads at all. 10xGraph
    /// keeps the first one it finds and reports the later one as shadowed.
    ///
    /// ## Example
    /// `skills/pdf/SKILL.md` and `skills/pdf-v2/SKILL.md`, both with `name: pdf`.
    ///
    /// ## Fix
    /// Rename one of the skills (and its folder), or delete the stale copy.
    RULE {
        name: "duplicate-skill-name",
        group: "workspace",
        severity: Error,
        profiles: [Nagents, Tenxgraph, Codex, ClaudeCode],
        fix: None,
        check: check,
    }
}

fn check(context: &SkillContext<'_>, findings: &mut Vec<Finding>) {
    let placement = &context.file.placement;
    let Some(other) = placement.same_name_elsewhere.first() else {
        return;
    };
    let range = context
        .field("name")
        .map_or_else(|| context.frontmatter_anchor(), |entry| entry.value.range);
    // nagents compares only the skills it loads: a linked or unparsable copy is no duplicate to it.
    if let Some(loaded) = placement.nagents_same_name.first() {
        findings.push(
            Finding::new(
                range,
                format!(
                    "another skill with this name is at {loaded}; nagents refuses the whole catalog"
                ),
            )
            .for_profiles(vec![ProfileId::Nagents]),
        );
    }
    findings.push(
        Finding::new(
            range,
            format!("another skill with this name is at {other}; only one of them is offered"),
        )
        .for_profiles(vec![ProfileId::Codex, ProfileId::ClaudeCode]),
    );
    if !placement.first_of_its_name {
        findings.push(
            Finding::new(
                range,
                format!("10xGraph loads {other} first and skips this skill as shadowed"),
            )
            .for_profiles(vec![ProfileId::Tenxgraph]),
        );
    }
}
