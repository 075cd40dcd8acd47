//! The Skillforge engine.
//!
//! Everything a client does with Agent Skills — discovery, metadata parsing, token budgets, catalog
//! rendering — reproduced exactly, so that what an author previews is what an agent will see.
//! Nothing here prints, exits, or knows that a window exists.

pub mod agent;
pub mod builtin;
pub mod bundle;
pub mod catalog;
pub mod clients;
pub mod editor;
pub mod error;
pub mod eval;
pub mod frontmatter;
pub mod fs;
pub mod lint;
pub mod parallel;
pub mod preview;
pub mod python;
pub mod resources;
pub mod scaffold;
pub mod search;
pub mod skill;
pub mod text;
pub mod workspace;
