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
    #[serde(rename = "gemini")]
    Gemini,
}

impl ProfileId {
    pub const ALL: [ProfileId; 9] = [
        ProfileId::Spec,
        ProfileId::Nagents,
        ProfileId::Tenxgraph,
        ProfileId::ClaudeCode,
        ProfileId::ClaudeUpload,
        ProfileId::Codex,
        ProfileId::Copilot,
        ProfileId::Opencode,
        ProfileId::Gemini,
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
            ProfileId::Gemini => "gemini",
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

/// OpenCode reads only these two; it ignores every other key.
const OPENCODE_FIELDS: &[&str] = &["name", "description"];

const NAGENTS_FIELDS: &[&str] = &["name", "description"];

const COPILOT_FIELDS: &[&str] = &[
    "name",
    "description",
    "license",
    "compatibility",
    "metadata",
    "allowed-tools",
    "argument-hint",
    "disable-model-invocation",
    "user-invocable",
];

pub static PROFILES: [Profile; 9] = [
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
            "`parse_frontmatter_yaml` retries once with top-level plain values containing `: ` quoted \
             (`json.dumps`, so every non-ASCII character is escaped).",
            "YAML is read with PyYAML 6.0's pure-Python `safe_load`, which the engine ports \
             (`clients::tenxgraph::safe_load`): a flow collection has no indentation rule, a list or mapping \
             cannot be a mapping key, `=` and unknown tags cannot be constructed, `<<` merges. An exception \
             that is not a YAML error (`!!bool maybe`, the date `2024-13-01`) stops the whole discovery.",
            "A skill is skipped only for missing or unparseable frontmatter, a non-mapping, a missing or empty \
             name or description, or a name with whitespace, `/`, `\\` or control characters.",
            "Among the skills it loads, by the name it reads, the first found wins: `Skill '{name}' is shadowed \
             by {file} and was not loaded`.",
            "`metadata.priority` orders the catalog; a non-integer is a warning and counts as 0.",
            "`read_text` turns CRLF and a lone CR into LF before the split; discovery opens `<folder>/SKILL.md`, \
             which finds `skill.md` only on a case-insensitive filesystem.",
        ],
    },
    Profile {
        id: ProfileId::ClaudeCode,
        title: "Claude Code 2.1.332",
        summary: "Modelled from the real Claude Code 2.1.332 binary: every skill loads, under its folder name; \
                  verdicts and listings are checked against the binary in `make test`.",
        known_fields: CLAUDE_CODE_FIELDS,
        limits: Limits {
            listing_chars: Some(1536),
            ..NO_LIMITS
        },
        severity_overrides: &[
            ("yaml-invalid", Severity::Warning),
            ("duplicate-skill-name", Severity::Warning),
            // Its quote retry reads the value as meant.
            ("plain-scalar-colon", Severity::Warning),
            // It ignores keys it does not know, and reads numbers and booleans as their text.
            ("unknown-field", Severity::Warning),
            ("field-not-string", Severity::Warning),
            // It reads one level below a skills folder only.
            ("nested-skill", Severity::Error),
        ],
        facts: &[
            "Verdicts come from the model of the binary (`clients::claude_code`): `tests/fidelity/test_claude_code.sh` \
             compares `listing --project` and every `lint --profile claude-code` verdict with Claude Code 2.1.332 \
             itself (docs/clients-observed.md).",
            "Skills are `<root>/<folder>/SKILL.md` of `~/.claude/skills`, then `.claude/skills` of the working folder \
             and each folder above it up to the git root; one level only (a nested skill is never read); hidden \
             folders and links are read; a SKILL.md over 1,000,000 bytes is not.",
            "A skill is listed under its folder name, `folder (name)` when the frontmatter name differs; a folder name \
             over 256 UTF-16 units or with a control character, `<` or `>` is passed over.",
            "A BOM is stripped; YAML that fails is retried with values quoted, and when that fails too the skill still \
             loads with no metadata: the description falls back to the first line of the body, else `Skill`.",
            "`when_to_use` is appended to the description; the entry is cut past 1,536 UTF-16 units; \
             `disable-model-invocation: true` keeps the skill out of the listing (it still runs as `/folder`).",
            "The listing's budget is 30,000 (the default model: 1% of a 1,000,000-token window at 3 characters per \
             token); over it, entries shrink to `- name` in listing order.",
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
            "Descriptions must not contain `<` or `>` at all (`quick_validate.py`: \"Description cannot contain angle brackets\"), tags or not.",
            "`quick_validate.py` opens `<folder>/SKILL.md` and reads it with universal newlines (`read_text()`), \
             so CRLF and lone-CR files pass it and `skill.md` is found only on a case-insensitive filesystem.",
        ],
    },
    Profile {
        id: ProfileId::Codex,
        title: "Codex 0.171.0",
        summary: "Modelled from the real Codex 0.171.0 binary: serde_yaml with the `: ` repair of 0.142.0; verdicts \
                  and listings are checked against the binary in `make test`.",
        known_fields: SPEC_FIELDS,
        limits: Limits {
            name_chars: Some(64),
            description_chars: Some(1024),
            ..NO_LIMITS
        },
        severity_overrides: &[
            ("duplicate-skill-name", Severity::Warning),
            // Since 0.142.0 a failed parse is retried with plain values quoted.
            ("plain-scalar-colon", Severity::Warning),
            // Codex takes any name of at most 64 characters, reads a scalar of any type as text, and cuts a long
            // description in its listing instead of refusing it.
            ("name-invalid-characters", Severity::Warning),
            ("field-not-string", Severity::Warning),
            ("description-too-long", Severity::Warning),
        ],
        facts: &[
            "Verdicts come from the model of the binary (`clients::codex`): `tests/fidelity/test_codex.sh` compares \
             `listing --project` with `codex debug prompt-input`, and every `lint --profile codex` verdict with what \
             `codex app-server` `skills/list` loads or reports, for Codex 0.171.0 itself (docs/clients-observed.md).",
            "Skills come from `.codex/skills` up to the git root, `.agents/skills` of the git root and every folder down \
             to the working folder, `$CODEX_HOME/skills`, `~/.agents/skills` and `/etc/codex/skills`; hidden entries \
             are skipped, depth at most 6, at most 2,000 folders a root; linked folders are followed, a linked \
             SKILL.md is not read.",
            "The frontmatter is read with serde_yaml after Rust's `str::lines` split (a lone CR ends no line); a parse \
             that fails is retried once with plain values quoted (0.142.0). A BOM, a duplicate `name` or \
             `description`, a list or map where text is expected, a missing or empty description or a name over 64 \
             characters drops the skill, with the message `skills/list` reports.",
            "name defaults to the folder name; name and description are folded to one line. The listing cuts a \
             description over 1,024 characters to 1,021 and `...`; its budget is 2% of the model's context window \
             (10,000 tokens by default, windows above 872,000 count as 872,000).",
            "`agents/openai.yaml` with `policy.allow_implicit_invocation: false` keeps a skill out of the listing; \
             `policy.products` without `codex` keeps it from loading.",
        ],
    },
    Profile {
        id: ProfileId::Copilot,
        title: "GitHub Copilot CLI 1.0.102",
        summary: "Modelled from the real GitHub Copilot CLI 1.0.102 binary: a strict serde_yaml parse with no repair; \
                  verdicts and listings are checked against the binary in `make test`.",
        known_fields: COPILOT_FIELDS,
        limits: Limits {
            name_chars: Some(64),
            description_chars: Some(1024),
            ..NO_LIMITS
        },
        // `client-refuses-skill` reports every skill the client drops, with its own message; the other rules
        // describe skills it still loads (uppercase, `_`, `.`, `:` and spaces in names, a name that differs
        // from the folder, a missing name or description, invalid UTF-8), so they are warnings here.
        severity_overrides: &[
            ("name-missing", Severity::Warning),
            ("name-hyphen-misplaced", Severity::Warning),
            ("name-directory-mismatch", Severity::Warning),
            ("name-too-long", Severity::Warning),
            ("name-invalid-characters", Severity::Warning),
            ("name-not-lowercase", Severity::Warning),
            ("description-too-long", Severity::Warning),
            ("description-missing", Severity::Warning),
            ("yaml-invalid", Severity::Warning),
            ("key-case-conflict", Severity::Warning),
            ("frontmatter-not-at-start", Severity::Warning),
            ("yaml-control-character", Severity::Warning),
            ("plain-scalar-colon", Severity::Warning),
            ("frontmatter-missing", Severity::Warning),
            ("content-not-utf8", Severity::Warning),
            ("frontmatter-not-mapping", Severity::Warning),
            ("frontmatter-unterminated", Severity::Warning),
            // It reads no folder below one that holds a SKILL.md.
            ("nested-skill", Severity::Error),
        ],
        facts: &[
            "Verdicts come from the model of the binary (`clients::copilot`): `tests/fidelity/test_copilot.sh` \
             compares `listing --project` with the skills section of the system message `copilot -p` sends, and \
             every `lint --profile copilot` verdict with `copilot skill list --json` and its load errors, for \
             Copilot CLI 1.0.102 itself (docs/clients-observed.md).",
            "Skills come from `.github/skills`, `.agents/skills` and `.claude/skills` of the working folder and of \
             every folder above it up to the git root, then `~/.copilot/skills` and `~/.agents/skills`; each root is \
             walked at any depth in byte order, the first folder holding a SKILL.md is a skill, hidden folders are \
             skipped, links are followed; the first skill of a name wins, silently.",
            "The frontmatter must open on line 1 (a BOM is fine) and is parsed with serde_yaml, no retry: a YAML \
             error drops the skill with libyaml's message. name and description must be strings; the name falls \
             back to the folder, is trimmed, its spaces become `-`, it must start with an ASCII letter or digit and \
             use only letters, digits, `-`, `_`, `.`, `:` and spaces, at most 64 characters.",
            "A missing description is the first three non-heading lines of the body; a written one over 1,024 UTF-16 \
             units drops the skill. `argument-hint` must be a string, `disable-model-invocation` a boolean (`true` \
             keeps the skill out of the model's listing), `allowed-tools` a string or a list of strings.",
            "The listing is an `<available_skills>` section of the system message (name, escaped description, \
             location); entries count against 15,000 UTF-16 units (SKILL_CHAR_BUDGET), and the first that does not fit \
             moves it and every later skill to one `Additional skills available (invoke by name): …` line.",
        ],
    },
    Profile {
        id: ProfileId::Opencode,
        title: "OpenCode 1.18.33",
        summary: "Modelled from the real OpenCode 1.18.33 binary: gray-matter and js-yaml 3 with its sanitizer \
                  retry; only name and description are read; verdicts and listings are checked against the binary \
                  in `make test`.",
        known_fields: OPENCODE_FIELDS,
        limits: NO_LIMITS,
        severity_overrides: &[
            // Its sanitizer rewrites a top-level `key: a: b` line into a block scalar.
            ("plain-scalar-colon", Severity::Warning),
            // It takes any string as the name, of any length, and lists any description whole.
            ("name-invalid-characters", Severity::Warning),
            ("name-too-long", Severity::Warning),
            ("name-not-lowercase", Severity::Warning),
            ("name-hyphen-misplaced", Severity::Warning),
            ("description-too-long", Severity::Warning),
            // No description: loaded (callable by name), not listed.
            ("description-missing", Severity::Warning),
            // It ignores every other key.
            ("unknown-field", Severity::Warning),
            ("metadata-not-string-map", Severity::Warning),
            // Invalid bytes are read as U+FFFD; a CR-only file has no block, which frontmatter-missing says.
            ("content-not-utf8", Severity::Warning),
            ("cr-line-endings", Severity::Warning),
            // Links are not resolved in a body it only hands to the model.
            ("link-target-missing", Severity::Warning),
            ("link-escapes-skill", Severity::Warning),
            // An unclosed block is read to the end of the file; keys of another case are other keys; its
            // refusals of control characters are yaml-invalid's finding (js-yaml's own list).
            ("frontmatter-unterminated", Severity::Warning),
            ("key-case-conflict", Severity::Warning),
            ("yaml-control-character", Severity::Warning),
        ],
        facts: &[
            "Verdicts come from the model of the binary (`clients::opencode`): `tests/fidelity/test_opencode.sh` \
             compares `listing --project` with the skills section OpenCode 1.18.33 sends a model, and every \
             `lint --profile opencode` verdict with `opencode debug skill` (docs/clients-observed.md).",
            "Skills are every `SKILL.md` at any depth of `~/.claude/skills`, `~/.agents/skills`, then `.claude/skills` \
             and `.agents/skills` from the working folder up to the git root (`/` outside one), then `skill/` and \
             `skills/` of `~/.config/opencode`, each `.opencode` up to the git root, `~/.opencode` and \
             `$OPENCODE_CONFIG_DIR`; hidden folders are read below `.claude` and `.agents`, skipped below the config \
             folders; links are followed and shown by their own path.",
            "The frontmatter is read with gray-matter and js-yaml 3 (`safeLoad`: dates are Date objects, duplicate \
             keys, tabs as indentation and non-printable characters throw); when that throws, top-level \
             `key: value` lines whose value holds a `:` become `key: |-` blocks and it is read once more. A skill \
             that still fails, or whose `name` is not a string, or whose `description` is neither a string nor \
             absent, is dropped without a word.",
            "Names are not checked at all; a skill without a description loads but is not listed; one skill per \
             name is kept, which one changes from run to run. The listing shows name and description raw, the \
             location XML-escaped, sorted with `localeCompare`, with the built-in `customize-opencode`; no budget.",
        ],
    },
    Profile {
        id: ProfileId::Gemini,
        title: "Gemini CLI 0.61.0",
        summary: "Modelled from the real Gemini CLI 0.61.0: js-yaml with a line-based fallback, so most broken YAML \
                  still loads; verdicts and listings are checked against the client in `make test`.",
        known_fields: NAGENTS_FIELDS,
        // Gemini neither bounds nor cuts names and descriptions.
        limits: NO_LIMITS,
        severity_overrides: &[
            // When js-yaml throws, or a field is not a string, the line fallback reads `name:` and
            // `description:` as raw text and the skill loads.
            ("yaml-invalid", Severity::Warning),
            ("plain-scalar-colon", Severity::Warning),
            ("duplicate-key", Severity::Warning),
            ("field-not-string", Severity::Warning),
            ("yaml-control-character", Severity::Warning),
            // The file is decoded with invalid bytes as U+FFFD.
            ("content-not-utf8", Severity::Warning),
        ],
        facts: &[
            "Verdicts come from the model of the client (`clients::gemini`): `tests/fidelity/test_gemini.sh` compares \
             `listing --project` with the system instruction Gemini CLI 0.61.0 sends a fake endpoint, and every \
             `lint --profile gemini` verdict with what it lists (docs/clients-observed.md).",
            "Skills are `SKILL.md` and `*/SKILL.md` of the bundle's `builtin/`, extensions, `~/.gemini/skills`, \
             `~/.agents/skills`, then `.gemini/skills` and `.agents/skills` of the working folder only; hidden and \
             `node_modules` folders are skipped, links followed; a later skill of a name replaces an earlier one in \
             its place.",
            "The frontmatter is `/^---\\r?\\n([\\s\\S]*?)\\r?\\n---/` on the file as read (a BOM, a blank first line, \
             `--- ` or a lone CR leave none): js-yaml 4.1.1 `load`; when it throws or `name`/`description` are not \
             both strings (a number, a date, a list), a line parser takes the text after `name:` and `description:` \
             (plus indented lines) raw, quotes and comments included.",
            "The skill is dropped silently when no name or no description is found; an empty one is listed. The name's \
             `: \\ / < > * ? \" |` become `-`; nothing is trimmed, cut or escaped (the prompt builder only folds \
             three or more line feeds into two), and there is no budget.",
        ],
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
