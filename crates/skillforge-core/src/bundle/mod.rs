//! Export: skills packaged for the places they are used — an installable Python package (and its
//! wheel) for nagents-style builtin sources, `.skill` archives for upload to Claude, and skill folders
//! installed where Claude Code, Codex and Copilot read them.
//!
//! Every export follows the same steps: discover the skills with the same engine the catalog uses,
//! read each skill folder with descriptor-relative access (no links, nothing outside the folder),
//! validate every skill under the profile of the client that will read it, and only when nothing
//! blocks, build the whole output in memory and publish it with one rename. Outputs are deterministic:
//! the same input gives the same bytes, archives and wheels included.

pub mod archive;
pub mod collect;
pub mod destination;
pub mod names;
pub mod python_package;
pub mod validate;

use std::collections::{BTreeMap, HashMap};
use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};
use sha2::{Digest, Sha256};

use crate::fs::read::Limit;
use crate::lint::ProfileId;
use crate::workspace::{self, WorkspaceError};

pub use archive::{ArchiveError, Entry};
pub use collect::{BundleFile, Exclusions, LinkPolicy, ReadError};
pub use destination::{DestinationError, WriteAction};
pub use python_package::{PackageNameError, PackageSpec};
pub use validate::{LintValidator, Problem, ProblemLevel, SkillToCheck, Validator};

/// The stamp a client-folder install leaves in each skill folder it writes.
pub const STAMP_FILE: &str = ".skillforge-install.json";
/// The manifest every folder export carries: each file with its size and SHA-256.
pub const MANIFEST_FILE: &str = "bundle.json";
/// Used when no package name is given.
pub const DEFAULT_PACKAGE_NAME: &str = "bundled-skills";
pub const DEFAULT_PACKAGE_VERSION: &str = "0.1.0";
const FORMAT: u32 = 1;

/// What to export to.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
#[serde(rename_all = "kebab-case")]
pub enum Target {
    /// A Python project folder with the skills as package resources, and its wheel in `dist/`.
    PythonPackage,
    /// One `.skill` archive per skill, for upload to Claude.
    SkillArchive,
    /// Skill folders installed under a project's or user's client folder.
    ClientFolder,
}

impl Target {
    pub fn as_str(self) -> &'static str {
        match self {
            Target::PythonPackage => "python-package",
            Target::SkillArchive => "skill-archive",
            Target::ClientFolder => "client-folder",
        }
    }
}

/// Which client's skill folder a client-folder export installs into.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
#[serde(rename_all = "lowercase")]
pub enum Client {
    /// `.claude/skills` (Claude Code).
    Claude,
    /// `.codex/skills` (Codex).
    Codex,
    /// `.agents/skills`, the cross-client folder (Codex, Copilot, 10xGraph and others).
    Agents,
    /// `.github/skills` (GitHub Copilot, VS Code).
    Copilot,
}

impl Client {
    pub fn as_str(self) -> &'static str {
        match self {
            Client::Claude => "claude",
            Client::Codex => "codex",
            Client::Agents => "agents",
            Client::Copilot => "copilot",
        }
    }

    /// The skills folder below a project or home folder.
    pub fn folder(self) -> &'static str {
        match self {
            Client::Claude => ".claude/skills",
            Client::Codex => ".codex/skills",
            Client::Agents => ".agents/skills",
            Client::Copilot => ".github/skills",
        }
    }

    /// The profile whose errors would make this client refuse or misread a skill. The shared
    /// `.agents` folder is read by many clients, so the specification speaks for it.
    pub fn profile(self) -> ProfileId {
        match self {
            Client::Claude => ProfileId::ClaudeCode,
            Client::Codex => ProfileId::Codex,
            Client::Agents => ProfileId::Spec,
            Client::Copilot => ProfileId::Copilot,
        }
    }
}

/// Everything an export needs to know.
#[derive(Debug, Clone, Serialize, Deserialize)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
pub struct ExportRequest {
    /// Folders to discover skills under, as for the catalog.
    pub roots: Vec<PathBuf>,
    pub target: Target,
    /// Skill names to export; all discovered skills when absent.
    pub skills: Option<Vec<String>>,
    /// The destination: the project folder (python-package), the folder of archives (skill-archive),
    /// or the project or home folder whose client skills folder receives the skills (client-folder).
    pub out: PathBuf,
    pub package_name: Option<String>,
    pub package_version: Option<String>,
    pub client: Option<Client>,
    /// Replace an earlier export at the destination: only the files it recorded (in [`MANIFEST_FILE`]
    /// or [`STAMP_FILE`]) are deleted; anything else is kept. Never a folder no export wrote.
    pub force: bool,
    pub links: LinkPolicy,
}

/// A skill ready to be written.
#[derive(Debug, Clone)]
pub struct ExportedSkill {
    pub name: String,
    pub description: String,
    /// The skill folder's name, kept in every export (nagents falls back to it for a missing name).
    pub directory: String,
    pub source: PathBuf,
    pub files: Vec<BundleFile>,
}

/// A skill in the report.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
pub struct ExportedSkillSummary {
    pub name: String,
    pub directory: String,
    pub source: String,
    // JavaScript numbers hold these exactly: counts and sizes stay far below 2^53.
    #[cfg_attr(feature = "specta", specta(type = f64))]
    pub files: usize,
    // JavaScript numbers hold these exactly: counts and sizes stay far below 2^53.
    #[cfg_attr(feature = "specta", specta(type = f64))]
    pub bytes: u64,
}

/// One destination written.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
pub struct Written {
    pub path: String,
    pub action: WriteAction,
    /// The files written there, archives counted as one file.
    // JavaScript numbers hold these exactly: counts and sizes stay far below 2^53.
    #[cfg_attr(feature = "specta", specta(type = f64))]
    pub files: usize,
    // JavaScript numbers hold these exactly: counts and sizes stay far below 2^53.
    #[cfg_attr(feature = "specta", specta(type = f64))]
    pub bytes: u64,
    /// Noteworthy files inside (the wheel, the archives), relative to `path`.
    pub artifacts: Vec<String>,
    /// When an earlier export was replaced: its files that were deleted (no longer exported, or
    /// edited since, marked so), relative to `path`.
    pub removed: Vec<String>,
    /// When an earlier export was replaced: what no export wrote, kept as it was (folders end
    /// with `/`).
    pub kept: Vec<String>,
}

/// The outcome of an export that ran to a decision: either blocked by validation, or written.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
pub struct ExportReport {
    pub target: Target,
    /// The profiles the skills were validated under.
    pub profiles: Vec<ProfileId>,
    pub skills: Vec<ExportedSkillSummary>,
    /// Errors (which block) and warnings, in skill order.
    pub problems: Vec<Problem>,
    /// True when errors stopped the export before anything was written.
    pub blocked: bool,
    pub written: Vec<Written>,
}

impl ExportReport {
    pub fn errors(&self) -> usize {
        self.count(ProblemLevel::Error)
    }

    pub fn warnings(&self) -> usize {
        self.count(ProblemLevel::Warning)
    }

    fn count(&self, level: ProblemLevel) -> usize {
        self.problems
            .iter()
            .filter(|problem| problem.level == level)
            .count()
    }
}

/// Why an export could not run at all (as opposed to being blocked by a skill's problems).
#[derive(Debug, thiserror::Error)]
pub enum ExportError {
    #[error(transparent)]
    Workspace(#[from] WorkspaceError),
    #[error("a client-folder export needs a client: claude, codex, agents or copilot")]
    MissingClient,
    #[error(transparent)]
    PackageName(#[from] PackageNameError),
    #[error("no skill named {}; the catalog has: {}", .unknown.join(", "), if .known.is_empty() { "no skills".to_string() } else { .known.join(", ") })]
    UnknownSkills {
        unknown: Vec<String>,
        known: Vec<String>,
    },
    #[error("no skills found under the given folders")]
    NoSkills,
    #[error("{}: {reason}; it is not replaced, even with --force (remove or rename it yourself if it should go)", path.display())]
    Foreign { path: PathBuf, reason: String },
    #[error("{}: {reason}; replace it explicitly (--force) if that is what you want", path.display())]
    Installed { path: PathBuf, reason: String },
    #[error(transparent)]
    Destination(#[from] DestinationError),
    #[error(transparent)]
    Archive(#[from] ArchiveError),
}

/// The profiles an export is validated under.
pub fn profiles_for(target: Target, client: Option<Client>) -> Result<Vec<ProfileId>, ExportError> {
    Ok(match target {
        Target::PythonPackage => vec![ProfileId::Nagents],
        Target::SkillArchive => vec![ProfileId::ClaudeUpload],
        Target::ClientFolder => vec![client.ok_or(ExportError::MissingClient)?.profile()],
    })
}

/// Runs an export with the linter as validator.
pub fn export(request: &ExportRequest) -> Result<ExportReport, ExportError> {
    export_with(request, &LintValidator)
}

/// Validates an export and reports what it would write, writing nothing: the app shows this before
/// the author confirms.
pub fn plan(request: &ExportRequest) -> Result<ExportReport, ExportError> {
    let request = with_absolute_out(request)?;
    assess(&request, &LintValidator).map(|(report, _, _)| report)
}

/// The request with `out` made absolute against the working folder, so every later step (which opens
/// folders from `/`) sees the folder the user meant.
fn with_absolute_out(request: &ExportRequest) -> Result<ExportRequest, ExportError> {
    let out = std::path::absolute(&request.out).map_err(|source| DestinationError::Io {
        path: request.out.clone(),
        source,
    })?;
    Ok(ExportRequest {
        out,
        ..request.clone()
    })
}

/// The folders an export writes: `out`, or for a client-folder export the client's skills folder
/// below it.
fn destinations(request: &ExportRequest) -> Vec<PathBuf> {
    match (request.target, request.client) {
        (Target::ClientFolder, Some(client)) => vec![request.out.join(client.folder())],
        _ => vec![request.out.clone()],
    }
}

/// Refuses a destination inside (or equal to) a folder being exported: the export would be read as
/// more skills by the next catalog or export. Compared physically — the device and inode of every
/// folder above the destination — so a link or a `..` cannot hide it.
fn refuse_output_inside_roots(request: &ExportRequest) -> Result<(), DestinationError> {
    use std::os::unix::fs::MetadataExt;
    for destination in destinations(request) {
        let existing = destination
            .ancestors()
            .find_map(|ancestor| std::fs::canonicalize(ancestor).ok());
        let Some(existing) = existing else {
            continue;
        };
        let folders: Vec<(u64, u64)> = existing
            .ancestors()
            .filter_map(|folder| std::fs::metadata(folder).ok())
            .map(|metadata| (metadata.dev(), metadata.ino()))
            .collect();
        for root in &request.roots {
            // A root that cannot be read is reported by the scan.
            let Ok(metadata) = std::fs::metadata(root) else {
                continue;
            };
            if folders.contains(&(metadata.dev(), metadata.ino())) {
                let shown = if request.target == Target::ClientFolder {
                    destination.clone()
                } else {
                    request.out.clone()
                };
                return Err(DestinationError::InsideRoot {
                    out: shown,
                    root: std::fs::canonicalize(root).unwrap_or_else(|_| root.clone()),
                });
            }
        }
    }
    Ok(())
}

/// Runs an export with the given validator.
pub fn export_with(
    request: &ExportRequest,
    validator: &dyn Validator,
) -> Result<ExportReport, ExportError> {
    let request = &with_absolute_out(request)?;
    let (mut report, skills, package) = assess(request, validator)?;
    if report.blocked {
        return Ok(report);
    }
    report.written = match (request.target, &package) {
        (Target::PythonPackage, Some(spec)) => vec![write_python_package(request, spec, &skills)?],
        (Target::SkillArchive, _) => vec![write_archives(request, &skills)?],
        (Target::ClientFolder, _) => {
            let client = request.client.ok_or(ExportError::MissingClient)?;
            write_client_folders(request, client, &skills)?
        }
        (Target::PythonPackage, None) => Vec::new(),
    };
    Ok(report)
}

/// Everything an export decides before writing: the skills, their problems, whether it is blocked.
fn assess(
    request: &ExportRequest,
    validator: &dyn Validator,
) -> Result<(ExportReport, Vec<ExportedSkill>, Option<PackageSpec>), ExportError> {
    let profiles = profiles_for(request.target, request.client)?;
    refuse_output_inside_roots(request)?;
    let package = match request.target {
        Target::PythonPackage => Some(PackageSpec::new(
            request
                .package_name
                .as_deref()
                .unwrap_or(DEFAULT_PACKAGE_NAME),
            request
                .package_version
                .as_deref()
                .unwrap_or(DEFAULT_PACKAGE_VERSION),
        )?),
        _ => None,
    };
    let (skills, mut problems) = gather(request, validator, &profiles)?;
    let mut report = ExportReport {
        target: request.target,
        profiles,
        skills: skills
            .iter()
            .map(|skill| ExportedSkillSummary {
                name: skill.name.clone(),
                directory: skill.directory.clone(),
                source: skill.source.display().to_string(),
                files: skill.files.len(),
                bytes: skill.files.iter().map(|file| file.bytes.len() as u64).sum(),
            })
            .collect(),
        problems: Vec::new(),
        blocked: false,
        written: Vec::new(),
    };
    if let Some(spec) = &package {
        problems.extend(package_warnings(spec, &skills));
    }
    report.blocked = problems
        .iter()
        .any(|problem| problem.level == ProblemLevel::Error);
    report.problems = problems;
    Ok((report, skills, package))
}

/// Discovers, selects, reads and validates the skills.
fn gather(
    request: &ExportRequest,
    validator: &dyn Validator,
    profiles: &[ProfileId],
) -> Result<(Vec<ExportedSkill>, Vec<Problem>), ExportError> {
    let catalog = workspace::scan(&request.roots)?;
    let mut problems = Vec::new();
    let selected: Vec<&crate::skill::Skill> = match &request.skills {
        None => catalog.skills.iter().collect(),
        Some(names) => {
            let unknown: Vec<String> = names
                .iter()
                .filter(|name| !catalog.skills.iter().any(|skill| &skill.name == *name))
                .cloned()
                .collect();
            if !unknown.is_empty() {
                return Err(ExportError::UnknownSkills {
                    unknown,
                    known: catalog
                        .skills
                        .iter()
                        .map(|skill| skill.name.clone())
                        .collect(),
                });
            }
            let mut chosen: Vec<&crate::skill::Skill> = catalog
                .skills
                .iter()
                .filter(|skill| names.contains(&skill.name))
                .collect();
            chosen.dedup_by(|left, right| left.name == right.name);
            chosen
        }
    };
    if selected.is_empty() {
        return Err(ExportError::NoSkills);
    }
    // Exporting everything means every SKILL.md must make it: one that discovery skipped would silently
    // go missing from the package. With an explicit selection they concern other skills.
    for diagnostic in &catalog.diagnostics {
        let problem = if request.skills.is_none() {
            Problem::error(None, String::new(), diagnostic.clone())
        } else {
            Problem::warning(None, String::new(), diagnostic.clone())
        };
        problems.push(problem);
    }
    for duplicate in &catalog.duplicates {
        if selected.iter().any(|skill| skill.name == duplicate.name) {
            problems.push(Problem::error(
                Some(&duplicate.name),
                duplicate.location.clone(),
                format!(
                    "another skill is also named {:?}; nagents fails the whole catalog on a duplicate name",
                    duplicate.name
                ),
            ));
        }
    }
    let exclusions = Exclusions {
        top_level_evals: request.target == Target::SkillArchive,
    };
    let mut directories: HashMap<String, String> = HashMap::new();
    let mut skills = Vec::new();
    for skill in selected {
        let skill_md = PathBuf::from(&skill.location);
        let Some(folder) = skill_md.parent() else {
            continue;
        };
        let directory = folder
            .file_name()
            .map(|name| name.to_string_lossy().into_owned())
            .unwrap_or_default();
        if let Err(reason) = names::check_component(&directory) {
            problems.push(Problem::error(
                Some(&skill.name),
                folder.display().to_string(),
                format!("the skill folder's name {directory:?} contains {reason}; rename it"),
            ));
            continue;
        }
        if let Some(other) = directories.insert(directory.clone(), skill.name.clone()) {
            problems.push(Problem::error(
                Some(&skill.name),
                folder.display().to_string(),
                format!("skill {other:?} is in a folder with the same name {directory:?}; every exported skill keeps its folder name, so rename one of them"),
            ));
        }
        let files = match collect::read_skill_folder(folder, request.links, exclusions) {
            Ok(files) => files,
            Err(errors) => {
                for error in errors {
                    problems.push(Problem::error(
                        Some(&skill.name),
                        folder.display().to_string(),
                        error.to_string(),
                    ));
                }
                continue;
            }
        };
        let Some(text) = files.iter().find(|file| file.path == "SKILL.md") else {
            problems.push(Problem::error(
                Some(&skill.name),
                skill.location.clone(),
                "SKILL.md could not be read as a regular file",
            ));
            continue;
        };
        problems.extend(validator.check(
            SkillToCheck {
                name: &skill.name,
                skill_md: &skill_md,
                bytes: &text.bytes,
            },
            profiles,
        ));
        skills.push(ExportedSkill {
            name: skill.name.clone(),
            description: skill.description.clone(),
            directory,
            source: folder.to_path_buf(),
            files,
        });
    }
    Ok((skills, problems))
}

/// What nagents will do differently with a skill read from package resources.
fn package_warnings(spec: &PackageSpec, skills: &[ExportedSkill]) -> Vec<Problem> {
    let mut problems = Vec::new();
    for skill in skills {
        let Some(text) = skill.files.iter().find(|file| file.path == "SKILL.md") else {
            continue;
        };
        if text.bytes.contains(&b'\r') {
            problems.push(Problem::warning(
                Some(&skill.name),
                skill.source.join("SKILL.md").display().to_string(),
                format!(
                    "has CR line endings; importlib.resources reads {} as text with universal newlines, so nagents loads it with LF endings (and a smaller token estimate)",
                    spec.location(&skill.directory)
                ),
            ));
        }
    }
    problems
}

/// One file in a manifest.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct ManifestFile {
    pub path: String,
    pub size: u64,
    pub sha256: String,
}

impl ManifestFile {
    fn of(path: &str, bytes: &[u8]) -> Self {
        Self {
            path: path.to_string(),
            size: bytes.len() as u64,
            sha256: sha256_hex(bytes),
        }
    }
}

#[derive(Debug, Serialize)]
struct ManifestSkill<'a> {
    name: &'a str,
    directory: &'a str,
    #[serde(skip_serializing_if = "Option::is_none")]
    location: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    archive: Option<String>,
}

/// `bundle.json`: deterministic (no time, no machine paths), so it is identical for identical input.
#[derive(Debug, Serialize)]
struct Manifest<'a> {
    format: u32,
    generator: String,
    target: Target,
    #[serde(skip_serializing_if = "Option::is_none")]
    package: Option<BTreeMap<&'static str, String>>,
    skills: Vec<ManifestSkill<'a>>,
    files: Vec<ManifestFile>,
    /// For archive exports: the members of each archive.
    #[serde(skip_serializing_if = "BTreeMap::is_empty")]
    archives: BTreeMap<String, Vec<ManifestFile>>,
}

fn generator() -> String {
    format!("skillforge {}", env!("CARGO_PKG_VERSION"))
}

pub fn sha256_hex(bytes: &[u8]) -> String {
    Sha256::digest(bytes)
        .iter()
        .map(|byte| format!("{byte:02x}"))
        .collect()
}

fn json_bytes(value: &impl Serialize) -> Vec<u8> {
    // Serializing plain structs of strings and numbers cannot fail; an empty object is a safe floor.
    let mut bytes = serde_json::to_vec_pretty(value).unwrap_or_else(|_| b"{}".to_vec());
    bytes.push(b'\n');
    bytes
}

fn with_manifest(mut files: Vec<Entry>, manifest: &Manifest<'_>) -> Vec<Entry> {
    files.push(Entry {
        path: MANIFEST_FILE.to_string(),
        bytes: json_bytes(manifest),
        executable: false,
    });
    files.sort_by(|left, right| left.path.cmp(&right.path));
    files
}

fn written(
    destination: &Path,
    published: destination::Published,
    files: &[Entry],
    artifacts: Vec<String>,
) -> Written {
    Written {
        action: published.action,
        removed: published.replacement.removed,
        kept: published.replacement.kept,
        path: std::path::absolute(destination)
            .unwrap_or_else(|_| destination.to_path_buf())
            .display()
            .to_string(),
        files: files.len(),
        bytes: files.iter().map(|file| file.bytes.len() as u64).sum(),
        artifacts,
    }
}

fn write_python_package(
    request: &ExportRequest,
    spec: &PackageSpec,
    skills: &[ExportedSkill],
) -> Result<Written, ExportError> {
    let files = python_package::project_files(spec, skills)?;
    let mut package = BTreeMap::new();
    package.insert("name", spec.distribution.clone());
    package.insert("import", spec.import_name.clone());
    package.insert("version", spec.version.clone());
    package.insert("wheel", format!("dist/{}", spec.wheel_file_name()));
    let manifest = Manifest {
        format: FORMAT,
        generator: generator(),
        target: Target::PythonPackage,
        package: Some(package),
        skills: skills
            .iter()
            .map(|skill| ManifestSkill {
                name: &skill.name,
                directory: &skill.directory,
                location: Some(spec.location(&skill.directory)),
                archive: None,
            })
            .collect(),
        files: files
            .iter()
            .map(|file| ManifestFile::of(&file.path, &file.bytes))
            .collect(),
        archives: BTreeMap::new(),
    };
    let files = with_manifest(files, &manifest);
    let action = destination::publish_folder(&request.out, &files, request.force)?;
    Ok(written(
        &request.out,
        action,
        &files,
        vec![format!("dist/{}", spec.wheel_file_name())],
    ))
}

/// The members of a skill's `.skill` archive: its folder at the top.
pub fn archive_entries(skill: &ExportedSkill) -> Vec<Entry> {
    skill
        .files
        .iter()
        .map(|file| Entry {
            path: format!("{}/{}", skill.directory, file.path),
            bytes: file.bytes.clone(),
            executable: file.executable,
        })
        .collect()
}

fn write_archives(
    request: &ExportRequest,
    skills: &[ExportedSkill],
) -> Result<Written, ExportError> {
    let mut files = Vec::new();
    let mut archives = BTreeMap::new();
    let mut entries_of_skills = Vec::new();
    for skill in skills {
        let entries = archive_entries(skill);
        let name = format!("{}.skill", skill.directory);
        archives.insert(
            name.clone(),
            entries
                .iter()
                .map(|entry| ManifestFile::of(&entry.path, &entry.bytes))
                .collect(),
        );
        files.push(Entry {
            path: name.clone(),
            bytes: archive::build(entries)?,
            executable: false,
        });
        entries_of_skills.push(name);
    }
    let manifest = Manifest {
        format: FORMAT,
        generator: generator(),
        target: Target::SkillArchive,
        package: None,
        skills: skills
            .iter()
            .zip(&entries_of_skills)
            .map(|(skill, archive)| ManifestSkill {
                name: &skill.name,
                directory: &skill.directory,
                location: None,
                archive: Some(archive.clone()),
            })
            .collect(),
        files: files
            .iter()
            .map(|file| ManifestFile::of(&file.path, &file.bytes))
            .collect(),
        archives,
    };
    let files = with_manifest(files, &manifest);
    let action = destination::publish_folder(&request.out, &files, request.force)?;
    Ok(written(&request.out, action, &files, entries_of_skills))
}

/// The stamp a client-folder install leaves, so that a later install knows what it wrote.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Stamp {
    pub format: u32,
    pub generator: String,
    pub skill: String,
    pub client: Client,
    /// The skill folder the install was made from.
    pub source: String,
    /// A digest of every installed file's path and content: equal versions hold equal files.
    pub version: String,
    pub files: Vec<ManifestFile>,
}

impl Stamp {
    fn new(skill: &ExportedSkill, client: Client) -> Self {
        let files: Vec<ManifestFile> = skill
            .files
            .iter()
            .map(|file| ManifestFile::of(&file.path, &file.bytes))
            .collect();
        let mut digest = Sha256::new();
        for file in &files {
            digest.update(file.path.as_bytes());
            digest.update([0]);
            digest.update(file.sha256.as_bytes());
            digest.update([0]);
        }
        Self {
            format: FORMAT,
            generator: generator(),
            skill: skill.name.clone(),
            client,
            source: skill.source.display().to_string(),
            version: format!(
                "sha256:{}",
                digest
                    .finalize()
                    .iter()
                    .map(|byte| format!("{byte:02x}"))
                    .collect::<String>()
            ),
            files,
        }
    }
}

/// What an existing client skill folder is, as far as an install is concerned.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum InstalledState {
    Absent,
    /// Installed by an export of the same skill and unchanged since.
    Unchanged(Stamp),
    /// Installed by an export of the same skill, then edited.
    Modified {
        stamp: Stamp,
        changed: Vec<String>,
    },
    /// Not installed by an export of this skill: never replaced.
    Foreign(String),
}

/// Reads what is at `destination` (a skill folder under a client folder).
pub fn installed_state(destination: &Path, skill: &str) -> InstalledState {
    match destination::occupied(destination) {
        Ok(false) => return InstalledState::Absent,
        Ok(true) => {}
        Err(error) => return InstalledState::Foreign(error.to_string()),
    }
    // The skill folder itself is never entered through a link; the folders above it the user chose.
    let folder = match destination.parent().zip(destination.file_name()) {
        Some((parent, name)) => {
            let parent = if parent.as_os_str().is_empty() {
                Path::new(".")
            } else {
                parent
            };
            crate::fs::open::root_directory(parent)
                .and_then(|parent| crate::fs::open::directory_at(&parent, name))
        }
        None => crate::fs::open::root_directory(destination),
    };
    let Ok(folder) = folder else {
        return InstalledState::Foreign("is not a folder".to_string());
    };
    let stamp: Stamp = match crate::fs::read::regular_at(&folder, STAMP_FILE, Limit::RESOURCE)
        .ok()
        .and_then(|read| serde_json::from_slice(&read.bytes).ok())
    {
        Some(stamp) => stamp,
        None => {
            return InstalledState::Foreign(format!(
                "holds a skill that no skillforge export installed (no readable {STAMP_FILE})"
            ))
        }
    };
    if stamp.skill != skill {
        return InstalledState::Foreign(format!(
            "holds the skill {:?} installed from {}",
            stamp.skill, stamp.source
        ));
    }
    let comparison = match destination::compare(
        &folder,
        destination,
        STAMP_FILE,
        &stamp.files,
        &Default::default(),
    ) {
        Ok(comparison) => comparison,
        Err(error) => return InstalledState::Foreign(error.to_string()),
    };
    // Caches and Finder metadata are no part of a skill (exports leave them out): not an edit.
    let mut comparison = comparison;
    comparison.added.retain(|path| {
        !path
            .trim_end_matches('/')
            .split('/')
            .any(|name| collect::excluded(name, false, Exclusions::default()))
    });
    let changed = comparison.changes();
    if changed.is_empty() {
        InstalledState::Unchanged(stamp)
    } else {
        InstalledState::Modified { stamp, changed }
    }
}

fn write_client_folders(
    request: &ExportRequest,
    client: Client,
    skills: &[ExportedSkill],
) -> Result<Vec<Written>, ExportError> {
    let base = request.out.join(client.folder());
    // Decide for every skill before writing any, so a refusal leaves the client folder untouched.
    let mut plans = Vec::new();
    for skill in skills {
        let destination = base.join(&skill.directory);
        let stamp = Stamp::new(skill, client);
        match installed_state(&destination, &skill.name) {
            InstalledState::Absent => {}
            InstalledState::Foreign(reason) => {
                return Err(ExportError::Foreign {
                    path: destination,
                    reason,
                })
            }
            InstalledState::Unchanged(previous) if !request.force => {
                let reason = if previous.version == stamp.version {
                    format!("is already installed, identical ({})", previous.version)
                } else {
                    format!(
                        "is an earlier install of {:?} from {}, unchanged since; this export would update it",
                        previous.skill, previous.source
                    )
                };
                return Err(ExportError::Installed {
                    path: destination,
                    reason,
                });
            }
            InstalledState::Modified { changed, .. } if !request.force => {
                return Err(ExportError::Installed {
                    path: destination,
                    reason: format!(
                        "was installed by an export but edited since ({}); updating it would lose those edits",
                        changed.join(", ")
                    ),
                });
            }
            InstalledState::Unchanged(_) | InstalledState::Modified { .. } => {}
        }
        let mut files: Vec<Entry> = skill
            .files
            .iter()
            .map(|file| Entry {
                path: file.path.clone(),
                bytes: file.bytes.clone(),
                executable: file.executable,
            })
            .collect();
        files.push(Entry {
            path: STAMP_FILE.to_string(),
            bytes: json_bytes(&stamp),
            executable: false,
        });
        plans.push((destination, files));
    }
    let mut result = Vec::new();
    for (destination, files) in plans {
        let action = destination::publish_folder(&destination, &files, request.force)?;
        result.push(written(&destination, action, &files, Vec::new()));
    }
    Ok(result)
}

#[cfg(test)]
mod tests;
