use crate::lint::{Finding, SkillContext};

crate::declare_rule! {
    /// ## What it does
    /// Flags a 10xGraph `metadata.priority` that is not an integer.
    ///
    /// ## Why it matters
    /// 10xGraph orders its catalog by priority. A value such as `high` or `1.5` is reported as a warning and
    /// counted as 0, so the skill lands among the unprioritised ones.
    ///
    /// ## Example
    /// ```yaml
    /// metadata:
    ///   priority: high
    /// ```
    ///
    /// ## Fix
    /// Use a whole number, quoted as the specification wants strings: `priority: "10"`.
    RULE {
        name: "priority-not-integer",
        group: "fields",
        severity: Warning,
        profiles: [Tenxgraph],
        fix: None,
        check: check,
    }
}

fn check(context: &SkillContext<'_>, findings: &mut Vec<Finding>) {
    let Some(metadata) = context.field("metadata") else {
        return;
    };
    let Some(priority) = metadata.value.get("priority") else {
        return;
    };
    let valid = match priority.value.as_scalar() {
        Some((text, style)) => {
            let value = crate::clients::tenxgraph::pyyaml::PyValue::from_scalar(text, style);
            crate::clients::tenxgraph::pyyaml::priority_of(&value).is_some()
        }
        None => false,
    };
    if !valid {
        findings.push(Finding::new(
            priority.value.range,
            "`metadata.priority` is not an integer; 10xGraph counts it as 0",
        ));
    }
}
