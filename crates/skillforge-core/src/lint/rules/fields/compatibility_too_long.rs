use crate::lint::{Finding, SkillContext};

crate::declare_rule! {
    /// ## What it does
    /// Flags a `compatibility` field longer than 500 characters.
    ///
    /// ## Why it matters
    /// The specification caps it at 500; skills-ref reports the skill invalid and upload refuses it.
    ///
    /// ## Example
    /// A `compatibility` that lists every supported platform in prose.
    ///
    /// ## Fix
    /// Keep it to the requirements a client must meet (tools, network, OS); move detail into the body.
    RULE {
        name: "compatibility-too-long",
        group: "fields",
        severity: Error,
        profiles: [Spec, Tenxgraph, ClaudeUpload],
        fix: None,
        check: check,
    }
}

fn check(context: &SkillContext<'_>, findings: &mut Vec<Finding>) {
    let Some((text, range)) = context.string_field("compatibility") else {
        return;
    };
    let length = text.chars().count();
    if length > 500 {
        findings.push(Finding::new(
            range,
            format!("`compatibility` is {length} characters; the limit is 500"),
        ));
    }
}
