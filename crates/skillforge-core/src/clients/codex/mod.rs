//! Codex: its skill listing and the limits it skips skills by, from published facts only
//! (docs/dialects.md).

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
mod tests {
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
