//! A workspace: the folders an author opened, checked up front so that a wrong path gets a clear
//! error instead of an empty catalog.

use std::path::{Path, PathBuf};

use serde::Serialize;

use std::collections::HashSet;

use crate::clients::nagents::discovery::directory::absolute_root;
use crate::clients::nagents::discovery::{
    BuiltinSource, DirectoryOptions, DirectorySource, Survey,
};
use crate::clients::nagents::partition;
use crate::skill::Skill;

/// Why a workspace (or one of its roots) cannot be opened, or an operation on it cannot be done.
#[derive(Debug, thiserror::Error)]
pub enum WorkspaceError {
    #[error("{}: {reason}", path.display())]
    Overlaps { path: PathBuf, reason: String },
    #[error("{}: not open in this workspace", .0.display())]
    NotOpen(PathBuf),
    #[error("{0}: the builtin skills are read-only; duplicate them into a folder to change them")]
    ReadOnly(String),
    #[error("{0}")]
    Lint(String),
    #[error(transparent)]
    File(#[from] crate::fs::FileError),
    #[error("{0}")]
    Script(String),
    #[error(transparent)]
    Scaffold(#[from] crate::scaffold::ScaffoldError),
    #[error(transparent)]
    Resource(#[from] crate::resources::ResourceError),
    #[error("{}: no such folder; check the path or create it", .0.display())]
    NotFound(PathBuf),
    #[error("{}: is {what}, not a folder; open the folder that contains your skills", path.display())]
    NotADirectory { path: PathBuf, what: &'static str },
    #[error("{}: cannot be read ({source}); check its permissions", path.display())]
    Unreadable {
        path: PathBuf,
        #[source]
        source: std::io::Error,
    },
}

/// Everything discovery found, including what a strict client would refuse, so one bad skill
/// never blanks the author's view.
///
/// Only serialized: a report flows out to the UI and the CLI's JSON, never back in, and one
/// direction keeps the generated TypeScript to a single type.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
pub struct CatalogReport {
    /// The skills in catalog (name) order.
    pub skills: Vec<Skill>,
    /// Bounded discovery diagnostics, as the client reports them.
    pub diagnostics: Vec<String>,
    /// The message with which the client would fail the whole catalog, if it would.
    pub error: Option<String>,
    /// Skills whose name an earlier skill of the same source already uses.
    pub duplicates: Vec<Skill>,
    /// Builtin skills hidden by a workspace skill of the same name (the first source wins).
    pub shadowed: Vec<Skill>,
}

/// Checks that `path` is a readable folder and returns it made absolute as nagents makes roots
/// absolute (`~` expanded, `.`/`..` collapsed lexically, links not resolved).
pub fn check_root(path: &Path) -> Result<PathBuf, WorkspaceError> {
    let absolute = absolute_root(path);
    let metadata = match std::fs::metadata(&absolute) {
        Ok(metadata) => metadata,
        Err(error) if error.kind() == std::io::ErrorKind::NotFound => {
            return Err(WorkspaceError::NotFound(absolute))
        }
        Err(source) => {
            return Err(WorkspaceError::Unreadable {
                path: absolute,
                source,
            })
        }
    };
    if !metadata.is_dir() {
        let kind =
            rustix::fs::FileType::from_raw_mode(std::os::unix::fs::MetadataExt::mode(&metadata));
        let what = match kind {
            rustix::fs::FileType::RegularFile => "a file",
            other => crate::fs::open::describe(other),
        };
        return Err(WorkspaceError::NotADirectory {
            path: absolute,
            what,
        });
    }
    std::fs::read_dir(&absolute).map_err(|source| WorkspaceError::Unreadable {
        path: absolute.clone(),
        source,
    })?;
    Ok(absolute)
}

/// What to scan, for clients that expose the directory source's bounds.
#[derive(Debug, Clone, Default)]
pub struct ScanOptions {
    pub roots: Vec<PathBuf>,
    /// Also list the builtin skills, after (and shadowed by) the roots' skills.
    pub builtin: bool,
    pub limits: DirectoryOptions,
}

/// Discovers the skills under `roots` the way the nagents directory source does.
pub fn scan(roots: &[PathBuf]) -> Result<CatalogReport, WorkspaceError> {
    scan_with(&ScanOptions {
        roots: roots.to_vec(),
        ..ScanOptions::default()
    })
}

/// Like [`scan`], with the builtin skills and the walk's bounds under the caller's control.
pub fn scan_with(options: &ScanOptions) -> Result<CatalogReport, WorkspaceError> {
    let roots = options
        .roots
        .iter()
        .map(|root| check_root(root))
        .collect::<Result<Vec<_>, _>>()?;
    let mut report = report_from(DirectorySource::new(&roots, options.limits).walk(), None);
    if options.builtin {
        let builtin = scan_builtin();
        let taken: HashSet<String> = report
            .skills
            .iter()
            .map(|skill| skill.name.clone())
            .collect();
        for skill in builtin.skills {
            if taken.contains(&skill.name) {
                report.shadowed.push(skill);
            } else {
                report.skills.push(skill);
            }
        }
        report.skills.sort_by(|a, b| a.name.cmp(&b.name));
        report.diagnostics.extend(builtin.diagnostics);
        report.duplicates.extend(builtin.duplicates);
        report.error = report.error.or(builtin.error);
    }
    Ok(report)
}

/// The builtin skills, as a report.
pub fn scan_builtin() -> CatalogReport {
    match BuiltinSource::default().survey_now() {
        Ok(survey) => report_from(survey, None),
        Err(error) => report_from(Survey::default(), Some(error.to_string())),
    }
}

fn report_from(survey: Survey, error: Option<String>) -> CatalogReport {
    let parts = partition(survey.found);
    CatalogReport {
        skills: parts.skills,
        diagnostics: survey.diagnostics,
        error: error.or(parts.error.map(|error| error.to_string())),
        duplicates: parts.duplicates,
        shadowed: Vec::new(),
    }
}

/// What a workspace shows: the folders an author opened, or the builtin skills (read-only).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Source {
    Builtin,
    /// Absolute, checked roots in the order they were opened; never empty.
    Folders(Vec<PathBuf>),
}

impl Source {
    /// The folders given at start-up, or the builtin skills when none was.
    pub fn from_paths(paths: Vec<PathBuf>) -> Source {
        if paths.is_empty() {
            Source::Builtin
        } else {
            Source::Folders(paths)
        }
    }
}

/// A workspace as the UI shows it.
#[derive(Debug, Clone, Serialize)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
pub struct WorkspaceView {
    /// The first opened folder, absolute; `None` for the builtin skills.
    pub root: Option<String>,
    /// Every opened folder in the order it was opened; empty for the builtin skills.
    pub roots: Vec<RootView>,
    /// A short name for the title bar.
    pub label: String,
    /// Whether the skills can be edited in place (the builtin skills cannot).
    pub read_only: bool,
    /// Every SKILL.md under the opened folders (the builtin skills when none is open), whatever any
    /// client makes of it: what the tree lists.
    pub skills: Vec<Skill>,
    /// What the problems list says about the workspace beside the lint findings: skills a client
    /// leaves out and why, names used twice, hidden builtin skills.
    pub notices: Vec<WorkspaceNotice>,
    /// What nagents' directory source makes of the folders.
    pub report: CatalogReport,
}

/// A finding about how a client sees the workspace or one of its skills, rather than about a line of
/// a SKILL.md. The problems list groups notices by `group`; `message` never repeats `path`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
pub struct WorkspaceNotice {
    pub severity: crate::lint::Severity,
    /// What kind of notice this is, as the heading of its group.
    pub group: String,
    /// The client the notice is about, when it is about one.
    pub client: Option<String>,
    /// The SKILL.md (or folder) it is about, absolute.
    pub path: Option<String>,
    pub message: String,
}

const NAGENTS: &str = "nagents";
/// Group headings of the notices.
pub mod notice_group {
    pub const FEWER: &str = "nagents' catalog lacks skills of the tree";
    pub const UNREADABLE: &str = "nagents cannot read these skills, so it does not list them";
    pub const BEYOND_LIMITS: &str =
        "nagents' discovery limits leave these skills out of its catalog";
    pub const DISCOVERY: &str = "nagents' discovery diagnostics";
    pub const REFUSED: &str = "A client would refuse this catalog";
    pub const DUPLICATE: &str = "Skill names used more than once";
    pub const SHADOWED: &str = "Builtin skills hidden by a workspace skill";
}

/// What the tree lists: every SKILL.md the lint walk found, then any skill nagents found that the walk
/// passed over (in an ignored folder), so no skill a client lists is missing either.
pub fn tree_skills(
    files: &[crate::lint::context::SkillFile],
    report: &CatalogReport,
) -> Vec<Skill> {
    let mut skills: Vec<Skill> = files
        .iter()
        .map(crate::lint::workspace::tree_entry)
        .collect();
    let listed: HashSet<String> = skills.iter().map(|skill| skill.location.clone()).collect();
    skills.extend(
        report
            .skills
            .iter()
            .filter(|skill| !listed.contains(&skill.location))
            .cloned(),
    );
    skills
}

/// The notices of a workspace whose SKILL.md files are `files` and which nagents sees as `report`.
pub fn workspace_notices(
    files: &[crate::lint::context::SkillFile],
    report: &CatalogReport,
) -> Vec<WorkspaceNotice> {
    use crate::clients::nagents::discovery::directory::MAX_FILE_BYTES;
    use crate::lint::Severity;
    let notice = |severity, group: &str, path: Option<String>, message: String| WorkspaceNotice {
        severity,
        group: group.to_string(),
        client: Some(NAGENTS.to_string()),
        path,
        message,
    };
    let mut notices = Vec::new();
    if let Some(error) = &report.error {
        notices.push(notice(
            Severity::Error,
            notice_group::REFUSED,
            None,
            format!("nagents fails the whole catalog: {error}"),
        ));
    }
    let listed: HashSet<&str> = report
        .skills
        .iter()
        .chain(&report.duplicates)
        .map(|skill| skill.location.as_str())
        .collect();
    let mut missing: HashSet<String> = HashSet::new();
    for file in files {
        let location = file.path.display().to_string();
        if listed.contains(location.as_str()) {
            continue;
        }
        let parsed = crate::clients::nagents::metadata::parse_skill_metadata(
            &file.source,
            &location,
            &file.dir_name,
        );
        let (group, message) = match parsed {
            Err(error) => (
                notice_group::UNREADABLE,
                without_path(&error.to_string(), &location).to_string(),
            ),
            Ok(_) if file.source.len() > MAX_FILE_BYTES => (
                notice_group::BEYOND_LIMITS,
                format!("larger than the {MAX_FILE_BYTES} bytes nagents reads of a SKILL.md"),
            ),
            Ok(_) => (
                notice_group::BEYOND_LIMITS,
                "beyond nagents' directory walk, which stops after 10,000 entries or 16 folder levels"
                    .to_string(),
            ),
        };
        notices.push(notice(
            Severity::Warning,
            group,
            Some(location.clone()),
            message,
        ));
        missing.insert(location);
    }
    if !missing.is_empty() {
        let summary = notice(
            Severity::Warning,
            notice_group::FEWER,
            None,
            format!(
                "nagents lists {} of the {} SKILL.md files under the opened folders; each one it leaves out is named below with the reason",
                report.skills.len(),
                // The tree: what nagents lists and what it leaves out.
                report.skills.len() + missing.len()
            ),
        );
        let first = notices
            .iter()
            .position(|each: &WorkspaceNotice| each.group != notice_group::REFUSED)
            .unwrap_or(notices.len());
        notices.insert(first, summary);
    }
    for diagnostic in &report.diagnostics {
        let (path, message) = split_diagnostic(diagnostic);
        if path.is_some_and(|path| missing.contains(path)) {
            // Said above, for that skill.
            continue;
        }
        notices.push(notice(
            Severity::Warning,
            notice_group::DISCOVERY,
            path.map(str::to_string),
            message.to_string(),
        ));
    }
    for duplicate in &report.duplicates {
        notices.push(notice(
            Severity::Warning,
            notice_group::DUPLICATE,
            Some(duplicate.location.clone()),
            format!(
                "“{}” is already the name of an earlier skill; nagents refuses a catalog with a name used twice",
                duplicate.name
            ),
        ));
    }
    for hidden in &report.shadowed {
        notices.push(WorkspaceNotice {
            client: None,
            ..notice(
                Severity::Info,
                notice_group::SHADOWED,
                Some(hidden.location.clone()),
                format!(
                    "builtin skill “{}” is hidden by a workspace skill of the same name",
                    hidden.name
                ),
            )
        });
    }
    notices
}

/// `message` without a leading `path: ` (nagents' messages start with the location they are about).
fn without_path<'a>(message: &'a str, path: &str) -> &'a str {
    let mut rest = message;
    while let Some(stripped) = rest
        .strip_prefix(path)
        .and_then(|after| after.strip_prefix(": "))
    {
        rest = stripped;
    }
    rest
}

/// A nagents diagnostic (`"{path}: {error}"`, where the error may name the path again) as the path
/// and the message said once.
fn split_diagnostic(diagnostic: &str) -> (Option<&str>, &str) {
    const SKILL_FILE: &str = "SKILL.md: ";
    let cut = diagnostic
        .find(SKILL_FILE)
        .map(|at| at + SKILL_FILE.len() - 2)
        .or_else(|| {
            diagnostic
                .starts_with('/')
                .then(|| diagnostic.find(": "))
                .flatten()
        });
    match cut {
        Some(cut) => {
            let path = &diagnostic[..cut];
            (Some(path), without_path(&diagnostic[cut + 2..], path))
        }
        None => (None, diagnostic),
    }
}

/// One opened folder: a top-level group of the tree.
#[derive(Debug, Clone, Serialize)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
pub struct RootView {
    /// The folder, absolute.
    pub path: String,
    /// Its name.
    pub label: String,
}

/// The open workspace: its source, the guarded file access to its roots, the lint snapshot of its
/// SKILL.md files and, once read, every client's view of it. Every command of the app and the CLI
/// works through one of these, so "builtin or folders?" is decided here only.
#[derive(Debug)]
pub struct Workspace {
    source: Source,
    roots: crate::fs::Roots,
    /// The SKILL.md files as last read, linted with unsaved buffers swapped in; read when first needed.
    lint: std::sync::OnceLock<Result<std::sync::Arc<crate::editor::LintSession>, String>>,
    /// Read on the first preview and dropped when the files change.
    catalog: std::sync::Mutex<Option<std::sync::Arc<crate::catalog::session::CatalogSession>>>,
}

impl Default for Workspace {
    fn default() -> Self {
        Workspace::builtin()
    }
}

impl Workspace {
    /// The builtin skills, read-only.
    pub fn builtin() -> Workspace {
        Workspace {
            source: Source::Builtin,
            roots: crate::fs::Roots::default(),
            lint: std::sync::OnceLock::from(Ok(Default::default())),
            catalog: Default::default(),
        }
    }

    /// The folders `paths`, each checked to be a readable folder; nothing is read from them yet.
    pub fn folders(paths: &[PathBuf]) -> Result<Workspace, WorkspaceError> {
        let roots = paths
            .iter()
            .map(|root| check_root(root))
            .collect::<Result<Vec<_>, _>>()?;
        Ok(Workspace {
            roots: crate::fs::Roots::new(roots.clone()),
            source: Source::Folders(roots),
            lint: std::sync::OnceLock::new(),
            catalog: Default::default(),
        })
    }

    /// Opens `source` as the app shows it: checks every root, reads the lint snapshot, and returns what
    /// discovery found.
    pub fn open(source: Source) -> Result<(Workspace, CatalogReport), WorkspaceError> {
        let workspace = match source {
            Source::Builtin => return Ok((Workspace::builtin(), scan_builtin())),
            Source::Folders(paths) => Workspace::folders(&paths)?,
        };
        let report = scan(workspace.roots.as_slice())?;
        workspace.lint_session()?;
        Ok((workspace, report))
    }

    /// The same source read again (after its files changed).
    pub fn reopen(&self) -> Result<(Workspace, CatalogReport), WorkspaceError> {
        Workspace::open(self.source.clone())
    }

    pub fn source(&self) -> &Source {
        &self.source
    }

    pub fn is_builtin(&self) -> bool {
        self.source == Source::Builtin
    }

    /// The open roots (none for the builtin skills).
    pub fn roots(&self) -> &crate::fs::Roots {
        &self.roots
    }

    /// The source after adding the folder `path` to this one (the builtin skills give way): refused when
    /// it lies inside an open root or contains one, since its skills would then be found twice.
    pub fn with_root(&self, path: &Path) -> Result<Source, WorkspaceError> {
        let root = check_root(path)?;
        let open = self.roots.as_slice();
        if open.contains(&root) {
            return Ok(Source::Folders(open.to_vec()));
        }
        if let Some(outer) = open.iter().find(|other| root.starts_with(other)) {
            return Err(WorkspaceError::Overlaps {
                reason: format!("already open as part of {}", outer.display()),
                path: root,
            });
        }
        if let Some(inner) = open.iter().find(|other| other.starts_with(&root)) {
            return Err(WorkspaceError::Overlaps {
                reason: format!(
                    "contains the open folder {}; close it first, then open this one",
                    inner.display()
                ),
                path: root,
            });
        }
        let mut roots = open.to_vec();
        roots.push(root);
        Ok(Source::Folders(roots))
    }

    /// The source after closing the folder `path`; closing the last one shows the builtin skills.
    pub fn without_root(&self, path: &Path) -> Result<Source, WorkspaceError> {
        let open = self.roots.as_slice();
        if !open.iter().any(|other| other == path) {
            return Err(WorkspaceError::NotOpen(path.to_path_buf()));
        }
        Ok(Source::from_paths(
            open.iter()
                .filter(|other| *other != path)
                .cloned()
                .collect(),
        ))
    }

    /// What the UI shows for this workspace with `report`.
    pub fn view(&self, report: CatalogReport) -> WorkspaceView {
        let roots: Vec<RootView> = self
            .roots
            .as_slice()
            .iter()
            .map(|root| RootView {
                path: root.display().to_string(),
                label: root_label(root),
            })
            .collect();
        let label = if self.is_builtin() {
            "Builtin skills".to_string()
        } else {
            roots
                .iter()
                .map(|root| root.label.as_str())
                .collect::<Vec<_>>()
                .join(", ")
        };
        let files = match (&self.source, self.lint.get()) {
            (Source::Folders(_), Some(Ok(session))) => session.files(),
            _ => &[],
        };
        WorkspaceView {
            root: roots.first().map(|root| root.path.clone()),
            roots,
            label,
            read_only: self.is_builtin(),
            skills: tree_skills(files, &report),
            notices: workspace_notices(files, &report),
            report,
        }
    }

    /// A text file of the workspace exactly as it is (an embedded one for a builtin location).
    pub fn read_file(&self, path: &str) -> Result<crate::fs::TextFile, WorkspaceError> {
        if path.starts_with(crate::builtin::LOCATION_PREFIX) {
            let text = crate::builtin::file_text(path)
                .ok_or_else(|| crate::fs::FileError::NotFound(PathBuf::from(path)))?;
            return Ok(crate::fs::TextFile {
                text: text.to_string(),
                fingerprint: crate::fs::Fingerprint::of(text.as_bytes()),
            });
        }
        Ok(self.roots.read_text(Path::new(path))?)
    }

    /// Saves a file of the workspace atomically; `guard` says what it may replace.
    pub fn save_file(
        &self,
        path: &str,
        text: &str,
        guard: &crate::fs::SaveGuard,
    ) -> Result<crate::fs::Fingerprint, WorkspaceError> {
        if path.starts_with(crate::builtin::LOCATION_PREFIX) {
            return Err(WorkspaceError::ReadOnly(path.to_string()));
        }
        let saved = self.roots.write_text(Path::new(path), text, guard)?;
        // The catalog previews read saved files from their snapshot; it is stale now.
        self.forget_catalog();
        Ok(saved)
    }

    /// Renders the body of the SKILL.md at `path` (given as the editor's current text); links are
    /// checked against the skill's folder, embedded or on disk.
    pub fn render_preview(
        &self,
        path: &str,
        text: &str,
    ) -> Result<crate::preview::Preview, WorkspaceError> {
        if let Some(folder) = path
            .strip_prefix(crate::builtin::LOCATION_PREFIX)
            .map(|relative| relative.strip_suffix("SKILL.md").unwrap_or(relative))
        {
            return Ok(crate::preview::render(text, &EmbeddedFolder(folder)));
        }
        let path = Path::new(path);
        if !self.roots.contains(path) {
            return Err(crate::fs::FileError::OutsideRoots(path.to_path_buf()).into());
        }
        let folder = path.parent().unwrap_or(path);
        Ok(crate::preview::render(
            text,
            &crate::preview::SkillFolder(folder),
        ))
    }

    /// The lint snapshot, for the editor's buffers: every SKILL.md and the `skillforge.toml`, read once.
    pub fn lint_session(
        &self,
    ) -> Result<std::sync::Arc<crate::editor::LintSession>, WorkspaceError> {
        self.lint
            .get_or_init(|| {
                crate::editor::LintSession::open(self.roots.as_slice())
                    .map(std::sync::Arc::new)
                    .map_err(|error| error.to_string())
            })
            .clone()
            .map_err(WorkspaceError::Lint)
    }

    /// Every SKILL.md of the workspace linted, for the tree's badges and the problems list.
    pub fn lint_all(
        &self,
        profiles: &[crate::lint::ProfileId],
    ) -> Result<crate::editor::WorkspaceLint, WorkspaceError> {
        Ok(match self.source {
            Source::Builtin => lint_builtin(profiles),
            Source::Folders(_) => self
                .lint_session()?
                .lint_workspace(&std::collections::HashMap::new(), profiles),
        })
    }

    /// Every client's view of the workspace, read once until the files change.
    pub fn catalog(&self) -> std::sync::Arc<crate::catalog::session::CatalogSession> {
        use crate::catalog::session::CatalogSession;
        if let Some(catalog) = self.catalog.lock().ok().and_then(|cached| cached.clone()) {
            return catalog;
        }
        let catalog = std::sync::Arc::new(match self.source {
            Source::Builtin => CatalogSession::builtin(),
            Source::Folders(ref roots) => CatalogSession::open(roots),
        });
        if let Ok(mut cached) = self.catalog.lock() {
            *cached = Some(catalog.clone());
        }
        catalog
    }

    /// Drops the catalog snapshot (the files changed).
    pub fn forget_catalog(&self) {
        if let Ok(mut cached) = self.catalog.lock() {
            *cached = None;
        }
    }

    /// Scaffolds a new skill in the folder `parent` of the workspace.
    pub fn create_skill(
        &self,
        parent: &Path,
        name: &str,
        options: crate::scaffold::ScaffoldOptions,
    ) -> Result<PathBuf, WorkspaceError> {
        Ok(crate::scaffold::create_skill(
            &self.roots,
            parent,
            name,
            options,
        )?)
    }

    /// The model script at `path`, a file of the workspace.
    pub fn script(
        &self,
        path: &Path,
    ) -> Result<Vec<crate::agent::script::ScriptStep>, WorkspaceError> {
        let file = self.roots.read_text(path)?;
        crate::agent::script::parse_script(&file.text)
            .map_err(|error| WorkspaceError::Script(error.to_string()))
    }

    /// Saves trigger queries beside the skill at `skill_path` as `evals/evals.json`.
    pub fn save_trigger_queries(
        &self,
        skill_path: &Path,
        queries: &[crate::agent::triggers::EvalQuery],
        guard: &crate::fs::SaveGuard,
    ) -> Result<crate::agent::evals::SavedEvals, WorkspaceError> {
        Ok(crate::agent::evals::save_trigger_evals(
            &self.roots,
            skill_path,
            queries,
            guard,
        )?)
    }

    /// An export of the workspace's skills: only folders can be exported.
    pub fn export_roots(&self) -> Result<Vec<PathBuf>, WorkspaceError> {
        match &self.source {
            Source::Builtin => Err(WorkspaceError::ReadOnly("export".to_string())),
            Source::Folders(roots) => Ok(roots.clone()),
        }
    }
}

/// A short name for a root: its folder name, or the whole path for `/`.
pub fn root_label(root: &Path) -> String {
    root.file_name().map_or_else(
        || root.display().to_string(),
        |name| name.to_string_lossy().into_owned(),
    )
}

/// Bundled files of a builtin skill, looked up in the embedded copy.
struct EmbeddedFolder<'a>(&'a str);

impl crate::preview::BundledFiles for EmbeddedFolder<'_> {
    fn exists(&self, relative: &Path) -> bool {
        crate::builtin::is_embedded(&format!("{}{}", self.0, relative.display()))
    }
}

/// The builtin skills linted one by one, as the editor lints them when one is opened.
fn lint_builtin(profiles: &[crate::lint::ProfileId]) -> crate::editor::WorkspaceLint {
    use crate::lint::Severity;
    let session = crate::editor::LintSession::default();
    let files = scan_builtin()
        .skills
        .into_iter()
        .filter_map(|skill| {
            let text = crate::builtin::file_text(&skill.location)?;
            // Linked files are looked up among the embedded ones.
            let lint = session.lint_buffer(Path::new(&skill.location), text, profiles);
            let count = |severity| {
                lint.diagnostics
                    .iter()
                    .filter(|diagnostic| diagnostic.severity == severity)
                    .count() as u32
            };
            Some(crate::editor::FileLint {
                path: skill.location,
                errors: count(Severity::Error),
                warnings: count(Severity::Warning),
                infos: count(Severity::Info),
                diagnostics: lint.diagnostics,
                verdicts: lint.verdicts,
            })
        })
        .collect();
    crate::editor::WorkspaceLint { files }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn write(path: &Path, text: &str) {
        if let Some(parent) = path.parent() {
            std::fs::create_dir_all(parent).ok();
        }
        std::fs::write(path, text).ok();
    }

    #[test]
    fn report_keeps_everything_and_names_the_duplicate() {
        let Ok(temp) = tempfile::tempdir() else {
            return;
        };
        write(
            &temp.path().join("a/SKILL.md"),
            "---\nname: same\n---\nfirst",
        );
        write(
            &temp.path().join("b/SKILL.md"),
            "---\nname: same\n---\nsecond",
        );
        write(&temp.path().join("c/SKILL.md"), "no frontmatter");
        let report = scan(&[temp.path().to_path_buf()]).map_err(|e| e.to_string());
        let Ok(report) = report else {
            panic!("{report:?}")
        };
        assert_eq!(report.skills.len(), 3);
        assert_eq!(report.duplicates.len(), 1);
        let location = temp.path().join("b/SKILL.md").display().to_string();
        assert_eq!(
            report.error,
            Some(format!("Duplicate skill name 'same' at {location}"))
        );
    }

    #[test]
    fn a_root_that_is_no_folder_says_what_it_is() {
        let temp = tempfile::tempdir().expect("temporary directory");
        let fifo = temp.path().join("fifo");
        rustix::fs::mknodat(
            rustix::fs::CWD,
            &fifo,
            rustix::fs::FileType::Fifo,
            rustix::fs::Mode::from_raw_mode(0o600),
            0,
        )
        .expect("mkfifo");
        let file = temp.path().join("file");
        write(&file, "text");
        let message = |path: &Path| check_root(path).expect_err("not a folder").to_string();
        assert!(
            message(&fifo).ends_with(
                "is a FIFO (named pipe), not a folder; open the folder that contains your skills"
            ),
            "{}",
            message(&fifo)
        );
        assert!(
            message(&file).contains("is a file, not a folder"),
            "{}",
            message(&file)
        );
        assert!(message(Path::new("/dev/null")).contains("is a character device, not a folder"));
    }

    #[test]
    fn missing_root_is_a_clear_error() {
        let error =
            scan(&[PathBuf::from("/nonexistent/skillforge/root")]).map_err(|e| e.to_string());
        assert!(matches!(error, Err(message) if message.contains("no such folder")));
    }

    fn write_skill(root: &Path, folder: &str, name: &str) {
        write(
            &root.join(folder).join("SKILL.md"),
            &format!(
                "---\nname: {name}\ndescription: Checks {name}. Use when checking.\n---\n# {name}\n"
            ),
        );
    }

    fn folders(roots: &[&Path]) -> Source {
        Source::Folders(roots.iter().map(|root| root.to_path_buf()).collect())
    }

    #[test]
    fn several_roots_are_scanned_and_linted_together() {
        let first = tempfile::tempdir().expect("temporary directory");
        let second = tempfile::tempdir().expect("temporary directory");
        write_skill(first.path(), "alpha", "alpha");
        write_skill(first.path(), "same", "same");
        write_skill(second.path(), "beta", "beta");
        write_skill(second.path(), "same", "same");
        let (workspace, report) =
            Workspace::open(folders(&[first.path(), second.path()])).expect("open");
        let names: Vec<&str> = report
            .skills
            .iter()
            .map(|skill| skill.name.as_str())
            .collect();
        assert_eq!(names, ["alpha", "beta", "same", "same"]);
        // nagents reads the roots in order: the second root's `same` is the duplicate that fails it.
        assert_eq!(report.duplicates.len(), 1);
        assert!(report.duplicates[0]
            .location
            .starts_with(&second.path().display().to_string()));
        assert!(report.error.is_some());
        let linted = workspace
            .lint_all(&[crate::lint::ProfileId::Nagents])
            .expect("lint");
        assert_eq!(linted.files.len(), 4);
        let flagged: Vec<&str> = linted
            .files
            .iter()
            .filter(|file| {
                file.diagnostics
                    .iter()
                    .any(|diagnostic| diagnostic.rule == "duplicate-skill-name")
            })
            .map(|file| file.path.as_str())
            .collect();
        assert!(!flagged.is_empty(), "{linted:?}");
        assert!(flagged.iter().all(|path| path.ends_with("same/SKILL.md")));
        let view = workspace.view(report);
        assert_eq!(view.roots.len(), 2);
        assert_eq!(view.root.as_deref(), Some(view.roots[0].path.as_str()));
        assert!(!view.read_only);
    }

    #[test]
    fn the_tree_lists_every_skill_file_and_says_why_nagents_leaves_some_out() {
        let temp = tempfile::tempdir().expect("temporary directory");
        write_skill(temp.path(), "plain", "plain");
        write(
            &temp.path().join("block/SKILL.md"),
            "---\nname: block\ndescription: |-\n  Folds a block.\n  Use when folding.\n---\n# Block\n",
        );
        // More entries than nagents' walk reads (10,000) before the last skill's folder.
        let padding = temp.path().join("x-padding");
        std::fs::create_dir_all(&padding).expect("mkdir");
        for index in 0..10_000 {
            std::fs::write(padding.join(format!("{index}.txt")), "").expect("pad");
        }
        let deep = PathBuf::from("zz");
        write_skill(temp.path(), "zz/deep", "deep");
        let (workspace, report) = Workspace::open(folders(&[temp.path()])).expect("open");
        let nagents: Vec<&str> = report.skills.iter().map(|s| s.name.as_str()).collect();
        assert_eq!(nagents, ["plain"]);
        let view = workspace.view(report);
        let mut names: Vec<&str> = view.skills.iter().map(|s| s.name.as_str()).collect();
        names.sort_unstable();
        assert_eq!(names, ["block", "deep", "plain"]);
        let block = view
            .skills
            .iter()
            .find(|s| s.name == "block")
            .expect("block");
        assert_eq!(block.description, "Folds a block.\nUse when folding.");
        let location = |folder: &Path| {
            temp.path()
                .join(folder)
                .join("SKILL.md")
                .display()
                .to_string()
        };
        let unreadable: Vec<(&str, &str)> = view
            .notices
            .iter()
            .filter(|notice| notice.group == notice_group::UNREADABLE)
            .map(|notice| {
                (
                    notice.path.as_deref().unwrap_or(""),
                    notice.message.as_str(),
                )
            })
            .collect();
        assert_eq!(
            unreadable,
            [(
                location(Path::new("block")).as_str(),
                "use one single-line description value"
            )]
        );
        let beyond: Vec<&str> = view
            .notices
            .iter()
            .filter(|notice| notice.group == notice_group::BEYOND_LIMITS)
            .filter_map(|notice| notice.path.as_deref())
            .collect();
        assert_eq!(beyond, [location(&deep.join("deep")).as_str()]);
        let fewer: Vec<&str> = view
            .notices
            .iter()
            .filter(|notice| notice.group == notice_group::FEWER)
            .map(|notice| notice.message.as_str())
            .collect();
        assert_eq!(fewer.len(), 1);
        assert!(
            fewer[0].starts_with("nagents lists 1 of the 3 SKILL.md files"),
            "{fewer:?}"
        );
        // Each message names its path once: in `path`, never again in the text.
        for notice in &view.notices {
            if let Some(path) = &notice.path {
                assert!(!notice.message.contains(path.as_str()), "{notice:?}");
            }
            assert_eq!(notice.client.as_deref(), Some("nagents"));
        }
    }

    #[test]
    fn the_tree_keeps_a_skill_nagents_lists_in_a_folder_lint_passes_over() {
        let temp = tempfile::tempdir().expect("temporary directory");
        write_skill(temp.path(), "mine", "mine");
        write_skill(temp.path(), "node_modules/vendored", "vendored");
        let (workspace, report) = Workspace::open(folders(&[temp.path()])).expect("open");
        let linted = workspace.lint_session().expect("lint session");
        assert_eq!(linted.files().len(), 1, "lint passes over node_modules");
        assert_eq!(report.skills.len(), 2, "nagents reads it");
        let view = workspace.view(report);
        let mut names: Vec<&str> = view.skills.iter().map(|s| s.name.as_str()).collect();
        names.sort_unstable();
        assert_eq!(names, ["mine", "vendored"]);
        assert!(view.notices.is_empty(), "{:?}", view.notices);
    }

    #[test]
    fn a_diagnostic_that_repeats_its_path_says_it_once() {
        let path = "/w/a/SKILL.md";
        let doubled = format!("{path}: {path}: use one single-line description value");
        assert_eq!(
            split_diagnostic(&doubled),
            (Some(path), "use one single-line description value")
        );
        assert_eq!(
            split_diagnostic("/w/big: discovery entry limit reached; increase max_entries"),
            (
                Some("/w/big"),
                "discovery entry limit reached; increase max_entries"
            )
        );
        assert_eq!(split_diagnostic("no path here"), (None, "no path here"));
    }

    #[test]
    fn the_builtin_workspace_reads_the_embedded_skills_and_writes_nothing() {
        let (workspace, report) = Workspace::open(Source::Builtin).expect("builtin");
        let catalog = workspace.catalog();
        assert!(catalog.is_builtin());
        let preview = catalog.preview(
            crate::clients::listing::CatalogDialect::Nagents,
            &crate::clients::listing::CatalogLimits::default(),
            &[],
        );
        let names: Vec<&str> = preview.entries.iter().map(|e| e.name.as_str()).collect();
        let listed: Vec<&str> = report.skills.iter().map(|s| s.name.as_str()).collect();
        assert_eq!(names, listed);
        assert!(preview.text.contains(crate::builtin::LOCATION_PREFIX));
        let location = &report.skills[0].location;
        let file = workspace.read_file(location).expect("embedded file");
        assert!(file.text.starts_with("---"));
        let saved = workspace.save_file(location, "x", &crate::fs::SaveGuard::Overwrite);
        assert!(
            matches!(saved, Err(WorkspaceError::ReadOnly(_))),
            "{saved:?}"
        );
        let count = listed.len();
        assert!(workspace.view(report.clone()).read_only);
        // Linted one by one for the tree's badges; links to embedded files are not reported missing.
        let linted = workspace
            .lint_all(&crate::lint::ProfileId::ALL)
            .expect("lint");
        assert_eq!(linted.files.len(), count);
        assert!(linted.files.iter().all(|file| {
            file.path.starts_with(crate::builtin::LOCATION_PREFIX) && !file.verdicts.is_empty()
        }));
        assert!(
            linted.files.iter().all(|file| file
                .diagnostics
                .iter()
                .all(|diagnostic| diagnostic.rule != "link-target-missing")),
            "{linted:?}"
        );
    }

    #[test]
    fn adding_a_root_keeps_order_and_refuses_overlaps() {
        let temp = tempfile::tempdir().expect("temporary directory");
        for folder in ["a/nested", "b", "c", "ab"] {
            std::fs::create_dir_all(temp.path().join(folder)).expect("mkdir");
        }
        let path = |name: &str| temp.path().join(name);
        let (workspace, _) = Workspace::open(folders(&[&path("a"), &path("b")])).expect("open");
        assert_eq!(
            workspace.with_root(&path("c")).expect("added"),
            Source::Folders(vec![path("a"), path("b"), path("c")])
        );
        assert_eq!(
            workspace.with_root(&path("b")).expect("same"),
            Source::Folders(vec![path("a"), path("b")])
        );
        let inside = workspace.with_root(&path("a/nested")).expect_err("nested");
        assert!(
            inside.to_string().contains("already open as part of"),
            "{inside}"
        );
        assert_eq!(
            crate::error::Coded::code(&inside),
            crate::error::ErrorCode::InvalidInput
        );
        assert!(
            workspace.with_root(temp.path()).is_err(),
            "contains an open root"
        );
        // A sibling whose name merely starts like an open root is not inside it.
        assert!(workspace.with_root(&path("ab")).is_ok());
        // The builtin skills give way to the first folder.
        assert_eq!(
            Workspace::builtin().with_root(&path("c")).expect("first"),
            Source::Folders(vec![path("c")])
        );
    }

    #[test]
    fn closing_the_last_root_shows_the_builtin_skills() {
        let first = tempfile::tempdir().expect("temporary directory");
        let second = tempfile::tempdir().expect("temporary directory");
        let (workspace, _) =
            Workspace::open(folders(&[first.path(), second.path()])).expect("open");
        assert_eq!(
            workspace.without_root(first.path()).expect("closed"),
            folders(&[second.path()])
        );
        let not_open = workspace
            .without_root(Path::new("/nowhere"))
            .expect_err("not open");
        assert!(matches!(not_open, WorkspaceError::NotOpen(_)));
        let (alone, _) = Workspace::open(folders(&[first.path()])).expect("open");
        assert_eq!(
            alone.without_root(first.path()).expect("closed"),
            Source::Builtin
        );
    }
}
