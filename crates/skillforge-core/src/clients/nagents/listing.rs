//! nagents' skill manifest as a listing preview.

use super::{render_manifest_capped, MAX_SKILL_MANIFEST_TOKENS};
use crate::clients::listing::{
    assemble, clamp, to_u32, BudgetUnit, CatalogBudget, CatalogDialect, CatalogLimits,
    CatalogPreview, Client, Draft,
};
use crate::skill::Skill;

/// nagents, as a listing client: one skill per name, in name order.
pub struct Nagents;

impl Client for Nagents {
    type Skills = Vec<Skill>;

    fn listing(
        skills: &Vec<Skill>,
        limits: &CatalogLimits,
        problems: Vec<String>,
    ) -> CatalogPreview {
        let cap = limits
            .manifest_tokens
            .unwrap_or(MAX_SKILL_MANIFEST_TOKENS as u32);
        nagents_manifest(skills, cap, problems)
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

#[cfg(test)]
mod tests {
    use super::*;

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
}
