//! The listing dispatch: which client renders a dialect's catalog text, from the skills a source
//! read the way that client reads them. Each client's text is its own ([`crate::clients`]); the
//! shared vocabulary is [`crate::clients::listing`].

use super::session::Buffer;
use crate::clients::claude_code::ClaudeCode;
use crate::clients::codex::Codex;
use crate::clients::copilot::Copilot;
use crate::clients::gemini::Gemini;
use crate::clients::listing::{CatalogDialect, CatalogLimits, CatalogPreview, Client};
use crate::clients::nagents::listing::Nagents;
use crate::clients::opencode::Opencode;
use crate::clients::skills_ref::SkillsRef;
use crate::clients::tenxgraph::listing::Tenxgraph;

/// Skills read the way client `C` reads them, with `buffers` in place of their files, and the
/// problems met reading them.
pub trait ReadsFor<C: Client> {
    fn read_for(&self, buffers: &[Buffer]) -> (C::Skills, Vec<String>);
}

/// The catalog text `dialect`'s client would show, over the skills `source` reads for it.
pub fn preview<S>(
    source: &S,
    dialect: CatalogDialect,
    limits: &CatalogLimits,
    buffers: &[Buffer],
) -> CatalogPreview
where
    S: ReadsFor<Nagents>
        + ReadsFor<Tenxgraph>
        + ReadsFor<SkillsRef>
        + ReadsFor<ClaudeCode>
        + ReadsFor<Codex>
        + ReadsFor<Copilot>
        + ReadsFor<Gemini>
        + ReadsFor<Opencode>,
{
    match dialect {
        CatalogDialect::Nagents => list::<Nagents, S>(source, limits, buffers),
        CatalogDialect::Tenxgraph => list::<Tenxgraph, S>(source, limits, buffers),
        CatalogDialect::SkillsRef => list::<SkillsRef, S>(source, limits, buffers),
        CatalogDialect::ClaudeCode => list::<ClaudeCode, S>(source, limits, buffers),
        CatalogDialect::Codex => list::<Codex, S>(source, limits, buffers),
        CatalogDialect::Copilot => list::<Copilot, S>(source, limits, buffers),
        CatalogDialect::Gemini => list::<Gemini, S>(source, limits, buffers),
        CatalogDialect::Opencode => list::<Opencode, S>(source, limits, buffers),
    }
}

fn list<C: Client, S: ReadsFor<C>>(
    source: &S,
    limits: &CatalogLimits,
    buffers: &[Buffer],
) -> CatalogPreview {
    let (skills, problems) = source.read_for(buffers);
    C::listing(&skills, limits, problems)
}
