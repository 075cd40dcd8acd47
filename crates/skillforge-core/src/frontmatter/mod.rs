//! Frontmatter parsing: the full YAML parser and the frontmatter schema (nagents' line parser is
//! its own, [`crate::clients::nagents::metadata`]).

pub mod schema;
pub mod yaml;
