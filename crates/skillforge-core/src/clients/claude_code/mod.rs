//! Claude Code 2.1.332, modelled from the real binary.
//!
//! Every rule here rests on the client itself: its bundled code (read in the 2.1.332 binary, function
//! names given where they help) and what the binary sends a model endpoint for the probe projects of
//! `tests/fidelity/client_probes.py` (docs/clients-observed.md). The fidelity suite
//! (`tests/fidelity/test_claude_code.py`) compares [`listing_text`] with the binary's own block on every
//! probe project, its expected values taken from the binary at test time.
//!
//! - [`discovery`]: roots, depth, hidden folders, links, order;
//! - [`frontmatter`]: the block, `Bun.YAML` and the quote retry;
//! - [`skill`]: what loads, the listed name, the description and its fallbacks;
//! - [`listing`]: the block's text, the description cut and the budget;
//! - [`builtin`]: the client's own entries (its text, pinned);
//! - [`fields`]: what its own fields (`model`, `effort`, `hooks`, `allowed-tools`, …) and the body's
//!   argument placeholders do when the skill runs.

pub mod builtin;
pub mod discovery;
pub mod fields;
pub mod frontmatter;
pub mod listing;
pub mod skill;

use std::path::Path;

pub use discovery::{discover, Discovery};
pub use listing::{Listing, DEFAULT_BUDGET, HEADER};
pub use skill::Skill;

/// The client version this model reproduces.
pub const VERSION: &str = "2.1.332";

/// The block Claude Code sends when started in `project` with `home` as HOME: the header and the
/// project's and user's entries (the client's own too with `client_entries`), every line ended.
pub fn listing_text(
    project: &Path,
    home: Option<&Path>,
    budget: usize,
    client_entries: bool,
) -> (String, Discovery) {
    let discovery = discover(project, home);
    let listing = Listing::new(&discovery.listed(), budget);
    (listing.text(client_entries), discovery)
}

/// What Claude Code does with one `SKILL.md` in one of its skill roots.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum FileVerdict {
    /// Listed to the model as `- NAME: DESCRIPTION` (the description already cut).
    Listed { name: String, description: String },
    /// Loaded as the command `/NAME`, but the model is not told about it.
    Unlisted { name: String, reason: &'static str },
    /// Not loaded at all (the client says nothing).
    Ignored(&'static str),
}

/// Why a skill inside another skill's folder is not read (`tree-nested`).
pub const NESTED_IGNORED: &str =
    "Claude Code reads only `<skills folder>/<folder>/SKILL.md`, one level down; this skill sits inside another skill's folder";
/// Why a skill more than one folder below a skills folder is not read (`tree-nested`).
pub const TOO_DEEP_IGNORED: &str =
    "Claude Code reads only `<skills folder>/<folder>/SKILL.md`, one level down; this SKILL.md is deeper";
/// Why a SKILL.md directly in a skills folder is not read (`tree-non-skill-files`).
pub const ROOT_FILE_IGNORED: &str =
    "Claude Code reads only `<skills folder>/<folder>/SKILL.md`; a SKILL.md directly in the skills folder is not a skill";
/// Why a folder the client cannot name a command after is not read (`gX`).
pub const FOLDER_IGNORED: &str =
    "Claude Code does not load a skill whose folder name is over 256 UTF-16 units or holds a control character, `<` or `>`";
/// Why a file over the client's size limit is not read (`tw`).
pub const TOO_LARGE_IGNORED: &str = "Claude Code does not read a SKILL.md over 1,000,000 bytes";
/// Why a `disable-model-invocation` skill is not listed.
pub const MODEL_INVOCATION_DISABLED: &str =
    "`disable-model-invocation` is set: the skill runs only when typed as a command; the model is not told about it";

/// Where a SKILL.md sits, as far as it is known.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Place {
    /// In a skills folder the client reads (`.claude/skills`), this many folders below it: 1 is
    /// `<root>/<folder>/SKILL.md`.
    BelowRoot(usize),
    /// In a folder that would be installed as one: whether the skill sits inside another skill's folder.
    Elsewhere { nested: bool },
}

/// The verdict on one `SKILL.md` of `folder` with these bytes, at `place`; `first_of_its_name` when no
/// skill before it (in the client's order) has the same frontmatter name, which decides whether the
/// name is shown after the folder. The same rules as [`discover`] and [`Listing`], one file at a time.
pub fn file_verdict(
    folder: &str,
    bytes: &[u8],
    place: Place,
    first_of_its_name: bool,
) -> FileVerdict {
    match place {
        Place::BelowRoot(0) => return FileVerdict::Ignored(ROOT_FILE_IGNORED),
        Place::BelowRoot(1) | Place::Elsewhere { nested: false } => {}
        Place::BelowRoot(_) => return FileVerdict::Ignored(TOO_DEEP_IGNORED),
        Place::Elsewhere { nested: true } => return FileVerdict::Ignored(NESTED_IGNORED),
    }
    if !skill::folder_offered(folder) {
        return FileVerdict::Ignored(FOLDER_IGNORED);
    }
    if bytes.len() as u64 > discovery::SKILL_FILE_MAX {
        return FileVerdict::Ignored(TOO_LARGE_IGNORED);
    }
    let mut skill = Skill::load(folder, bytes);
    if skill.model_invocation_disabled {
        return FileVerdict::Unlisted {
            name: skill.folder,
            reason: MODEL_INVOCATION_DISABLED,
        };
    }
    if !first_of_its_name {
        // An earlier skill answers to the name: this one is shown under its folder alone.
        skill.shown_name = skill.folder.clone();
    }
    let (name, description) = listing::entry(&skill);
    FileVerdict::Listed { name, description }
}

// The listing of the ROOTS form of `skillforge listing --dialect claude-code` and of the app's catalog
// preview, still from published facts (docs/dialects.md); the model above is what `--project` prints.

use crate::clients::listing::{
    assemble, clamp, BudgetUnit, CatalogBudget, CatalogDialect, CatalogLimits, CatalogPreview,
    Client, Draft,
};
use crate::python;

/// Claude Code: the listing may use 1% of the context window, at 4 characters per token.
pub const CLAUDE_CODE_BUDGET_PERCENT: u64 = 1;
/// Claude Code: characters per token in the listing budget.
pub const CLAUDE_CODE_CHARS_PER_TOKEN: u64 = 4;
/// Claude Code: description and `when_to_use` together are cut to this many characters per entry.
pub const CLAUDE_CODE_ENTRY_CAP: usize = 1_536;
/// The context window assumed when none is given (Claude's 200,000 tokens).
pub const DEFAULT_CONTEXT_WINDOW: u32 = 200_000;

/// Claude Code, as a listing client: every SKILL.md it reads.
pub struct ClaudeCode;

impl Client for ClaudeCode {
    type Skills = Vec<ClaudeCodeSkill>;

    fn listing(
        skills: &Vec<ClaudeCodeSkill>,
        limits: &CatalogLimits,
        problems: Vec<String>,
    ) -> CatalogPreview {
        claude_code_listing(skills, limits.context_window, problems)
    }
}

/// A skill as Claude Code reads it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ClaudeCodeSkill {
    pub name: String,
    pub description: String,
    pub when_to_use: Option<String>,
    pub location: String,
}

/// Claude Code's listing budget in characters for a context window: 1% of it, at 4 characters per
/// token.
pub fn claude_code_budget(context_window: u32) -> u64 {
    u64::from(context_window) * CLAUDE_CODE_BUDGET_PERCENT * CLAUDE_CODE_CHARS_PER_TOKEN / 100
}

fn utf16_len(text: &str) -> usize {
    text.chars().map(char::len_utf16).sum()
}

/// The longest prefix of `text` within `cap` UTF-16 units, never splitting a character.
fn utf16_prefix(text: &str, cap: usize) -> &str {
    let mut units = 0;
    for (index, c) in text.char_indices() {
        units += c.len_utf16();
        if units > cap {
            return &text[..index];
        }
    }
    text
}

/// Claude Code's skill listing, from the facts Skillforge holds about it (docs/dialects.md):
///
/// - the budget is 1% of the context window × 4 characters (200,000 tokens → 8,000 characters);
/// - each entry's description and `when_to_use` together are cut to 1,536 characters.
///
/// Everything else is Skillforge's assumption, not a client fact: entries are
/// `- name: description when_to_use` lines in name order; characters are UTF-16 code units (Claude
/// Code is a JavaScript program); entries are kept whole until the first that does not fit and the
/// rest are omitted; no notice is shown. There is no peer library to check this against.
pub fn claude_code_listing(
    skills: &[ClaudeCodeSkill],
    context_window: Option<u32>,
    problems: Vec<String>,
) -> CatalogPreview {
    let window = context_window.unwrap_or(DEFAULT_CONTEXT_WINDOW);
    let limit = claude_code_budget(window);
    let mut ordered: Vec<&ClaudeCodeSkill> = skills.iter().collect();
    ordered.sort_by(|a, b| a.name.cmp(&b.name));
    let mut text = String::new();
    let mut used = 0u64;
    let mut full = false;
    let mut drafts = Vec::with_capacity(ordered.len());
    for skill in ordered {
        let mut about = python::strip(&skill.description).to_string();
        if let Some(when) = skill.when_to_use.as_deref().map(python::strip) {
            if !when.is_empty() {
                if !about.is_empty() {
                    about.push(' ');
                }
                about.push_str(when);
            }
        }
        let capped = utf16_prefix(&about, CLAUDE_CODE_ENTRY_CAP);
        let shortened = capped.len() < about.len();
        let line = format!("- {}: {capped}\n", skill.name);
        let size = utf16_len(&line) as u64;
        let span = if !full && used + size <= limit {
            let start = text.len();
            text.push_str(&line);
            used += size;
            Some((start, text.len()))
        } else {
            full = true;
            None
        };
        drafts.push(Draft {
            name: skill.name.clone(),
            location: skill.location.clone(),
            span,
            shortened,
        });
    }
    let budget = CatalogBudget {
        unit: BudgetUnit::Utf16Units,
        limit: clamp(limit),
        used: clamp(used),
        basis: format!("1% of a {window}-token context window \u{d7} 4 characters"),
    };
    let notes = vec![
        "From Claude Code's published facts: budget 1% of the context window \u{d7} 4 characters; description \
         plus when_to_use capped at 1,536 characters per entry. The line layout, the name order and dropping \
         whole entries past the budget are Skillforge's assumptions."
            .to_string(),
        "No peer library exists to check this dialect against.".to_string(),
    ];
    assemble(
        CatalogDialect::ClaudeCode,
        text,
        drafts,
        Some(budget),
        None,
        notes,
        problems,
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn claude_code_budget_arithmetic() {
        assert_eq!(claude_code_budget(200_000), 8_000);
        assert_eq!(claude_code_budget(1_000_000), 40_000);
        assert_eq!(claude_code_budget(99), 3);
        // 1,536 characters of description + when_to_use, counted in UTF-16 units.
        let long = ClaudeCodeSkill {
            name: "a".into(),
            description: "x".repeat(1_000),
            when_to_use: Some("😀".repeat(400)),
            location: "l".into(),
        };
        let preview = claude_code_listing(&[long], Some(1_000_000), Vec::new());
        let entry = &preview.entries[0];
        assert!(entry.shortened && entry.included);
        // "- a: " + 1,536 units (1,000 x, a space, 267 emoji = 534 units, 1 unit unused) + "\n".
        assert_eq!(entry.end_utf16 - entry.start_utf16, 5 + 1_535 + 1);
    }

    #[test]
    fn claude_code_drops_whole_entries_past_the_budget() {
        let skills: Vec<ClaudeCodeSkill> = (0..3)
            .map(|i| ClaudeCodeSkill {
                name: format!("s{i}"),
                description: "d".repeat(93),
                when_to_use: None,
                location: String::new(),
            })
            .collect();
        // Each line is 100 units; a 5,000-token window gives 200 units.
        let preview = claude_code_listing(&skills, Some(5_000), Vec::new());
        assert_eq!(preview.omitted, ["s2"]);
        assert_eq!(preview.budget.map(|b| (b.limit, b.used)), Some((200, 200)));
    }
}
