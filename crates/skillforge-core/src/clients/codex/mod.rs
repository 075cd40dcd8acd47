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
pub mod run;

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

/// How many folders below the last `.agents/skills` or `.codex/skills` in `path` its SKILL.md sits
/// (None when the path holds neither, so the skill is judged as if installed in one); `Err` when a folder
/// on the way is hidden, which Codex never enters (the reason why).
pub fn depth_in_root(path: &Path) -> Result<Option<usize>, &'static str> {
    let below = super::below_root(path, &[&[".agents", "skills"], &[".codex", "skills"]]);
    if below
        .iter()
        .flatten()
        .any(|name| name.as_encoded_bytes().starts_with(b"."))
    {
        return Err(HIDDEN_IGNORED);
    }
    Ok(below.map(|folders| folders.len()))
}

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
    listing_entries(discovered, budget_tokens).map(|block| block.text)
}

/// The block and where each listed skill's entry sits in it.
#[derive(Debug, Clone)]
pub struct Block {
    pub text: String,
    /// Every skill offered to the model, in listing order, with its line's byte range in `text`
    /// (None when the budget left it out) and whether its description was shortened.
    pub entries: Vec<BlockEntry>,
    /// The tokens the entry lines cost, as the budget counts them.
    pub used_tokens: usize,
}

#[derive(Debug, Clone)]
pub struct BlockEntry {
    pub name: String,
    pub path: PathBuf,
    pub span: Option<(usize, usize)>,
    pub shortened: bool,
}

/// [`listing`], with the entries' places.
pub fn listing_entries(discovered: &Discovered, budget_tokens: usize) -> Option<Block> {
    let mut listed: Vec<&Loaded> = discovered.skills.iter().filter(|s| s.implicit).collect();
    if listed.is_empty() {
        return None;
    }
    let path = |s: &Loaded| discovered.roots[s.root].path.join(&s.relative);
    listed.sort_by(|a, b| {
        a.scope
            .cmp(&b.scope)
            .then_with(|| a.name.cmp(&b.name))
            .then_with(|| path(a).cmp(&path(b)))
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
    let kept = budgeted(&lines, budget_tokens);
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
    let mut entries: Vec<BlockEntry> = listed
        .iter()
        .zip(&lines)
        .map(|(skill, line)| BlockEntry {
            name: skill.name.clone(),
            path: path(skill),
            span: None,
            shortened: line.description.len() != skill.description.len(),
        })
        .collect();
    let mut used_tokens = 0;
    for (index, text, chars) in kept {
        let start = block.len();
        block.push_str(&text);
        entries[index].span = Some((start, block.len()));
        entries[index].shortened |= chars < lines[index].description.chars().count();
        block.push('\n');
        used_tokens += tokens(text.len() + 1);
    }
    block.push_str("</skills_instructions>");
    Some(Block {
        text: block,
        entries,
        used_tokens,
    })
}

/// The lines kept within `limit` tokens: (index into `lines`, text, description characters kept).
fn budgeted(lines: &[Line], limit: usize) -> Vec<(usize, String, usize)> {
    let full: usize = lines
        .iter()
        .map(|line| tokens(line.render(line.description.chars().count()).len() + 1))
        .sum();
    if full <= limit {
        return lines
            .iter()
            .enumerate()
            .map(|(index, line)| {
                let chars = line.description.chars().count();
                (index, line.render(chars), chars)
            })
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
            .enumerate()
            .map(|(index, (line, chars))| (index, line.render(chars), chars))
            .collect();
    }
    let mut used = 0;
    let mut kept = Vec::new();
    for (index, line) in lines.iter().enumerate() {
        let cost = tokens(minimum[index]);
        if used + cost <= limit {
            used += cost;
            kept.push((index, line.render(0), 0));
        }
    }
    kept
}

// The listing of the ROOTS form of `skillforge listing --dialect codex` and of the app's catalog
// preview: the same model, with the given folders read as Codex's skill roots.

use crate::clients::listing::{
    assemble, clamp, BudgetUnit, CatalogBudget, CatalogDialect, CatalogLimits, CatalogPreview,
    Client, Draft,
};

/// Codex, as a listing client: what it found in the folders read as its skill roots.
pub struct Codex;

impl Client for Codex {
    type Skills = Discovered;

    fn listing(
        skills: &Discovered,
        limits: &CatalogLimits,
        problems: Vec<String>,
    ) -> CatalogPreview {
        let window = limits.context_window.map(u64::from);
        let limit = budget(window);
        let block = listing_entries(skills, limit);
        let (text, drafts, used) = match block {
            Some(block) => {
                let drafts = block
                    .entries
                    .into_iter()
                    .map(|entry| Draft {
                        name: entry.name,
                        location: entry.path.display().to_string(),
                        span: entry.span,
                        shortened: entry.shortened,
                    })
                    .collect();
                (block.text, drafts, block.used_tokens)
            }
            None => (String::new(), Vec::new(), 0),
        };
        let basis = match window {
            Some(window) => format!(
                "2% of a {window}-token context window (windows over {MAX_CONTEXT_WINDOW} count as {MAX_CONTEXT_WINDOW})"
            ),
            None => format!("{DEFAULT_BUDGET_TOKENS} tokens (no context window set)"),
        };
        let mut notes = vec![format!(
            "Codex {VERSION}, from its model checked against the real binary: the open folders are read as its skill \
             roots (a skill folder placed in `.agents/skills`); entries cost ceil(bytes / 4) tokens each, and over \
             the budget descriptions are shortened evenly before skills are dropped."
        )];
        if text.is_empty() {
            notes
                .push("Codex lists no skill here, so it sends no skills block at all.".to_string());
        }
        let budget = CatalogBudget {
            unit: BudgetUnit::Tokens,
            limit: clamp(limit as u64),
            used: clamp(used as u64),
            basis,
        };
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
        let texts = |kept: Vec<(usize, String, usize)>| -> Vec<String> {
            kept.into_iter().map(|(_, text, _)| text).collect()
        };
        let whole = texts(budgeted(&lines, 1_000));
        assert_eq!(whole[0], "- aa: abcdefghijklmnop (file: r0/aa/SKILL.md)");
        // 28 bytes + newline each at minimum: 8 tokens (up to 32 bytes) each. Two more tokens let
        // each line grow to 36 bytes: ": " + 6 characters, as long as the first 2 are free.
        let shared = texts(budgeted(&lines, 18));
        assert_eq!(shared[0], "- aa: abcdef (file: r0/aa/SKILL.md)");
        assert_eq!(shared[1], "- bb: qrstuv (file: r0/bb/SKILL.md)");
        assert_eq!(
            texts(budgeted(&lines, 15)),
            vec!["- aa: (file: r0/aa/SKILL.md)"]
        );
    }
}
