use crate::clients::opencode;
use crate::lint::profile::ProfileId;
use crate::lint::{Finding, SkillContext};
use crate::text::TextRange;

crate::declare_rule! {
    /// ## What it does
    /// Flags frontmatter that is not valid YAML, pointing at the character where the parser stopped.
    ///
    /// ## Why it matters
    /// skills-ref, Codex and upload refuse the skill; Claude Code loads the body with empty metadata;
    /// 10xGraph skips it unless quoting `: ` values repairs it (see `plain-scalar-colon`, reported instead).
    /// 10xGraph reads YAML with PyYAML, which accepts some text the YAML 1.2 parser refuses (a flow
    /// mapping closed at column 0) and refuses some it accepts (a list as a mapping key, an unknown
    /// tag): for the 10xgraph profile the finding is PyYAML's own error, at the position it names.
/// OpenCode reads YAML with js-yaml 3 and retries after rewriting `key: a: b` lines: for the opencode
/// profile the finding is the refusal of its model (dropped without a word by the client).
    ///
    /// ## Example
    /// ```yaml
    /// name: pdf-tools
    /// description: "Extract text
    /// ```
    ///
    /// ## Fix
    /// Correct the YAML at the reported position; quote values that contain `:`, `#`, or start with a
    /// special character.
    RULE {
        name: "yaml-invalid",
        group: "frontmatter",
        severity: Error,
        profiles: [Spec, Tenxgraph, ClaudeCode, ClaudeUpload, Codex, Copilot, Opencode, Gemini],
        fix: None,
        check: check,
    }
}

/// The profiles whose clients read YAML as the project's parser does (all of the rule's but 10xgraph
/// and OpenCode, whose own readers are modelled).
const YAML_PARSER_PROFILES: [ProfileId; 6] = [
    ProfileId::Spec,
    ProfileId::ClaudeCode,
    ProfileId::ClaudeUpload,
    ProfileId::Codex,
    ProfileId::Copilot,
    ProfileId::Gemini,
];

fn check(context: &SkillContext<'_>, findings: &mut Vec<Finding>) {
    // When quoting the `: ` lines repairs the YAML, plain-scalar-colon explains it with a fix.
    if let (Some(Err(error)), None) = (context.yaml(), &context.repaired) {
        findings.push(
            Finding::new(
                error.range,
                format!(
                    "invalid YAML in the frontmatter (line {}, column {} of the YAML): {}",
                    error.yaml_line, error.yaml_column, error.message
                ),
            )
            .for_profiles(YAML_PARSER_PROFILES.to_vec()),
        );
    }
    if context.selects(&[ProfileId::Opencode]) {
        opencode(context, findings);
    }
    if !context.selects(&[ProfileId::Tenxgraph]) {
        return;
    }
    let Some(yaml) = context.tenxgraph_yaml() else {
        return;
    };
    let Some(failure) = &yaml.loaded.yaml_failure else {
        return;
    };
    // A character PyYAML's reader refuses is yaml-control-character's finding.
    if failure.message.starts_with("unacceptable character") {
        return;
    }
    let at = yaml.start + failure.offset;
    let width = context.source[at..]
        .chars()
        .next()
        .map_or(0, char::len_utf8);
    findings.push(
        Finding::new(
            TextRange::new(at, at + width),
            format!(
                "invalid YAML in the frontmatter as 10xGraph reads it (PyYAML): {}",
                failure.message
            ),
        )
        .for_profiles(vec![ProfileId::Tenxgraph]),
    );
}

/// OpenCode reads the frontmatter with gray-matter and js-yaml 3, retried after its sanitizer
/// ([`opencode::judge`]): the finding is its refusal, whatever the project's parser thinks.
fn opencode(context: &SkillContext<'_>, findings: &mut Vec<Finding>) {
    if let Err(drop @ (opencode::Drop::Yaml(_) | opencode::Drop::Language(_))) = context.opencode()
    {
        findings.push(
            Finding::new(
                context.frontmatter_anchor(),
                format!("OpenCode drops this skill: {drop}"),
            )
            .for_profiles(vec![ProfileId::Opencode]),
        );
    }
}
