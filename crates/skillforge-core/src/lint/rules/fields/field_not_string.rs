use crate::clients::opencode;
use crate::clients::tenxgraph::pyyaml::pyyaml_plain_is_string;
use crate::frontmatter::yaml::double_quoted;
use crate::frontmatter::yaml::{Style, Value};
use crate::lint::{Applicability, Finding, ProfileId, Severity, SkillContext, TextEdit};

crate::declare_rule! {
    /// ## What it does
    /// Flags `name`, `description`, `license` or `compatibility` values that a YAML loader reads as something
    /// other than text: `name: 2024`, `description: yes`, `license: null`, or a list.
    ///
    /// ## Why it matters
    /// PyYAML (10xGraph) reads `yes`, `on`, numbers and dates as non-strings: a non-string name or description
    /// skips the skill. Codex reads a number or a boolean as its text (a warning under its profile) but
    /// refuses a list or a map as its name or description; Claude Code shows `1.50` as `1.5`. OpenCode
    /// (js-yaml 3) drops a skill whose name is not text or whose description is neither text nor absent
    /// (`description: 2024-01-02` is a date there).
    ///
    /// ## Example
    /// ```yaml
    /// name: pdf-tools
    /// description: yes
    /// ```
    ///
    /// ## Fix
    /// Quote the value (safe: the text stays exactly as written).
    RULE {
        name: "field-not-string",
        group: "fields",
        severity: Error,
        profiles: [Tenxgraph, Codex, ClaudeCode, Opencode],
        fix: Safe,
        check: check,
    }
}

/// The profiles whose clients are judged by the project's YAML typing below (OpenCode's own is modelled).
const TYPED_PROFILES: [ProfileId; 3] = [
    ProfileId::Tenxgraph,
    ProfileId::Codex,
    ProfileId::ClaudeCode,
];

fn check(context: &SkillContext<'_>, findings: &mut Vec<Finding>) {
    let first = findings.len();
    typed(context, findings);
    for finding in &mut findings[first..] {
        finding.only_profiles = Some(TYPED_PROFILES.to_vec());
    }
    if context.selects(&[ProfileId::Opencode]) {
        opencode(context, findings);
    }
}

/// OpenCode drops a skill whose `name` is not a string or whose `description` is neither a string
/// nor absent, as js-yaml 3 types them (dates are `Date`s, `yes` is text) ([`opencode::judge`]).
fn opencode(context: &SkillContext<'_>, findings: &mut Vec<Finding>) {
    let (key, kind) = match context.opencode() {
        Err(opencode::Drop::NameNotString(kind)) => ("name", *kind),
        Err(opencode::Drop::DescriptionNotString(kind)) => ("description", *kind),
        _ => return,
    };
    let range = context
        .field(key)
        .map_or_else(|| context.frontmatter_anchor(), |entry| entry.value.range);
    findings.push(
        Finding::new(
            range,
            format!("OpenCode drops this skill: `{key}` is {kind} as js-yaml reads it, not text"),
        )
        .with_severity(Severity::Error)
        .for_profiles(vec![ProfileId::Opencode]),
    );
}

fn typed(context: &SkillContext<'_>, findings: &mut Vec<Finding>) {
    for key in ["name", "description", "license", "compatibility"] {
        let Some(entry) = context.field(key) else {
            continue;
        };
        match &entry.value.value {
            Value::Scalar {
                text,
                style: Style::Plain,
            } if !text.is_empty() && !pyyaml_plain_is_string(text) => {
                let written = entry.value.range.slice(context.source);
                findings.push(
                    Finding::new(
                        entry.value.range,
                        format!(
                            "`{key}: {text}` is read as a number, boolean, date or null, not text"
                        ),
                    )
                    .with_fix(
                        "Quote the value",
                        Applicability::Safe,
                        vec![TextEdit {
                            range: entry.value.range,
                            replacement: double_quoted(written),
                        }],
                    ),
                );
            }
            Value::Sequence { .. } | Value::Mapping { .. } | Value::Alias { .. } => {
                let finding = Finding::new(
                    entry.value.range,
                    format!("`{key}` is {}, not text", entry.value.kind_name()),
                );
                // Codex refuses a list or map as its name or description (serde's typed read), where a
                // number or a boolean is only read as its text.
                findings.push(if matches!(key, "name" | "description") {
                    finding.with_severity(Severity::Error)
                } else {
                    finding
                });
            }
            _ => {}
        }
    }
}
