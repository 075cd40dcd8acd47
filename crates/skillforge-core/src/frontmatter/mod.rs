//! Frontmatter parsers: the lite line parser nagents uses, and the full YAML parser.

pub mod lite;
pub mod schema;
pub mod yaml;
