//! The clients, one folder each: everything one client does with skills (where it looks, how it
//! parses and what it drops, its verdict, its catalog text, its tools), over the generic layers
//! (`text`, `fs`, `frontmatter::yaml`, `python`). Nothing here imports the linter or the workspace.
//!
//! - [`nagents`]: nagents 0.25.2;
//! - [`tenxgraph`]: 10xGraph 0.10.3.

pub mod nagents;
pub mod tenxgraph;
