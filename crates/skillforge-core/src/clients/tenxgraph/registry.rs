//! 10xGraph 0.10.3's skills: its registry, its catalog prompt and its two tools,
//! `activate_skill` and `read_skill_resource`, reproduced byte for byte. What the loader makes of one
//! SKILL.md comes from [`crate::clients::tenxgraph`], the model the linter's 10xgraph verdicts use too.
//!
//! Discovery is one level deep (a root holding SKILL.md is a skill, otherwise its immediate
//! subdirectories are), the earlier root wins a name, and a skill loads unless its frontmatter is
//! unusable. Bundled files are read through [`super::skill_files`], which never lets the kernel
//! follow a link out of the skill directory.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};

use super::skill_files::{self, Target};
use super::{self as loader, collapse_whitespace, CatalogEntry};
use crate::python;

/// Bundled files listed by `activate_skill` and by a directory read.
pub const MAX_LISTED_FILES: usize = 200;
/// Bundled files named in a `read_skill_resource` error.
const MAX_FILES_IN_ERROR: usize = 50;
/// The default `max_resource_bytes`.
pub const DEFAULT_MAX_RESOURCE_BYTES: usize = 262_144;
/// Bytes inspected for a NUL when deciding that a file is binary.
const BINARY_SNIFF_BYTES: usize = 8192;
const SKILL_FILE: &str = "SKILL.md";
const IGNORED_DIRS: [&str; 2] = ["node_modules", "__pycache__"];

pub const ACTIVATE_SKILL_TOOL: &str = "activate_skill";
pub const READ_SKILL_RESOURCE_TOOL: &str = "read_skill_resource";

/// One skill as 10xGraph's `SkillMeta` holds it (the fields the tools and the catalog use).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
pub struct SkillMeta {
    pub name: String,
    pub description: String,
    pub compatibility: Option<String>,
    pub triggers: Vec<String>,
    pub priority: i64,
    /// The resolved skill directory.
    pub skill_dir: PathBuf,
}

impl<'a> From<&'a SkillMeta> for CatalogEntry<'a> {
    fn from(meta: &'a SkillMeta) -> Self {
        Self {
            name: &meta.name,
            description: &meta.description,
            triggers: &meta.triggers,
            priority: meta.priority,
        }
    }
}

/// A problem found while discovering, worded as 10xGraph words it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
pub struct RegistryDiagnostic {
    /// `error` or `warning`.
    pub level: String,
    pub message: String,
    pub path: String,
}

/// The skills found under some roots, keyed by name.
#[derive(Debug, Clone, Default)]
pub struct Registry {
    skills: BTreeMap<String, SkillMeta>,
    pub diagnostics: Vec<RegistryDiagnostic>,
    /// Unsaved SKILL.md text by resolved skill directory, read instead of the file.
    texts: BTreeMap<PathBuf, String>,
}

/// One step of discovery, in discovery order: a root that is not a folder, or a skill directory
/// with what the loader made of it. Kept so that unsaved text can replace one directory's result
/// without reading the others again.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ScannedDir {
    pub dir: PathBuf,
    /// `false` for a missing root (its warning is in `diagnostics`).
    pub is_skill: bool,
    /// `None` when the loader skipped the skill.
    pub meta: Option<SkillMeta>,
    pub diagnostics: Vec<RegistryDiagnostic>,
}

impl ScannedDir {
    /// Loads `dir` from `content` instead of its SKILL.md on disk.
    pub fn from_text(dir: &Path, content: &str) -> Self {
        let mut diagnostics = Vec::new();
        let meta = load_skill_text(dir, content, &mut diagnostics);
        Self {
            dir: dir.to_path_buf(),
            is_skill: true,
            meta,
            diagnostics,
        }
    }
}

/// Reads every skill directory under `roots` as `SkillsRegistry.discover` does, without merging.
pub fn scan(roots: &[PathBuf]) -> Vec<ScannedDir> {
    let mut scanned = Vec::new();
    for root in roots {
        if !root.is_dir() {
            scanned.push(ScannedDir {
                dir: root.clone(),
                is_skill: false,
                meta: None,
                diagnostics: vec![diagnostic("warning", "Skills directory not found", root)],
            });
            continue;
        }
        for dir in skill_dirs(root) {
            let mut diagnostics = Vec::new();
            let meta = load_skill(&dir, &mut diagnostics);
            scanned.push(ScannedDir {
                dir,
                is_skill: true,
                meta,
                diagnostics,
            });
        }
    }
    scanned
}

fn diagnostic(level: &str, message: impl Into<String>, path: &Path) -> RegistryDiagnostic {
    RegistryDiagnostic {
        level: level.to_string(),
        message: message.into(),
        path: path.display().to_string(),
    }
}

/// `load_skill`: the metadata of one skill directory, or `None` with the reason.
fn load_skill(skill_dir: &Path, diagnostics: &mut Vec<RegistryDiagnostic>) -> Option<SkillMeta> {
    let skill_file = skill_dir.join(SKILL_FILE);
    // `Path.read_text()` follows links, as a path the user's folder names may; the read is still
    // bounded and refuses a FIFO or a device instead of hanging on it.
    let read = crate::fs::read::input(&skill_file, crate::fs::Limit::SKILL_FILE);
    let content = match read.map(|read| String::from_utf8(read.bytes)) {
        Ok(Ok(text)) => text,
        Ok(Err(_)) => {
            diagnostics.push(diagnostic(
                "error",
                "Cannot read file: the file is not valid UTF-8",
                &skill_file,
            ));
            return None;
        }
        Err(error) => {
            diagnostics.push(diagnostic(
                "error",
                format!(
                    "Cannot read file: {}",
                    python_read_error(&error.source, &skill_file)
                ),
                &skill_file,
            ));
            return None;
        }
    };
    load_skill_text(skill_dir, &content, diagnostics)
}

/// `str(exc)` of the `OSError` Python raises for the failed read; what Python would not refuse (a
/// FIFO, a device, an oversized file) is said in the engine's words.
fn python_read_error(error: &crate::fs::ReadError, path: &Path) -> String {
    use crate::fs::ReadError;
    let errno = match error {
        ReadError::NotFound => rustix::io::Errno::NOENT,
        ReadError::NotRegular(rustix::fs::FileType::Directory) => rustix::io::Errno::ISDIR,
        ReadError::Io(errno) => *errno,
        ReadError::Symlink | ReadError::NotRegular(_) | ReadError::TooLarge { .. } => {
            return error.to_string();
        }
    };
    python::os_error(errno.raw_os_error(), Some(&path.to_string_lossy()))
}

/// `load_skill` on text already read (a saved file or an editor's unsaved buffer).
fn load_skill_text(
    skill_dir: &Path,
    content: &str,
    diagnostics: &mut Vec<RegistryDiagnostic>,
) -> Option<SkillMeta> {
    let skill_file = skill_dir.join(SKILL_FILE);
    let loaded = loader::load(content);
    diagnostics.extend(
        loaded
            .notes
            .into_iter()
            .map(|note| diagnostic(note.level.as_str(), note.message, &skill_file)),
    );
    let skill = loaded.skill?;
    Some(SkillMeta {
        name: skill.name,
        description: skill.description,
        compatibility: skill.compatibility,
        triggers: skill.triggers,
        priority: skill.priority,
        skill_dir: std::fs::canonicalize(skill_dir).unwrap_or_else(|_| skill_dir.to_path_buf()),
    })
}

/// Whether discovery looks into a folder of this name below a root (hidden and dependency
/// folders are passed over).
pub fn is_scanned_dir_name(name: &str) -> bool {
    !name.starts_with('.') && !IGNORED_DIRS.contains(&name)
}

fn skill_dirs(root: &Path) -> Vec<PathBuf> {
    if root.join(SKILL_FILE).is_file() {
        return vec![root.to_path_buf()];
    }
    let Ok(entries) = std::fs::read_dir(root) else {
        return Vec::new();
    };
    let mut names: Vec<String> = entries
        .flatten()
        .map(|entry| entry.file_name().to_string_lossy().into_owned())
        .collect();
    names.sort();
    names
        .into_iter()
        .map(|name| root.join(name))
        .filter(|path| {
            let name = path
                .file_name()
                .map(|n| n.to_string_lossy().into_owned())
                .unwrap_or_default();
            path.is_dir() && is_scanned_dir_name(&name) && path.join(SKILL_FILE).is_file()
        })
        .collect()
}

impl Registry {
    /// `SkillsRegistry.discover(roots)`.
    pub fn discover(roots: &[PathBuf]) -> Self {
        Self::from_scan(&scan(roots), BTreeMap::new())
    }

    /// Merges scanned directories as `discover` does (the earlier directory wins a name).
    /// `texts` holds unsaved SKILL.md text by skill directory; its bodies are read instead of the
    /// files' (the metadata in `scanned` must already come from the same text).
    pub fn from_scan(scanned: &[ScannedDir], texts: BTreeMap<PathBuf, String>) -> Self {
        let mut registry = Self::default();
        let mut found = Vec::new();
        for entry in scanned {
            registry
                .diagnostics
                .extend(entry.diagnostics.iter().cloned());
            if let Some(meta) = &entry.meta {
                found.push(meta.clone());
            }
            if let Some(text) = texts.get(&entry.dir) {
                let resolved = entry
                    .meta
                    .as_ref()
                    .map_or_else(|| entry.dir.clone(), |meta| meta.skill_dir.clone());
                registry.texts.insert(resolved, text.clone());
            }
        }
        for meta in found {
            if let Some(existing) = registry.skills.get(&meta.name) {
                if existing.skill_dir != meta.skill_dir {
                    let by = existing.skill_dir.join(SKILL_FILE);
                    let message = loader::shadowed_message(&meta.name, &by.display().to_string());
                    let path = meta.skill_dir.join(SKILL_FILE);
                    registry
                        .diagnostics
                        .push(diagnostic("warning", message, &path));
                }
                continue;
            }
            registry.skills.insert(meta.name.clone(), meta);
        }
        registry
    }

    pub fn get(&self, name: &str) -> Option<&SkillMeta> {
        self.skills.get(name)
    }

    /// Sorted names.
    pub fn names(&self) -> Vec<String> {
        self.skills.keys().cloned().collect()
    }

    pub fn len(&self) -> usize {
        self.skills.len()
    }

    pub fn is_empty(&self) -> bool {
        self.skills.is_empty()
    }

    /// All skills in catalog order: highest priority first, then name.
    pub fn ordered(&self) -> Vec<&SkillMeta> {
        let mut skills: Vec<&SkillMeta> = self.skills.values().collect();
        skills.sort_by(|a, b| {
            b.priority
                .cmp(&a.priority)
                .then_with(|| a.name.cmp(&b.name))
        });
        skills
    }

    /// The SKILL.md body without frontmatter, read afresh (10xGraph's hot reload re-reads a file
    /// whose modification time changed; reading every time gives the same text). `""` when the
    /// skill is unknown or unreadable.
    pub fn load_content(&self, name: &str) -> String {
        let Some(meta) = self.skills.get(name) else {
            return String::new();
        };
        if let Some(text) = self.texts.get(&meta.skill_dir) {
            return loader::split_frontmatter(text).body.to_string();
        }
        let Ok(bytes) = skill_files::read_file_in(&meta.skill_dir, SKILL_FILE) else {
            return String::new();
        };
        match String::from_utf8(bytes) {
            Ok(text) => loader::split_frontmatter(&text).body.to_string(),
            Err(_) => String::new(),
        }
    }

    /// Bundled files, sorted, at most `limit`, and whether more exist.
    pub fn list_files(&self, name: &str, limit: usize) -> (Vec<String>, bool) {
        match self.skills.get(name) {
            Some(meta) => skill_files::list_files(&meta.skill_dir, "", limit),
            None => (Vec::new(), false),
        }
    }

    /// Whether any skill bundles at least one file (10xGraph then registers `read_skill_resource`).
    pub fn has_bundled_files(&self) -> bool {
        self.skills
            .keys()
            .any(|name| !self.list_files(name, 1).0.is_empty())
    }

    /// `build_catalog`: the `<available_skills>` block, `""` when empty.
    pub fn build_catalog(&self) -> String {
        loader::build_catalog(self.skills.values().map(CatalogEntry::from).collect())
    }

    /// `build_catalog_prompt`: the system message 10xGraph adds in on-demand mode.
    pub fn catalog_prompt(&self, can_read_files: bool) -> String {
        let catalog = self.build_catalog();
        if catalog.is_empty() {
            return String::new();
        }
        let mut lines = vec![
            "## Skills".to_string(),
            String::new(),
            format!(
                "The following skills provide specialized instructions for specific tasks. When a task matches a \
                 skill's description, call the `{ACTIVATE_SKILL_TOOL}` tool with the skill's name to load its full \
                 instructions before proceeding."
            ),
        ];
        if can_read_files {
            lines.push(format!(
                "Skills may bundle extra files (references, scripts, assets). When a skill's instructions point to \
                 one, read it with the `{READ_SKILL_RESOURCE_TOOL}` tool."
            ));
        }
        lines.push(String::new());
        lines.push(catalog);
        lines.join("\n")
    }

    /// `format_skill_content`: a skill's instructions as the model receives them.
    pub fn format_skill_content(
        &self,
        name: &str,
        can_read_files: bool,
        include_skill_path: bool,
    ) -> Option<String> {
        let meta = self.skills.get(name)?;
        let body = self.load_content(name);
        if body.is_empty() {
            return None;
        }
        let mut parts = vec![skill_content_marker(name), body, String::new()];
        if let Some(compatibility) = &meta.compatibility {
            parts.push(format!("Compatibility: {compatibility}"));
        }
        if include_skill_path {
            parts.push(format!("Skill directory: {}", meta.skill_dir.display()));
        }
        let (files, truncated) = self.list_files(name, MAX_LISTED_FILES);
        if !files.is_empty() {
            let mut note =
                "Relative paths in this skill are relative to the skill directory.".to_string();
            if can_read_files {
                note.push_str(&format!(
                    " Read a bundled file with {READ_SKILL_RESOURCE_TOOL}(skill_name=\"{name}\", path=\"<relative path>\")."
                ));
            }
            parts.push(note);
            parts.push(String::new());
            parts.push("<skill_resources>".to_string());
            for path in files {
                parts.push(format!(
                    "  <file>{}</file>",
                    python::html_escape(&path, false)
                ));
            }
            if truncated {
                parts.push("  <!-- more files exist; the listing is truncated -->".to_string());
            }
            parts.push("</skill_resources>".to_string());
        }
        parts.push("</skill_content>".to_string());
        Some(parts.join("\n"))
    }

    /// The `activate_skill` tool. `context` is the text of the conversation so far, used to tell
    /// whether the skill's instructions are still there.
    pub fn activate_skill<'a>(
        &self,
        skill_name: &str,
        mut context: impl Iterator<Item = &'a str>,
        can_read_files: bool,
    ) -> ToolOutput {
        if !self.skills.contains_key(skill_name) {
            return ToolOutput::error(format!(
                "Unknown skill '{skill_name}'. Available skills: {}",
                self.names().join(", ")
            ));
        }
        let marker = skill_content_marker(skill_name);
        if context.any(|text| text.contains(&marker)) {
            return ToolOutput::ok(format!(
                "Skill '{skill_name}' is already active; its instructions are earlier in this conversation. Follow them."
            ));
        }
        match self.format_skill_content(skill_name, can_read_files, false) {
            Some(content) => ToolOutput::ok(content),
            None => ToolOutput::error(format!(
                "Skill '{skill_name}' was found but its SKILL.md could not be read."
            )),
        }
    }

    /// The `read_skill_resource` tool with `max_resource_bytes`.
    pub fn read_skill_resource(
        &self,
        skill_name: &str,
        path: &str,
        max_bytes: usize,
    ) -> ToolOutput {
        let Some(meta) = self.skills.get(skill_name) else {
            return ToolOutput::error(format!(
                "Unknown skill '{skill_name}'. Available skills: {}",
                self.names().join(", ")
            ));
        };
        match read_skill_file(meta, path, max_bytes) {
            Ok(text) => ToolOutput::ok(format!(
                "<skill_resource skill=\"{}\" path=\"{}\">\n{text}\n</skill_resource>",
                python::html_escape(skill_name, true),
                python::html_escape(path, true)
            )),
            Err(error) => {
                let (files, truncated) = self.list_files(skill_name, MAX_FILES_IN_ERROR);
                let mut listing = if files.is_empty() {
                    "none".to_string()
                } else {
                    files.join(", ")
                };
                if truncated {
                    listing.push_str(", ...");
                }
                ToolOutput::error(format!("{error}. Bundled files: {listing}"))
            }
        }
    }
}

/// What a tool returns: the text the model sees, and whether 10xGraph marks it failed.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
pub struct ToolOutput {
    pub content: String,
    pub is_error: bool,
}

impl ToolOutput {
    fn ok(content: String) -> Self {
        Self {
            content,
            is_error: false,
        }
    }

    fn error(content: String) -> Self {
        Self {
            content,
            is_error: true,
        }
    }
}

/// The opening tag that marks a skill's instructions in a conversation.
pub fn skill_content_marker(name: &str) -> String {
    format!(
        "<skill_content name=\"{}\">",
        python::html_escape(name, true)
    )
}

/// 10xGraph's `SkillResourceError` messages.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ResourceError {
    #[error("Path must not be empty")]
    Empty,
    #[error("Path '{0}' must be relative to the skill directory")]
    Absolute(String),
    #[error("Path '{0}' is outside the skill directory")]
    Outside(String),
    #[error("File '{path}' not found in skill '{skill}'")]
    NotFound { path: String, skill: String },
    #[error("Could not read '{path}': {detail}")]
    Read { path: String, detail: String },
}

fn read_skill_file(
    meta: &SkillMeta,
    requested: &str,
    max_bytes: usize,
) -> Result<String, ResourceError> {
    let mut cleaned = python::strip(requested).replace('\\', "/");
    while let Some(rest) = cleaned.strip_prefix("./") {
        cleaned = rest.to_string();
    }
    if cleaned.is_empty() || cleaned == "." {
        return Err(ResourceError::Empty);
    }
    let bytes = cleaned.as_bytes();
    let drive = bytes.len() >= 2 && bytes[0].is_ascii_alphabetic() && bytes[1] == b':';
    if cleaned.starts_with('/') || drive {
        return Err(ResourceError::Absolute(requested.to_string()));
    }
    let read_error =
        |path: &str, errno: rustix::io::Errno, file: Option<&Path>| ResourceError::Read {
            path: path.to_string(),
            detail: python::os_error(
                errno.raw_os_error(),
                file.map(|f| f.to_string_lossy()).as_deref(),
            ),
        };
    let target = skill_files::resolve(&meta.skill_dir, &cleaned)
        .map_err(|errno| read_error(&cleaned, errno, Some(&meta.skill_dir)))?;
    match target {
        Target::Outside => Err(ResourceError::Outside(requested.to_string())),
        Target::Missing { relative } => Err(ResourceError::NotFound {
            path: relative,
            skill: meta.name.clone(),
        }),
        Target::Directory { relative, .. } => {
            let subdir = if relative == "." {
                ""
            } else {
                relative.as_str()
            };
            let (files, truncated) =
                skill_files::list_files(&meta.skill_dir, subdir, MAX_LISTED_FILES);
            if files.is_empty() {
                return Ok(format!(
                    "Directory '{relative}' contains no readable files."
                ));
            }
            let more = if truncated {
                format!("\n(listing truncated at {MAX_LISTED_FILES} files)")
            } else {
                String::new()
            };
            Ok(format!(
                "Directory '{relative}' contains:\n{}{more}",
                files.join("\n")
            ))
        }
        Target::File {
            relative,
            descriptor,
            absolute,
        } => {
            let (size, data) = skill_files::read_prefix(descriptor, max_bytes)
                .map_err(|errno| read_error(&relative, errno, Some(&absolute)))?;
            if data[..data.len().min(BINARY_SNIFF_BYTES)].contains(&0) {
                return Ok(format!(
                    "'{relative}' is a binary file ({size} bytes); its content cannot be shown as text."
                ));
            }
            let mut text = String::from_utf8_lossy(&data).into_owned();
            if size > max_bytes as u64 {
                text.push_str(&format!(
                    "\n\n[truncated: showing the first {max_bytes} of {size} bytes]"
                ));
            }
            Ok(text)
        }
    }
}

/// The JSON schema of `activate_skill`'s parameters: the names are an enum.
pub fn activate_skill_parameters(registry: &Registry) -> serde_json::Value {
    serde_json::json!({
        "type": "object",
        "properties": {
            "skill_name": {"type": "string", "enum": registry.names(), "description": "Name of the skill to activate."}
        },
        "required": ["skill_name"]
    })
}

/// The description of `activate_skill`; with `embed_catalog` it lists the skills.
pub fn activate_skill_description(registry: &Registry, embed_catalog: bool) -> String {
    let mut description = "Load the full instructions of a skill. Call this when the user's task matches a skill's \
                           description, before working on the task, then follow the instructions it returns."
        .to_string();
    if embed_catalog {
        let list: Vec<String> = registry
            .ordered()
            .iter()
            .map(|meta| {
                format!(
                    "- {}: {}",
                    meta.name,
                    collapse_whitespace(&meta.description)
                )
            })
            .collect();
        description.push_str(&format!("\n\nAvailable skills:\n{}", list.join("\n")));
    }
    description
}

/// The description of `read_skill_resource`.
pub const READ_SKILL_RESOURCE_DESCRIPTION: &str = "Read a file bundled with a skill: reference docs, scripts (such as \
.py or .sh files), templates or data. The content is returned as text; nothing is executed. Use a path relative to \
the skill directory, as listed in the skill's <skill_resources> or mentioned in its instructions, e.g. \
\"references/guide.md\" or \"scripts/extract.py\". A directory path lists the files inside it.";

/// The JSON schema of `read_skill_resource`'s parameters.
pub fn read_skill_resource_parameters(registry: &Registry) -> serde_json::Value {
    serde_json::json!({
        "type": "object",
        "properties": {
            "skill_name": {"type": "string", "enum": registry.names(), "description": "Name of the skill that bundles the file."},
            "path": {"type": "string", "description": "File path relative to the skill directory."}
        },
        "required": ["skill_name", "path"]
    })
}
