use crate::frontmatter::yaml::Style;
use crate::lint::rules::entry_lines;
use crate::lint::{Applicability, Finding, ProfileId, SkillContext, TextEdit};
use crate::text::TextRange;

crate::declare_rule! {
    /// ## What it does
    /// Flags top-level frontmatter keys a client does not know. The specification and upload allow
    /// `name`, `description`, `license`, `compatibility`, `metadata` and `allowed-tools`; Claude Code adds
    /// its own extension fields; OpenCode reads fewer.
    ///
    /// ## Why it matters
    /// skills-ref reports the skill invalid, claude.ai and the API refuse the upload, 10xGraph reports an
    /// error. Custom data belongs under `metadata`.
    ///
    /// ## Example
    /// ```yaml
    /// name: pdf-tools
    /// description: Extract text from PDFs.
    /// version: 1.2
    /// ```
    ///
    /// ## Fix
    /// Move the key under `metadata` as a quoted string (unsafe: clients that read the key at the top level,
    /// such as Claude Code for its own fields, stop seeing it).
    RULE {
        name: "unknown-field",
        group: "fields",
        severity: Error,
        profiles: [Spec, Tenxgraph, ClaudeCode, ClaudeUpload, Opencode],
        fix: Unsafe,
        check: check,
    }
}

fn check(context: &SkillContext<'_>, findings: &mut Vec<Finding>) {
    let Some(root) = context.frontmatter() else {
        return;
    };
    let Some(entries) = root.entries() else {
        return;
    };
    let metadata = root.get("metadata");
    let mut offered_new_block = false;
    for entry in entries {
        let Some((key, _)) = entry.key.as_scalar() else {
            continue;
        };
        let unknown_to: Vec<ProfileId> = RULE
            .profiles
            .iter()
            .copied()
            .filter(|profile| !profile.profile().knows_field(key))
            .collect();
        if unknown_to.is_empty() {
            continue;
        }
        // A differently-cased spec key is key-case-conflict's finding, with a better fix.
        if crate::lint::profile::SPEC_FIELDS.contains(&key.to_lowercase().as_str()) {
            continue;
        }
        let names: Vec<&str> = unknown_to.iter().map(|profile| profile.as_str()).collect();
        let mut finding = Finding::new(
            entry.key.range,
            format!(
                "`{key}` is not a frontmatter field for {}; put custom data under `metadata`",
                names.join(", ")
            ),
        )
        .for_profiles(unknown_to);
        // Without a `metadata` block, only the first move may create one; the others follow on the next pass,
        // so two moves never write two `metadata:` headers.
        let movable = metadata.is_some() || !offered_new_block;
        if let Some(edits) = movable
            .then(|| move_under_metadata(context, entry, key, metadata))
            .flatten()
        {
            offered_new_block = true;
            finding = finding.with_fix(
                format!("Move `{key}` under `metadata`"),
                Applicability::Unsafe,
                edits,
            );
        }
        findings.push(finding);
    }
}

/// Removes the entry's lines and adds `  key: "value"` under `metadata` (creating the block at the end of
/// the frontmatter when needed). Only single-line scalar values are moved automatically.
fn move_under_metadata(
    context: &SkillContext<'_>,
    entry: &crate::frontmatter::yaml::Entry,
    key: &str,
    metadata: Option<&crate::frontmatter::yaml::Entry>,
) -> Option<Vec<TextEdit>> {
    // Only keys that can be written back unquoted are moved; an empty or exotic key is left to the author.
    let simple_key = !key.is_empty()
        && key
            .bytes()
            .all(|byte| byte.is_ascii_alphanumeric() || matches!(byte, b'_' | b'-' | b'.'));
    if !simple_key || entry.key.range.is_empty() {
        return None;
    }
    let (value, style) = entry.value.as_scalar()?;
    if style.is_block() || value.contains('\n') || style != Style::Plain && !style.is_quoted() {
        return None;
    }
    let layout = context.layout.as_ref().ok()?;
    let newline = context.newline();
    // Under an existing block, the new entry takes the indentation its entries have (`metadata:` indented
    // by 4 gets 4 spaces, or the YAML would no longer parse); a new block is indented by 2.
    let indent = match metadata.and_then(|metadata| metadata.value.entries()?.last()) {
        Some(last) => {
            let lines = context.lines();
            let start = lines.line_start(lines.line_of(last.key.range.start()))?;
            let indent = context.source.get(start..last.key.range.start())?;
            if indent.is_empty() || !indent.bytes().all(|byte| byte == b' ') {
                return None;
            }
            indent.to_string()
        }
        None => "  ".to_string(),
    };
    let line = format!(
        "{indent}{key}: {}{newline}",
        crate::frontmatter::yaml::double_quoted(value)
    );
    let remove = TextEdit {
        range: entry_lines(context, entry),
        replacement: String::new(),
    };
    if !remove.range.contains_range(entry.key.range) || remove.range.is_empty() {
        return None;
    }
    let insert = match metadata {
        Some(metadata) => {
            let entries = metadata.value.entries()?;
            if matches!(
                metadata.value.value,
                crate::frontmatter::yaml::Value::Mapping { flow: true, .. }
            ) {
                return None;
            }
            let last = entries.last()?;
            let after = entry_lines(context, last).end();
            TextEdit {
                range: TextRange::empty(after),
                replacement: line,
            }
        }
        None => TextEdit {
            range: TextRange::empty(layout.close.start()),
            replacement: format!("metadata:{newline}{line}"),
        },
    };
    // Two edits touching the same spot cannot be ordered safely; leave that case to the author.
    if insert.range.start() >= remove.range.start() && insert.range.start() < remove.range.end() {
        return None;
    }
    Some(vec![remove, insert])
}
