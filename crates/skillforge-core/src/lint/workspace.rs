//! Running the rules: over one file (the editor's buffer) or over the skills found under some paths.

use std::collections::{BTreeMap, HashMap};
use std::ffi::OsString;
use std::os::fd::OwnedFd;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicUsize, Ordering as AtomicOrdering};
use std::sync::Arc;

use serde::{Deserialize, Serialize};

use super::config::Config;
use super::context::{FileProbe, Origin, RealFiles, SkillContext, SkillFile};
use super::listing::Listing;
use super::registry::CODES;
use super::search::{Ignores, Search};
use super::verdict::{self, Verdict};
use super::{Applicability, Diagnostic, Finding, Fix, ProfileId, Severity, TextEdit};
use crate::clients::tenxgraph::LoadedSkill;
use crate::text::TextRange;

/// Folders deeper than this below a linted path are not searched for skills.
pub const MAX_DEPTH: usize = 12;

/// Everything a run needs besides the files.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LintOptions {
    pub profiles: Vec<ProfileId>,
    pub config: Config,
}

impl Default for LintOptions {
    fn default() -> Self {
        Self {
            profiles: ProfileId::ALL.to_vec(),
            config: Config::default(),
        }
    }
}

/// The findings and verdicts for one SKILL.md.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
pub struct FileReport {
    pub path: String,
    pub diagnostics: Vec<Diagnostic>,
    pub verdicts: Vec<Verdict>,
}

/// Why a path could not be linted.
#[derive(Debug, thiserror::Error)]
pub enum CollectError {
    #[error("{path}: {source}")]
    Io {
        path: String,
        #[source]
        source: std::io::Error,
    },
    #[error("{path}: no SKILL.md found{hint}")]
    NoSkills {
        path: String,
        /// What the search passed over that might hold skills ("" when nothing), with the option that
        /// searches it.
        hint: String,
    },
    #[error("{path}: no SKILL.md found inside; {note}")]
    OnlyLinksOut { path: String, note: String },
    #[error("{path}: no SKILL.md found within {MAX_DEPTH} folders of it; {deep} is deeper and was not searched")]
    TooDeep { path: String, deep: String },
    #[error("{path}: is {what}, not a SKILL.md or a folder of skills")]
    NotLintable { path: String, what: &'static str },
}

/// Lints one file. Rules run when a selected profile uses them and the configuration leaves them on.
///
/// A fix is offered only when applying it alone leaves a frontmatter that still parses (if it did) and
/// adds no finding ([`super::fix::withhold_harmful`]): a quick fix never creates the next error.
pub fn lint_file(file: &SkillFile, options: &LintOptions, files: &dyn FileProbe) -> FileReport {
    let mut report = lint_unchecked(file, options, files);
    super::fix::withhold_harmful(file, options, files, &mut report);
    report
}

/// [`lint_file`] with every fix the rules propose, checked or not.
pub(crate) fn lint_unchecked(
    file: &SkillFile,
    options: &LintOptions,
    files: &dyn FileProbe,
) -> FileReport {
    let context = SkillContext::new(file, &options.profiles, files);
    let mut diagnostics = Vec::new();
    // Diagnostics that rest on the repaired frontmatter (see `clients::tenxgraph::repair`), by index.
    let mut from_repaired = Vec::new();
    for (code, rule) in CODES {
        let setting = options.config.rule_setting(code, rule.name);
        if setting == Some(None) {
            continue;
        }
        if !rule
            .profiles
            .iter()
            .any(|profile| options.profiles.contains(profile))
        {
            continue;
        }
        let mut findings: Vec<Finding> = Vec::new();
        (rule.check)(&context, &mut findings);
        let read_repaired = context.take_read_repaired();
        for mut finding in findings {
            let allowed = finding.only_profiles.as_deref().unwrap_or(rule.profiles);
            let profiles: Vec<ProfileId> = options
                .profiles
                .iter()
                .copied()
                .filter(|profile| allowed.contains(profile) && rule.profiles.contains(profile))
                .collect();
            if profiles.is_empty() {
                continue;
            }
            // Each profile's severity; profiles that differ get a diagnostic each, so a client's
            // verdict and the exit code rest on that client's severity alone.
            let severity_for = |profile: &ProfileId| match (setting, finding.severity) {
                (Some(Some(severity)), _) | (_, Some(severity)) => severity,
                _ => profile.profile().severity_of(rule.name, rule.severity),
            };
            let mut groups: Vec<(Severity, Vec<ProfileId>)> = Vec::new();
            for profile in profiles {
                let severity = severity_for(&profile);
                match groups.iter_mut().find(|(kept, _)| *kept == severity) {
                    Some((_, members)) => members.push(profile),
                    None => groups.push((severity, vec![profile])),
                }
            }
            // The most severe first, as readers scan for errors.
            groups.sort_by_key(|(severity, _)| std::cmp::Reverse(*severity));
            let span = context.lines().span(context.source, finding.range);
            let count = groups.len();
            for (index, (severity, profiles)) in groups.into_iter().enumerate() {
                from_repaired.push(read_repaired);
                let last = index + 1 == count;
                diagnostics.push(Diagnostic {
                    code: (*code).to_string(),
                    rule: rule.name.to_string(),
                    severity,
                    message: if last {
                        std::mem::take(&mut finding.message)
                    } else {
                        finding.message.clone()
                    },
                    range: finding.range,
                    span,
                    profiles,
                    // One fix for the one finding, on its first diagnostic: applied and counted once.
                    fix: if index == 0 { finding.fix.take() } else { None },
                });
            }
        }
    }
    // The repaired parse exists only for the author's benefit: no client that refuses the YAML ever sees
    // it, so its findings leave every verdict as it was.
    let verdicts = if from_repaired.contains(&true) {
        let as_clients_read: Vec<Diagnostic> = diagnostics
            .iter()
            .zip(&from_repaired)
            .filter(|(_, repaired)| !**repaired)
            .map(|(diagnostic, _)| diagnostic.clone())
            .collect();
        verdict::verdicts(&context, &as_clients_read)
    } else {
        verdict::verdicts(&context, &diagnostics)
    };
    let mut diagnostics = apply_suppressions(&context, diagnostics, options);
    diagnostics.sort_by(|left, right| {
        (left.range.start, left.range.end, &left.code).cmp(&(
            right.range.start,
            right.range.end,
            &right.code,
        ))
    });
    FileReport {
        path: file.display_path.clone(),
        diagnostics,
        verdicts,
    }
}

/// One `# skillforge: ignore[…]` comment.
#[derive(Debug, Clone)]
struct Suppression {
    codes: Vec<(String, TextRange)>,
    /// The whole comment line, for removing it when none of its codes is used.
    line: TextRange,
    comment_only_line: bool,
}

const MARKER: &str = "# skillforge: ignore[";

fn suppressions(context: &SkillContext<'_>) -> Vec<Suppression> {
    let Ok(layout) = &context.layout else {
        return Vec::new();
    };
    // One search over the block instead of one per line: almost no file has an ignore comment.
    if !layout.yaml.slice(context.source).contains(MARKER) {
        return Vec::new();
    }
    let first = context.lines().line_of(layout.yaml.start());
    let last = context.lines().line_of(layout.close.start());
    let mut found = Vec::new();
    for line in first..last {
        let range = context.lines().line_range(context.source, line);
        let text = range.slice(context.source);
        let Some(at) = text.find(MARKER) else {
            continue;
        };
        let list_start = at + MARKER.len();
        let Some(close) = text[list_start..].find(']') else {
            continue;
        };
        let mut codes = Vec::new();
        let mut offset = list_start;
        for part in text[list_start..list_start + close].split(',') {
            let trimmed = part.trim();
            let lead = part.len() - part.trim_start().len();
            let start = range.start() + offset + lead;
            if !trimmed.is_empty() {
                codes.push((
                    trimmed.to_string(),
                    TextRange::new(start, start + trimmed.len()),
                ));
            }
            offset += part.len() + 1;
        }
        let full_line = TextRange::new(
            range.start(),
            context
                .lines()
                .line_start(line + 1)
                .unwrap_or(context.source.len()),
        );
        found.push(Suppression {
            codes,
            line: full_line,
            comment_only_line: text.trim_start().starts_with('#'),
        });
    }
    found
}

fn apply_suppressions(
    context: &SkillContext<'_>,
    diagnostics: Vec<Diagnostic>,
    options: &LintOptions,
) -> Vec<Diagnostic> {
    let comments = suppressions(context);
    if comments.is_empty() {
        return diagnostics;
    }
    let mut used: HashMap<String, bool> = HashMap::new();
    let mut kept = Vec::with_capacity(diagnostics.len());
    for diagnostic in diagnostics {
        let silenced = comments.iter().any(|comment| {
            comment
                .codes
                .iter()
                .any(|(code, _)| code.eq_ignore_ascii_case(&diagnostic.code))
        });
        if silenced {
            used.insert(diagnostic.code.to_ascii_uppercase(), true);
        } else {
            kept.push(diagnostic);
        }
    }
    let Some((code, rule)) = CODES
        .iter()
        .find(|(_, rule)| rule.name == "unused-ignore-comment")
    else {
        return kept;
    };
    if options.config.rule_setting(code, rule.name) == Some(None) {
        return kept;
    }
    let profiles: Vec<ProfileId> = options.profiles.clone();
    for comment in &comments {
        let unused: Vec<&(String, TextRange)> = comment
            .codes
            .iter()
            .filter(|(code, _)| !used.contains_key(&code.to_ascii_uppercase()))
            .collect();
        for (unused_code, range) in &unused {
            let known = CODES
                .iter()
                .any(|(known, _)| known.eq_ignore_ascii_case(unused_code));
            let message = if known {
                format!("`{unused_code}` is ignored here but reports nothing in this file")
            } else {
                format!("`{unused_code}` is not a Skillforge rule code")
            };
            let fix = if unused.len() == comment.codes.len() && comment.comment_only_line {
                Some(Fix {
                    title: "Remove the ignore comment".to_string(),
                    edits: vec![TextEdit {
                        range: comment.line,
                        replacement: String::new(),
                    }],
                    applicability: Applicability::Safe,
                    creates: None,
                })
            } else {
                None
            };
            kept.push(Diagnostic {
                code: (*code).to_string(),
                rule: rule.name.to_string(),
                severity: Severity::Warning,
                message,
                range: *range,
                span: context.lines().span(context.source, *range),
                profiles: profiles.clone(),
                fix,
            });
            // One fix removes the whole line; offering it once keeps the edits from overlapping.
            if unused.len() == comment.codes.len() {
                break;
            }
        }
    }
    kept
}

/// Finds the SKILL.md files under the given paths, reads them and fills in their placement facts.
///
/// A path may be a SKILL.md, a skill folder, or any folder; folders are searched recursively as
/// [`super::search`] says (client folders such as `.claude` and hidden folders that hold skills
/// searched; version control, dependency and build folders and what ignore files leave out passed
/// over). Each path is a boundary — widened to the repository
/// that holds it, if any — that nothing read leaves: a linked folder or SKILL.md is read when its target
/// lies inside, and reported, never read, when it points outside.
///
/// Files that cannot be linted (not a regular file, too large, unreadable, a link out of the boundary)
/// and folders that cannot be listed are left out; [`collect_all`] says which and why.
pub fn collect(paths: &[PathBuf], config: &Config) -> Result<Vec<SkillFile>, CollectError> {
    collect_all(paths, config).map(|collected| collected.files)
}

/// A SKILL.md (or a folder) that was found but could not be linted.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Skipped {
    pub path: String,
    pub reason: String,
}

/// The files to lint and the ones that had to be left out.
#[derive(Debug, Clone, Default)]
pub struct Collected {
    pub files: Vec<SkillFile>,
    /// Files and folders that could not be read; a run with any of them did not see everything.
    pub skipped: Vec<Skipped>,
    /// Links that leave the boundary and were not followed (they may not hold skills at all).
    pub notes: Vec<String>,
}

/// Like [`collect`], also reporting the files it could not read.
pub fn collect_all(paths: &[PathBuf], config: &Config) -> Result<Collected, CollectError> {
    collect_with(paths, config, &Search::default())
}

/// Like [`collect_all`], searching folders as `search` says ([`super::search`]).
pub fn collect_with(
    paths: &[PathBuf],
    config: &Config,
    search: &Search,
) -> Result<Collected, CollectError> {
    let mut found: Vec<Found> = Vec::new();
    let mut collected = Collected::default();
    for path in paths {
        let io = |source: std::io::Error| CollectError::Io {
            path: path.display().to_string(),
            source,
        };
        let metadata = std::fs::metadata(path).map_err(io)?;
        let before = (found.len(), collected.skipped.len());
        let notes_before = collected.notes.len();
        let mut too_deep = Vec::new();
        let mut passed_over = PassedOver::default();
        if metadata.is_file() {
            // Only a skill file is linted as one: `lint notes.txt` is a slip, not a skill.
            let name = path.file_name().unwrap_or_default();
            if !name.eq_ignore_ascii_case(SKILL_FILE_NAMES[0]) {
                return Err(CollectError::NotLintable {
                    path: path.display().to_string(),
                    what: "a file of another name",
                });
            }
            let folder = path
                .parent()
                .filter(|folder| !folder.as_os_str().is_empty())
                .unwrap_or(Path::new("."));
            let scope = Scope::new(folder).map_err(io)?;
            let descriptor = scope.open(&[]).map_err(io)?;
            let entries = crate::fs::walk::list(&descriptor).map_err(|errno| io(errno.into()))?;
            let name = path.file_name().unwrap_or_default();
            if let Some(entry) = entries.iter().find(|entry| entry.os_name() == name) {
                let lowercase_beside = entry.name_bytes() == SKILL_FILE_NAMES[0].as_bytes()
                    && skill_file_in(&entries).is_some_and(|(_, beside)| beside);
                scope.add(
                    &[],
                    entry,
                    path.clone(),
                    false,
                    lowercase_beside,
                    &descriptor,
                    &mut found,
                    &mut collected,
                );
            }
        } else if metadata.is_dir() {
            let scope = Scope::new(path).map_err(io)?;
            let descriptor = scope.open(&[]).map_err(io)?;
            let root_is_link =
                std::fs::symlink_metadata(path).is_ok_and(|m| m.file_type().is_symlink());
            let (walked, passed) = scope.walk(&descriptor, path, root_is_link, search);
            passed_over = passed;
            for item in walked.found {
                match item {
                    Walk::Found(one) => found.push(*one),
                    Walk::Skipped(skipped) => collected.skipped.push(skipped),
                    Walk::Note(note) => collected.notes.push(note),
                }
            }
            for problem in walked.problems {
                collected.skipped.push(Skipped {
                    path: problem.path.display().to_string(),
                    reason: format!(
                        "cannot be listed ({}); the skills in it were not linted",
                        std::io::Error::from(problem.errno)
                    ),
                });
            }
            too_deep = walked.too_deep;
            for skipped in scope.deeper(path, &too_deep, search) {
                collected.skipped.push(skipped);
            }
        } else {
            let kind = rustix::fs::FileType::from_raw_mode(std::os::unix::fs::MetadataExt::mode(
                &metadata,
            ));
            return Err(CollectError::NotLintable {
                path: path.display().to_string(),
                what: crate::fs::open::describe(kind),
            });
        }
        if (found.len(), collected.skipped.len()) == before {
            // The only skills here may be behind links that leave it: say so, not just "none found".
            if let Some(note) = collected.notes.get(notes_before) {
                return Err(CollectError::OnlyLinksOut {
                    path: path.display().to_string(),
                    note: note.clone(),
                });
            }
            return Err(match too_deep.first() {
                Some(deep) => CollectError::TooDeep {
                    path: path.display().to_string(),
                    deep: deep.display().to_string(),
                },
                None => CollectError::NoSkills {
                    path: path.display().to_string(),
                    hint: passed_over.hint(),
                },
            });
        }
    }
    // Matched where the file really is (below the canonical boundary), however the path was spelled:
    // through a linked folder, with `..`, or relative to another folder than the configuration's.
    found.retain(|found| !config.is_ignored(&found.location));
    collected
        .skipped
        .retain(|skipped| !config.is_ignored(Path::new(&skipped.path)));
    // Reading is independent per file: spread it over the cores, keeping discovery order.
    let read = crate::parallel::map_mut(&mut found, |found| {
        let display = found.path.display().to_string();
        match found.read() {
            Ok((read, origin)) => {
                let mut file = SkillFile::from_bytes(found.path.clone(), display, read.bytes);
                file.placement.symlinked_dir = found.via_link;
                file.placement.symlinked_file = found.symlinked_file;
                file.placement.lowercase_beside = found.lowercase_beside;
                file.origin = Some(origin);
                file.listing = found.listing.take();
                Ok(file)
            }
            Err(reason) => Err(Skipped {
                path: display,
                reason,
            }),
        }
    });
    let mut seen = std::collections::HashSet::new();
    collected.files.reserve(read.len());
    for (result, found) in read.into_iter().zip(&found) {
        match result {
            // The same place reached twice (`lint d d/x/SKILL.md`, or a root and a link to it) is linted
            // once: places are compared canonically. A linked skill or a hard link elsewhere stays: to a
            // client it is a skill of its own.
            Ok(file) => {
                if seen.insert(found.location.clone()) {
                    collected.files.push(file);
                }
            }
            Err(skip) => collected.skipped.push(skip),
        }
    }
    place(&mut collected.files);
    Ok(collected)
}

/// The skill file names looked for, in order of preference: skills-ref 0.1.1 (`find_skill_md`) accepts a
/// lowercase `skill.md` when there is no `SKILL.md`; most clients do not ([`super::rules::workspace`]).
pub const SKILL_FILE_NAMES: [&str; 2] = ["SKILL.md", "skill.md"];

/// The folders below which reads stay: a linted folder, widened to the repository that holds it.
struct Scope {
    /// The boundary, canonical.
    boundary: PathBuf,
    /// The linted folder's names below the boundary.
    below: Vec<OsString>,
    descriptor: Arc<OwnedFd>,
}

/// What the walk met.
enum Walk {
    Found(Box<Found>),
    Skipped(Skipped),
    Note(String),
}

/// A skill file the walk found, with what its folder listing says about it.
struct Found {
    path: PathBuf,
    /// Reached through a linked folder.
    via_link: bool,
    /// The file itself is a link.
    symlinked_file: bool,
    /// A lowercase `skill.md` sits beside this `SKILL.md`.
    lowercase_beside: bool,
    /// Where it is: names below the boundary, links already resolved.
    names: Vec<OsString>,
    /// Where it was found, canonical (the link itself for a linked file): what `ignore` patterns match.
    location: PathBuf,
    boundary: PathBuf,
    descriptor: Arc<OwnedFd>,
    /// The file as the walk read it from its open folder (a linked file is read later, from its target).
    read: Option<Result<(crate::fs::read::Read, Origin), String>>,
    /// What the walk saw of the skill's folder.
    listing: Option<Arc<Listing>>,
}

impl Found {
    /// Reads the file without following any link, within the SKILL.md size limit (or takes what the
    /// walk read from the open folder).
    fn read(&mut self) -> Result<(crate::fs::read::Read, Origin), String> {
        if let Some(read) = self.read.take() {
            return read;
        }
        let Some((_, parents)) = self.names.split_last() else {
            return Err("not a file".to_string());
        };
        let parent = crate::fs::open::directory_beneath(
            &*self.descriptor,
            parents.iter().map(OsString::as_os_str),
        )
        .map_err(|(errno, _)| std::io::Error::from(errno).to_string())?;
        self.read_in(&parent)
    }

    /// Reads the file from its open folder `parent`.
    fn read_in(&self, parent: &OwnedFd) -> Result<(crate::fs::read::Read, Origin), String> {
        use crate::fs::read::{self, Limit, ReadError};
        let Some(name) = self.names.last() else {
            return Err("not a file".to_string());
        };
        match read::regular_at(parent, name.as_os_str(), Limit::SKILL_FILE) {
            Ok(read) => {
                let origin = Origin {
                    boundary: self.boundary.clone(),
                    names: self.names.clone(),
                    descriptor: self.descriptor.clone(),
                    identity: read.identity,
                };
                Ok((read, origin))
            }
            Err(ReadError::NotRegular(kind)) => Err(format!(
                "is {}, not a regular file; no client reads it",
                crate::fs::open::describe(kind)
            )),
            // Links were resolved before: one here appeared since.
            Err(ReadError::Symlink) => Err("became a symbolic link while it was read".to_string()),
            Err(ReadError::TooLarge { limit }) => Err(format!(
                "larger than {} bytes; no client loads a file that large",
                limit.bytes
            )),
            Err(error) => Err(error.to_string()),
        }
    }
}

impl Scope {
    fn new(folder: &Path) -> std::io::Result<Scope> {
        let canonical = std::fs::canonicalize(folder)?;
        let boundary =
            crate::fs::roots::enclosing_repository(&canonical).unwrap_or_else(|| canonical.clone());
        let below = canonical
            .strip_prefix(&boundary)
            .unwrap_or(Path::new(""))
            .components()
            .map(|component| component.as_os_str().to_os_string())
            .collect();
        let descriptor = crate::fs::open::root_directory(&boundary)?;
        Ok(Scope {
            boundary,
            below,
            descriptor: Arc::new(descriptor),
        })
    }

    /// Opens a folder given by names below the linted folder.
    fn open(&self, relative: &[OsString]) -> std::io::Result<OwnedFd> {
        let names = self.below.iter().chain(relative).map(OsString::as_os_str);
        crate::fs::open::directory_beneath(&*self.descriptor, names)
            .map_err(|(errno, _)| errno.into())
    }

    /// Records the skill file `entry` of the folder `folder` (names below the linted folder).
    #[allow(clippy::too_many_arguments)]
    fn add(
        &self,
        folder: &[OsString],
        entry: &crate::fs::walk::Entry,
        path: PathBuf,
        via_link: bool,
        lowercase_beside: bool,
        descriptor: &OwnedFd,
        found: &mut Vec<Found>,
        collected: &mut Collected,
    ) {
        let mut out = Vec::new();
        let here: Vec<OsString> = self.below.iter().chain(folder).cloned().collect();
        let location = self.place(&here, entry.os_name());
        self.add_to(
            here,
            entry,
            location,
            path,
            via_link,
            lowercase_beside,
            descriptor,
            &mut out,
        );
        for item in out {
            match item {
                Walk::Found(one) => found.push(*one),
                Walk::Skipped(skipped) => collected.skipped.push(skipped),
                Walk::Note(note) => collected.notes.push(note),
            }
        }
    }

    /// The canonical place of `name` in the folder `here` (names below the boundary).
    fn place(&self, here: &[OsString], name: &std::ffi::OsStr) -> PathBuf {
        self.boundary
            .join(here.iter().collect::<PathBuf>())
            .join(name)
    }

    /// Records the skill file `entry` of the open folder `descriptor`, whose names below the boundary
    /// are `here`.
    #[allow(clippy::too_many_arguments)]
    fn add_to(
        &self,
        here: Vec<OsString>,
        entry: &crate::fs::walk::Entry,
        location: PathBuf,
        path: PathBuf,
        via_link: bool,
        lowercase_beside: bool,
        descriptor: &OwnedFd,
        out: &mut Vec<Walk>,
    ) {
        let symlinked_file = entry.kind == rustix::fs::FileType::Symlink;
        let names = if symlinked_file {
            match self.resolve(&here, descriptor, entry) {
                // Only a skill file is read through a link named like one: a `SKILL.md` linked to
                // `.env` would print the secret in its excerpts.
                Ok(names)
                    if !names.last().is_some_and(|name| {
                        SKILL_FILE_NAMES
                            .iter()
                            .any(|wanted| name.as_os_str() == *wanted)
                    }) =>
                {
                    out.push(Walk::Skipped(Skipped {
                        path: path.display().to_string(),
                        reason: format!(
                            "is a symbolic link to {}, which is no SKILL.md; it is not read",
                            names.iter().collect::<PathBuf>().display()
                        ),
                    }));
                    return;
                }
                Ok(names) => names,
                Err(reason) => {
                    out.push(Walk::Skipped(Skipped {
                        path: path.display().to_string(),
                        reason,
                    }));
                    return;
                }
            }
        } else {
            here.into_iter()
                .chain([entry.os_name().to_os_string()])
                .collect()
        };
        let mut found = Found {
            path,
            via_link,
            symlinked_file,
            lowercase_beside,
            names,
            location,
            boundary: self.boundary.clone(),
            descriptor: self.descriptor.clone(),
            read: None,
            listing: None,
        };
        if !symlinked_file {
            // The folder is open: reading now spares opening its way from the boundary again.
            found.read = Some(found.read_in(descriptor));
        }
        out.push(Walk::Found(Box::new(found)));
    }

    /// Where the link `entry` in the folder `here` (names below the boundary) points, if inside.
    fn resolve(
        &self,
        here: &[OsString],
        descriptor: &OwnedFd,
        entry: &crate::fs::walk::Entry,
    ) -> Result<Vec<OsString>, String> {
        let target = crate::fs::open::link_target_at(descriptor, &entry.name)
            .map_err(|errno| std::io::Error::from(errno).to_string())?;
        crate::fs::walk::resolve_beneath(
            &*self.descriptor,
            &self.boundary,
            here,
            Path::new(&target),
        )
        .map_err(|unresolved| match unresolved {
            crate::fs::walk::Unresolved::Outside => format!(
                "is a symbolic link to {}, outside {}",
                Path::new(&target).display(),
                self.boundary.display()
            ),
            crate::fs::walk::Unresolved::Io { errno, .. } => format!(
                "is a symbolic link to {}, which {}",
                Path::new(&target).display(),
                crate::fs::walk::Unresolved::why(errno)
            ),
        })
    }

    fn walk(
        &self,
        descriptor: &OwnedFd,
        root: &Path,
        root_is_link: bool,
        search: &Search,
    ) -> (crate::fs::walk::Walked<Walk>, PassedOver) {
        let limits = crate::fs::walk::Limits {
            max_depth: MAX_DEPTH,
            parallel: true,
        };
        let mut notes = Vec::new();
        let above = self.ignores_above(search, &mut notes);
        let visitor = Visit {
            scope: self,
            root,
            root_is_link,
            search,
            above,
            ignored: AtomicUsize::new(0),
            hidden: AtomicUsize::new(0),
        };
        let mut walked = crate::fs::walk::walk_with(descriptor, root, &limits, &visitor);
        walked.found.splice(0..0, notes.into_iter().map(Walk::Note));
        let passed_over = PassedOver {
            ignored: visitor.ignored.into_inner(),
            hidden: visitor.hidden.into_inner(),
        };
        (walked, passed_over)
    }

    /// The ignore files of the folders from the boundary down to the linted folder's parent, which
    /// apply below it too.
    fn ignores_above(&self, search: &Search, notes: &mut Vec<String>) -> Option<Arc<Ignores>> {
        let mut chain: Option<Arc<Ignores>> = None;
        let mut at = self.boundary.clone();
        for depth in 0..self.below.len() {
            let names = self.below[..depth].iter().map(OsString::as_os_str);
            let Ok(folder) = crate::fs::open::directory_beneath(&*self.descriptor, names) else {
                break;
            };
            let Ok(entries) = crate::fs::walk::list(&folder) else {
                break;
            };
            chain = Some(search.ignores_of(&folder, &at, &entries, chain.as_ref(), notes));
            at.push(&self.below[depth]);
        }
        chain
    }

    /// The skill file of one folder, if it has one ([`skill_file_in`]).
    fn visit_folder(
        &self,
        folder: &crate::fs::walk::Folder<'_>,
        relative: &[OsString],
        via_link: bool,
        read: &dyn Fn(&crate::fs::walk::Entry) -> bool,
        out: &mut Vec<Walk>,
    ) {
        let Some((entry, lowercase_beside)) = skill_file_in(folder.entries) else {
            return;
        };
        if !read(entry) {
            return;
        }
        let here: Vec<OsString> = self.below.iter().chain(relative).cloned().collect();
        let location = self.place(&here, entry.os_name());
        self.add_to(
            here,
            entry,
            location,
            folder.path_of(&entry.name),
            via_link,
            lowercase_beside,
            folder.descriptor,
            out,
        );
    }

    /// A link in a walked folder: a linked skill folder inside the boundary is linted (and reported as
    /// linked) but never walked further, which is how cycles start; one outside is noted, not listed.
    fn visit_link(
        &self,
        folder: &crate::fs::walk::Folder<'_>,
        relative: &[OsString],
        entry: &crate::fs::walk::Entry,
        out: &mut Vec<Walk>,
    ) {
        let here: Vec<OsString> = self.below.iter().chain(relative).cloned().collect();
        let path = folder.path_of(&entry.name);
        let link_place = self.place(&here, entry.os_name());
        let names = match self.resolve(&here, folder.descriptor, entry) {
            Ok(names) => names,
            Err(reason) => {
                // A linked file is no skill folder; only a link that could be one is worth a note.
                if !SKILL_FILE_NAMES
                    .iter()
                    .any(|name| entry.name_bytes() == name.as_bytes())
                {
                    out.push(Walk::Note(format!(
                        "{}: {reason}; not followed",
                        path.display()
                    )));
                }
                return;
            }
        };
        let Ok(linked) = crate::fs::open::directory_beneath(
            &*self.descriptor,
            names.iter().map(OsString::as_os_str),
        ) else {
            // A link to a file, to nothing, or to another link: not a skill folder to list.
            return;
        };
        let Ok(entries) = crate::fs::walk::list(&linked) else {
            return;
        };
        let linked_folder = crate::fs::walk::Folder {
            path: &path,
            depth: folder.depth + 1,
            descriptor: &linked,
            entries: &entries,
        };
        let Some((entry, lowercase_beside)) = skill_file_in(linked_folder.entries) else {
            return;
        };
        let skill_path = linked_folder.path_of(&entry.name);
        // Where the link stands, not where it leads: a linked skill is a place of its own.
        let location = link_place.join(entry.os_name());
        self.add_to(
            names,
            entry,
            location,
            skill_path,
            true,
            lowercase_beside,
            &linked,
            out,
        );
    }
}

/// The lint walk's visitor: each folder's skill file and links, the ignore files handed down.
struct Visit<'a> {
    scope: &'a Scope,
    root: &'a Path,
    root_is_link: bool,
    search: &'a Search,
    /// The ignore files of the folders above the linted one.
    above: Option<Arc<Ignores>>,
    /// Folders passed over as ignored (ignore files, dependency and build folders), and as hidden.
    ignored: AtomicUsize,
    hidden: AtomicUsize,
}

/// What a walk passed over that might hold skills, for the message when it found none.
#[derive(Debug, Default, Clone, Copy)]
struct PassedOver {
    ignored: usize,
    hidden: usize,
}

impl PassedOver {
    fn hint(self) -> String {
        let folders = |count: usize| {
            if count == 1 {
                "1 folder".to_string()
            } else {
                format!("{count} folders")
            }
        };
        let mut parts = Vec::new();
        if self.ignored > 0 {
            parts.push(format!(
                "{} left out by ignore files or as dependency or build folders (--no-ignore searches them)",
                folders(self.ignored)
            ));
        }
        if self.hidden > 0 {
            parts.push(format!(
                "{} hidden (--hidden searches them)",
                folders(self.hidden)
            ));
        }
        if parts.is_empty() {
            String::new()
        } else {
            format!("; passed over: {}", parts.join(", "))
        }
    }
}

impl Visit<'_> {
    /// The names of a walked folder below the linted one, and its place (what ignore files match).
    fn locate(&self, folder: &crate::fs::walk::Folder<'_>) -> (Vec<OsString>, PathBuf) {
        let relative: Vec<OsString> = folder
            .path
            .strip_prefix(self.root)
            .unwrap_or(Path::new(""))
            .components()
            .map(|component| component.as_os_str().to_os_string())
            .collect();
        let at = self.scope.boundary.join(
            self.scope
                .below
                .iter()
                .chain(&relative)
                .collect::<PathBuf>(),
        );
        (relative, at)
    }
}

impl crate::fs::walk::Visitor<Walk> for Visit<'_> {
    /// The folder's place, its ignore files, and the listing of the skill folder it is in (with its
    /// path below that skill folder).
    type State = (PathBuf, Arc<Ignores>, Option<(Arc<Listing>, PathBuf)>);

    fn folder(
        &self,
        folder: &crate::fs::walk::Folder<'_>,
        parent: Option<&Self::State>,
        out: &mut Vec<Walk>,
    ) -> Option<Self::State> {
        if folder.depth > 0 && self.search.is_cache(folder.descriptor, folder.entries) {
            self.ignored.fetch_add(1, AtomicOrdering::Relaxed);
            return None;
        }
        let (relative, at) = self.locate(folder);
        let mut notes = Vec::new();
        let inherited = parent
            .map(|(_, ignores, _)| ignores)
            .or(self.above.as_ref());
        let ignores = self.search.ignores_of(
            folder.descriptor,
            &at,
            folder.entries,
            inherited,
            &mut notes,
        );
        out.extend(notes.into_iter().map(Walk::Note));
        let pushed = out.len();
        self.scope.visit_folder(
            folder,
            &relative,
            folder.depth == 0 && self.root_is_link,
            &|entry| self.search.reads_file(&at, &ignores, entry),
            out,
        );
        // What this folder holds, kept for the skill it is in: a skill's own folder starts a listing,
        // its subfolders add to it.
        let tree = match out.get_mut(pushed) {
            Some(Walk::Found(found)) => {
                let listing = Arc::new(Listing::default());
                found.listing = Some(Arc::clone(&listing));
                Some((listing, PathBuf::new()))
            }
            _ => parent
                .and_then(|(_, _, tree)| tree.as_ref())
                .zip(folder.path.file_name())
                .map(|((listing, below), name)| (Arc::clone(listing), below.join(name))),
        };
        if let Some((listing, below)) = &tree {
            listing.record(below.clone(), folder.entries);
        }
        for entry in folder.entries {
            if entry.kind == rustix::fs::FileType::Symlink
                && self.search.follows_link(&at, &ignores, entry)
            {
                self.scope.visit_link(folder, &relative, entry, out);
            }
        }
        Some((at, ignores, tree))
    }

    fn enter(
        &self,
        folder: &crate::fs::walk::Folder<'_>,
        (at, ignores, _): &Self::State,
        entry: &crate::fs::walk::Entry,
    ) -> bool {
        let entered = self.search.enters(folder.descriptor, at, ignores, entry);
        if !entered {
            match self.search.why_not(at, ignores, entry) {
                Some(super::search::PassedOver::Ignored) => {
                    self.ignored.fetch_add(1, AtomicOrdering::Relaxed);
                }
                Some(super::search::PassedOver::Hidden) => {
                    self.hidden.fetch_add(1, AtomicOrdering::Relaxed);
                }
                None => {}
            }
        }
        entered
    }
}

impl Scope {
    /// The skill files below the folders where the walk stopped at [`MAX_DEPTH`] (a bounded look of
    /// [`DEEPER_FOLDERS`] folders): reported as not linted, never dropped unseen.
    fn deeper(&self, root: &Path, stopped: &[PathBuf], search: &Search) -> Vec<Skipped> {
        let budget = std::sync::atomic::AtomicUsize::new(DEEPER_FOLDERS);
        let options = crate::fs::walk::Options {
            max_depth: usize::MAX,
            // The same names passed over as in the walk (ignore files aside: this is only a look).
            skip: match (search.hidden, search.no_ignore) {
                (false, false) => |name| Search::default().passes_over(name),
                (true, false) => |name| SEARCH_HIDDEN.passes_over(name),
                (false, true) => |name| SEARCH_NO_IGNORE.passes_over(name),
                (true, true) => |name| SEARCH_ALL.passes_over(name),
            },
            parallel: false,
        };
        let mut skipped = Vec::new();
        for folder in stopped {
            let relative: Vec<OsString> = folder
                .strip_prefix(root)
                .unwrap_or(Path::new(""))
                .components()
                .map(|component| component.as_os_str().to_os_string())
                .collect();
            let Ok(descriptor) = self.open(&relative) else {
                continue;
            };
            let walked = crate::fs::walk::walk(&descriptor, folder, &options, &|below, out| {
                if below.depth > 0 {
                    if let Some(entry) = below.find(SKILL_FILE_NAMES[0].as_bytes()) {
                        out.push(Skipped {
                            path: below.path_of(&entry.name).display().to_string(),
                            reason: format!(
                                "is deeper than the limit of {MAX_DEPTH} folder levels below {}; lint a folder nearer to it",
                                root.display()
                            ),
                        });
                    }
                }
                budget
                    .fetch_update(
                        std::sync::atomic::Ordering::Relaxed,
                        std::sync::atomic::Ordering::Relaxed,
                        |left| left.checked_sub(1),
                    )
                    .is_ok()
            });
            skipped.extend(walked.found);
            // What could not be looked into may hold skill files too: named, not passed over.
            skipped.extend(walked.problems.into_iter().map(|problem| Skipped {
                path: problem.path.display().to_string(),
                reason: format!(
                    "is deeper than the limit of {MAX_DEPTH} folder levels below {}, and cannot be read: {}",
                    root.display(),
                    std::io::Error::from(problem.errno)
                ),
            }));
        }
        skipped
    }
}

const SEARCH_HIDDEN: Search = Search {
    hidden: true,
    no_ignore: false,
};
const SEARCH_NO_IGNORE: Search = Search {
    hidden: false,
    no_ignore: true,
};
const SEARCH_ALL: Search = Search {
    hidden: true,
    no_ignore: true,
};

/// How many folders below [`MAX_DEPTH`] are searched for skill files too deep to lint, so a deep tree
/// costs a bounded look.
const DEEPER_FOLDERS: usize = 1000;

/// The skill file a folder listing holds, and whether a lowercase `skill.md` sits beside a `SKILL.md`.
/// The names come from the listing, never from probing: on a case-insensitive filesystem a probe of
/// `SKILL.md` also opens `skill.md`, and the report would name a file that does not exist.
fn skill_file_in(entries: &[crate::fs::walk::Entry]) -> Option<(&crate::fs::walk::Entry, bool)> {
    let named = |wanted: &str| {
        entries
            .iter()
            .find(|entry| entry.name_bytes() == wanted.as_bytes())
    };
    let entry = SKILL_FILE_NAMES.iter().find_map(|wanted| named(wanted))?;
    let lowercase = SKILL_FILE_NAMES[1];
    let beside = entry.name_bytes() != lowercase.as_bytes() && named(lowercase).is_some();
    Some((entry, beside))
}

/// Fills in nesting and duplicate-name facts, in discovery order (which is sorted by path).
pub fn place(files: &mut [SkillFile]) {
    let dirs: Vec<PathBuf> = files.iter().map(|file| file.dir().to_path_buf()).collect();
    let skill_dirs: std::collections::HashSet<&Path> = dirs.iter().map(PathBuf::as_path).collect();
    let displays: Vec<String> = files.iter().map(|file| file.display_path.clone()).collect();
    // Each file's names read in one pass over the cores.
    let read: Vec<(Option<String>, Option<String>, Option<String>)> =
        crate::parallel::map(files, |file| {
            // A lowercase `skill.md` is invisible to every client that compares names (nagents,
            // 10xGraph, Codex look for `SKILL.md` only), so it neither has nor causes a duplicate.
            let declared = if file.is_lowercase_skill_file() {
                None
            } else {
                declared_name(file)
            };
            (
                declared,
                crate::lint::verdict::tenxgraph_name(file),
                crate::lint::verdict::nagents_name(file),
            )
        });
    let mut names = Vec::with_capacity(read.len());
    let mut tenxgraph_names = Vec::with_capacity(read.len());
    let mut nagents_names = Vec::with_capacity(read.len());
    for (declared, tenxgraph, nagents) in read {
        names.push(declared);
        tenxgraph_names.push(tenxgraph);
        nagents_names.push(nagents);
    }
    let mut by_name: BTreeMap<String, Vec<usize>> = BTreeMap::new();
    for (index, name) in names.iter().enumerate() {
        if let Some(name) = name {
            by_name.entry(name.clone()).or_default().push(index);
        }
    }
    // 10xGraph keeps the first skill it loads under each name, read by its own loader.
    let mut first_tenxgraph: BTreeMap<&str, usize> = BTreeMap::new();
    for (index, name) in tenxgraph_names.iter().enumerate() {
        if let Some(name) = name {
            first_tenxgraph.entry(name).or_insert(index);
        }
    }
    // nagents compares the names of the skills it loads, read by its own parser.
    let mut by_nagents_name: BTreeMap<&str, Vec<usize>> = BTreeMap::new();
    for (index, name) in nagents_names.iter().enumerate() {
        if let Some(name) = name {
            by_nagents_name.entry(name).or_default().push(index);
        }
    }
    for (index, file) in files.iter_mut().enumerate() {
        let dir = &dirs[index];
        // The deepest enclosing skill folder: walk up from this folder instead of comparing every
        // pair of folders, which made large workspaces quadratic.
        file.placement.nested_in = dir
            .ancestors()
            .skip(1)
            .find(|ancestor| skill_dirs.contains(ancestor))
            .map(|other| other.display().to_string());
        file.placement.first_of_its_name = true;
        if let Some(name) = &names[index] {
            let same = by_name.get(name).map(Vec::as_slice).unwrap_or(&[]);
            file.placement.first_of_its_name = same.first() == Some(&index);
            file.placement.same_name_elsewhere = same
                .iter()
                .filter(|other| **other != index)
                .filter_map(|other| displays.get(*other).cloned())
                .collect();
        }
        file.placement.tenxgraph_shadowed_by = tenxgraph_names[index]
            .as_deref()
            .and_then(|name| first_tenxgraph.get(name))
            .filter(|first| **first != index)
            .and_then(|first| displays.get(*first).cloned());
        if let Some(name) = &nagents_names[index] {
            file.placement.nagents_same_name = by_nagents_name
                .get(name.as_str())
                .map(Vec::as_slice)
                .unwrap_or(&[])
                .iter()
                .filter(|other| **other != index)
                .filter_map(|other| displays.get(*other).cloned())
                .collect();
        }
    }
}

/// A SKILL.md as the workspace tree lists it, whether or not any client can read it: the name it
/// declares (else its folder's) and its description as YAML reads it (empty when there is none).
pub fn tree_entry(file: &SkillFile) -> crate::skill::Skill {
    let name = declared_name(file).unwrap_or_else(|| file.path.display().to_string());
    let description = crate::frontmatter::yaml::layout(&file.source)
        .ok()
        .and_then(|layout| {
            let parsed = file.parse_frontmatter(layout.yaml);
            match parsed.as_ref() {
                Ok(root) => root
                    .as_ref()
                    .and_then(|root| root.get("description"))
                    .and_then(|entry| entry.value.as_scalar().map(|(text, _)| text.to_string())),
                Err(_) => crate::clients::tenxgraph::split_frontmatter(&file.source)
                    .yaml
                    .and_then(|raw| crate::clients::tenxgraph::load_yaml(raw).into_result().ok())
                    .map(|skill| skill.description),
            }
        })
        .unwrap_or_default();
    crate::skill::Skill {
        name,
        description: description.trim().to_string(),
        location: file.path.display().to_string(),
    }
}

/// The name a skill declares: the YAML `name`, else the folder name (what nagents and Codex use).
pub fn declared_name(file: &SkillFile) -> Option<String> {
    let layout = crate::frontmatter::yaml::layout(&file.source).ok()?;
    // The file keeps this parse, and its lint reuses it.
    let parsed = file.parse_frontmatter(layout.yaml);
    let name = match parsed.as_ref() {
        Ok(root) => root
            .as_ref()
            .and_then(|root| root.get("name"))
            .and_then(|entry| {
                entry
                    .value
                    .as_scalar()
                    .map(|(text, _)| text.trim().to_string())
            }),
        // A frontmatter that fails only because a value holds `: ` still names its skill for the
        // clients that repair it (10xGraph, Codex, Claude Code): read the name as 10xGraph's retry does.
        Err(_) => crate::clients::tenxgraph::split_frontmatter(&file.source)
            .yaml
            .and_then(|raw| crate::clients::tenxgraph::load_yaml(raw).into_result().ok())
            .map(|skill| skill.name.trim().to_string()),
    };
    match name {
        Some(name) if !name.is_empty() => Some(name),
        _ => Some(file.dir_name.clone()).filter(|name| !name.is_empty()),
    }
}

/// Lints every file with the real filesystem as link target probe.
pub fn lint_files(files: &[SkillFile], options: &LintOptions) -> Vec<FileReport> {
    // Files are independent once placed.
    crate::parallel::map(files, |file| lint_file(file, options, &RealFiles))
}

/// The skills 10xGraph loads from these files, given in its discovery order (skipped skills left out,
/// shadowing not yet applied): what [`crate::clients::tenxgraph::catalog`] builds its text from.
pub fn tenxgraph_loaded(files: &[SkillFile], files_probe: &dyn FileProbe) -> Vec<LoadedSkill> {
    let profiles = [ProfileId::Tenxgraph];
    // 10xGraph opens `<folder>/SKILL.md`: a lowercase `skill.md` is not in its catalog on a case-sensitive
    // filesystem, the one the fidelity tests and CI run on.
    // Each file's load is independent: spread over the cores, in the files' order.
    crate::parallel::map(files, |file| {
        if file.is_lowercase_skill_file() {
            return None;
        }
        let context = SkillContext::new(file, &profiles, files_probe);
        verdict::tenxgraph_load(&context).ok()
    })
    .into_iter()
    .flatten()
    .collect()
}
