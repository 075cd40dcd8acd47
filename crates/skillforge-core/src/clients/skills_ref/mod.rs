//! skills-ref 0.1.1, the specification's reference library: its `to_prompt` block.

/// The skills-ref version this model reproduces (its fidelity suite runs against this release).
pub const VERSION: &str = "0.1.1";

use crate::clients::listing::{
    assemble, CatalogDialect, CatalogLimits, CatalogPreview, Client, Draft,
};
use crate::python;

/// skills-ref, as a listing client: the skills it could read, in the order given.
pub struct SkillsRef;

impl Client for SkillsRef {
    type Skills = Vec<SkillsRefSkill>;

    fn listing(
        skills: &Vec<SkillsRefSkill>,
        _limits: &CatalogLimits,
        problems: Vec<String>,
    ) -> CatalogPreview {
        skills_ref_prompt(skills, problems)
    }
}

/// A skill as skills-ref's `read_properties` reads it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SkillsRefSkill {
    pub name: String,
    pub description: String,
    /// The SKILL.md path under the resolved skill directory.
    pub location: String,
}

/// skills-ref's `to_prompt` for the given skills, in the given order. skills-ref raises on a
/// skill it cannot read; `problems` names those (the preview leaves them out).
pub fn skills_ref_prompt(skills: &[SkillsRefSkill], problems: Vec<String>) -> CatalogPreview {
    let mut text = String::from("<available_skills>\n");
    let mut drafts = Vec::with_capacity(skills.len());
    for skill in skills {
        let start = text.len();
        text.push_str("<skill>\n<name>\n");
        python::html_escape_into(&mut text, &skill.name, true);
        text.push_str("\n</name>\n<description>\n");
        python::html_escape_into(&mut text, &skill.description, true);
        text.push_str("\n</description>\n<location>\n");
        // The location is not escaped by skills-ref.
        text.push_str(&skill.location);
        text.push_str("\n</location>\n</skill>\n");
        drafts.push(Draft {
            name: skill.name.clone(),
            location: skill.location.clone(),
            span: Some((start, text.len())),
            shortened: false,
        });
    }
    text.push_str("</available_skills>");
    let mut notes = vec![
        "skills-ref bounds nothing: every skill given to to_prompt is listed in full.".to_string(),
    ];
    if !problems.is_empty() {
        notes.push(
            "skills-ref's to_prompt raises on the first skill it cannot read, so with these skills present it \
             produces no text at all; the preview shows the rest."
                .to_string(),
        );
    }
    assemble(
        CatalogDialect::SkillsRef,
        text,
        drafts,
        None,
        None,
        notes,
        problems,
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn skills_ref_matches_to_prompt_layout() {
        let preview = skills_ref_prompt(
            &[SkillsRefSkill {
                name: "a".into(),
                description: "x & 'y'".into(),
                location: "/p/a&b/SKILL.md".into(),
            }],
            Vec::new(),
        );
        assert_eq!(
            preview.text,
            "<available_skills>\n<skill>\n<name>\na\n</name>\n<description>\nx &amp; &#x27;y&#x27;\n</description>\n\
             <location>\n/p/a&b/SKILL.md\n</location>\n</skill>\n</available_skills>"
        );
        assert_eq!(
            skills_ref_prompt(&[], Vec::new()).text,
            "<available_skills>\n</available_skills>"
        );
    }
}
