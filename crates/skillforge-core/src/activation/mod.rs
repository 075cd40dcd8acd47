//! Activation: how a skill's text reaches a model in nagents (10xGraph's `activate_skill` and
//! `read_skill_resource` are its registry's, [`crate::clients::tenxgraph::registry`]).
//!
//! - [`reference`]: nagents' `$name` references in a user's message;
//! - [`nagents`]: explicit activation under the per-turn budget, and the `skill` tool.

pub mod nagents;
pub mod reference;

pub use reference::{explicit_skill_names, MAX_REFERENCES};
