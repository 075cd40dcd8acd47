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
pub mod run;
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

impl Place {
    /// The place of the SKILL.md at `path`: below the last `.claude/skills` in it, else where its folder
    /// would be installed (`nested`: inside another skill's folder).
    pub fn of(path: &Path, nested: bool) -> Place {
        match super::below_root(path, &[&[".claude", "skills"]]) {
            Some(folders) => Place::BelowRoot(folders.len()),
            None => Place::Elsewhere { nested },
        }
    }
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
    let mut skill = match load_placed(folder, bytes, place) {
        Ok(skill) => skill,
        Err(reason) => return FileVerdict::Ignored(reason),
    };
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

/// The skill the client loads from this SKILL.md at `place`, or why it reads none there.
pub fn load_placed(folder: &str, bytes: &[u8], place: Place) -> Result<Skill, &'static str> {
    match place {
        Place::BelowRoot(0) => return Err(ROOT_FILE_IGNORED),
        Place::BelowRoot(1) | Place::Elsewhere { nested: false } => {}
        Place::BelowRoot(_) => return Err(TOO_DEEP_IGNORED),
        Place::Elsewhere { nested: true } => return Err(NESTED_IGNORED),
    }
    if !skill::folder_offered(folder) {
        return Err(FOLDER_IGNORED);
    }
    if bytes.len() as u64 > discovery::SKILL_FILE_MAX {
        return Err(TOO_LARGE_IGNORED);
    }
    Ok(Skill::load(folder, bytes))
}

// The listing of the ROOTS form of `skillforge listing --dialect claude-code` and of the app's catalog
// preview: the same model, with the skill folders found in the given folders read as if they were
// installed in `.claude/skills`.

use crate::clients::listing::{
    assemble, clamp, BudgetUnit, CatalogBudget, CatalogDialect, CatalogLimits, CatalogPreview,
    Client, Draft,
};

/// The default model's characters per token in the listing budget (`Cdn`: 30,000 for its 1,000,000-token
/// window at 1%).
pub const BUDGET_CHARS_PER_TOKEN: u64 = 3;
/// The share of the context window the listing may use (`skillListingBudgetFraction`), in percent.
pub const BUDGET_PERCENT: u64 = 1;

/// The listing budget for a model context window of `tokens` (the default model's when None).
pub fn budget(context_window: Option<u32>) -> usize {
    match context_window {
        Some(tokens) => {
            usize::try_from(u64::from(tokens) * BUDGET_CHARS_PER_TOKEN * BUDGET_PERCENT / 100)
                .unwrap_or(usize::MAX)
        }
        None => DEFAULT_BUDGET,
    }
}

/// A skill as the client loaded it, with the SKILL.md it came from.
#[derive(Debug, Clone)]
pub struct Located {
    pub skill: Skill,
    pub location: String,
}

/// Claude Code, as a listing client: the skills it loaded, in its order, folder names unique.
pub struct ClaudeCode;

impl Client for ClaudeCode {
    type Skills = Vec<Located>;

    fn listing(
        skills: &Vec<Located>,
        limits: &CatalogLimits,
        problems: Vec<String>,
    ) -> CatalogPreview {
        let limit = budget(limits.context_window);
        let shown: Vec<&Located> = skills
            .iter()
            .filter(|located| !located.skill.model_invocation_disabled)
            .collect();
        let listed: Vec<Skill> = shown.iter().map(|located| located.skill.clone()).collect();
        let listing = Listing::new(&listed, limit);
        let mut text = HEADER.to_string();
        let mut drafts = Vec::with_capacity(skills.len());
        let mut own = shown.iter();
        for (entry, whole) in listing.entries.iter().filter(|(entry, _)| !entry.builtin) {
            let line = if *whole { &entry.full } else { &entry.bare };
            let start = text.len();
            text.push_str(line);
            text.push('\n');
            let location = own
                .next()
                .map(|located| located.location.clone())
                .unwrap_or_default();
            drafts.push(Draft {
                name: entry.name.clone(),
                location,
                span: Some((start, text.len())),
                shortened: !*whole || entry.full.ends_with('\u{2026}'),
            });
        }
        for located in skills
            .iter()
            .filter(|located| located.skill.model_invocation_disabled)
        {
            drafts.push(Draft {
                name: located.skill.folder.clone(),
                location: located.location.clone(),
                span: None,
                shortened: false,
            });
        }
        let budget = CatalogBudget {
            unit: BudgetUnit::Characters,
            limit: clamp(limit as u64),
            used: clamp(listing.measured as u64),
            basis: match limits.context_window {
                Some(window) => {
                    format!("1% of a {window}-token context window \u{d7} 3 characters")
                }
                None => format!("{DEFAULT_BUDGET} characters (the default model)"),
            },
        };
        let mut notes = vec![format!(
            "Claude Code {VERSION}, from its model checked against the real binary: each skill folder is read as if \
             it were installed in `.claude/skills` (one level; a skill nested in another is not read), listed under \
             its folder name. The budget also counts the client's own entries, which follow these in the real \
             listing (`skillforge listing --project DIR --with-client-skills` prints them)."
        )];
        if skills
            .iter()
            .any(|located| located.skill.model_invocation_disabled)
        {
            notes.push(
                "Skills with `disable-model-invocation` load as commands but are not listed."
                    .to_string(),
            );
        }
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
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_budget_is_one_percent_of_the_window_at_three_characters_a_token() {
        assert_eq!(budget(None), 30_000);
        assert_eq!(budget(Some(1_000_000)), 30_000);
        assert_eq!(budget(Some(200_000)), 6_000);
    }
}
