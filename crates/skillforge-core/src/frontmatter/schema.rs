//! The frontmatter as Rust types, for the JSON Schema that editors use to validate and complete SKILL.md
//! frontmatter (`skillforge schema`, committed at `schemas/skill-frontmatter.schema.json`).
//!
//! The schema is deliberately the union every client accepts: the specification's six fields with their
//! limits, plus Claude Code's documented extensions. Per-client strictness is the linter's job.

use std::collections::BTreeMap;

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

/// YAML frontmatter of an Agent Skill's SKILL.md.
#[derive(Debug, Clone, Serialize, Deserialize, JsonSchema)]
#[schemars(title = "Agent Skill frontmatter")]
pub struct SkillFrontmatter {
    /// Skill name: lowercase letters, digits and single hyphens, equal to the folder name.
    #[schemars(
        length(min = 1, max = 64),
        regex(pattern = r"^[a-z0-9]+(-[a-z0-9]+)*$")
    )]
    pub name: String,
    /// What the skill does and when to use it; the only text a model sees before loading the skill.
    #[schemars(length(min = 1, max = 1024))]
    pub description: String,
    /// License name or the path of a bundled license file.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub license: Option<String>,
    /// Environment requirements (products, system packages, network access).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(length(min = 1, max = 500))]
    pub compatibility: Option<String>,
    /// Extra properties as a string-to-string map.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub metadata: Option<BTreeMap<String, String>>,
    /// Pre-approved tools, space-separated (the specification); Claude Code also accepts a list.
    #[serde(
        rename = "allowed-tools",
        default,
        skip_serializing_if = "Option::is_none"
    )]
    pub allowed_tools: Option<StringOrList>,
    /// Claude Code: more guidance on when to use the skill, shown after the description in the listing.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub when_to_use: Option<String>,
    /// Claude Code: the argument hint shown in the slash-command menu.
    #[serde(
        rename = "argument-hint",
        default,
        skip_serializing_if = "Option::is_none"
    )]
    pub argument_hint: Option<String>,
    /// Claude Code: named arguments of the skill.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub arguments: Option<StringOrList>,
    /// Claude Code: when true, only the user can invoke the skill.
    #[serde(
        rename = "disable-model-invocation",
        default,
        skip_serializing_if = "Option::is_none"
    )]
    pub disable_model_invocation: Option<bool>,
    /// Claude Code: when false, the skill is hidden from the slash-command menu.
    #[serde(
        rename = "user-invocable",
        default,
        skip_serializing_if = "Option::is_none"
    )]
    pub user_invocable: Option<bool>,
    /// Claude Code: tools the skill may not use.
    #[serde(
        rename = "disallowed-tools",
        default,
        skip_serializing_if = "Option::is_none"
    )]
    pub disallowed_tools: Option<StringOrList>,
    /// Claude Code: the model to use while the skill is active.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub model: Option<String>,
    /// Claude Code: reasoning effort while the skill is active.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(extend("enum" = crate::clients::claude_code::fields::EFFORT_LEVELS))]
    pub effort: Option<String>,
    /// Claude Code: `fork` runs the skill in a separate context.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(extend("enum" = ["fork"]))]
    pub context: Option<String>,
    /// Claude Code: the subagent type used with `context: fork`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub agent: Option<String>,
    /// Claude Code: hooks scoped to the skill's lifetime.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub hooks: Option<BTreeMap<String, serde_json::Value>>,
    /// Claude Code: glob patterns limiting when the skill is offered.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub paths: Option<StringOrList>,
    /// Claude Code: the shell used for the skill's commands.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(extend("enum" = crate::clients::claude_code::fields::SHELLS))]
    pub shell: Option<String>,
}

/// A string, or a list of strings.
#[derive(Debug, Clone, Serialize, Deserialize, JsonSchema)]
#[serde(untagged)]
pub enum StringOrList {
    String(String),
    List(Vec<String>),
}

/// The schema as pretty JSON with a trailing newline, exactly as committed.
pub fn frontmatter_schema_json() -> String {
    let schema = schemars::schema_for!(SkillFrontmatter);
    let mut text = serde_json::to_string_pretty(&schema).unwrap_or_default();
    text.push('\n');
    text
}
