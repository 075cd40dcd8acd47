//! A workspace read once for catalog previews, with the editor's unsaved buffers laid over it on
//! every preview.
//!
//! Reading and parsing thousands of SKILL.md files per keystroke would be far too slow, so each
//! client's view of every file is computed when the session opens; a preview re-reads only the
//! buffers it is given, through the same parsers, and merges them exactly as the client would
//! (nagents: the overlay rules of [`crate::clients::nagents::discovery::OverlaySource`]; 10xGraph:
//! its registry merge, earlier directory first).

use std::collections::{BTreeMap, HashMap, HashSet};
use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};

use super::listing::{self, ReadsFor};
use crate::builtin;
use crate::clients::claude_code::{self, ClaudeCode};
use crate::clients::codex::{self, Codex};
use crate::clients::copilot::{self, Copilot};
use crate::clients::gemini::{self, Gemini};
use crate::clients::listing::{CatalogDialect, CatalogLimits, CatalogPreview};
use crate::clients::nagents::discovery::directory::absolute_root;
use crate::clients::nagents::discovery::{
    BuiltinSource, DirectoryOptions, DirectorySource, Survey,
};
use crate::clients::nagents::listing::Nagents;
use crate::clients::nagents::metadata::parse_skill_metadata;
use crate::clients::nagents::partition;
use crate::clients::opencode::{self, Opencode};
use crate::clients::skills_ref::{SkillsRef, SkillsRefSkill};
use crate::clients::tenxgraph::listing::Tenxgraph;
use crate::clients::tenxgraph::registry::{self as tenxgraph, Registry, ScannedDir};
use crate::frontmatter::yaml::{self, Value};
use crate::lint::config::Config;
use crate::lint::context::{FileProbe, RealFiles, SkillFile};
use crate::lint::workspace::{self as lint_workspace, CollectError};
use crate::python;
use crate::skill::Skill;
use crate::text::TextRange;

const SKILL_FILE: &str = "SKILL.md";

/// An editor buffer: the unsaved text of the file at `path`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
pub struct Buffer {
    pub path: String,
    pub text: String,
}

/// A folder or a SKILL.md under the roots that could not be read, so the full-YAML clients' listings
/// (skills-ref, Claude Code, Codex) may lack skills it holds. Each names its own path.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Unreadable {
    pub path: String,
    pub reason: String,
}

impl std::fmt::Display for Unreadable {
    fn fmt(&self, formatter: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(formatter, "{}: {}", self.path, self.reason)
    }
}

/// Where a SKILL.md sits and what lies beside it, which Codex's and Claude Code's verdicts need besides
/// the text; kept when an editor buffer replaces the file's text.
#[derive(Debug, Clone, Default)]
struct Surroundings {
    /// Inside another skill's folder.
    nested: bool,
    /// The SKILL.md is a symbolic link.
    linked_file: bool,
    /// `agents/openai.yaml` beside it.
    codex_policy: Option<Vec<u8>>,
    /// Rust's error for the file's bytes, when they are not UTF-8.
    utf8_error: Option<std::str::Utf8Error>,
    /// The file (device, inode) as it was read: Codex loads a file reached by two paths once, under the
    /// first.
    identity: Option<(u64, u64)>,
}

/// One SKILL.md as the full-YAML clients read it, computed once per text.
#[derive(Debug, Clone)]
struct Document {
    path: PathBuf,
    surroundings: Surroundings,
    skills_ref: Result<SkillsRefSkill, String>,
    /// The skill Claude Code loads, as if its folder were installed in `.claude/skills`.
    claude_code: Option<claude_code::Skill>,
    /// Codex's verdict, its depth below a skills root not applied yet.
    codex: codex::FileVerdict,
    /// Copilot's verdict, hidden folders below a skills root not applied yet.
    copilot: copilot::FileVerdict,
    /// What Gemini CLI reads from the text, where it sits not considered yet.
    gemini: Result<gemini::Parsed, gemini::Drop>,
    /// OpenCode's verdict (it reads any SKILL.md below a root, at any depth).
    opencode: opencode::FileVerdict,
}

impl Document {
    fn read(path: &Path, text: &str, surroundings: Surroundings) -> Self {
        let dir = path.parent().unwrap_or(path);
        let dir_name = dir
            .file_name()
            .map(|name| name.to_string_lossy().into_owned())
            .unwrap_or_default();
        // skills-ref resolves the skill directory (links included) before naming the file.
        let resolved = std::fs::canonicalize(dir)
            .unwrap_or_else(|_| dir.to_path_buf())
            .join(SKILL_FILE);
        let display = path.display().to_string();
        let place = claude_code::Place::of(path, surroundings.nested);
        // Both clients open `SKILL.md` by that exact name: a lowercase `skill.md` is not read.
        let exact_name = path.file_name().is_some_and(|name| name == SKILL_FILE);
        let claude_code = claude_code::load_placed(&dir_name, text.as_bytes(), place)
            .ok()
            .filter(|_| exact_name);
        let codex = if !exact_name {
            codex::FileVerdict::Ignored("Codex reads only files named exactly `SKILL.md`")
        } else {
            codex::file_verdict(
                surroundings.utf8_error.map_or(Ok(text), Err),
                &dir_name,
                None,
                surroundings.linked_file,
                surroundings.codex_policy.as_deref(),
            )
        };
        let copilot = if exact_name {
            copilot::file_verdict(text.as_bytes(), &dir_name, surroundings.nested)
        } else {
            copilot::FileVerdict::Ignored(copilot::NAME_IGNORED)
        };
        // OpenCode reads the bytes as UTF-8 with U+FFFD for invalid ones, as the text already is.
        let opencode = if exact_name {
            opencode::file_verdict(text.as_bytes())
        } else {
            opencode::FileVerdict::Dropped(
                "OpenCode reads only files named exactly `SKILL.md`".to_string(),
            )
        };
        Self {
            path: path.to_path_buf(),
            copilot,
            opencode,
            skills_ref: skills_ref_properties(text, &resolved.display().to_string())
                .map_err(|error| format!("{display}: {error}")),
            claude_code,
            codex,
            // The text is already decoded with invalid bytes as U+FFFD, as Gemini reads it.
            gemini: gemini::frontmatter::parse_text(text),
            surroundings,
        }
    }

    fn of_file(file: &SkillFile) -> Self {
        let surroundings = Surroundings {
            nested: file.placement.nested_in.is_some(),
            linked_file: file.placement.symlinked_file,
            codex_policy: RealFiles.read(file.dir(), Path::new("agents/openai.yaml")),
            utf8_error: file.utf8_error,
            identity: file
                .origin
                .as_ref()
                .map(|origin| (origin.identity.device, origin.identity.inode)),
        };
        Self::read(&file.path, &file.source, surroundings)
    }
}

/// skills-ref's `read_properties`: its own `---` split, then name and description, stripped.
fn skills_ref_properties(text: &str, location: &str) -> Result<SkillsRefSkill, String> {
    if !text.starts_with("---") {
        return Err("SKILL.md must start with YAML frontmatter (---)".into());
    }
    // `content.split("---", 2)`: the YAML is whatever lies between the first two `---`.
    let Some(close) = text[3..].find("---").map(|index| index + 3) else {
        return Err("SKILL.md frontmatter not properly closed with ---".into());
    };
    let node = yaml::parse(text, TextRange::new(3, close))
        .map_err(|error| format!("Invalid YAML in frontmatter: {error}"))?;
    let Some(node) = node.filter(|node| matches!(node.value, Value::Mapping { .. })) else {
        return Err("SKILL.md frontmatter must be a YAML mapping".into());
    };
    let mut fields = Vec::with_capacity(2);
    for key in ["name", "description"] {
        let Some(entry) = node.get(key) else {
            return Err(format!("Missing required field in frontmatter: {key}"));
        };
        let value = entry
            .value
            .as_scalar()
            .map(|(text, _)| python::strip(text))
            .filter(|text| !text.is_empty())
            .ok_or_else(|| format!("Field '{key}' must be a non-empty string"))?;
        fields.push(value.to_string());
    }
    let description = fields.pop().unwrap_or_default();
    let name = fields.pop().unwrap_or_default();
    Ok(SkillsRefSkill {
        name,
        description,
        location: location.to_string(),
    })
}

/// The nagents view with buffers applied.
#[derive(Debug, Clone, Default)]
pub struct NagentsView {
    /// One skill per name (the first found), in name order.
    pub skills: Vec<Skill>,
    pub diagnostics: Vec<String>,
    /// nagents' failure of the whole catalog (a duplicate name).
    pub error: Option<String>,
}

/// Why the builtin view has no 10xGraph catalog.
pub const BUILTIN_FOR_TENXGRAPH: &str = "10xGraph reads skills from folders only: duplicate or export the builtin skills into a folder to see its catalog";

/// A workspace's skills as every client reads them, read once.
#[derive(Debug, Clone, Default)]
pub struct CatalogSession {
    roots: Vec<PathBuf>,
    nagents: Survey,
    tenxgraph: Vec<ScannedDir>,
    documents: Vec<Document>,
    /// What the documents' walk could not read.
    unreadable: Vec<Unreadable>,
    /// The skills embedded in Skillforge, not a folder on disk.
    builtin: bool,
}

impl CatalogSession {
    /// Reads the skills under `roots` with nagents' default walk bounds.
    pub fn open(roots: &[PathBuf]) -> Self {
        Self::open_with(roots, DirectoryOptions::default())
    }

    /// Like [`CatalogSession::open`], with nagents' walk bounds under the caller's control.
    pub fn open_with(roots: &[PathBuf], directory: DirectoryOptions) -> Self {
        let nagents = DirectorySource::new(roots, directory).walk();
        let tenxgraph = tenxgraph::scan(roots);
        let mut documents = Vec::new();
        let mut unreadable = Vec::new();
        for root in roots {
            match lint_workspace::collect_all(std::slice::from_ref(root), &Config::default()) {
                Ok(collected) => {
                    documents.extend(
                        collected
                            .files
                            .into_iter()
                            .map(|file| Document::of_file(&file)),
                    );
                    unreadable.extend(collected.skipped.into_iter().map(|skipped| Unreadable {
                        path: skipped.path,
                        reason: skipped.reason,
                    }));
                }
                // A root without any SKILL.md is an empty workspace, not an error.
                Err(CollectError::NoSkills { .. }) => {}
                Err(CollectError::Io { path, source }) => unreadable.push(Unreadable {
                    path,
                    reason: source.to_string(),
                }),
                Err(
                    error @ (CollectError::TooDeep { .. }
                    | CollectError::NotLintable { .. }
                    | CollectError::OnlyLinksOut { .. }),
                ) => unreadable.push(Unreadable {
                    path: root.display().to_string(),
                    reason: error.to_string(),
                }),
            }
        }
        Self {
            // Made absolute as discovery makes them, so buffer paths (discovery's locations) compare.
            roots: roots.iter().map(|root| absolute_root(root)).collect(),
            nagents,
            tenxgraph,
            documents,
            unreadable,
            builtin: false,
        }
    }

    /// The builtin skills as clients read them: nagents through its builtin source (locations
    /// `package:skillforge/skills/<dir>/SKILL.md`, one unreadable skill failing the whole
    /// discovery, as nagents' package source does), the listings of the other clients from the
    /// same texts. 10xGraph reads skills only from folders, so its preview says so instead.
    pub fn builtin() -> Self {
        let nagents = BuiltinSource::default()
            .survey_now()
            .unwrap_or_else(|error| Survey {
                found: Vec::new(),
                diagnostics: vec![format!("the builtin skills cannot be read: {error}")],
            });
        let documents = nagents
            .found
            .iter()
            .filter_map(|skill| {
                let text = builtin::file_text(&skill.location)?;
                Some(Document::read(
                    Path::new(&skill.location),
                    text,
                    Surroundings::default(),
                ))
            })
            .collect();
        Self {
            roots: Vec::new(),
            nagents,
            tenxgraph: Vec::new(),
            documents,
            unreadable: Vec::new(),
            builtin: true,
        }
    }

    pub fn roots(&self) -> &[PathBuf] {
        &self.roots
    }

    /// The folders and files under the roots that skills-ref's, Claude Code's and Codex's listings
    /// could not read (nagents and 10xGraph report what they meet in their own words).
    pub fn unreadable(&self) -> &[Unreadable] {
        &self.unreadable
    }

    /// Whether `dialect`'s listing is read from the documents [`CatalogSession::unreadable`] is about.
    pub fn reads_documents(dialect: CatalogDialect) -> bool {
        matches!(
            dialect,
            CatalogDialect::SkillsRef
                | CatalogDialect::ClaudeCode
                | CatalogDialect::Codex
                | CatalogDialect::Copilot
                | CatalogDialect::Gemini
                | CatalogDialect::Opencode
        )
    }

    /// The unreadable folders and files as problems, ahead of the client's own.
    fn with_unreadable(&self, problems: Vec<String>) -> Vec<String> {
        self.unreadable
            .iter()
            .map(ToString::to_string)
            .chain(problems)
            .collect()
    }

    /// Whether this is the builtin skills' session ([`CatalogSession::builtin`]).
    pub fn is_builtin(&self) -> bool {
        self.builtin
    }

    /// Whether `path` may hold a skill of this workspace (new, unsaved skills included).
    fn is_skill_file_inside(&self, path: &Path) -> bool {
        path.file_name().is_some_and(|name| name == SKILL_FILE)
            && self.roots.iter().any(|root| path.starts_with(root))
    }

    /// nagents' catalog with `buffers` in place of their files.
    pub fn nagents_view(&self, buffers: &[Buffer]) -> NagentsView {
        let texts: HashMap<&str, &str> = buffers
            .iter()
            .map(|buffer| (buffer.path.as_str(), buffer.text.as_str()))
            .collect();
        let mut found = Vec::with_capacity(self.nagents.found.len() + buffers.len());
        let mut diagnostics = self.nagents.diagnostics.clone();
        let mut known = HashSet::new();
        for skill in &self.nagents.found {
            known.insert(skill.location.as_str());
            match texts.get(skill.location.as_str()) {
                None => found.push(skill.clone()),
                Some(text) => parse_nagents(&skill.location, text, &mut found, &mut diagnostics),
            }
        }
        for buffer in buffers {
            if !known.contains(buffer.path.as_str())
                && self.is_skill_file_inside(Path::new(&buffer.path))
            {
                parse_nagents(&buffer.path, &buffer.text, &mut found, &mut diagnostics);
            }
        }
        let parts = partition(found);
        let mut seen = HashSet::new();
        let skills = parts
            .skills
            .into_iter()
            .filter(|skill| seen.insert(skill.name.clone()))
            .collect();
        NagentsView {
            skills,
            diagnostics,
            error: parts.error.map(|error| error.to_string()),
        }
    }

    /// 10xGraph's registry with `buffers` in place of their files.
    pub fn registry(&self, buffers: &[Buffer]) -> Registry {
        let texts: BTreeMap<PathBuf, String> = buffers
            .iter()
            .filter_map(|buffer| {
                let path = Path::new(&buffer.path);
                if path.file_name()? != SKILL_FILE {
                    return None;
                }
                Some((path.parent()?.to_path_buf(), buffer.text.clone()))
            })
            .collect();
        if texts.is_empty() {
            return Registry::from_scan(&self.tenxgraph, texts);
        }
        let mut scanned: Vec<ScannedDir> = self
            .tenxgraph
            .iter()
            .map(|entry| match texts.get(&entry.dir) {
                Some(text) if entry.is_skill => ScannedDir::from_text(&entry.dir, text),
                _ => entry.clone(),
            })
            .collect();
        for (dir, text) in &texts {
            if !scanned.iter().any(|entry| &entry.dir == dir) {
                self.scan_unsaved(&mut scanned, dir, text);
            }
        }
        Registry::from_scan(&scanned, texts)
    }

    /// Puts a skill folder that is not on disk yet (or lost its SKILL.md) where 10xGraph's
    /// discovery would meet it once saved: a root's own SKILL.md makes the root the only skill
    /// there; a folder right below a root joins that root's folders in name order. Anything
    /// deeper, hidden or ignored is not discovered by 10xGraph, so it is left out here too.
    fn scan_unsaved(&self, scanned: &mut Vec<ScannedDir>, dir: &Path, text: &str) {
        let owner = |entry: &ScannedDir| {
            let path = absolute_root(&entry.dir);
            self.roots
                .iter()
                .position(|root| path == *root || path.parent() == Some(root.as_path()))
        };
        let Some(root) = self.roots.iter().position(|root| {
            dir == root
                || (dir.parent() == Some(root.as_path())
                    && dir.file_name().is_some_and(|name| {
                        tenxgraph::is_scanned_dir_name(&name.to_string_lossy())
                    }))
        }) else {
            return;
        };
        let root_path = &self.roots[root];
        // A missing root, or a root that is itself a skill: its folders are never looked into.
        if scanned
            .iter()
            .any(|entry| absolute_root(&entry.dir) == *root_path && dir != root_path)
        {
            return;
        }
        if dir == root_path {
            scanned.retain(|entry| owner(entry) != Some(root));
        }
        let at = scanned
            .iter()
            .position(|entry| match owner(entry) {
                Some(index) if index == root => entry.dir.file_name() > dir.file_name(),
                Some(index) => index > root,
                None => false,
            })
            .unwrap_or(scanned.len());
        scanned.insert(at, ScannedDir::from_text(dir, text));
    }

    fn documents(&self, buffers: &[Buffer]) -> Vec<Document> {
        let mut documents = self.documents.clone();
        for buffer in buffers {
            let path = Path::new(&buffer.path);
            match documents.iter_mut().find(|document| document.path == path) {
                Some(document) => {
                    let surroundings = document.surroundings.clone();
                    *document = Document::read(path, &buffer.text, surroundings);
                }
                None if self.is_skill_file_inside(path) => {
                    documents.push(Document::read(path, &buffer.text, Surroundings::default()));
                }
                None => {}
            }
        }
        documents.sort_by(|a, b| a.path.cmp(&b.path));
        documents
    }

    /// The catalog text `dialect` would show, with `buffers` in place of their files.
    pub fn preview(
        &self,
        dialect: CatalogDialect,
        limits: &CatalogLimits,
        buffers: &[Buffer],
    ) -> CatalogPreview {
        listing::preview(self, dialect, limits, buffers)
    }
}

impl ReadsFor<Nagents> for CatalogSession {
    fn read_for(&self, buffers: &[Buffer]) -> (Vec<Skill>, Vec<String>) {
        let view = self.nagents_view(buffers);
        let mut problems = view.diagnostics;
        if let Some(error) = view.error {
            problems.insert(
                0,
                format!("nagents fails the whole catalog: {error} (the preview keeps the first skill of each name)"),
            );
        }
        (view.skills, problems)
    }
}

impl ReadsFor<Tenxgraph> for CatalogSession {
    fn read_for(&self, buffers: &[Buffer]) -> (Registry, Vec<String>) {
        if self.builtin {
            return (Registry::default(), vec![BUILTIN_FOR_TENXGRAPH.to_string()]);
        }
        let registry = self.registry(buffers);
        let problems = registry
            .diagnostics
            .iter()
            .map(|d| format!("{}: {}: {}", d.level, d.path, d.message))
            .collect();
        (registry, problems)
    }
}

impl ReadsFor<SkillsRef> for CatalogSession {
    fn read_for(&self, buffers: &[Buffer]) -> (Vec<SkillsRefSkill>, Vec<String>) {
        let (skills, problems) = split(self.documents(buffers), |d| d.skills_ref);
        (skills, self.with_unreadable(problems))
    }
}

impl ReadsFor<ClaudeCode> for CatalogSession {
    /// Every skill folder as if installed in one `.claude/skills`: in the client's order (folder names
    /// by `localeCompare`), the first of two folders with one name kept, as the client keeps the first.
    fn read_for(&self, buffers: &[Buffer]) -> (Vec<claude_code::Located>, Vec<String>) {
        let mut seen = HashSet::new();
        let mut skills: Vec<claude_code::Located> = self
            .documents(buffers)
            .into_iter()
            .filter_map(|document| {
                let skill = document.claude_code?;
                seen.insert(skill.folder.clone())
                    .then(|| claude_code::Located {
                        skill,
                        location: document.path.display().to_string(),
                    })
            })
            .collect();
        let mut collator =
            feruca::Collator::new(feruca::Tailoring::Cldr(feruca::Locale::Root), false, false);
        skills.sort_by(|a, b| collator.collate(&a.skill.folder, &b.skill.folder));
        (skills, self.with_unreadable(Vec::new()))
    }
}

impl ReadsFor<Codex> for CatalogSession {
    /// The open folders read as Codex's skill roots (the builtin skills as one root).
    fn read_for(&self, buffers: &[Buffer]) -> (codex::Discovered, Vec<String>) {
        let roots: Vec<codex::Root> = self
            .roots
            .iter()
            .map(|path| codex::Root {
                path: path.clone(),
                scope: codex::Scope::Repo,
            })
            .collect();
        let mut discovered = codex::Discovered {
            roots,
            ..codex::Discovered::default()
        };
        if discovered.roots.is_empty() {
            // The builtin skills: their locations are `package:skillforge/skills/<dir>/SKILL.md`.
            discovered.roots.push(codex::Root {
                path: PathBuf::from("package:skillforge/skills"),
                scope: codex::Scope::Repo,
            });
        }
        let mut problems = Vec::new();
        let mut identities = HashSet::new();
        for document in self.documents(buffers) {
            if let Some(identity) = document.surroundings.identity {
                if !identities.insert(identity) {
                    continue;
                }
            }
            let (root, relative) = discovered
                .roots
                .iter()
                .enumerate()
                .find_map(|(index, root)| {
                    let relative = document.path.strip_prefix(&root.path).ok()?;
                    Some((index, relative.to_path_buf()))
                })
                .unwrap_or((0, document.path.clone()));
            let depth = relative.components().count().saturating_sub(1);
            if depth > codex::discovery::MAX_DEPTH {
                continue;
            }
            // Codex never enters a hidden folder below a skills root (`tree-hidden`).
            let hidden = relative.parent().is_some_and(|folders| {
                folders
                    .components()
                    .any(|name| name.as_os_str().as_encoded_bytes().starts_with(b"."))
            });
            if hidden {
                continue;
            }
            match document.codex {
                codex::FileVerdict::Loads {
                    name,
                    description,
                    listed,
                } => discovered.skills.push(codex::Loaded {
                    name,
                    description,
                    scope: codex::Scope::Repo,
                    root,
                    relative,
                    implicit: listed,
                }),
                codex::FileVerdict::Dropped(reason) => {
                    problems.push(format!(
                        "{}: Codex drops it: {reason}",
                        document.path.display()
                    ));
                    discovered.dropped.push(codex::Dropped {
                        path: document.path.clone(),
                        reason,
                    });
                }
                codex::FileVerdict::Ignored(_) => {}
            }
        }
        (discovered, self.with_unreadable(problems))
    }
}

impl ReadsFor<Copilot> for CatalogSession {
    /// The open folders read as Copilot's project skill folders: walked in byte order of the paths, a
    /// skill inside a hidden folder or inside another skill never read, the first skill of a name kept.
    fn read_for(&self, buffers: &[Buffer]) -> (copilot::Discovered, Vec<String>) {
        let mut discovered = copilot::Discovered::default();
        let mut names = HashSet::new();
        let mut problems = Vec::new();
        for document in self.documents(buffers) {
            let relative = self
                .roots
                .iter()
                .find_map(|root| document.path.strip_prefix(root).ok())
                .unwrap_or(&document.path);
            let hidden = relative.parent().is_some_and(|folders| {
                folders
                    .components()
                    .any(|name| name.as_os_str().as_encoded_bytes().starts_with(b"."))
            });
            if hidden {
                continue;
            }
            match document.copilot {
                copilot::FileVerdict::Loads {
                    name,
                    description,
                    listed,
                } => discovered.push(
                    copilot::Loaded {
                        name,
                        description,
                        source: copilot::Source::Project,
                        path: document.path.clone(),
                        listed,
                    },
                    &mut names,
                ),
                copilot::FileVerdict::Dropped(reason) => {
                    problems.push(format!(
                        "{}: Copilot drops it: {reason}",
                        document.path.display()
                    ));
                    discovered.dropped.push(copilot::Dropped {
                        path: document.path.clone(),
                        reason,
                    });
                }
                copilot::FileVerdict::Ignored(_) => {}
            }
        }
        (discovered, self.with_unreadable(problems))
    }
}

impl ReadsFor<Gemini> for CatalogSession {
    /// The open folders read as Gemini's skill roots, in order: in each, its own SKILL.md, then one
    /// per folder in descending byte order of the folder names; a later skill of a name takes an
    /// earlier one's place. Skills under no root (the builtin skills) are read as one more root.
    fn read_for(&self, buffers: &[Buffer]) -> (gemini::Discovered, Vec<String>) {
        let documents = self.documents(buffers);
        // (root index, the folder below the root or None for the root's own file, document)
        let mut placed: Vec<(usize, Option<Vec<u8>>, Document)> = Vec::new();
        for document in documents {
            let found = self.roots.iter().enumerate().find_map(|(index, root)| {
                let relative = document.path.strip_prefix(root).ok()?;
                Some((index, relative.to_path_buf()))
            });
            let (root, relative) = match found {
                Some(found) => found,
                None => {
                    let folder = document
                        .path
                        .parent()
                        .and_then(Path::file_name)
                        .map_or_else(PathBuf::new, PathBuf::from);
                    (self.roots.len(), folder.join(SKILL_FILE))
                }
            };
            if relative.file_name().is_none_or(|name| name != SKILL_FILE) {
                continue;
            }
            let folders: Vec<&std::ffi::OsStr> = relative
                .parent()
                .map(|parent| parent.iter().collect())
                .unwrap_or_default();
            match folders.as_slice() {
                [] => placed.push((root, None, document)),
                [folder] if gemini::discovery::folder_walked(folder.as_encoded_bytes()) => {
                    let folder = folder.as_encoded_bytes().to_vec();
                    placed.push((root, Some(folder), document));
                }
                _ => {}
            }
        }
        // Root order; the root's own file first (None sorts first); folders descending.
        placed.sort_by(|a, b| {
            a.0.cmp(&b.0).then_with(|| match (&a.1, &b.1) {
                (None, None) => std::cmp::Ordering::Equal,
                (None, Some(_)) => std::cmp::Ordering::Less,
                (Some(_), None) => std::cmp::Ordering::Greater,
                (Some(x), Some(y)) => y.cmp(x),
            })
        });
        let mut discovered = gemini::Discovered {
            roots: self.roots.clone(),
            ..gemini::Discovered::default()
        };
        let mut problems = Vec::new();
        for (_, _, document) in placed {
            match document.gemini {
                Ok(parsed) => discovered.add(gemini::Loaded {
                    name: parsed.name,
                    description: parsed.description,
                    location: document.path.display().to_string(),
                    builtin: false,
                }),
                Err(reason) => {
                    problems.push(format!("{}: {reason}", document.path.display()));
                    discovered.dropped.push(gemini::Dropped {
                        path: document.path.clone(),
                        reason,
                    });
                }
            }
        }
        (discovered, self.with_unreadable(problems))
    }
}

impl ReadsFor<Opencode> for CatalogSession {
    /// Every SKILL.md under the open folders as if they were OpenCode's `.opencode/skills` roots
    /// (any depth, hidden folders skipped), one skill per name: the last read, as the client keeps one
    /// of them (which one changes from run to run). The client's own `customize-opencode` is left out,
    /// as Claude Code's own entries are; the preview's note says so.
    fn read_for(&self, buffers: &[Buffer]) -> (Vec<opencode::discovery::Loaded>, Vec<String>) {
        let mut problems = Vec::new();
        let mut found = Vec::new();
        for document in self.documents(buffers) {
            let relative = self
                .roots
                .iter()
                .find_map(|root| document.path.strip_prefix(root).ok());
            let hidden = relative.and_then(Path::parent).is_some_and(|folders| {
                folders
                    .components()
                    .any(|name| name.as_os_str().as_encoded_bytes().starts_with(b"."))
            });
            if hidden {
                continue;
            }
            if let opencode::FileVerdict::Dropped(reason) = &document.opencode {
                problems.push(format!(
                    "{}: OpenCode drops it: {reason}",
                    document.path.display()
                ));
            }
            found.push(opencode::discovery::Found {
                path: document.path.clone(),
                verdict: document.opencode,
            });
        }
        let skills = opencode::discovery::keep_one_per_name(&found, false);
        (skills, self.with_unreadable(problems))
    }
}

fn split<T>(
    documents: Vec<Document>,
    pick: impl Fn(Document) -> Result<T, String>,
) -> (Vec<T>, Vec<String>) {
    let mut good = Vec::with_capacity(documents.len());
    let mut problems = Vec::new();
    for document in documents {
        match pick(document) {
            Ok(item) => good.push(item),
            Err(problem) => problems.push(problem),
        }
    }
    (good, problems)
}

fn parse_nagents(
    location: &str,
    text: &str,
    found: &mut Vec<Skill>,
    diagnostics: &mut Vec<String>,
) {
    let directory_name = Path::new(location)
        .parent()
        .and_then(Path::file_name)
        .map(|name| name.to_string_lossy().into_owned())
        .unwrap_or_default();
    match parse_skill_metadata(text, location, &directory_name) {
        Ok(skill) => found.push(skill),
        Err(error) => diagnostics.push(format!("{location}: {error}")),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::clients::nagents::discovery::SkillSource;

    fn write(path: &Path, text: &str) {
        if let Some(parent) = path.parent() {
            std::fs::create_dir_all(parent).ok();
        }
        std::fs::write(path, text).ok();
    }

    #[test]
    fn buffers_replace_files_in_every_dialect() {
        let Ok(temp) = tempfile::tempdir() else {
            return;
        };
        let root = temp.path().to_path_buf();
        write(
            &root.join("a/SKILL.md"),
            "---\nname: a\ndescription: saved text\n---\nbody\n",
        );
        write(
            &root.join("b/SKILL.md"),
            "---\nname: b\ndescription: other\n---\nbody\n",
        );
        let session = CatalogSession::open(std::slice::from_ref(&root));
        let path = root.join("a/SKILL.md").display().to_string();
        let buffers = [Buffer {
            path: path.clone(),
            text: "---\nname: a\ndescription: unsaved text\n---\nbody\n".into(),
        }];
        for dialect in CatalogDialect::ALL {
            let saved = session.preview(dialect, &CatalogLimits::default(), &[]);
            assert!(
                saved.text.contains("saved text"),
                "{dialect:?}: {}",
                saved.text
            );
            let edited = session.preview(dialect, &CatalogLimits::default(), &buffers);
            assert!(
                edited.text.contains("unsaved text"),
                "{dialect:?}: {}",
                edited.text
            );
            assert_eq!(edited.entries.len(), 2, "{dialect:?}");
        }
        // A new, unsaved skill shows up where the client would list it after saving.
        let new = [Buffer {
            path: root.join("c/SKILL.md").display().to_string(),
            text: "---\nname: c\ndescription: brand new\n---\n".into(),
        }];
        let preview = session.preview(CatalogDialect::Nagents, &CatalogLimits::default(), &new);
        assert!(preview.text.contains("brand new"));
    }

    #[test]
    fn opencode_reads_the_folders_as_its_skills_folders() {
        let Ok(temp) = tempfile::tempdir() else {
            return;
        };
        let root = temp.path().to_path_buf();
        let skill = |name: &str| format!("---\nname: {name}\ndescription: Use when: {name}\n---\n");
        write(&root.join("top/SKILL.md"), &skill("top"));
        // Any depth, a skill inside another's folder too; a hidden folder is skipped, as below
        // `.opencode/skills`.
        write(&root.join("top/child/SKILL.md"), &skill("child"));
        write(&root.join(".hidden/SKILL.md"), &skill("hidden"));
        write(&root.join("quiet/SKILL.md"), "---\nname: quiet\n---\n");
        write(
            &root.join("dropped/SKILL.md"),
            "---\nname: dropped\ndescription: 2024-01-02\n---\n",
        );
        let session = CatalogSession::open(std::slice::from_ref(&root));
        let preview = session.preview(CatalogDialect::Opencode, &CatalogLimits::default(), &[]);
        let listed: Vec<(&str, bool)> = preview
            .entries
            .iter()
            .map(|entry| (entry.name.as_str(), entry.included))
            .collect();
        assert_eq!(listed, [("child", true), ("top", true), ("quiet", false)]);
        assert!(preview
            .text
            .contains("<description>Use when: top</description>"));
        assert!(preview.budget.is_none());
        assert!(
            preview
                .problems
                .iter()
                .any(|problem| problem.contains("dropped") && problem.contains("a date")),
            "{:?}",
            preview.problems
        );
    }

    #[test]
    fn the_builtin_session_shows_what_nagents_builtin_source_publishes() {
        let session = CatalogSession::builtin();
        assert!(session.is_builtin());
        let limits = CatalogLimits::default();
        let runtime = tokio::runtime::Builder::new_current_thread().build();
        let Ok(runtime) = runtime else { return };
        let published = runtime.block_on(BuiltinSource::default().discover());
        let Ok(published) = published else {
            panic!("the builtin skills must load")
        };
        assert!(!published.is_empty());
        let manifest = session.preview(CatalogDialect::Nagents, &limits, &[]);
        assert_eq!(
            manifest.text,
            crate::clients::nagents::render_skill_manifest(&published)
        );
        assert!(manifest.problems.is_empty(), "{:?}", manifest.problems);

        // The other listings read the same texts under the same locations.
        for dialect in [
            CatalogDialect::SkillsRef,
            CatalogDialect::ClaudeCode,
            CatalogDialect::Codex,
            CatalogDialect::Copilot,
        ] {
            let preview = session.preview(dialect, &limits, &[]);
            let names: Vec<&str> = preview.entries.iter().map(|e| e.name.as_str()).collect();
            let expected: Vec<&str> = published.iter().map(|s| s.name.as_str()).collect();
            assert_eq!(names, expected, "{dialect:?}");
        }
        let tenxgraph = session.preview(CatalogDialect::Tenxgraph, &limits, &[]);
        assert!(tenxgraph.entries.is_empty());
        assert_eq!(tenxgraph.problems, [BUILTIN_FOR_TENXGRAPH]);
    }

    /// 10xGraph's catalog with unsaved new skill files equals the one it shows once they are saved.
    #[test]
    fn unsaved_new_folders_appear_where_10xgraph_discovers_them_after_saving() {
        let Ok(temp) = tempfile::tempdir() else {
            return;
        };
        let skill = |name: &str, description: &str| {
            format!("---\nname: {name}\ndescription: {description}\n---\nbody of {name}\n")
        };
        let first = temp.path().join("first");
        let second = temp.path().join("second");
        let third = temp.path().join("third");
        write(&first.join("a/SKILL.md"), &skill("a", "saved a"));
        write(&first.join("d/SKILL.md"), &skill("d", "saved d"));
        write(&second.join("b/SKILL.md"), &skill("b", "second root's b"));
        write(&third.join("e/SKILL.md"), &skill("e", "third root's e"));
        let roots = vec![first.clone(), second.clone(), third.clone()];
        let unsaved = [
            // Sorted between a and d, and shadowing the second root's b.
            (first.join("b/SKILL.md"), skill("b", "unsaved b")),
            // 10xGraph never looks here: hidden, ignored, or deeper than one level.
            (first.join(".hidden/SKILL.md"), skill("h", "hidden")),
            (first.join("node_modules/SKILL.md"), skill("n", "ignored")),
            (first.join("deep/x/SKILL.md"), skill("x", "too deep")),
            // A root's own SKILL.md makes that root the only skill there.
            (third.join("SKILL.md"), skill("third", "the root itself")),
        ];
        let buffers: Vec<Buffer> = unsaved
            .iter()
            .map(|(path, text)| Buffer {
                path: path.display().to_string(),
                text: text.clone(),
            })
            .collect();
        let before = CatalogSession::open(&roots);
        let limits = CatalogLimits::default();
        let previewed = before.preview(CatalogDialect::Tenxgraph, &limits, &buffers);
        assert!(previewed.text.contains("unsaved b"), "{}", previewed.text);

        for (path, text) in &unsaved {
            write(path, text);
        }
        let after = CatalogSession::open(&roots);
        let saved = after.preview(CatalogDialect::Tenxgraph, &limits, &[]);
        assert_eq!(previewed.text, saved.text);
        assert_eq!(previewed.problems, saved.problems);
        let names = |preview: &CatalogPreview| {
            let names: Vec<String> = preview.entries.iter().map(|e| e.name.clone()).collect();
            names
        };
        assert_eq!(names(&previewed), names(&saved));
        assert_eq!(names(&saved), ["a", "b", "d", "third"]);
    }

    #[test]
    fn skills_ref_properties_follow_read_properties() {
        let ok = skills_ref_properties("---\nname:  a \ndescription: d\n---\n", "/l");
        assert_eq!(
            ok.map(|s| (s.name, s.description)),
            Ok(("a".into(), "d".into()))
        );
        assert_eq!(
            skills_ref_properties("---\nname: a\n---\n", "/l"),
            Err("Missing required field in frontmatter: description".into())
        );
        assert_eq!(
            skills_ref_properties("name: a", "/l"),
            Err("SKILL.md must start with YAML frontmatter (---)".into())
        );
    }
}
