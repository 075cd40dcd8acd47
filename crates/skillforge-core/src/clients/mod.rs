//! The clients, one folder each: everything one client does with skills (where it looks, how it
//! parses and what it drops, its verdict, its catalog text, its tools), over the generic layers
//! (`text`, `fs`, `frontmatter::yaml`, `python`). Nothing here imports the linter or the workspace.
//!
//! Every client lists its skills through one small trait, [`listing::Client`]; the dispatch over the
//! dialects is [`crate::catalog::listing`].
//!
//! - [`nagents`]: nagents 0.25.2;
//! - [`tenxgraph`]: 10xGraph 0.10.3;
//! - [`skills_ref`]: skills-ref 0.1.1, the specification's reference library;
//! - [`claude_code`], [`codex`]: Claude Code 2.1.332 and Codex 0.171.0, modelled from the real binaries
//!   (`listing --project`); their ROOTS-form listings still rest on published facts.

pub mod claude_code;
pub mod codex;
pub mod listing;
pub mod nagents;
pub mod skills_ref;
pub mod tenxgraph;
