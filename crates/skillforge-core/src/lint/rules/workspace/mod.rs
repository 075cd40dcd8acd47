//! The skill's place among its neighbours (SF6xx); facts come from [`crate::lint::context::Placement`].

pub mod client_refuses_skill;
pub mod duplicate_skill_name;
pub mod folder_name_refused;
pub mod lowercase_skill_file_ignored;
pub mod nested_skill;
pub mod skill_file_name_case;
pub mod symlinked_skill;
