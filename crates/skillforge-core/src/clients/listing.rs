//! What each client shows a model about the available skills: the shared vocabulary of every
//! client's listing (the exact text, and for every skill where its entry sits, how much of the text it
//! takes, and whether the client's budget kept it) and the [`Client`] trait each client implements.
//!
//! The dispatch over the dialects is [`crate::catalog::listing`]; each client renders its own text:
//!
//! - nagents: [`crate::clients::nagents::listing`], `render_skill_manifest` with its token cap as a
//!   parameter (byte-identical at the default cap; checked against the real nagents);
//! - 10xGraph: [`crate::clients::tenxgraph::listing`], the `<available_skills>` block of
//!   `build_catalog` (no budget);
//! - skills-ref: [`crate::clients::skills_ref`], `to_prompt` (byte-identical; checked against
//!   skills-ref);
//! - Claude Code: [`crate::clients::claude_code`], the listing of the 2.1.332 binary (checked against it);
//! - Codex: [`crate::clients::codex`], the `<skills_instructions>` block of the 0.171.0 binary (checked
//!   against it);
//! - GitHub Copilot CLI: [`crate::clients::copilot`], the `<available_skills>` section of the 1.0.102
//!   binary's system message (checked against it).
//! - Gemini CLI: [`crate::clients::gemini`], the `# Available Agent Skills` section of 0.61.0 (no
//!   budget; checked against it).
//! - OpenCode: [`crate::clients::opencode`], the skills section of the 1.18.33 binary (checked against
//!   it; no budget).

use serde::{Deserialize, Serialize};

use crate::text::estimate_skill_tokens;

/// One client's listing: what it shows a model about the skills it read. The listing dispatch
/// ([`crate::catalog::listing`]) calls nothing else of a client.
pub trait Client {
    /// The skills as this client read them, ready to list.
    type Skills;

    /// The client's model-facing text for `skills` under the author's `limits`; `problems` are what
    /// reading the skills met, shown beside the text.
    fn listing(
        skills: &Self::Skills,
        limits: &CatalogLimits,
        problems: Vec<String>,
    ) -> CatalogPreview;
}

/// A client whose catalog text can be previewed.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
pub enum CatalogDialect {
    /// nagents' skill manifest (a system message).
    #[serde(rename = "nagents")]
    Nagents,
    /// 10xGraph's `<available_skills>` catalog (inside its catalog prompt).
    #[serde(rename = "10xgraph")]
    Tenxgraph,
    /// skills-ref's `to_prompt`, the specification's reference block.
    #[serde(rename = "skills-ref")]
    SkillsRef,
    /// Claude Code's skill listing.
    #[serde(rename = "claude-code")]
    ClaudeCode,
    /// Codex's `## Skills` listing.
    #[serde(rename = "codex")]
    Codex,
    /// GitHub Copilot CLI's `<available_skills>` section.
    #[serde(rename = "copilot")]
    Copilot,
    /// Gemini CLI's `# Available Agent Skills` section (of its system instruction).
    #[serde(rename = "gemini")]
    Gemini,
    /// OpenCode's `<available_skills>` section.
    #[serde(rename = "opencode")]
    Opencode,
}

impl CatalogDialect {
    pub const ALL: [CatalogDialect; 8] = [
        CatalogDialect::Nagents,
        CatalogDialect::Tenxgraph,
        CatalogDialect::SkillsRef,
        CatalogDialect::ClaudeCode,
        CatalogDialect::Codex,
        CatalogDialect::Copilot,
        CatalogDialect::Gemini,
        CatalogDialect::Opencode,
    ];

    /// The name used on the command line and over IPC.
    pub fn id(self) -> &'static str {
        match self {
            CatalogDialect::Nagents => "nagents",
            CatalogDialect::Tenxgraph => "10xgraph",
            CatalogDialect::SkillsRef => "skills-ref",
            CatalogDialect::ClaudeCode => "claude-code",
            CatalogDialect::Codex => "codex",
            CatalogDialect::Copilot => "copilot",
            CatalogDialect::Gemini => "gemini",
            CatalogDialect::Opencode => "opencode",
        }
    }

    pub fn from_id(id: &str) -> Option<Self> {
        Self::ALL.into_iter().find(|dialect| dialect.id() == id)
    }
}

/// The author's controls for the budgets that depend on a setting.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
pub struct CatalogLimits {
    /// nagents' `MAX_SKILL_MANIFEST_TOKENS` (default 10,000).
    #[serde(default)]
    pub manifest_tokens: Option<u32>,
    /// The model's context window in tokens, from which Claude Code's and Codex's listing budgets
    /// follow. Unset, each uses its default model's: Claude Code 30,000 characters, Codex 10,000 tokens.
    #[serde(default)]
    pub context_window: Option<u32>,
    /// GitHub Copilot CLI's `SKILL_CHAR_BUDGET`: its listing budget in UTF-16 units (default 15,000).
    /// Copilot's budget does not follow the model, so it has a control of its own.
    #[serde(default)]
    pub skill_char_budget: Option<u32>,
}

/// What a budget counts.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
#[serde(rename_all = "snake_case")]
pub enum BudgetUnit {
    /// UTF-8 bytes.
    Bytes,
    /// Estimated tokens, ceil(UTF-8 bytes / 4).
    Tokens,
    /// Unicode code points.
    Characters,
    /// UTF-16 code units (a JavaScript string's length).
    Utf16Units,
}

/// A client's bound on its catalog text, and how much of it the text uses.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
pub struct CatalogBudget {
    pub unit: BudgetUnit,
    pub limit: u32,
    /// The part of the text the budget counts, in `unit`.
    pub used: u32,
    /// How the limit follows from the controls, for a tooltip.
    pub basis: String,
}

/// One skill's place in the catalog text.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
pub struct CatalogEntry {
    pub name: String,
    /// The SKILL.md this entry describes, as the client names it (may be empty where the client
    /// shows no location).
    pub location: String,
    /// Whether the entry is in the text.
    pub included: bool,
    /// Whether the client cut the entry's text to fit a per-entry cap.
    pub shortened: bool,
    /// The entry's range in `text`, in UTF-16 code units (CodeMirror's unit); empty when omitted.
    pub start_utf16: u32,
    pub end_utf16: u32,
    /// UTF-8 bytes of the entry in the text (0 when omitted).
    pub bytes: u32,
    /// The entry's fraction of the whole text's bytes.
    pub share: f64,
}

/// Exactly what one client would show a model about the skills.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
pub struct CatalogPreview {
    pub dialect: CatalogDialect,
    /// The model-facing text, byte for byte.
    pub text: String,
    pub bytes: u32,
    /// ceil(bytes / 4), the estimate the peers use.
    pub estimated_tokens: u32,
    /// `None` where the client bounds nothing (10xGraph, skills-ref).
    pub budget: Option<CatalogBudget>,
    /// Every skill the client read, in catalog order, omitted ones included.
    pub entries: Vec<CatalogEntry>,
    /// Names of the skills the budget left out, in catalog order.
    pub omitted: Vec<String>,
    /// The notice the client appends when it omits skills.
    pub notice: Option<String>,
    /// Facts about this dialect an author should keep in mind (e.g. "no budget").
    pub notes: Vec<String>,
    /// Skills the client could not read, or a failure of the whole catalog, in its words.
    pub problems: Vec<String>,
}

/// A preview cut to what a window lists: the first rows of the catalog and the current skill's
/// entry wherever it is, with the counts over every entry. A catalog of thousands of skills would
/// otherwise cross to the window whole on every keystroke.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
pub struct CatalogPage {
    /// The preview, text and budget whole; `entries` holds the first rows in catalog order, then
    /// the current skill's entry when it comes later.
    pub preview: CatalogPreview,
    /// How many entries the whole catalog has.
    pub entry_count: u32,
    /// How many of them are in the text.
    pub included_count: u32,
    /// Names of every entry the client shortened, in catalog order.
    pub shortened: Vec<String>,
}

impl CatalogPreview {
    /// Keeps the first `rows` entries and the one for the skill at `current_path` (matched by
    /// location; where the client shows no location, by `current_name`).
    pub fn page(
        mut self,
        rows: usize,
        current_path: Option<&str>,
        current_name: Option<&str>,
    ) -> CatalogPage {
        let entry_count = u32::try_from(self.entries.len()).unwrap_or(u32::MAX);
        let included = self.entries.iter().filter(|entry| entry.included).count();
        let shortened = self
            .entries
            .iter()
            .filter(|entry| entry.shortened)
            .map(|entry| entry.name.clone())
            .collect();
        let current = current_path.and_then(|path| {
            let by_location = self.entries.iter().position(|entry| entry.location == path);
            by_location.or_else(|| {
                let name = current_name?;
                self.entries
                    .iter()
                    .position(|entry| entry.location.is_empty() && entry.name == name)
            })
        });
        let kept = match current {
            Some(index) if index >= rows => Some(self.entries.swap_remove(index)),
            _ => None,
        };
        self.entries.truncate(rows);
        self.entries.extend(kept);
        CatalogPage {
            preview: self,
            entry_count,
            included_count: u32::try_from(included).unwrap_or(u32::MAX),
            shortened,
        }
    }
}

/// Converts increasing byte offsets of `text` into UTF-16 offsets in one pass.
pub(crate) fn utf16_offsets(text: &str, byte_offsets: &[usize]) -> Vec<u32> {
    let mut result = Vec::with_capacity(byte_offsets.len());
    let mut units = 0u32;
    let mut chars = text.char_indices().peekable();
    for &target in byte_offsets {
        while let Some(&(index, c)) = chars.peek() {
            if index >= target {
                break;
            }
            units += c.len_utf16() as u32;
            chars.next();
        }
        result.push(units);
    }
    result
}

pub(crate) fn to_u32(value: usize) -> u32 {
    u32::try_from(value).unwrap_or(u32::MAX)
}

/// Budgets cross IPC as 32-bit numbers (JavaScript numbers hold them exactly); no real budget
/// comes near the bound.
pub(crate) fn clamp(value: u64) -> u32 {
    u32::try_from(value).unwrap_or(u32::MAX)
}

/// One entry before its UTF-16 range is known.
pub(crate) struct Draft {
    pub name: String,
    pub location: String,
    pub span: Option<(usize, usize)>,
    pub shortened: bool,
}

/// Fills in ranges and shares, and assembles the preview.
pub(crate) fn assemble(
    dialect: CatalogDialect,
    text: String,
    drafts: Vec<Draft>,
    budget: Option<CatalogBudget>,
    notice: Option<String>,
    notes: Vec<String>,
    problems: Vec<String>,
) -> CatalogPreview {
    // Spans come in text order, so one pass over the text converts them all.
    let mut offsets = Vec::with_capacity(drafts.len() * 2);
    for draft in &drafts {
        if let Some((start, end)) = draft.span {
            offsets.push(start);
            offsets.push(end);
        }
    }
    let converted = utf16_offsets(&text, &offsets);
    let total = text.len().max(1) as f64;
    let mut next = converted.chunks(2);
    let mut omitted = Vec::new();
    let entries = drafts
        .into_iter()
        .map(|draft| match draft.span {
            Some((start, end)) => {
                let (start_utf16, end_utf16) = match next.next() {
                    Some([start, end]) => (*start, *end),
                    _ => (0, 0),
                };
                CatalogEntry {
                    name: draft.name,
                    location: draft.location,
                    included: true,
                    shortened: draft.shortened,
                    start_utf16,
                    end_utf16,
                    bytes: to_u32(end - start),
                    share: (end - start) as f64 / total,
                }
            }
            None => {
                omitted.push(draft.name.clone());
                CatalogEntry {
                    name: draft.name,
                    location: draft.location,
                    included: false,
                    shortened: draft.shortened,
                    start_utf16: 0,
                    end_utf16: 0,
                    bytes: 0,
                    share: 0.0,
                }
            }
        })
        .collect();
    CatalogPreview {
        dialect,
        bytes: to_u32(text.len()),
        estimated_tokens: to_u32(estimate_skill_tokens(&text) as usize),
        text,
        budget,
        entries,
        omitted,
        notice,
        notes,
        problems,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn entry(name: &str, location: &str, included: bool, shortened: bool) -> CatalogEntry {
        CatalogEntry {
            name: name.into(),
            location: location.into(),
            included,
            shortened,
            start_utf16: 0,
            end_utf16: 0,
            bytes: 0,
            share: 0.0,
        }
    }

    #[test]
    fn a_page_keeps_the_first_rows_the_current_entry_and_counts_everything() {
        let preview = CatalogPreview {
            dialect: CatalogDialect::Nagents,
            text: String::new(),
            bytes: 0,
            estimated_tokens: 0,
            budget: None,
            entries: (0..10)
                .map(|i| {
                    entry(
                        &format!("s{i}"),
                        &format!("/w/s{i}/SKILL.md"),
                        i < 7,
                        i == 8,
                    )
                })
                .collect(),
            omitted: Vec::new(),
            notice: None,
            notes: Vec::new(),
            problems: Vec::new(),
        };
        let names = |page: &CatalogPage| -> Vec<String> {
            page.preview
                .entries
                .iter()
                .map(|e| e.name.clone())
                .collect()
        };
        let page = preview.clone().page(3, Some("/w/s9/SKILL.md"), None);
        assert_eq!(names(&page), ["s0", "s1", "s2", "s9"]);
        assert_eq!((page.entry_count, page.included_count), (10, 7));
        assert_eq!(page.shortened, ["s8"]);
        // Already among the first rows, or unknown: nothing is added.
        assert_eq!(
            names(&preview.clone().page(3, Some("/w/s1/SKILL.md"), None)),
            ["s0", "s1", "s2"]
        );
        assert_eq!(
            names(&preview.clone().page(3, Some("/elsewhere"), Some("s9"))),
            ["s0", "s1", "s2"]
        );
        // Without locations, the current skill is found by name.
        let mut unnamed = preview.clone();
        unnamed.entries.iter_mut().for_each(|e| e.location.clear());
        assert_eq!(
            names(&unnamed.page(3, Some("/w/s5/SKILL.md"), Some("s5"))),
            ["s0", "s1", "s2", "s5"]
        );
        assert_eq!(names(&preview.page(100, None, None)).len(), 10);
    }
    #[test]
    fn utf16_offsets_count_surrogates() {
        assert_eq!(utf16_offsets("a😀b", &[0, 1, 5, 6]), [0, 1, 3, 4]);
    }
}
