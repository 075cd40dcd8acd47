//! The skills section OpenCode 1.18.33 ends its system prompt with (`p00`, `p07`, `p08`, `p11`, `p15`
//! in docs/clients-observed.md): two lines of header, then an `<available_skills>` block of every
//! loaded skill that has a description, in `localeCompare` order of the names (ICU root collation;
//! modelled with `feruca`'s CLDR root collation, ties in byte order), the name and description raw,
//! the location XML-escaped; `No skills are currently available.` when none is listed. The parts are
//! joined by `\n`, with no newline at the end. There is no budget and no cut (`p12`: 600 skills of 700
//! characters are all listed).

use super::discovery::Loaded;
use super::VERSION;
use crate::clients::listing::{
    assemble, CatalogDialect, CatalogLimits, CatalogPreview, Client, Draft,
};

/// The header's two lines.
pub const HEADER: &str = "Skills provide specialized instructions and workflows for specific tasks.\nUse the skill tool to load a skill when a task matches its description.";

/// What follows the header when no skill is listed.
pub const NONE_LISTED: &str = "No skills are currently available.";

/// The location as the section shows it: `&`, `<`, `>`, `"`, `'` escaped, in that order.
pub fn escape_location(location: &str) -> String {
    location
        .replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
        .replace('"', "&quot;")
        .replace('\'', "&#39;")
}

/// The listed skills (those with a description) in the client's order.
pub fn ordered(skills: &[Loaded]) -> Vec<&Loaded> {
    let mut listed: Vec<&Loaded> = skills
        .iter()
        .filter(|skill| skill.description.is_some())
        .collect();
    listed.sort_by(|a, b| a.name.cmp(&b.name));
    let mut collator =
        feruca::Collator::new(feruca::Tailoring::Cldr(feruca::Locale::Root), false, false);
    listed.sort_by(|a, b| collator.collate(&a.name, &b.name));
    listed
}

/// The section's text and, for every listed skill, its byte range in it.
fn render(listed: &[&Loaded]) -> (String, Vec<(usize, usize)>) {
    let mut text = String::from(HEADER);
    let mut spans = Vec::with_capacity(listed.len());
    if listed.is_empty() {
        text.push('\n');
        text.push_str(NONE_LISTED);
        return (text, spans);
    }
    text.push_str("\n<available_skills>");
    for skill in listed {
        text.push('\n');
        let start = text.len();
        text.push_str("  <skill>\n    <name>");
        text.push_str(&skill.name);
        text.push_str("</name>\n    <description>");
        text.push_str(skill.description.as_deref().unwrap_or_default());
        text.push_str("</description>\n    <location>");
        text.push_str(&escape_location(&skill.location));
        text.push_str("</location>\n  </skill>");
        spans.push((start, text.len()));
    }
    text.push_str("\n</available_skills>");
    (text, spans)
}

/// The section for these skills (the built-in included if it is among them).
pub fn listing_text(skills: &[Loaded]) -> String {
    render(&ordered(skills)).0
}

/// OpenCode, as a listing client: the skills it loaded, one per name.
pub struct Opencode;

impl Client for Opencode {
    type Skills = Vec<Loaded>;

    fn listing(
        skills: &Vec<Loaded>,
        _limits: &CatalogLimits,
        problems: Vec<String>,
    ) -> CatalogPreview {
        let listed = ordered(skills);
        let (text, spans) = render(&listed);
        let mut drafts: Vec<Draft> = listed
            .iter()
            .zip(spans)
            .map(|(skill, span)| Draft {
                name: skill.name.clone(),
                location: skill.location.clone(),
                span: Some(span),
                shortened: false,
            })
            .collect();
        drafts.extend(
            skills
                .iter()
                .filter(|skill| skill.description.is_none())
                .map(|skill| Draft {
                    name: skill.name.clone(),
                    location: skill.location.clone(),
                    span: None,
                    shortened: false,
                }),
        );
        let mut notes = vec![format!(
            "OpenCode {VERSION}, from its model checked against the real binary: every SKILL.md below the \
             folders is read (any depth), listed under its frontmatter name with its description as written; \
             no budget and no cut. The real section also lists the client's own `customize-opencode` \
             (`skillforge listing --dialect opencode --project DIR --with-client-skills` prints it)."
        )];
        if skills.iter().any(|skill| skill.description.is_none()) {
            notes.push(
                "Skills without a `description` key load (the skill tool opens them by name) but are not listed."
                    .to_string(),
            );
        }
        if skills.iter().any(|skill| !skill.rivals.is_empty()) {
            notes.push(
                "Several skills share a name: OpenCode keeps one of them, a different one from run to run; \
                 this preview shows the last found."
                    .to_string(),
            );
        }
        assemble(
            CatalogDialect::Opencode,
            text,
            drafts,
            None,
            None,
            notes,
            problems,
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn skill(name: &str, description: Option<&str>) -> Loaded {
        Loaded {
            name: name.into(),
            description: description.map(str::to_string),
            location: format!("/p/{name}/SKILL.md"),
            rivals: Vec::new(),
        }
    }

    #[test]
    fn the_section_with_and_without_skills() {
        assert_eq!(listing_text(&[]), format!("{HEADER}\n{NONE_LISTED}"));
        assert_eq!(
            listing_text(&[skill("b", Some("B & <c>")), skill("a", Some("x")), skill("z", None)]),
            format!(
                "{HEADER}\n<available_skills>\n  <skill>\n    <name>a</name>\n    <description>x</description>\n    \
                 <location>/p/a/SKILL.md</location>\n  </skill>\n  <skill>\n    <name>b</name>\n    \
                 <description>B & <c></description>\n    <location>/p/b/SKILL.md</location>\n  </skill>\n\
                 </available_skills>"
            )
        );
    }

    #[test]
    fn root_collation_order() {
        let names = [
            "Zeta",
            "zeta",
            "b9",
            "b10",
            "_under",
            "-lead",
            "~tilde",
            "0-first",
            "ä",
            "a b",
            "a_b",
            "a-b",
            "A-B",
            "a-name",
            "a.b",
            "a01",
            "a1",
            "ab",
            "aB",
            "Ab",
            "alpha",
            "Alpha",
            "beta",
            "Beta",
            "customize-opencode",
            "dash_x",
            "dash-x",
            "e",
            "é",
            "f",
            "ü-dir",
            "日本",
        ];
        let skills: Vec<Loaded> = names.iter().map(|name| skill(name, Some("d"))).collect();
        let order: Vec<&str> = ordered(&skills).iter().map(|s| s.name.as_str()).collect();
        assert_eq!(
            order,
            [
                "_under",
                "-lead",
                "~tilde",
                "0-first",
                "ä",
                "a b",
                "a_b",
                "a-b",
                "A-B",
                "a-name",
                "a.b",
                "a01",
                "a1",
                "ab",
                "aB",
                "Ab",
                "alpha",
                "Alpha",
                "b10",
                "b9",
                "beta",
                "Beta",
                "customize-opencode",
                "dash_x",
                "dash-x",
                "e",
                "é",
                "f",
                "ü-dir",
                "zeta",
                "Zeta",
                "日本",
            ]
        );
    }

    #[test]
    fn locations_are_escaped() {
        assert_eq!(
            escape_location("/p/a&b'c<d>\"/SKILL.md"),
            "/p/a&amp;b&#39;c&lt;d&gt;&quot;/SKILL.md"
        );
    }
}
