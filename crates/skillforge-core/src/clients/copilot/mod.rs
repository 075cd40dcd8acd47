//! GitHub Copilot CLI, pinned to [`VERSION`]: where it finds skills, what it loads or drops (with the
//! message `copilot skill list` prints), and the exact `<available_skills>` section of its system
//! message, with its escaping and its budget.
//!
//! The model rests on the real binary (`@github/copilot` 1.0.102, linux-x64), not on documentation:
//! docs/clients-observed.md records what it did on the probe set, and tests/fidelity/test_copilot.py
//! compares this module's section and verdicts with the binary's at test time.
//!
//! - [`discovery`]: roots, ancestors, walk, hidden folders, links;
//! - [`frontmatter`]: the frontmatter block, the strict YAML parse, names, descriptions, typed fields;
//! - this file: precedence, order, the section text and its budget, the client's own skills.

pub mod discovery;
pub mod frontmatter;

use std::collections::HashSet;
use std::path::{Path, PathBuf};

pub use discovery::{Root, Source};
pub use frontmatter::{Drop, Parsed};

use crate::clients::listing::{
    assemble, clamp, BudgetUnit, CatalogBudget, CatalogDialect, CatalogLimits, CatalogPreview,
    Client, Draft,
};

/// The Copilot CLI release this model reproduces.
pub const VERSION: &str = "1.0.102";

/// The listing budget in UTF-16 code units when `SKILL_CHAR_BUDGET` is unset, not a number or not
/// positive (`tree-many-short`: 124 entries of 14,894 units, the 125th would make 15,015).
pub const DEFAULT_BUDGET: usize = 15_000;

/// The environment variable that overrides [`DEFAULT_BUDGET`].
pub const BUDGET_VARIABLE: &str = "SKILL_CHAR_BUDGET";

/// The budget `SKILL_CHAR_BUDGET` sets: a positive integer, anything else (`0`, `-1`, `abc`) the
/// default (`budget-500`).
pub fn budget_from(setting: Option<&str>) -> usize {
    setting
        .and_then(|text| text.trim().parse::<usize>().ok())
        .filter(|budget| *budget > 0)
        .unwrap_or(DEFAULT_BUDGET)
}

/// One of the client's own skills, which it lists after everyone else's unless disabled.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Builtin {
    pub name: &'static str,
    pub description: &'static str,
}

/// The binary's builtin skills, in its order (from `…/pkg/linux-x64/1.0.102/builtin/`; the fidelity
/// suite compares them with what the binary lists).
pub const BUILTINS: [Builtin; 2] = [
    Builtin {
        name: "customize-cloud-agent",
        description: "Skill for customizing the Copilot cloud agent (formerly known as Copilot coding agent) environment, including copilot-setup-steps.yml configuration, preinstalling tools and dependencies, runners, and settings. Use when the user mentions copilot-setup-steps, copilot setup steps, or wants to configure the cloud agent environment.",
    },
    Builtin {
        name: "github-pr-media",
        description: "Upload an image or video to GitHub's user attachments API and embed it in a pull request description or comment. Use when asked to add screenshots, diagrams, recordings, or other media to a PR or GitHub comment.",
    },
];

/// A skill the client loaded.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Loaded {
    pub name: String,
    pub description: String,
    pub source: Source,
    /// The `SKILL.md` as walked (for a builtin, `builtin/<name>/SKILL.md`).
    pub path: PathBuf,
    /// False with `disable-model-invocation: true`: loaded, not in the model's listing.
    pub listed: bool,
}

/// A `SKILL.md` the client dropped, with the message `skill list` prints for it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Dropped {
    pub path: PathBuf,
    pub reason: Drop,
}

/// Everything a client started in one folder loads and drops, in discovery order.
#[derive(Debug, Clone, Default)]
pub struct Discovered {
    pub skills: Vec<Loaded>,
    pub dropped: Vec<Dropped>,
}

impl Discovered {
    /// Adds a skill unless an earlier one has its name: the first wins, silently, across roots and
    /// inside one (`tree-precedence`, `prec-anc`, `tree-duplicate-names`).
    pub fn push(&mut self, skill: Loaded, names: &mut HashSet<String>) {
        if names.insert(skill.name.clone()) {
            self.skills.push(skill);
        }
    }

    /// Appends the client's own skills ([`BUILTINS`]) where the client puts them.
    pub fn with_builtins(mut self) -> Self {
        let mut names: HashSet<String> = self.skills.iter().map(|s| s.name.clone()).collect();
        for builtin in BUILTINS {
            self.push(
                Loaded {
                    name: builtin.name.to_string(),
                    description: builtin.description.to_string(),
                    source: Source::Builtin,
                    path: PathBuf::from(format!("builtin/{}/SKILL.md", builtin.name)),
                    listed: true,
                },
                &mut names,
            );
        }
        self
    }
}

/// Discovers as the client started in `project` would, with `home` as its HOME (the folder is
/// canonicalised, as the client's working folder is). The client's own skills are not included
/// ([`Discovered::with_builtins`]).
pub fn discover(project: &Path, home: Option<&Path>) -> std::io::Result<Discovered> {
    let project = std::fs::canonicalize(project)?;
    let mut found = Vec::new();
    for root in discovery::roots(&project, home) {
        discovery::scan(&root, &mut found);
    }
    let mut discovered = Discovered::default();
    let mut names = HashSet::new();
    for item in found {
        match item.verdict {
            Ok(parsed) => discovered.push(
                Loaded {
                    name: parsed.name,
                    description: parsed.description,
                    source: item.source,
                    path: item.path,
                    listed: parsed.model_invocable,
                },
                &mut names,
            ),
            Err(reason) => discovered.dropped.push(Dropped {
                path: item.path,
                reason,
            }),
        }
    }
    Ok(discovered)
}

/// What the client does with one `SKILL.md` in one of its skill roots.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum FileVerdict {
    /// Loaded, under this name and description; `listed` is false with
    /// `disable-model-invocation: true`.
    Loads {
        name: String,
        description: String,
        listed: bool,
    },
    /// Reported by `skill list` with this message.
    Dropped(Drop),
    /// Never read, without a word.
    Ignored(&'static str),
}

/// Why a skill in a hidden folder is never read (`tree-hidden`).
pub const HIDDEN_IGNORED: &str =
    "Copilot skips folders whose name starts with `.` below a skills folder; this skill is inside one";
/// Why a skill inside another skill's folder is never read (`tree-nested`).
pub const NESTED_IGNORED: &str =
    "Copilot reads no folder below one that holds a SKILL.md; this skill is inside another skill";
/// Why a file not named exactly `SKILL.md` is never read (`tree-non-skill-files`).
pub const NAME_IGNORED: &str = "Copilot reads only files named exactly `SKILL.md`";
/// Why a skill that loads is not in the model's listing (`disable-model`).
pub const MODEL_INVOCATION_OFF: &str =
    "`disable-model-invocation: true`: Copilot loads it (`skill list` shows it, it runs by name), but leaves it out of the skills the model is told about";

/// Whether a `SKILL.md` at `path` sits inside a hidden folder below the last Copilot skills folder in
/// the path (a file outside any is judged as if its folder were installed in one).
pub fn hidden_in_root(path: &Path) -> bool {
    super::below_root(path, discovery::PROJECT_ROOTS)
        .iter()
        .flatten()
        .any(|name| name.as_encoded_bytes().starts_with(b"."))
}

/// The verdict on one `SKILL.md`: `bytes` its content (invalid UTF-8 is read as U+FFFD); `folder` the
/// name of the folder holding it; `nested` whether it sits inside another skill's folder. The same
/// rules as [`discover`], one file at a time.
pub fn file_verdict(bytes: &[u8], folder: &str, nested: bool) -> FileVerdict {
    if nested {
        return FileVerdict::Ignored(NESTED_IGNORED);
    }
    match frontmatter::parse_skill(bytes, folder) {
        Ok(parsed) => FileVerdict::Loads {
            name: parsed.name,
            description: parsed.description,
            listed: parsed.model_invocable,
        },
        Err(drop) => FileVerdict::Dropped(drop),
    }
}

/// The characters the section escapes, as it escapes them (`escape-xml`); newlines and tabs stay.
pub fn escape(text: &str) -> String {
    let mut escaped = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '&' => escaped.push_str("&amp;"),
            '<' => escaped.push_str("&lt;"),
            '>' => escaped.push_str("&gt;"),
            '\'' => escaped.push_str("&apos;"),
            '"' => escaped.push_str("&quot;"),
            c => escaped.push(c),
        }
    }
    escaped
}

const OPEN: &str = "<skill>\n<available_skills>\n";
const CLOSE: &str = "</available_skills>\n</skill>";
const ADDITIONAL: &str = "Additional skills available (invoke by name): ";
/// The longest `Additional skills` line before its `... and N more`, in UTF-16 units, prefix included:
/// names are added while the line stays within it (`world-all` at budgets 1, 5,000 and 15,000: lines of
/// 4,993, 4,995 and 5,000 units, the next name would make 5,014 to 5,024; inferred from those runs).
pub const ADDITIONAL_LINE_UNITS: usize = 5_000;

/// The section and where each listed skill sits in it.
#[derive(Debug, Clone)]
pub struct Section {
    pub text: String,
    /// Every skill offered to the model, in listing order, with its entry's byte range in `text` (None
    /// when the budget left it to the `Additional skills` line).
    pub entries: Vec<SectionEntry>,
    /// UTF-16 units of the entries in the text, as the budget counts them.
    pub used: usize,
}

#[derive(Debug, Clone)]
pub struct SectionEntry {
    pub name: String,
    pub path: PathBuf,
    pub span: Option<(usize, usize)>,
}

/// The model's order: discovery order (duplicates gone, unlisted skills left out), cut into runs of
/// consecutive skills of one source, each run sorted by name in byte order, the runs kept in place
/// (`tree-order-roots`, `order-anc-git`, `tree-order`; inferred from those probes).
pub fn listing_order(discovered: &Discovered) -> Vec<&Loaded> {
    let mut listed: Vec<&Loaded> = discovered.skills.iter().filter(|s| s.listed).collect();
    let mut start = 0;
    while start < listed.len() {
        let source = listed[start].source;
        let end = listed[start..]
            .iter()
            .position(|skill| skill.source != source)
            .map_or(listed.len(), |offset| start + offset);
        listed[start..end].sort_by(|a, b| a.name.as_bytes().cmp(b.name.as_bytes()));
        start = end;
    }
    listed
}

/// The exact `<skill>…</skill>` section of the system message, or None when no skill is listed (the
/// client then sends neither the section nor the `skill` tool: `empty-nobuiltin`).
///
/// Entries are added in order while the running total of their rendered lengths (escaped, newline
/// included, in UTF-16 units) stays within `budget`; the first that does not fit ends the list, and it
/// and every later skill are named in one `Additional skills available (invoke by name): …` line before
/// `</available_skills>` (`budget-500`, `budget-skip`, `tree-many-long`). The frame and that line do not
/// count.
pub fn section(discovered: &Discovered, budget: usize) -> Option<Section> {
    let listed = listing_order(discovered);
    if listed.is_empty() {
        return None;
    }
    let mut text = String::from(OPEN);
    let mut entries = Vec::with_capacity(listed.len());
    let mut used = 0;
    let mut overflow: Option<usize> = None;
    for (index, skill) in listed.iter().enumerate() {
        let entry = format!(
            "<skill>\n  <name>{}</name>\n  <description>{}</description>\n  <location>{}</location>\n</skill>\n",
            escape(&skill.name),
            escape(&skill.description),
            skill.source.location()
        );
        let units = entry.encode_utf16().count();
        if used + units > budget {
            overflow = Some(index);
            break;
        }
        used += units;
        let start = text.len();
        text.push_str(&entry);
        entries.push(SectionEntry {
            name: skill.name.clone(),
            path: skill.path.clone(),
            span: Some((start, text.len())),
        });
    }
    if let Some(first) = overflow {
        let rest = &listed[first..];
        text.push_str(&additional_line(
            rest.iter().map(|skill| skill.name.as_str()),
        ));
        entries.extend(rest.iter().map(|skill| SectionEntry {
            name: skill.name.clone(),
            path: skill.path.clone(),
            span: None,
        }));
    }
    text.push_str(CLOSE);
    Some(Section {
        text,
        entries,
        used,
    })
}

/// The `Additional skills available (invoke by name): a, b` line (its newline included) for the skills
/// the budget left out, cut after the names that fit in [`ADDITIONAL_LINE_UNITS`] with `... and N more`.
fn additional_line<'a>(names: impl ExactSizeIterator<Item = &'a str>) -> String {
    let total = names.len();
    let mut line = String::from(ADDITIONAL);
    let mut units = line.encode_utf16().count();
    let mut named = 0;
    for name in names {
        let separator = if named == 0 { "" } else { ", " };
        let more = separator.len() + name.encode_utf16().count();
        if units + more > ADDITIONAL_LINE_UNITS {
            break;
        }
        line.push_str(separator);
        line.push_str(name);
        units += more;
        named += 1;
    }
    if named < total {
        line.push_str(&format!("... and {} more", total - named));
    }
    line.push('\n');
    line
}

/// Copilot, as a listing client: the skills it loads from the folders read as its project skill
/// folders (the ROOTS form of `skillforge listing --dialect copilot` and the app's preview).
pub struct Copilot;

impl Client for Copilot {
    type Skills = Discovered;

    fn listing(
        skills: &Discovered,
        limits: &CatalogLimits,
        problems: Vec<String>,
    ) -> CatalogPreview {
        let limit = limits
            .skill_char_budget
            .map_or(DEFAULT_BUDGET, |budget| budget.max(1) as usize);
        let (text, drafts, used, notice) = match section(skills, limit) {
            Some(section) => {
                let notice = section
                    .entries
                    .iter()
                    .any(|entry| entry.span.is_none())
                    .then(|| {
                        section
                            .text
                            .lines()
                            .find(|line| line.starts_with(ADDITIONAL))
                            .unwrap_or_default()
                            .to_string()
                    });
                let drafts = section
                    .entries
                    .into_iter()
                    .map(|entry| Draft {
                        name: entry.name,
                        location: entry.path.display().to_string(),
                        span: entry.span,
                        shortened: false,
                    })
                    .collect();
                (section.text, drafts, section.used, notice)
            }
            None => (String::new(), Vec::new(), 0, None),
        };
        let mut notes = vec![format!(
            "GitHub Copilot CLI {VERSION}, from its model checked against the real binary: the open folders are read \
             as its project skill folders; entries count in UTF-16 units, escaped, and the first that does not fit \
             moves it and every later skill to the `Additional skills available` line. The client's own skills \
             (customize-cloud-agent, github-pr-media) follow these unless disabled."
        )];
        if text.is_empty() {
            notes.push(
                "Copilot lists no skill here: it sends no skills section and no `skill` tool."
                    .to_string(),
            );
        }
        let basis = match limits.skill_char_budget {
            Some(budget) => format!("{BUDGET_VARIABLE}={budget}"),
            None => format!("{DEFAULT_BUDGET} UTF-16 units ({BUDGET_VARIABLE} unset)"),
        };
        let budget = CatalogBudget {
            unit: BudgetUnit::Utf16Units,
            limit: clamp(limit as u64),
            used: clamp(used as u64),
            basis,
        };
        assemble(
            CatalogDialect::Copilot,
            text,
            drafts,
            Some(budget),
            notice,
            notes,
            problems,
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn skill(name: &str, description: &str, source: Source) -> Loaded {
        Loaded {
            name: name.into(),
            description: description.into(),
            source,
            path: PathBuf::from(format!("/r/{name}/SKILL.md")),
            listed: true,
        }
    }

    #[test]
    fn runs_of_one_source_are_sorted_in_place() {
        let discovered = Discovered {
            skills: vec![
                skill("k1", "d", Source::Project),
                skill("b1", "d", Source::Project),
                skill("h4", "d", Source::Inherited),
                skill("d4", "d", Source::Inherited),
                skill("j2", "d", Source::Project),
                skill("a2", "d", Source::Project),
                skill("zeta", "d", Source::Builtin),
            ],
            dropped: Vec::new(),
        };
        let names: Vec<&str> = listing_order(&discovered)
            .iter()
            .map(|s| s.name.as_str())
            .collect();
        assert_eq!(names, ["b1", "k1", "d4", "h4", "a2", "j2", "zeta"]);
    }

    #[test]
    fn the_budget_moves_the_first_misfit_and_all_later_skills_to_one_line() {
        let discovered = Discovered {
            skills: vec![
                skill("a", &"x".repeat(400), Source::Project),
                skill("b", &"y".repeat(700), Source::Project),
                skill("c", "z", Source::Project),
            ],
            dropped: Vec::new(),
        };
        let Some(section) = section(&discovered, 700) else {
            panic!("skills are listed")
        };
        assert!(section
            .text
            .starts_with("<skill>\n<available_skills>\n<skill>\n  <name>a</name>"));
        assert!(section.text.ends_with(
            "</skill>\nAdditional skills available (invoke by name): b, c\n</available_skills>\n</skill>"
        ));
        let Some(tiny) = super::section(&discovered, 20) else {
            panic!("skills are listed")
        };
        assert_eq!(
            tiny.text,
            "<skill>\n<available_skills>\nAdditional skills available (invoke by name): a, b, c\n</available_skills>\n</skill>"
        );
        assert!(super::section(&Discovered::default(), 100).is_none());
    }

    fn write(path: &Path, name: &str) {
        if let Some(parent) = path.parent() {
            std::fs::create_dir_all(parent).ok();
        }
        std::fs::write(
            path,
            format!("---\nname: {name}\ndescription: from {name}\n---\n"),
        )
        .ok();
    }

    #[test]
    fn discovery_reads_roots_and_ancestors_to_the_git_root_first_name_wins() {
        let Ok(temp) = tempfile::tempdir() else {
            return;
        };
        let top = temp.path().join("top");
        let cwd = top.join("mid");
        for folder in ["HEAD", "objects", "refs"] {
            let path = top.join(".git").join(folder);
            std::fs::create_dir_all(path.parent().unwrap_or(&top)).ok();
            if folder == "HEAD" {
                std::fs::write(&path, "ref: refs/heads/main\n").ok();
            } else {
                std::fs::create_dir_all(&path).ok();
            }
        }
        write(&temp.path().join(".github/skills/above/SKILL.md"), "above");
        write(&top.join(".github/skills/b-top/SKILL.md"), "b-top");
        write(&top.join(".github/skills/same/SKILL.md"), "same");
        write(&cwd.join(".github/skills/z/SKILL.md"), "z-cwd");
        write(&cwd.join(".github/skills/y/SKILL.md"), "y-cwd");
        write(&cwd.join(".github/skills/y/inner/SKILL.md"), "nested");
        write(&cwd.join(".github/skills/.hidden/h/SKILL.md"), "hidden");
        write(&cwd.join(".github/skills/g/deep/er/SKILL.md"), "deep");
        write(&cwd.join(".agents/skills/same/SKILL.md"), "same");
        let broken = cwd.join(".claude/skills/broken/SKILL.md");
        write(&broken, "broken");
        std::fs::write(&broken, "---\nname: x\ndescription: a: b\n---\n").ok();
        let home = temp.path().join("home");
        write(&home.join(".copilot/skills/u/SKILL.md"), "user");
        let Ok(discovered) = discover(&cwd, Some(&home)) else {
            panic!("the project can be read")
        };
        let found: Vec<(&str, Source)> = discovered
            .skills
            .iter()
            .map(|s| (s.name.as_str(), s.source))
            .collect();
        assert_eq!(
            found,
            [
                ("deep", Source::Project),
                ("y-cwd", Source::Project),
                ("z-cwd", Source::Project),
                ("b-top", Source::Inherited),
                ("same", Source::Inherited),
                ("user", Source::PersonalCopilot),
            ]
        );
        assert_eq!(discovered.dropped.len(), 1);
        let with_builtins = discovered.with_builtins();
        let listed: Vec<&str> = listing_order(&with_builtins)
            .iter()
            .map(|s| s.name.as_str())
            .collect();
        assert_eq!(
            listed,
            [
                "deep",
                "y-cwd",
                "z-cwd",
                "b-top",
                "same",
                "user",
                "customize-cloud-agent",
                "github-pr-media"
            ]
        );
    }

    #[test]
    fn the_additional_line_stops_at_5000_units_and_counts_the_rest() {
        let names: Vec<String> = (0..1000).map(|i| format!("skill-{i:04}")).collect();
        let line = additional_line(names.iter().map(String::as_str));
        let (named, more) = line.trim_end().split_once("... and ").unwrap_or_default();
        assert!(named.encode_utf16().count() <= ADDITIONAL_LINE_UNITS);
        assert!(named.encode_utf16().count() + ", skill-0999".len() > ADDITIONAL_LINE_UNITS);
        let listed = named.split(", ").count();
        assert_eq!(more, format!("{} more", 1000 - listed));
        assert_eq!(
            additional_line(["a", "b"].into_iter()),
            "Additional skills available (invoke by name): a, b\n"
        );
    }

    #[test]
    fn escaping_and_budget_settings() {
        assert_eq!(
            escape("a <b> & 'c' \"d\" > e"),
            "a &lt;b&gt; &amp; &apos;c&apos; &quot;d&quot; &gt; e"
        );
        assert_eq!(budget_from(None), DEFAULT_BUDGET);
        assert_eq!(budget_from(Some("0")), DEFAULT_BUDGET);
        assert_eq!(budget_from(Some("-1")), DEFAULT_BUDGET);
        assert_eq!(budget_from(Some("abc")), DEFAULT_BUDGET);
        assert_eq!(budget_from(Some("999")), 999);
    }
}
