//! Gemini CLI, pinned to [`VERSION`]: where it finds skills, what it loads, and the exact
//! `# Available Agent Skills` section of its system instruction.
//!
//! The model rests on the real client (`@google/gemini-cli` 0.61.0 run offline against a fake
//! endpoint), not on documentation: docs/clients-observed.md records what it did, and
//! tests/fidelity/test_gemini.py compares this module's section and verdicts with the client's at
//! test time.
//!
//! - [`discovery`]: roots, the two-level glob, its order, hidden folders, links;
//! - [`frontmatter`]: the block, js-yaml and the line fallback, the name's sanitising, the verdict;
//! - [`builtin`]: the client's own two skills (their text, pinned);
//! - this file: discovery with name precedence, the per-file verdict and the section's text.
//!
//! Gemini has no budget: every skill is listed, whole, however many there are (600 skills,
//! 119,894 characters, `cp-tree-many-short`), and nothing is escaped.

pub mod builtin;
pub mod discovery;
pub mod frontmatter;

use std::path::{Path, PathBuf};

pub use frontmatter::{Drop, Parsed};

/// The Gemini CLI release this model reproduces.
pub const VERSION: &str = "0.61.0";

/// The section's first lines, up to the entries (the Gemini-3 prompt variant, which the default
/// `auto` routing picks).
pub const HEADER: &str = "# Available Agent Skills\n\nYou have access to the following specialized skills. To activate a skill and receive its detailed instructions, call the `activate_skill` tool with the skill's name.\n\n<available_skills>\n";

/// The section's last line.
pub const FOOTER: &str = "</available_skills>";

/// A skill Gemini loaded.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Loaded {
    /// Sanitised, as listed.
    pub name: String,
    pub description: String,
    /// The absolute path as found (through links, not resolved).
    pub location: String,
    /// One of the client's own skills (`bundle/builtin`).
    pub builtin: bool,
}

/// A `SKILL.md` Gemini read and dropped (silently).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Dropped {
    pub path: PathBuf,
    pub reason: Drop,
}

/// Everything a Gemini CLI started in one folder finds.
#[derive(Debug, Clone, Default)]
pub struct Discovered {
    /// The roots read, in order (missing ones included).
    pub roots: Vec<PathBuf>,
    /// In listing order, names unique.
    pub skills: Vec<Loaded>,
    pub dropped: Vec<Dropped>,
    /// Files and folders that exist but could not be read.
    pub problems: Vec<String>,
    /// What the client prints on stderr about overrides (`Skill conflict detected: …`).
    pub conflicts: Vec<String>,
}

impl Discovered {
    /// Adds a skill as `SkillManager.addSkillsWithPrecedence` does: a later skill of the same name
    /// takes the earlier one's place in the list (`cp-tree-duplicate-names`).
    pub fn add(&mut self, skill: Loaded) {
        match self.skills.iter_mut().find(|held| held.name == skill.name) {
            Some(held) => {
                if held.location != skill.location {
                    self.conflicts.push(if held.builtin {
                        format!(
                            "Skill \"{}\" from \"{}\" is overriding the built-in skill.",
                            skill.name, skill.location
                        )
                    } else {
                        format!(
                            "Skill conflict detected: \"{}\" from \"{}\" is overriding the same skill from \"{}\".",
                            skill.name, skill.location, held.location
                        )
                    });
                }
                *held = skill;
            }
            None => self.skills.push(skill),
        }
    }

    /// Reads one root as the client does and adds what loads.
    pub fn read_root(&mut self, root: &Path) {
        let root = std::path::absolute(root).unwrap_or_else(|_| root.to_path_buf());
        let files = discovery::skill_files(&root, &mut self.problems);
        self.roots.push(root);
        for file in files {
            let bytes = match std::fs::read(&file) {
                Ok(bytes) => bytes,
                Err(error) => {
                    self.problems.push(format!("{}: {error}", file.display()));
                    continue;
                }
            };
            match frontmatter::parse_bytes(&bytes) {
                Ok(parsed) => self.add(Loaded {
                    name: parsed.name,
                    description: parsed.description,
                    location: file.to_string_lossy().into_owned(),
                    builtin: false,
                }),
                Err(reason) => self.dropped.push(Dropped { path: file, reason }),
            }
        }
    }
}

/// Discovers as Gemini CLI started in `project` with `home` as `~` would (the working folder made
/// physical, as getcwd gives it). With `bundle`, the client's two built-in skills come first, with
/// their locations under that folder (`bundle/builtin/<name>/SKILL.md`).
pub fn discover(project: &Path, home: Option<&Path>, bundle: Option<&Path>) -> Discovered {
    let project = std::fs::canonicalize(project).unwrap_or_else(|_| project.to_path_buf());
    let mut discovered = Discovered::default();
    if let Some(bundle) = bundle {
        for skill in builtin::BUILTINS {
            discovered.add(Loaded {
                name: skill.name.to_string(),
                description: skill.description.to_string(),
                location: bundle
                    .join("builtin")
                    .join(skill.name)
                    .join("SKILL.md")
                    .to_string_lossy()
                    .into_owned(),
                builtin: true,
            });
        }
    }
    for root in discovery::roots(&project, home) {
        discovered.read_root(&root);
    }
    discovered
}

/// The client's `~`: `GEMINI_CLI_HOME`, else `HOME`.
pub fn home_from_process() -> Option<PathBuf> {
    std::env::var_os("GEMINI_CLI_HOME")
        .filter(|home| !home.is_empty())
        .or_else(|| std::env::var_os("HOME"))
        .map(PathBuf::from)
}

/// What Gemini does with one `SKILL.md` in one of its skill roots.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum FileVerdict {
    /// Listed under this (sanitised) name and description, as the model sees them ([`shown`]).
    Loads { name: String, description: String },
    /// Read and dropped; the client says nothing.
    Dropped(Drop),
    /// Never read.
    Ignored(&'static str),
}

/// Why a SKILL.md two or more folders below a skills folder is never read (`g-layout`).
pub const TOO_DEEP_IGNORED: &str =
    "Gemini CLI reads only `SKILL.md` and `*/SKILL.md` in a skills folder; this SKILL.md is deeper";
/// Why a skill in a hidden or `node_modules` folder is never read (`g-hidden`, `g-layout`).
pub const HIDDEN_IGNORED: &str =
    "Gemini CLI skips folders whose name starts with `.` and `node_modules` folders; this skill is inside one";
/// Why a file not named exactly `SKILL.md` is never read.
pub const FILE_NAME_IGNORED: &str = "Gemini CLI reads only files named exactly `SKILL.md`";

/// Where the last `.gemini/skills` or `.agents/skills` of `path` puts its SKILL.md: `Ok` when the
/// client would read it there (also when the path holds no such folder: the skill is judged as if
/// its folder were installed in one), else why it never reads it.
pub fn placement(path: &Path) -> Result<(), &'static str> {
    if path.file_name().is_some_and(|name| name != "SKILL.md") {
        return Err(FILE_NAME_IGNORED);
    }
    let Some(below) = super::below_root(path, &[&[".gemini", "skills"], &[".agents", "skills"]])
    else {
        return Ok(());
    };
    if below.len() > 1 {
        return Err(TOO_DEEP_IGNORED);
    }
    if below
        .iter()
        .any(|name| !discovery::folder_walked(name.as_encoded_bytes()))
    {
        return Err(HIDDEN_IGNORED);
    }
    Ok(())
}

/// The verdict on one `SKILL.md` (`text` decoded with invalid bytes as U+FFFD, as the client reads
/// it) at `path`: the same rules as [`discover`], one file at a time (a later skill of the same
/// name, which would take its place in the list, is not considered).
pub fn file_verdict(text: &str, path: &Path) -> FileVerdict {
    file_verdict_of(&frontmatter::parse_text(text), path)
}

/// [`file_verdict`] from the file's frontmatter as the client read it ([`frontmatter::parse_text`]).
pub fn file_verdict_of(read: &Result<frontmatter::Parsed, Drop>, path: &Path) -> FileVerdict {
    if let Err(reason) = placement(path) {
        return FileVerdict::Ignored(reason);
    }
    match read {
        Ok(parsed) => FileVerdict::Loads {
            name: shown(&parsed.name).into_owned(),
            description: shown(&parsed.description).into_owned(),
        },
        Err(drop) => FileVerdict::Dropped(drop.clone()),
    }
}

/// A value as the model sees it: the client's prompt builder turns every run of three or more line
/// feeds in the whole system instruction into two (`finalPrompt.replace(/\n{3,}/g, "\n\n")`); no
/// run crosses a value's edge in the section, so it is done value by value.
pub fn shown(text: &str) -> std::borrow::Cow<'_, str> {
    if !text.contains("\n\n\n") {
        return text.into();
    }
    let mut out = String::with_capacity(text.len());
    let mut run = 0;
    for c in text.chars() {
        if c == '\n' {
            run += 1;
            if run > 2 {
                continue;
            }
        } else {
            run = 0;
        }
        out.push(c);
    }
    out.into()
}

/// The section with where each entry sits in it (byte ranges); empty text when no skill is
/// listed (the client then sends no section at all: `g-zero`).
pub fn section(skills: &[Loaded]) -> (String, Vec<(usize, usize)>) {
    if skills.is_empty() {
        return (String::new(), Vec::new());
    }
    let mut text = String::from(HEADER);
    let mut spans = Vec::with_capacity(skills.len());
    for (index, skill) in skills.iter().enumerate() {
        if index > 0 {
            text.push('\n');
        }
        let start = text.len();
        // No escaping of any kind (`g-escape`).
        text.push_str("  <skill>\n    <name>");
        text.push_str(&shown(&skill.name));
        text.push_str("</name>\n    <description>");
        text.push_str(&shown(&skill.description));
        text.push_str("</description>\n    <location>");
        text.push_str(&shown(&skill.location));
        text.push_str("</location>\n  </skill>");
        spans.push((start, text.len()));
    }
    text.push('\n');
    text.push_str(FOOTER);
    (text, spans)
}

/// The exact `# Available Agent Skills` section (no newline around it), or the empty string.
pub fn listing(skills: &[Loaded]) -> String {
    section(skills).0
}

// The listing of the ROOTS form of `skillforge listing --dialect gemini` and of the app's catalog
// preview: the same model, with the given folders read as Gemini's skill roots.

use crate::clients::listing::{
    assemble, CatalogDialect, CatalogLimits, CatalogPreview, Client, Draft,
};

/// Gemini CLI, as a listing client: what it found in the folders read as its skill roots.
pub struct Gemini;

impl Client for Gemini {
    type Skills = Discovered;

    fn listing(
        skills: &Discovered,
        _limits: &CatalogLimits,
        problems: Vec<String>,
    ) -> CatalogPreview {
        let (text, spans) = section(&skills.skills);
        let drafts = skills
            .skills
            .iter()
            .zip(spans)
            .map(|(skill, span)| Draft {
                name: skill.name.clone(),
                location: skill.location.clone(),
                span: Some(span),
                shortened: false,
            })
            .collect();
        let mut notes = vec![format!(
            "Gemini CLI {VERSION}, from its model checked against the real client: the open folders are read as its \
             skill roots (`SKILL.md` and `*/SKILL.md`), a later skill of the same name taking an earlier one's place. \
             There is no budget: every skill is listed whole. The client's two built-in skills (`skill-creator`, \
             `antigravity-support`) come first in the real section and are not shown here \
             (`skillforge listing --dialect gemini --project DIR --with-client-skills` prints them)."
        )];
        if text.is_empty() {
            notes.push(
                "Gemini lists no skill here; with its built-in skills disabled it sends no section at all."
                    .to_string(),
            );
        }
        // No budget: the client lists everything, as 10xGraph does.
        assemble(
            CatalogDialect::Gemini,
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

    #[test]
    fn the_section_lists_every_skill_raw() {
        let skills = [
            Loaded {
                name: "a".into(),
                description: "<b> & \"c\"".into(),
                location: "/p/.gemini/skills/a/SKILL.md".into(),
                builtin: false,
            },
            Loaded {
                name: "z".into(),
                description: "two\nlines\n".into(),
                location: "/p/.gemini/skills/z/SKILL.md".into(),
                builtin: false,
            },
        ];
        let text = listing(&skills);
        assert!(text.starts_with(HEADER));
        assert!(text.ends_with("</location>\n  </skill>\n</available_skills>"));
        assert!(text.contains("<description><b> & \"c\"</description>"));
        assert!(text.contains("  </skill>\n  <skill>\n    <name>z</name>"));
        assert_eq!(listing(&[]), "");
    }

    #[test]
    fn a_later_skill_of_a_name_takes_the_first_place() {
        let mut discovered = Discovered::default();
        let skill = |name: &str, location: &str| Loaded {
            name: name.into(),
            description: "d".into(),
            location: location.into(),
            builtin: false,
        };
        discovered.add(skill("x", "/1"));
        discovered.add(skill("y", "/2"));
        discovered.add(skill("x", "/3"));
        let order: Vec<&str> = discovered
            .skills
            .iter()
            .map(|s| s.location.as_str())
            .collect();
        assert_eq!(order, ["/3", "/2"]);
        assert_eq!(discovered.conflicts.len(), 1);
    }

    #[test]
    fn placement_in_a_root() {
        assert_eq!(placement(Path::new("/p/.gemini/skills/a/SKILL.md")), Ok(()));
        assert_eq!(placement(Path::new("/p/.agents/skills/SKILL.md")), Ok(()));
        assert_eq!(
            placement(Path::new("/p/.gemini/skills/a/b/SKILL.md")),
            Err(TOO_DEEP_IGNORED)
        );
        assert_eq!(
            placement(Path::new("/p/.gemini/skills/.h/SKILL.md")),
            Err(HIDDEN_IGNORED)
        );
        assert_eq!(placement(Path::new("/p/x/a/SKILL.md")), Ok(()));
    }
}
