//! What each client shows a model about the available skills: the exact text, and for every skill
//! where its entry sits, how much of the text it takes, and whether the client's budget kept it.
//!
//! One function per dialect; each takes the skills as that client reads them (see
//! [`super::session`] for how they are read from a workspace) and returns a [`CatalogPreview`].
//!
//! - nagents: [`nagents_manifest`], nagents' `render_skill_manifest` with its token cap as a
//!   parameter (byte-identical at the default cap; checked against the real nagents);
//! - 10xGraph: [`tenxgraph_catalog`], the `<available_skills>` block of `build_catalog` (no budget);
//! - skills-ref: [`skills_ref_prompt`], `to_prompt` (byte-identical; checked against skills-ref);
//! - Claude Code: [`claude_code_listing`], from published facts only (no peer library to check);
//! - Codex: [`codex_listing`], from published facts only (no peer library to check).

use serde::{Deserialize, Serialize};

use crate::budget::estimate_skill_tokens;
use crate::clients::nagents::{render_manifest_capped, MAX_SKILL_MANIFEST_TOKENS};
use crate::clients::tenxgraph::registry::Registry;
use crate::python;
use crate::skill::Skill;

/// Claude Code: the listing may use 1% of the context window, at 4 characters per token.
pub const CLAUDE_CODE_BUDGET_PERCENT: u64 = 1;
/// Claude Code: characters per token in the listing budget.
pub const CLAUDE_CODE_CHARS_PER_TOKEN: u64 = 4;
/// Claude Code: description and `when_to_use` together are cut to this many characters per entry.
pub const CLAUDE_CODE_ENTRY_CAP: usize = 1_536;
/// The context window assumed when none is given (Claude's 200,000 tokens).
pub const DEFAULT_CONTEXT_WINDOW: u32 = 200_000;
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
}

impl CatalogDialect {
    pub const ALL: [CatalogDialect; 5] = [
        CatalogDialect::Nagents,
        CatalogDialect::Tenxgraph,
        CatalogDialect::SkillsRef,
        CatalogDialect::ClaudeCode,
        CatalogDialect::Codex,
    ];

    /// The name used on the command line and over IPC.
    pub fn id(self) -> &'static str {
        match self {
            CatalogDialect::Nagents => "nagents",
            CatalogDialect::Tenxgraph => "10xgraph",
            CatalogDialect::SkillsRef => "skills-ref",
            CatalogDialect::ClaudeCode => "claude-code",
            CatalogDialect::Codex => "codex",
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
    /// follow. Claude Code assumes 200,000 when unset; Codex falls back to 8,000 characters.
    #[serde(default)]
    pub context_window: Option<u32>,
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
fn utf16_offsets(text: &str, byte_offsets: &[usize]) -> Vec<u32> {
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

fn to_u32(value: usize) -> u32 {
    u32::try_from(value).unwrap_or(u32::MAX)
}

/// Budgets cross IPC as 32-bit numbers (JavaScript numbers hold them exactly); no real budget
/// comes near the bound.
fn clamp(value: u64) -> u32 {
    u32::try_from(value).unwrap_or(u32::MAX)
}

/// One entry before its UTF-16 range is known.
struct Draft {
    name: String,
    location: String,
    span: Option<(usize, usize)>,
    shortened: bool,
}

/// Fills in ranges and shares, and assembles the preview.
fn assemble(
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

/// nagents' manifest with `MAX_SKILL_MANIFEST_TOKENS` set to `cap_tokens` (nagents' default is
/// [`MAX_SKILL_MANIFEST_TOKENS`]). `problems` carries the catalog's failure, if any (a duplicate
/// name fails nagents' whole discovery).
pub fn nagents_manifest(
    skills: &[Skill],
    cap_tokens: u32,
    problems: Vec<String>,
) -> CatalogPreview {
    let rendered = render_manifest_capped(skills, cap_tokens as usize);
    let drafts = rendered
        .ordered
        .iter()
        .enumerate()
        .map(|(index, skill)| Draft {
            name: skill.name.clone(),
            location: skill.location.clone(),
            span: rendered.spans.get(index).copied(),
            shortened: false,
        })
        .collect();
    let notice = rendered
        .notice
        .map(|(start, end)| rendered.text[start..end].to_string());
    let limit = u64::from(cap_tokens) * 4;
    let mut notes = vec![format!(
        "The manifest may use {cap_tokens} estimated tokens ({limit} bytes), including its header, footer \
         and room for an omission notice; descriptors are added in name order until the first that does not fit."
    )];
    if cap_tokens as usize != MAX_SKILL_MANIFEST_TOKENS {
        notes.push(format!(
            "nagents itself uses {MAX_SKILL_MANIFEST_TOKENS} tokens; this preview uses a lowered cap."
        ));
    }
    let budget = CatalogBudget {
        unit: BudgetUnit::Bytes,
        limit: clamp(limit),
        used: to_u32(rendered.text.len()),
        basis: format!("MAX_SKILL_MANIFEST_TOKENS {cap_tokens} \u{d7} 4 bytes"),
    };
    let text = rendered.text;
    assemble(
        CatalogDialect::Nagents,
        text,
        drafts,
        Some(budget),
        notice,
        notes,
        problems,
    )
}

/// 10xGraph's `build_catalog` text (the block its catalog prompt embeds). 10xGraph bounds neither
/// the catalog nor its entries.
pub fn tenxgraph_catalog(registry: &Registry, problems: Vec<String>) -> CatalogPreview {
    let text = registry.build_catalog();
    let ordered = registry.ordered();
    // Escaping turns every `<` of a field into `&lt;`, so the entry lines can be found by their
    // opening tag, in catalog order.
    const OPEN: &str = "  <skill>\n";
    const CLOSE: &str = "  </skill>";
    let mut drafts = Vec::with_capacity(ordered.len());
    let mut from = 0;
    for meta in ordered {
        let span = text[from..].find(OPEN).and_then(|start| {
            let start = from + start;
            let end = text[start..]
                .find(CLOSE)
                .map(|end| start + end + CLOSE.len())?;
            // The line break after `</skill>` belongs to the entry.
            let end = if text[end..].starts_with('\n') {
                end + 1
            } else {
                end
            };
            Some((start, end))
        });
        if let Some((_, end)) = span {
            from = end;
        }
        drafts.push(Draft {
            name: meta.name.clone(),
            location: meta.skill_dir.join("SKILL.md").display().to_string(),
            span,
            shortened: false,
        });
    }
    let notes = vec![
        "10xGraph bounds neither its catalog nor an entry: every loaded skill is listed in full.".to_string(),
        "Ordered by metadata.priority (highest first), then name; only & < > are escaped; whitespace in \
         descriptions and triggers is collapsed."
            .to_string(),
        "10xGraph wraps this block in its catalog prompt (a `## Skills` heading and instructions to call \
         activate_skill)."
            .to_string(),
    ];
    assemble(
        CatalogDialect::Tenxgraph,
        text,
        drafts,
        None,
        None,
        notes,
        problems,
    )
}

/// A skill as skills-ref's `read_properties` reads it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SkillsRefSkill {
    pub name: String,
    pub description: String,
    /// The SKILL.md path under the resolved skill directory.
    pub location: String,
}

/// skills-ref's `to_prompt` for the given skills, in the given order. skills-ref raises on a
/// skill it cannot read; `problems` names those (the preview leaves them out).
pub fn skills_ref_prompt(skills: &[SkillsRefSkill], problems: Vec<String>) -> CatalogPreview {
    let mut text = String::from("<available_skills>\n");
    let mut drafts = Vec::with_capacity(skills.len());
    for skill in skills {
        let start = text.len();
        text.push_str("<skill>\n<name>\n");
        python::html_escape_into(&mut text, &skill.name, true);
        text.push_str("\n</name>\n<description>\n");
        python::html_escape_into(&mut text, &skill.description, true);
        text.push_str("\n</description>\n<location>\n");
        // The location is not escaped by skills-ref.
        text.push_str(&skill.location);
        text.push_str("\n</location>\n</skill>\n");
        drafts.push(Draft {
            name: skill.name.clone(),
            location: skill.location.clone(),
            span: Some((start, text.len())),
            shortened: false,
        });
    }
    text.push_str("</available_skills>");
    let mut notes = vec![
        "skills-ref bounds nothing: every skill given to to_prompt is listed in full.".to_string(),
    ];
    if !problems.is_empty() {
        notes.push(
            "skills-ref's to_prompt raises on the first skill it cannot read, so with these skills present it \
             produces no text at all; the preview shows the rest."
                .to_string(),
        );
    }
    assemble(
        CatalogDialect::SkillsRef,
        text,
        drafts,
        None,
        None,
        notes,
        problems,
    )
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
    use crate::clients::nagents::render_skill_manifest;

    fn skill(name: &str, description: &str) -> Skill {
        Skill {
            name: name.into(),
            description: description.into(),
            location: format!("/r/{name}/SKILL.md"),
        }
    }

    fn slice_utf16(text: &str, start: u32, end: u32) -> String {
        let units: Vec<u16> = text.encode_utf16().collect();
        String::from_utf16_lossy(&units[start as usize..end as usize])
    }

    #[test]
    fn nagents_default_cap_is_the_manifest() {
        let skills = vec![skill("b", "é <x>"), skill("a", "plain")];
        let preview = nagents_manifest(&skills, 10_000, Vec::new());
        assert_eq!(preview.text, render_skill_manifest(&skills));
        assert_eq!(preview.entries.len(), 2);
        assert_eq!(preview.entries[0].name, "a");
        let b = &preview.entries[1];
        assert_eq!(
            slice_utf16(&preview.text, b.start_utf16, b.end_utf16),
            "<skill name=\"b\" location=\"/r/b/SKILL.md\">é &lt;x&gt;</skill>\n"
        );
        assert_eq!(
            b.bytes as usize,
            b.end_utf16 as usize - b.start_utf16 as usize + 1
        );
        assert!(preview.omitted.is_empty() && preview.notice.is_none());
        assert_eq!(preview.budget.map(|b| b.limit), Some(40_000));
    }

    #[test]
    fn nagents_lower_cap_drops_skills_with_the_notice() {
        let skills: Vec<Skill> = (0..5)
            .map(|i| skill(&format!("s{i}"), &"d".repeat(100)))
            .collect();
        // Header 241 + footer 19 + notice 144 = 404 reserved bytes; entries are 141 bytes each.
        let preview = nagents_manifest(&skills, 180, Vec::new());
        assert_eq!(preview.omitted, ["s2", "s3", "s4"]);
        assert_eq!(
            preview.notice.as_deref(),
            Some(
                "\n[Skill catalog truncated: 3 additional descriptors omitted to keep the manifest bounded. \
                 Explicitly named skills can still be loaded with skill(name).]"
            )
        );
        assert!(preview
            .text
            .ends_with(preview.notice.as_deref().unwrap_or("?")));
        let none = nagents_manifest(&skills, 1, Vec::new());
        assert_eq!(none.omitted.len(), 5);
    }

    #[test]
    fn skills_ref_matches_to_prompt_layout() {
        let preview = skills_ref_prompt(
            &[SkillsRefSkill {
                name: "a".into(),
                description: "x & 'y'".into(),
                location: "/p/a&b/SKILL.md".into(),
            }],
            Vec::new(),
        );
        assert_eq!(
            preview.text,
            "<available_skills>\n<skill>\n<name>\na\n</name>\n<description>\nx &amp; &#x27;y&#x27;\n</description>\n\
             <location>\n/p/a&b/SKILL.md\n</location>\n</skill>\n</available_skills>"
        );
        assert_eq!(
            skills_ref_prompt(&[], Vec::new()).text,
            "<available_skills>\n</available_skills>"
        );
    }

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

    #[test]
    fn utf16_offsets_count_surrogates() {
        assert_eq!(utf16_offsets("a😀b", &[0, 1, 5, 6]), [0, 1, 3, 4]);
    }
}
