use std::collections::BTreeSet;

use super::claude_fields;
use crate::clients::claude_code::fields::{argument_names, placeholders, PlaceholderKind};
use crate::lint::{Finding, SkillContext};
use crate::text::TextRange;

crate::declare_rule! {
    /// ## What it does
    /// Flags positional placeholders that skip an index, such as `$1` and `$2` without `$0`: the mark of
    /// arguments counted from 1.
    ///
    /// ## Why it matters
    /// Claude Code 2.1.332 counts arguments from `$0` (`$ARGUMENTS[0]`): invoked with `foo bar`, `$0` became
    /// `foo` and `$1` `bar`. A body using `$1` and `$2` and invoked with two arguments kept `$2` as
    /// written and never showed the first argument where it was meant to go.
    ///
    /// ## Example
    /// ```markdown
    /// Compare $1 with $2.
    /// ```
    ///
    /// ## Fix
    /// Count from zero: `Compare $0 with $1.`
    RULE {
        name: "argument-index-skipped",
        group: "fields",
        severity: Warning,
        profiles: [ClaudeCode],
        fix: None,
        check: check,
    }
}

fn check(context: &SkillContext<'_>, findings: &mut Vec<Finding>) {
    let parsed = claude_fields(context);
    let names = argument_names(parsed.get("arguments"));
    let found = placeholders(context.body(), &names);
    let indices: BTreeSet<usize> = found
        .iter()
        .filter_map(|placeholder| match placeholder.kind {
            PlaceholderKind::Index(index) => Some(index),
            _ => None,
        })
        .collect();
    // With as many arguments as distinct indices, every index below that count is filled; one at or past
    // it means a lower index was skipped.
    let count = indices.len();
    let Some(first_past) = found.iter().find(
        |placeholder| matches!(placeholder.kind, PlaceholderKind::Index(index) if index >= count),
    ) else {
        return;
    };
    let missing: Vec<String> = (0..count)
        .filter(|index| !indices.contains(index))
        .map(|index| format!("${index}"))
        .collect();
    let offset = context.body_range().start();
    let range = TextRange::new(offset + first_past.start, offset + first_past.end);
    findings.push(Finding::new(
        range,
        format!(
            "`{}` with {} never used: Claude Code counts arguments from `$0`, so {count} argument{} leave this placeholder as written",
            range.slice(context.source),
            missing.join(", "),
            if count == 1 { "" } else { "s" }
        ),
    ));
}
