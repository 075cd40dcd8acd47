//! The skill's place among its neighbours (SF6xx); facts come from [`crate::lint::context::Placement`].

pub mod duplicate_skill_name;
pub mod nested_skill;
pub mod symlinked_skill;
