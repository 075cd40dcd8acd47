//! 10xGraph's catalog block as a listing preview.

use super::registry::Registry;
use crate::clients::listing::{
    assemble, CatalogDialect, CatalogLimits, CatalogPreview, Client, Draft,
};

/// 10xGraph, as a listing client: its registry after discovery.
pub struct Tenxgraph;

impl Client for Tenxgraph {
    type Skills = Registry;

    /// 10xGraph's `build_catalog` text (the block its catalog prompt embeds). 10xGraph bounds neither
    /// the catalog nor its entries, so `limits` change nothing.
    fn listing(
        registry: &Registry,
        _limits: &CatalogLimits,
        problems: Vec<String>,
    ) -> CatalogPreview {
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
}
