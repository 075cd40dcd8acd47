//! OpenCode, pinned to [`VERSION`]: where it finds skills, what it loads, and the exact skills
//! section it appends to its system prompt.
//!
//! The model rests on the real binary (`opencode-ai` 1.18.33, linux-x64), run offline against a fake
//! chat-completions endpoint and through `opencode debug skill`: docs/clients-observed.md records what
//! it did, and tests/fidelity/test_opencode.py compares this module's section and verdicts with the
//! binary's at test time.
//!
//! - [`frontmatter`]: gray-matter's framing, js-yaml 3's safe parse and the client's sanitizer retry;
//! - [`discovery`]: roots in scan order, hidden folders per root kind, links, the git root;
//! - [`listing`]: the section's text (raw name and description, escaped location, ICU root order);
//! - [`builtin`]: the client's own `customize-opencode`;
//! - this file: what the client keeps of one file (the verdict).

pub mod builtin;
pub mod discovery;
pub mod frontmatter;
pub mod listing;

pub use discovery::{discover, Discovered, Environment, Root};
pub use listing::{listing_text, Opencode};

use frontmatter::{Failure, Js};

/// The OpenCode release this model reproduces.
pub const VERSION: &str = "1.18.33";

/// Said of every skill the client drops: it logs nothing, shows nothing.
pub const SILENT: &str = "OpenCode drops it without a word (nothing on screen or in its log)";

/// Why a skill without a `description` key is loaded but not listed.
pub const NO_DESCRIPTION_UNLISTED: &str =
    "no `description` key: OpenCode loads it (the skill tool can open it by name) but leaves it out of the \
     skills listed to the model";

/// What OpenCode does with one `SKILL.md` it reads.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum FileVerdict {
    /// Listed to the model under this name and description, both exactly as parsed.
    Listed { name: String, description: String },
    /// Loaded (callable by name through the skill tool) but not listed: it has no description.
    Unlisted { name: String },
    /// Not loaded; the client says nothing. The reason names what went wrong.
    Dropped(String),
}

impl FileVerdict {
    /// The name it loads under, if it loads.
    pub fn name(&self) -> Option<&str> {
        match self {
            FileVerdict::Listed { name, .. } | FileVerdict::Unlisted { name } => Some(name),
            FileVerdict::Dropped(_) => None,
        }
    }
}

/// Why OpenCode drops a file (it says nothing itself).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Drop {
    /// The file does not start with `---` (or starts with `----`): gray-matter finds no block.
    NoBlock,
    /// The opening line names a language gray-matter has no parser for (with no line feed in the file,
    /// the whole text after `---` is that name).
    Language(String),
    /// The YAML throws, before and after the sanitizer.
    Yaml(String),
    /// The frontmatter is empty or only comments: no `name`.
    Empty,
    /// The frontmatter is a scalar or a list.
    NotMapping(&'static str),
    NoName,
    NameNotString(&'static str),
    DescriptionNotString(&'static str),
}

impl std::fmt::Display for Drop {
    fn fmt(&self, formatter: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Drop::NoBlock => write!(
                formatter,
                "no frontmatter: the file does not start with `---` (gray-matter's opener), so there is no `name`"
            ),
            Drop::Language(language) if language.contains('\r') => write!(
                formatter,
                "no line feed ends the opening `---` (lone carriage returns do not end a line for gray-matter), \
                 so the rest of the text is read as the name of a frontmatter language"
            ),
            Drop::Language(language) => {
                let shown: String = language.chars().take(40).collect();
                write!(
                    formatter,
                    "the opening `---{shown}` names a frontmatter language gray-matter has no parser for"
                )
            }
            Drop::Yaml(message) => write!(
                formatter,
                "its YAML fails js-yaml 3 (safeLoad) even after OpenCode's rewrite of `key: value: …` lines: \
                 {message}"
            ),
            Drop::Empty => write!(formatter, "the frontmatter is empty, so there is no `name`"),
            Drop::NotMapping(kind) => {
                write!(formatter, "the frontmatter is {kind}, not a mapping of keys")
            }
            Drop::NoName => write!(formatter, "no `name` key"),
            Drop::NameNotString(kind) => write!(formatter, "`name` is {kind}, not a string"),
            Drop::DescriptionNotString(kind) => write!(
                formatter,
                "`description` is {kind}; OpenCode takes a string or no description at all"
            ),
        }
    }
}

/// What OpenCode keeps of one `SKILL.md` with these bytes: its name and description (`None`: no
/// `description` key), or why it drops it. The keep rule of the client's loader: the data a plain
/// object, `name` a string, `description` a string or absent; nothing else is looked at.
pub fn judge(bytes: &[u8]) -> Result<(String, Option<String>), Drop> {
    let text = frontmatter::decode(bytes);
    let parsed = frontmatter::parse(&text);
    let fields = match parsed.data {
        Ok(Some(Js::Object(fields))) => fields,
        Ok(None) => return Err(Drop::Empty),
        Ok(Some(other)) => return Err(Drop::NotMapping(other.kind())),
        Err(Failure::Language(language)) => return Err(Drop::Language(language)),
        Err(Failure::Yaml(message)) => return Err(Drop::Yaml(message)),
    };
    let get = |key: &str| {
        fields
            .iter()
            .find(|(name, _)| name == key)
            .map(|(_, value)| value)
    };
    let name = match get("name") {
        Some(Js::String(name)) => name.clone(),
        Some(other) => return Err(Drop::NameNotString(other.kind())),
        None if !text.starts_with("---") || text.starts_with("----") => return Err(Drop::NoBlock),
        None if fields.is_empty() => return Err(Drop::Empty),
        None => return Err(Drop::NoName),
    };
    match get("description") {
        Some(Js::String(description)) => Ok((name, Some(description.clone()))),
        None => Ok((name, None)),
        Some(other) => Err(Drop::DescriptionNotString(other.kind())),
    }
}

/// The verdict on one `SKILL.md` with these bytes ([`judge`]).
pub fn file_verdict(bytes: &[u8]) -> FileVerdict {
    match judge(bytes) {
        Ok((name, Some(description))) => FileVerdict::Listed { name, description },
        Ok((name, None)) => FileVerdict::Unlisted { name },
        Err(drop) => FileVerdict::Dropped(format!("{drop}; {SILENT}")),
    }
}

/// Why a skill in a hidden folder below a config root is never read.
pub const HIDDEN_IGNORED: &str =
    "OpenCode skips folders whose name starts with `.` below `.opencode/skills` (and its other config roots); \
     this skill is inside one";

/// Whether the SKILL.md at `path` sits in a hidden folder below the last `.opencode/skill(s)` in it,
/// which the client never enters (below `.claude/skills` and `.agents/skills` it does).
pub fn hidden_in_config_root(path: &std::path::Path) -> bool {
    super::below_root(path, &[&[".opencode", "skills"], &[".opencode", "skill"]])
        .iter()
        .flatten()
        .any(|name| name.as_encoded_bytes().starts_with(b"."))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn verdict(text: &str) -> FileVerdict {
        file_verdict(text.as_bytes())
    }

    #[test]
    fn the_keep_rule() {
        assert_eq!(
            verdict("---\nname: a\ndescription: Use when: asked\n---\n"),
            FileVerdict::Listed {
                name: "a".into(),
                description: "Use when: asked".into()
            }
        );
        assert_eq!(
            verdict("---\nname: a\n---\n"),
            FileVerdict::Unlisted { name: "a".into() }
        );
        assert!(matches!(
            verdict("---\nname: a\ndescription: 2024-01-02\n---\n"),
            FileVerdict::Dropped(_)
        ));
        assert!(matches!(
            verdict("---\nname: 42\ndescription: x\n---\n"),
            FileVerdict::Dropped(_)
        ));
        assert!(matches!(verdict("no block"), FileVerdict::Dropped(_)));
        assert!(matches!(
            verdict("---\nname: a\nname: b\ndescription: x\n---\n"),
            FileVerdict::Dropped(_)
        ));
        // Names are not validated at all.
        assert_eq!(
            verdict("---\nname: \" padded \"\ndescription: \"\"\n---\n"),
            FileVerdict::Listed {
                name: " padded ".into(),
                description: String::new()
            }
        );
    }

    #[test]
    fn an_unclosed_block_and_a_bom_load() {
        assert_eq!(
            verdict("\u{feff}---\nname: u\ndescription: never closed\n"),
            FileVerdict::Listed {
                name: "u".into(),
                description: "never closed".into()
            }
        );
    }
}
