//! The other frontmatter fields (SF4xx).

pub mod allowed_tools_list;
pub mod compatibility_too_long;
pub mod field_not_string;
pub mod metadata_not_string_map;
pub mod priority_not_integer;
pub mod unknown_field;
pub mod user_invocable_misspelled;
