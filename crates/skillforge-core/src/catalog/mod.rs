//! Catalogs as an author previews them, over the client models in [`crate::clients`]:
//!
//! - [`listing`]: every client's model-facing catalog text (nagents, 10xGraph, skills-ref, Claude
//!   Code, Codex) with per-skill ranges, shares and what the client's budget left out;
//! - [`session`]: a workspace read once, with unsaved editor buffers laid over it per preview;
//! - [`load`]: one skill's load-budget view (nagents' cut and 10xGraph's `activate_skill`).

pub mod listing;
pub mod load;
pub mod session;
