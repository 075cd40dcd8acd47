//! Codex, pinned to [`VERSION`]: where it finds skills, what it loads, and the exact
//! `<skills_instructions>` block it sends the model, with its description cut and budget.
//!
//! The model rests on the real binary (`@openai/codex` 0.171.0, linux-x64), not on documentation:
//! docs/clients-observed.md records what it did on the probe set, and tests/fidelity/test_codex.py
//! compares this module's block with the binary's byte for byte at test time.
//!
//! - [`discovery`]: roots, walk, depth, hidden entries, links, `agents/openai.yaml` policy;
//! - [`frontmatter`]: the frontmatter block, the YAML parse and its repair, the verdict;
//! - this file: the order, the roots table, the entry lines and the budget.

pub mod discovery;
pub mod frontmatter;

use std::collections::HashSet;
use std::path::{Path, PathBuf};

pub use discovery::{Environment, Root, Scope};
pub use frontmatter::Drop;

/// The Codex release this model reproduces.
pub const VERSION: &str = "0.171.0";

/// Longest description in the listing, in characters; a longer one becomes its first 1,021
/// characters and `...`, 1,024 in all (`desc-1025`, `desc-1537`, `desc-1537-multibyte`,
/// `desc-5000-words`; `desc-1024` is listed whole).
pub const MAX_DESCRIPTION_CHARS: usize = 1024;

/// What ends a description cut to [`MAX_DESCRIPTION_CHARS`].
const CUT_MARK: &str = "...";

/// A description as the listing holds it, before the budget.
fn cut_description(description: &str) -> std::borrow::Cow<'_, str> {
    if description.chars().count() <= MAX_DESCRIPTION_CHARS {
        return description.into();
    }
    let keep = MAX_DESCRIPTION_CHARS - CUT_MARK.len();
    let end = description
        .char_indices()
        .nth(keep)
        .map_or(description.len(), |(at, _)| at);
    format!("{}{CUT_MARK}", &description[..end]).into()
}

/// The budget, in approximate tokens, with no `model_context_window` set: the block is then
/// byte-identical to the one for a 500,000-token window (400 skills, descriptions cut to 66
/// characters). Inferred from that equality, not read from the binary.
pub const DEFAULT_BUDGET_TOKENS: usize = 10_000;

/// Bytes per approximate token (a line's cost is its bytes plus its newline, divided by 4, rounded up).
const BYTES_PER_TOKEN: usize = 4;

const INTRO: &str = "A skill is a set of local instructions to follow that is stored in a `SKILL.md` file. Below is the list of skills that can be used. Each entry includes a name, description, and a short path that can be expanded into an absolute path using the skill roots table.";

/// The largest context window the budget follows: every window from 872,000 tokens up (1,000,000
/// and 2,000,000 included) gives the block of 872,000, 17,440 tokens (`tree-many-long`). Inferred
/// from those runs; any cap from 872,000 to 872,049 gives the same budgets.
pub const MAX_CONTEXT_WINDOW: u64 = 872_000;

/// The budget for a model context window of `tokens`: 2 % of it (of at most
/// [`MAX_CONTEXT_WINDOW`]), at least 1 (`N=1,349` → 26 tokens, 2 entries of 9; `N=1,350` → 27,
/// 3 entries). None: [`DEFAULT_BUDGET_TOKENS`].
pub fn budget(context_window: Option<u64>) -> usize {
    match context_window {
        Some(tokens) => usize::try_from(tokens.min(MAX_CONTEXT_WINDOW) * 2 / 100)
            .unwrap_or(usize::MAX)
            .max(1),
        None => DEFAULT_BUDGET_TOKENS,
    }
}

/// A skill Codex loaded, with where it was found.
#[derive(Debug, Clone)]
pub struct Loaded {
    pub name: String,
    pub description: String,
    pub scope: Scope,
    /// Index into [`Discovered::roots`].
    pub root: usize,
    /// The path below the root, as walked.
    pub relative: PathBuf,
    /// Whether it is listed to the model (`agents/openai.yaml` may say no).
    pub implicit: bool,
}

/// A `SKILL.md` Codex dropped, with the message `skills/list` gives.
#[derive(Debug, Clone)]
pub struct Dropped {
    pub path: PathBuf,
    pub reason: Drop,
}

/// Everything a Codex started in one folder finds.
#[derive(Debug, Clone, Default)]
pub struct Discovered {
    pub roots: Vec<Root>,
    pub skills: Vec<Loaded>,
    pub dropped: Vec<Dropped>,
}

/// Discovers as Codex started in `project` would (the folder is canonicalised, as the client's
/// working folder is).
pub fn discover(project: &Path, environment: &Environment) -> std::io::Result<Discovered> {
    let project = std::fs::canonicalize(project)?;
    let roots = discovery::roots(&project, environment);
    let mut found = Vec::new();
    for (index, root) in roots.iter().enumerate() {
        discovery::scan(index, root, &mut found);
    }
    let mut seen = HashSet::new();
    let mut discovered = Discovered {
        roots,
        ..Discovered::default()
    };
    for item in found {
        match item.verdict {
            Ok(skill) => {
                // One file reached by two paths loads once, under the first (`p6`).
                if !seen.insert(item.identity) {
                    continue;
                }
                discovered.skills.push(Loaded {
                    name: skill.parsed.name,
                    description: skill.parsed.description,
                    scope: discovered.roots[item.root].scope,
                    root: item.root,
                    relative: item.relative,
                    implicit: skill.implicit,
                });
            }
            Err(reason) => discovered.dropped.push(Dropped {
                path: discovered.roots[item.root].path.join(&item.relative),
                reason,
            }),
        }
    }
    Ok(discovered)
}

/// What Codex does with one `SKILL.md` in one of its skill roots, as `skills/list` answers for it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum FileVerdict {
    /// Among the loaded skills, under this name and (whitespace-folded, uncut) description; `listed`
    /// is false when `agents/openai.yaml` keeps it out of the model's list (`p2` `noimp`).
    Loads {
        name: String,
        description: String,
        listed: bool,
    },
    /// Among the load errors, with this message.
    Dropped(Drop),
    /// Neither loaded nor reported: Codex passes over it without a word.
    Ignored(&'static str),
}

/// Why a skill deeper than Codex walks is never loaded (`tree-nested`: `deep7`).
pub const TOO_DEEP_IGNORED: &str =
    "Codex looks for skills at most 6 folders below a skills folder; this SKILL.md is deeper";
/// Why a skill in a hidden folder is never loaded (`tree-hidden`).
pub const HIDDEN_IGNORED: &str =
    "Codex skips entries whose name starts with `.` below a skills folder; this skill is inside one";
/// Why a linked `SKILL.md` is never loaded (`tree-symlink`).
pub const LINKED_FILE_IGNORED: &str =
    "Codex does not read a SKILL.md that is a symbolic link (a linked folder is read)";
/// Why a skill that loads is not in the model's list (`p2` `noimp`).
pub const IMPLICIT_OFF: &str =
    "agents/openai.yaml sets `policy.allow_implicit_invocation: false`: Codex loads it for `$NAME`, but leaves it out of the skills the model is told about";
/// Why a skill whose policy names other products is never loaded (`p2` `prod`).
pub const OTHER_PRODUCTS_IGNORED: &str =
    "agents/openai.yaml names only other products under `policy.products`, so Codex does not load it";

/// The verdict on one `SKILL.md`: `contents` is its text, or the error of reading it as UTF-8;
/// `folder` the name of the folder holding it; `depth` how many folders below a skills folder Codex
/// reads it sits, when that is known (0: in the skills folder itself); `linked_file` whether the `SKILL.md` itself is a
/// symbolic link; `policy` the bytes of the `agents/openai.yaml` beside it, if any. The same rules
/// as [`discover`], one file at a time.
pub fn file_verdict(
    contents: Result<&str, std::str::Utf8Error>,
    folder: &str,
    depth: Option<usize>,
    linked_file: bool,
    policy: Option<&[u8]>,
) -> FileVerdict {
    if depth.is_some_and(|depth| depth > discovery::MAX_DEPTH) {
        return FileVerdict::Ignored(TOO_DEEP_IGNORED);
    }
    if linked_file {
        return FileVerdict::Ignored(LINKED_FILE_IGNORED);
    }
    let parsed = match contents {
        Ok(text) => frontmatter::parse_text(text, folder),
        Err(error) => Err(Drop::Read(error.to_string())),
    };
    match parsed {
        Ok(parsed) => {
            let policy = policy.map_or(discovery::Policy::OPEN, discovery::policy_of);
            if !policy.for_codex {
                return FileVerdict::Ignored(OTHER_PRODUCTS_IGNORED);
            }
            FileVerdict::Loads {
                name: parsed.name,
                description: parsed.description,
                listed: policy.implicit,
            }
        }
        Err(drop) => FileVerdict::Dropped(drop),
    }
}

/// One entry line before the budget.
struct Line<'a> {
    name: &'a str,
    /// Cut to [`MAX_DESCRIPTION_CHARS`].
    description: std::borrow::Cow<'a, str>,
    path: String,
}

impl Line<'_> {
    fn render(&self, chars: usize) -> String {
        if chars == 0 {
            format!("- {}: (file: {})", self.name, self.path)
        } else {
            let end = self
                .description
                .char_indices()
                .nth(chars)
                .map_or(self.description.len(), |(at, _)| at);
            format!(
                "- {}: {} (file: {})",
                self.name,
                &self.description[..end],
                self.path
            )
        }
    }
}

fn tokens(bytes: usize) -> usize {
    bytes.div_ceil(BYTES_PER_TOKEN)
}

/// The exact `<skills_instructions>` block (no trailing newline), or None when no skill is listed
/// (Codex then sends no such item: `desc-empty`).
///
/// Order: admin, then repository, then user skills, each by name (byte order), then by path
/// (`tree-order`, the roots probe `p21`). Rows of the roots table: the roots holding a listed skill,
/// in root order, `r0`, `r1`, … Budget ([`budget`]): each entry line with its newline costs
/// ceil(bytes / 4) tokens, the table costs nothing; when the whole lines do not fit, descriptions
/// are shortened by handing out one character at a time, round robin in listing order, while the
/// next character's extra cost fits; when even empty descriptions do not fit, entries are taken
/// in order while each fits, the rest dropped silently.
pub fn listing(discovered: &Discovered, budget_tokens: usize) -> Option<String> {
    let mut listed: Vec<&Loaded> = discovered.skills.iter().filter(|s| s.implicit).collect();
    if listed.is_empty() {
        return None;
    }
    listed.sort_by(|a, b| {
        a.scope
            .cmp(&b.scope)
            .then_with(|| a.name.cmp(&b.name))
            .then_with(|| {
                let path = |s: &Loaded| discovered.roots[s.root].path.join(&s.relative);
                path(a).cmp(&path(b))
            })
    });
    let used: Vec<usize> = (0..discovered.roots.len())
        .filter(|index| listed.iter().any(|skill| skill.root == *index))
        .collect();
    let alias = |root: usize| used.iter().position(|index| *index == root).unwrap_or(0);
    let lines: Vec<Line> = listed
        .iter()
        .map(|skill| Line {
            name: &skill.name,
            description: cut_description(&skill.description),
            path: format!(
                "r{}/{}",
                alias(skill.root),
                skill.relative.to_string_lossy()
            ),
        })
        .collect();
    let entries = budgeted(&lines, budget_tokens);
    let mut block = String::from("<skills_instructions>\n## Skills\n");
    block.push_str(INTRO);
    block.push_str("\n### Skill roots\n");
    for (alias, root) in used.iter().enumerate() {
        block.push_str(&format!(
            "- `r{alias}` = `{}`\n",
            discovered.roots[*root].path.to_string_lossy()
        ));
    }
    block.push_str("### Available skills\n");
    for entry in entries {
        block.push_str(&entry);
        block.push('\n');
    }
    block.push_str("</skills_instructions>");
    Some(block)
}

fn budgeted(lines: &[Line], limit: usize) -> Vec<String> {
    let full: usize = lines
        .iter()
        .map(|line| tokens(line.render(line.description.chars().count()).len() + 1))
        .sum();
    if full <= limit {
        return lines
            .iter()
            .map(|line| line.render(line.description.chars().count()))
            .collect();
    }
    let minimum: Vec<usize> = lines.iter().map(|line| line.render(0).len() + 1).collect();
    let minimum_cost: usize = minimum.iter().map(|bytes| tokens(*bytes)).sum();
    if minimum_cost <= limit {
        // The extra cost of a description prefix of k characters: the line with ": " + prefix.
        let prefix_bytes: Vec<Vec<usize>> = lines
            .iter()
            .map(|line| {
                let mut bytes = vec![0];
                let mut total = 0;
                for c in line.description.chars() {
                    total += c.len_utf8();
                    bytes.push(total);
                }
                bytes
            })
            .collect();
        let extra = |index: usize, chars: usize| {
            if chars == 0 {
                0
            } else {
                tokens(minimum[index] + prefix_bytes[index][chars] + 1) - tokens(minimum[index])
            }
        };
        let mut given = vec![0usize; lines.len()];
        let mut remaining = limit - minimum_cost;
        loop {
            let mut changed = false;
            for index in 0..lines.len() {
                if given[index] + 1 >= prefix_bytes[index].len() {
                    continue;
                }
                let delta = extra(index, given[index] + 1) - extra(index, given[index]);
                if delta <= remaining {
                    given[index] += 1;
                    remaining -= delta;
                    changed = true;
                }
            }
            if !changed {
                break;
            }
        }
        return lines
            .iter()
            .zip(given)
            .map(|(line, chars)| line.render(chars))
            .collect();
    }
    let mut used = 0;
    let mut kept = Vec::new();
    for (index, line) in lines.iter().enumerate() {
        let cost = tokens(minimum[index]);
        if used + cost <= limit {
            used += cost;
            kept.push(line.render(0));
        }
    }
    kept
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_budget_is_two_percent_of_the_window() {
        assert_eq!(budget(Some(1_349)), 26);
        assert_eq!(budget(Some(1_350)), 27);
        assert_eq!(budget(Some(10)), 1);
        assert_eq!(budget(Some(2_000_000)), 17_440);
        assert_eq!(budget(None), DEFAULT_BUDGET_TOKENS);
    }

    fn line<'a>(name: &'a str, description: &'a str) -> Line<'a> {
        Line {
            name,
            description: description.into(),
            path: format!("r0/{name}/SKILL.md"),
        }
    }

    #[test]
    fn long_descriptions_end_in_three_dots() {
        let long = "é".repeat(1025);
        let cut = cut_description(&long);
        assert_eq!(cut.chars().count(), MAX_DESCRIPTION_CHARS);
        assert!(cut.ends_with("é..."));
        assert_eq!(cut_description(&long[..2048]), long[..2048]);
    }

    #[test]
    fn descriptions_shrink_evenly_then_entries_drop() {
        let lines = [
            line("aa", "abcdefghijklmnop"),
            line("bb", "qrstuvwxyzabcdef"),
        ];
        let whole = budgeted(&lines, 1_000);
        assert_eq!(whole[0], "- aa: abcdefghijklmnop (file: r0/aa/SKILL.md)");
        // 28 bytes + newline each at minimum: 8 tokens (up to 32 bytes) each. Two more tokens let
        // each line grow to 36 bytes: ": " + 6 characters, as long as the first 2 are free.
        let shared = budgeted(&lines, 18);
        assert_eq!(shared[0], "- aa: abcdef (file: r0/aa/SKILL.md)");
        assert_eq!(shared[1], "- bb: qrstuv (file: r0/bb/SKILL.md)");
        assert_eq!(budgeted(&lines, 15), vec!["- aa: (file: r0/aa/SKILL.md)"]);
    }
}

// The listing of the ROOTS form of `skillforge listing --dialect codex` and of the app's catalog
// preview, still from published facts (docs/dialects.md); the model above is what `--project` prints.

use crate::budget::estimate_skill_tokens;
use crate::clients::listing::{
    assemble, clamp, BudgetUnit, CatalogBudget, CatalogDialect, CatalogLimits, CatalogPreview,
    Client, Draft,
};
use crate::python;

/// Codex: the listing may use 2% of the context window, in tokens.
pub const CODEX_BUDGET_PERCENT: u64 = 2;
/// Codex: the listing budget in characters when the context window is unknown.
pub const CODEX_FALLBACK_CHARS: u64 = 8_000;
/// Codex: the longest description it accepts, in characters.
pub const CODEX_MAX_DESCRIPTION_CHARS: usize = 1_024;
/// Codex: the longest name it accepts, in characters.
pub const CODEX_MAX_NAME_CHARS: usize = 64;
/// The heading of Codex's listing.
pub const CODEX_HEADING: &str = "## Skills";

/// Codex, as a listing client: the skills it does not skip.
pub struct Codex;

impl Client for Codex {
    type Skills = Vec<CodexSkill>;

    fn listing(
        skills: &Vec<CodexSkill>,
        limits: &CatalogLimits,
        problems: Vec<String>,
    ) -> CatalogPreview {
        codex_listing(skills, limits.context_window, problems)
    }
}

/// Codex's listing budget: 2% of the context window in tokens when it is known, else 8,000
/// characters.
pub fn codex_budget(context_window: Option<u32>) -> (u64, BudgetUnit) {
    match context_window {
        Some(window) => (
            u64::from(window) * CODEX_BUDGET_PERCENT / 100,
            BudgetUnit::Tokens,
        ),
        None => (CODEX_FALLBACK_CHARS, BudgetUnit::Characters),
    }
}

/// A skill as Codex reads it (description already collapsed to one line).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CodexSkill {
    pub name: String,
    pub description: String,
    pub path: String,
}

/// Codex's skill listing, from the facts Skillforge holds about it (docs/dialects.md):
///
/// - lines `- name: description (file: path)` under a `## Skills` heading;
/// - the budget is 2% of the context window in tokens, or 8,000 characters when it is unknown.
///
/// Skillforge's assumptions: tokens are estimated as ceil(UTF-8 bytes / 4) and characters are code
/// points; the heading is counted; skills are listed in name order and kept whole until the first
/// that does not fit; no notice is shown; Codex's surrounding usage instructions are not
/// reproduced. There is no peer library to check this against.
pub fn codex_listing(
    skills: &[CodexSkill],
    context_window: Option<u32>,
    problems: Vec<String>,
) -> CatalogPreview {
    let (limit, unit) = codex_budget(context_window);
    let measure = |text: &str| -> u64 {
        match unit {
            BudgetUnit::Tokens => estimate_skill_tokens(text),
            _ => python::char_len(text) as u64,
        }
    };
    let mut ordered: Vec<&CodexSkill> = skills.iter().collect();
    ordered.sort_by(|a, b| a.name.cmp(&b.name));
    let mut text = String::from(CODEX_HEADING);
    let mut used_bytes = text.len() as u64;
    let mut used_chars = python::char_len(&text) as u64;
    let mut drafts = Vec::with_capacity(ordered.len());
    let mut full = false;
    for skill in ordered {
        let line = format!(
            "\n- {}: {} (file: {})",
            skill.name, skill.description, skill.path
        );
        // Counted as the text grows: measuring the whole text per skill would be quadratic.
        let fits = match unit {
            BudgetUnit::Tokens => (used_bytes + line.len() as u64).div_ceil(4) <= limit,
            _ => used_chars + python::char_len(&line) as u64 <= limit,
        };
        let span = if !full && fits {
            used_bytes += line.len() as u64;
            used_chars += python::char_len(&line) as u64;
            let start = text.len();
            text.push_str(&line);
            Some((start, text.len()))
        } else {
            full = true;
            None
        };
        drafts.push(Draft {
            name: skill.name.clone(),
            location: skill.path.clone(),
            span,
            shortened: false,
        });
    }
    let basis = match context_window {
        Some(window) => format!("2% of a {window}-token context window"),
        None => "8,000 characters (context window unknown)".to_string(),
    };
    let budget = CatalogBudget {
        unit,
        limit: clamp(limit),
        used: clamp(measure(&text)),
        basis,
    };
    let notes = vec![
        "From Codex's published facts: `- name: description (file: path)` lines under `## Skills`; budget 2% \
         of the context window in tokens, or 8,000 characters. The token estimate, the name order and dropping \
         whole entries past the budget are Skillforge's assumptions; Codex's instructions around the list are \
         not shown."
            .to_string(),
        "No peer library exists to check this dialect against.".to_string(),
    ];
    assemble(
        CatalogDialect::Codex,
        text,
        drafts,
        Some(budget),
        None,
        notes,
        problems,
    )
}

#[cfg(test)]
mod roots_listing_tests {
    use super::*;

    #[test]
    fn codex_budget_arithmetic_and_layout() {
        assert_eq!(codex_budget(Some(200_000)), (4_000, BudgetUnit::Tokens));
        assert_eq!(codex_budget(Some(10_000)), (200, BudgetUnit::Tokens));
        assert_eq!(codex_budget(None), (8_000, BudgetUnit::Characters));
        let skills: Vec<CodexSkill> = (0..3)
            .map(|i| CodexSkill {
                name: format!("s{i}"),
                description: "d".repeat(80),
                path: "/p".into(),
            })
            .collect();
        let preview = codex_listing(&skills, None, Vec::new());
        assert!(preview.text.starts_with("## Skills\n- s0: dddd"));
        assert!(preview.text.ends_with(" (file: /p)"));
        assert!(preview.omitted.is_empty());
        // Heading 9 bytes + lines of 97 bytes: 9 + 97 = 106 bytes → 27 tokens; a 1,500-token window
        // allows 30 tokens, so only the first line fits.
        let small = codex_listing(&skills, Some(1_500), Vec::new());
        assert_eq!(small.omitted, ["s1", "s2"]);
    }
}
