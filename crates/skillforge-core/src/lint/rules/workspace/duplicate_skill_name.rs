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
    let range = context
        .field("name")
        .map_or_else(|| context.frontmatter_anchor(), |entry| entry.value.range);
    // nagents compares the names its own line parser reads, whatever a YAML reader makes of the file
    // (a `: ` in a value is fine to it), and only among the skills it loads.
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
    if let Some(other) = placement.same_name_elsewhere.first() {
        findings.push(
            Finding::new(
                range,
                format!(
                    "another skill with this name is at {other}; Codex lists both under the one name, and \
                     the model cannot tell them apart"
                ),
            )
            .for_profiles(vec![ProfileId::Codex]),
        );
        if !placement.first_of_its_name {
            findings.push(
                Finding::new(
                    range,
                    format!(
                        "another skill with this name is at {other}; Claude Code lists this one under its \
                         folder name alone"
                    ),
                )
                .for_profiles(vec![ProfileId::ClaudeCode]),
            );
        }
    }
    // 10xGraph compares the names its loader reads, among the skills it loads.
    if let Some(first) = &placement.tenxgraph_shadowed_by {
        findings.push(
            Finding::new(
                range,
                format!("10xGraph loads {first} first and skips this skill as shadowed"),
            )
            .for_profiles(vec![ProfileId::Tenxgraph]),
        );
    }
}
