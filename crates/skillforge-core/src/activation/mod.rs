//! Activation: how a skill's text reaches a model.
//!
//! - [`reference`]: nagents' `$name` references in a user's message;
//! - [`nagents`]: explicit activation under the per-turn budget, and the `skill` tool;
//! - [`tenxgraph`]: 10xGraph's registry (over [`crate::tenxgraph`]'s loader), catalog prompt, `activate_skill` and
//!   `read_skill_resource`;
//! - [`pyjson`]: JSON written exactly as Python's `json.dumps` writes it.

pub mod nagents;
pub mod pyjson;
pub mod reference;
mod skill_files;
pub mod tenxgraph;
mod word_table;

pub use reference::{explicit_skill_names, is_python_word, MAX_REFERENCES};
