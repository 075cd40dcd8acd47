//! Client profiles as data: which rules speak for a client, at which severity, with which limits, and the
//! facts each choice rests on. `docs/profiles.md` is generated from this table.

use serde::{Deserialize, Serialize};

use super::Severity;

/// A client (or the specification) whose behaviour the linter predicts.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
pub enum ProfileId {
    #[serde(rename = "spec")]
    Spec,
    #[serde(rename = "nagents")]
    Nagents,
    #[serde(rename = "10xgraph")]
    Tenxgraph,
    #[serde(rename = "claude-code")]
    ClaudeCode,
    #[serde(rename = "claude-upload")]
    ClaudeUpload,
    #[serde(rename = "codex")]
    Codex,
    #[serde(rename = "copilot")]
    Copilot,
    #[serde(rename = "opencode")]
    Opencode,
}

impl ProfileId {
    pub const ALL: [ProfileId; 8] = [
        ProfileId::Spec,
        ProfileId::Nagents,
        ProfileId::Tenxgraph,
        ProfileId::ClaudeCode,
        ProfileId::ClaudeUpload,
        ProfileId::Codex,
        ProfileId::Copilot,
        ProfileId::Opencode,
    ];

    pub fn as_str(self) -> &'static str {
        match self {
            ProfileId::Spec => "spec",
            ProfileId::Nagents => "nagents",
            ProfileId::Tenxgraph => "10xgraph",
            ProfileId::ClaudeCode => "claude-code",
            ProfileId::ClaudeUpload => "claude-upload",
            ProfileId::Codex => "codex",
            ProfileId::Copilot => "copilot",
            ProfileId::Opencode => "opencode",
        }
    }

    pub fn parse(text: &str) -> Option<ProfileId> {
        ProfileId::ALL.into_iter().find(|id| id.as_str() == text)
    }

    pub fn profile(self) -> &'static Profile {
        // PROFILES is written in ALL's order; the test below keeps it that way.
        &PROFILES[self as usize]
    }
}

impl std::fmt::Display for ProfileId {
    fn fmt(&self, formatter: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        formatter.write_str(self.as_str())
    }
}

/// Numeric limits a profile enforces; `None` when the client has no such limit.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Limits {
    pub name_chars: Option<usize>,
    pub description_chars: Option<usize>,
    pub compatibility_chars: Option<usize>,
    pub body_lines: Option<usize>,
    pub body_tokens: Option<usize>,
    /// Characters of description plus `when_to_use` shown in a listing entry.
    pub listing_chars: Option<usize>,
}

const NO_LIMITS: Limits = Limits {
    name_chars: None,
    description_chars: None,
    compatibility_chars: None,
    body_lines: None,
    body_tokens: None,
    listing_chars: None,
};

/// One profile.
#[derive(Debug)]
pub struct Profile {
    pub id: ProfileId,
    pub title: &'static str,
    /// What the profile predicts, in one sentence.
    pub summary: &'static str,
    /// Top-level frontmatter keys the client understands; others are reported as unknown.
    pub known_fields: &'static [&'static str],
    pub limits: Limits,
    /// Rule name → severity, where the client differs from the rule's default.
    pub severity_overrides: &'static [(&'static str, Severity)],
    /// The observed or documented behaviour the profile rests on, with where it was read.
    pub facts: &'static [&'static str],
}

impl Profile {
    pub fn severity_of(&self, rule: &str, default: Severity) -> Severity {
        self.severity_overrides
            .iter()
            .find(|(name, _)| *name == rule)
            .map_or(default, |(_, severity)| *severity)
    }

    pub fn knows_field(&self, key: &str) -> bool {
        self.known_fields.contains(&key)
    }
}

pub const SPEC_FIELDS: &[&str] = &[
    "name",
    "description",
    "license",
    "compatibility",
    "metadata",
    "allowed-tools",
];

const CLAUDE_CODE_FIELDS: &[&str] = &[
    "name",
    "description",
    "license",
    "compatibility",
    "metadata",
    "allowed-tools",
    "when_to_use",
    "argument-hint",
    "arguments",
    "disable-model-invocation",
    "user-invocable",
    "disallowed-tools",
    "model",
    "effort",
    "context",
    "agent",
    "hooks",
    "paths",
    "shell",
];

const OPENCODE_FIELDS: &[&str] = &[
    "name",
    "description",
    "license",
    "compatibility",
    "metadata",
];

const NAGENTS_FIELDS: &[&str] = &["name", "description"];

pub static PROFILES: [Profile; 8] = [
    Profile {
        id: ProfileId::Spec,
        title: "Agent Skills specification",
        summary: "What agentskills.io requires; `skills-ref validate` 0.1.1 is the executable reference.",
        known_fields: SPEC_FIELDS,
        limits: Limits {
            name_chars: Some(64),
            description_chars: Some(1024),
            compatibility_chars: Some(500),
            body_lines: Some(500),
            body_tokens: Some(5000),
            listing_chars: None,
        },
        // skills-ref accepts `skill.md`; the clients do not (see the rule).
        severity_overrides: &[("skill-file-name-case", Severity::Warning)],
        facts: &[
            "Frontmatter fields: name, description (required), license, compatibility, metadata, allowed-tools; \
             skills-ref rejects any other top-level key (`validator.py`, ALLOWED_FIELDS).",
            "name: 1-64 characters, lowercase letters, digits and hyphens, no leading, trailing or double hyphen, \
             equal to the directory name (skills-ref compares after NFKC normalisation).",
            "description: non-empty, at most 1,024 characters; compatibility at most 500.",
            "skills-ref parses with strictyaml: every value is a string, flow collections and duplicate keys \
             are refused.",
            "The specification recommends a body under 500 lines and 5,000 tokens, details moved to references/.",
            "skills-ref reads SKILL.md with Python's universal newlines: LF, CRLF and a lone CR all end a line \
             (`parser.py`, `read_text`); like YAML 1.2, the linter's line model breaks at all three.",
            "skills-ref's `find_skill_md` tries `SKILL.md`, then `skill.md`, and validates either.",
        ],
    },
    Profile {
        id: ProfileId::Nagents,
        title: "nagents 0.25.2",
        summary: "The lite line parser of nagents' directory source: no YAML, single-line name and description.",
        known_fields: NAGENTS_FIELDS,
        limits: Limits {
            name_chars: Some(64),
            description_chars: Some(1000),
            ..NO_LIMITS
        },
        severity_overrides: &[("description-too-long", Severity::Warning)],
        facts: &[
            "`parse_skill_metadata` reads only unindented `name:` and `description:` lines; a value starting with \
             one of `|>{[&*!` is refused: `use one single-line description value` (`nagents/skills/types.py`).",
            "Names must match `[A-Za-z0-9_-]{1,64}`; descriptions are cut to 1,000 characters.",
            "One duplicate name in a directory source makes the whole `discover()` fail.",
            "A UTF-8 byte-order mark is not stripped, so such a file has no frontmatter for nagents.",
            "Lines come from `str.splitlines()`, so a lone CR ends a line; discovery compares directory entry \
             names with `SKILL.md` exactly (`sources.py`), so `skill.md` is never loaded.",
        ],
    },
    Profile {
        id: ProfileId::Tenxgraph,
        title: "10xGraph 0.10.3",
        summary: "PyYAML with a retry that quotes `: ` values; spec violations are reported but the skill loads.",
        known_fields: SPEC_FIELDS,
        limits: Limits {
            name_chars: Some(64),
            description_chars: Some(1024),
            compatibility_chars: Some(500),
            body_lines: Some(500),
            ..NO_LIMITS
        },
        // 10xGraph loads the first of two same-named skills and warns about the other.
        severity_overrides: &[("duplicate-skill-name", Severity::Warning)],
        facts: &[
            "`split_frontmatter` strips a BOM and needs `---` on line 1 (`tenxgraph/core/skills/loader.py`).",
            "`parse_frontmatter_yaml` retries once with top-level plain values containing `: ` quoted.",
            "A skill is skipped only for missing or unparseable frontmatter, a non-mapping, a missing or empty \
             name or description, or a name with whitespace, `/`, `\\` or control characters.",
            "Among several roots the earlier one wins: `Skill '{name}' is shadowed by {file} and was not loaded`.",
            "`metadata.priority` orders the catalog; a non-integer is a warning and counts as 0.",
            "`read_text` turns CRLF and a lone CR into LF before the split; discovery opens `<folder>/SKILL.md`, \
             which finds `skill.md` only on a case-insensitive filesystem.",
        ],
    },
    Profile {
        id: ProfileId::ClaudeCode,
        title: "Claude Code",
        summary: "Lenient loader with many extension fields and a per-entry listing cap.",
        known_fields: CLAUDE_CODE_FIELDS,
        limits: Limits {
            listing_chars: Some(1536),
            ..NO_LIMITS
        },
        severity_overrides: &[("yaml-invalid", Severity::Warning), ("duplicate-skill-name", Severity::Warning)],
        facts: &[
            "Extension fields: when_to_use, argument-hint, arguments, disable-model-invocation, user-invocable, \
             allowed-tools (string or list), disallowed-tools, model, effort, context, agent, hooks, paths, shell.",
            "The skill listing caps description plus when_to_use at 1,536 characters per entry.",
            "Malformed YAML still loads the body, with empty metadata: the name falls back to the folder.",
        ],
    },
    Profile {
        id: ProfileId::ClaudeUpload,
        title: "claude.ai / API upload and package_skill.py",
        summary: "Strict upload validation: only the six spec keys, no reserved words, no XML tags.",
        known_fields: SPEC_FIELDS,
        limits: Limits {
            name_chars: Some(64),
            description_chars: Some(1024),
            compatibility_chars: Some(500),
            ..NO_LIMITS
        },
        severity_overrides: &[],
        facts: &[
            "Upload and `package_skill.py` reject any top-level key beyond the six spec fields.",
            "API skill names must not contain \"anthropic\" or \"claude\".",
            "Descriptions must not contain XML tags.",
            "`quick_validate.py` opens `<folder>/SKILL.md` and reads it with universal newlines (`read_text()`), \
             so CRLF and lone-CR files pass it and `skill.md` is found only on a case-insensitive filesystem.",
        ],
    },
    Profile {
        id: ProfileId::Codex,
        title: "Codex",
        summary: "Strict YAML; an unquoted `: ` skips the skill; the name defaults to the folder.",
        known_fields: SPEC_FIELDS,
        limits: Limits {
            name_chars: Some(64),
            description_chars: Some(1024),
            ..NO_LIMITS
        },
        severity_overrides: &[("duplicate-skill-name", Severity::Warning)],
        facts: &[
            "Skills come from `.agents/skills` up the tree, `.codex/skills` and `~/.agents/skills`; hidden entries \
             are skipped, depth at most 6.",
            "The YAML parser is strict: a plain value with `: ` is invalid and the skill is skipped.",
            "name is optional (the directory name is used), at most 64 characters; description at most 1,024, \
             collapsed to one line in the `## Skills` listing.",
            "`extract_frontmatter` splits with Rust's `str::lines` (LF or CRLF, not a lone CR): a `---` line \
             ending in a lone CR is not found and the skill is skipped; only entries named exactly `SKILL.md` \
             are read (`codex-rs/core/src/skills/loader.rs`).",
        ],
    },
    Profile {
        id: ProfileId::Copilot,
        title: "GitHub Copilot / VS Code",
        summary: "Skills in `.github/skills`, `.agents/skills`, `.claude/skills`; the name must match the folder.",
        known_fields: SPEC_FIELDS,
        limits: Limits {
            name_chars: Some(64),
            description_chars: Some(1024),
            ..NO_LIMITS
        },
        severity_overrides: &[],
        facts: &["The skill's `name` must equal its folder name, or the skill is not offered."],
    },
    Profile {
        id: ProfileId::Opencode,
        title: "OpenCode",
        summary: "Recognises name, description, license, compatibility and metadata; the catalog has no location.",
        known_fields: OPENCODE_FIELDS,
        limits: Limits {
            name_chars: Some(64),
            description_chars: Some(1024),
            ..NO_LIMITS
        },
        severity_overrides: &[("unknown-field", Severity::Warning)],
        facts: &["Only name, description, license, compatibility and metadata are read; other keys are ignored."],
    },
];

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn profiles_are_in_id_order() {
        for id in ProfileId::ALL {
            assert_eq!(id.profile().id, id);
            assert_eq!(ProfileId::parse(id.as_str()), Some(id));
        }
    }
}
