use super::{claude_field, claude_fields};
use crate::clients::claude_code::fields::{
    allowed_tool_entries, tool_known, tool_of, tool_suggestion,
};
use crate::lint::{Applicability, Finding, SkillContext, TextEdit};

crate::declare_rule! {
    /// ## What it does
    /// Flags an `allowed-tools` entry whose tool name Claude Code does not know: a misspelling (`Bsh`),
    /// another case (`bash`), or a tool that does not exist.
    ///
    /// ## Why it matters
    /// Claude Code 2.1.332 matches tool names exactly. Typed as `/name`, a skill with
    /// `allowed-tools: Bash` let `touch out.txt` run without asking; with `bash` or `Bsh` the same call
    /// needed approval and was refused in a non-interactive run. The string, comma and list forms all
    /// grant the same.
    ///
    /// ## Example
    /// ```yaml
    /// allowed-tools: bash Read
    /// ```
    ///
    /// ## Fix
    /// Write the tool's name as Claude Code spells it (`Bash`); offered when only the case differs
    /// (unsafe: the tool starts to run without asking).
    RULE {
        name: "allowed-tools-unknown-tool",
        group: "fields",
        severity: Error,
        profiles: [ClaudeCode],
        fix: Unsafe,
        check: check,
    }
}

fn check(context: &SkillContext<'_>, findings: &mut Vec<Finding>) {
    let parsed = claude_fields(context);
    let Some((value, range)) = claude_field(context, parsed, "allowed-tools") else {
        return;
    };
    let written = range.slice(context.source);
    for entry in allowed_tool_entries(value) {
        let tool = tool_of(&entry);
        if tool_known(tool) {
            continue;
        }
        // Point at the name where it is written, when it can be found in the value.
        let at = written
            .find(tool)
            .map(|offset| {
                crate::text::TextRange::new(
                    range.start() + offset,
                    range.start() + offset + tool.len(),
                )
            })
            .unwrap_or(range);
        let mut finding = Finding::new(
            at,
            format!("Claude Code knows no tool `{tool}`; this entry grants nothing"),
        );
        if let Some(known) = tool_suggestion(tool) {
            finding = Finding::new(
                at,
                format!("Claude Code knows no tool `{tool}` (tool names are exact: `{known}`); this entry grants nothing"),
            );
            if at != range || written == tool {
                finding = finding.with_fix(
                    format!("Write `{known}`"),
                    Applicability::Unsafe,
                    vec![TextEdit {
                        range: at,
                        replacement: known.to_string(),
                    }],
                );
            }
        }
        findings.push(finding);
    }
}
