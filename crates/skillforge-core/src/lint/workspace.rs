//! Running the rules: over one file (the editor's buffer) or over the skills found under some paths.

use std::collections::{BTreeMap, HashMap};
use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};

use super::config::Config;
use super::context::{FileProbe, RealFiles, SkillContext, SkillFile};
use super::registry::CODES;
use super::verdict::{self, Verdict};
use super::{Applicability, Diagnostic, Finding, Fix, ProfileId, Severity, TextEdit};
use crate::text::TextRange;

/// Larger files are not linted: every client refuses them (nagents stops at 4,000,000 bytes).
pub const MAX_FILE_BYTES: u64 = 8 * 1024 * 1024;
/// Folders deeper than this below a linted path are not searched for skills.
pub const MAX_DEPTH: usize = 12;

/// Everything a run needs besides the files.
#[derive(Debug, Clone)]
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
    #[error("{path}: no SKILL.md found")]
    NoSkills { path: String },
}

/// Lints one file. Rules run when a selected profile uses them and the configuration leaves them on.
pub fn lint_file(file: &SkillFile, options: &LintOptions, files: &dyn FileProbe) -> FileReport {
    let context = SkillContext::new(file, &options.profiles, files);
    let mut diagnostics = Vec::new();
    // Diagnostics that rest on the repaired frontmatter (see `lint::repair`), by index.
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
        for finding in findings {
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
            let severity = match setting {
                Some(Some(severity)) => severity,
                _ => profiles
                    .iter()
                    .map(|profile| profile.profile().severity_of(rule.name, rule.severity))
                    .max()
                    .unwrap_or(rule.severity),
            };
            from_repaired.push(read_repaired);
            diagnostics.push(Diagnostic {
                code: (*code).to_string(),
                rule: rule.name.to_string(),
                severity,
                message: finding.message,
                range: finding.range,
                span: context.lines().span(context.source, finding.range),
                profiles,
                fix: finding.fix,
            });
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
/// A path may be a SKILL.md, a skill folder, or any folder; folders are searched recursively (hidden
/// folders, `node_modules` and `target` skipped, symbolic links reported but not entered).
///
/// Files that cannot be linted (not a regular file, larger than [`MAX_FILE_BYTES`], unreadable) and
/// folders that cannot be listed are left out; [`collect_all`] says which and why.
pub fn collect(paths: &[PathBuf], config: &Config) -> Result<Vec<SkillFile>, CollectError> {
    collect_all(paths, config).map(|collected| collected.files)
}

/// A SKILL.md that was found but could not be linted, or a folder that could not be listed.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Skipped {
    pub path: String,
    pub reason: String,
}

/// The files to lint and the ones that had to be left out.
#[derive(Debug, Clone, Default)]
pub struct Collected {
    pub files: Vec<SkillFile>,
    pub skipped: Vec<Skipped>,
}

/// Like [`collect`], also reporting the files it could not read and the folders it could not list,
/// each with its own path.
pub fn collect_all(paths: &[PathBuf], config: &Config) -> Result<Collected, CollectError> {
    let mut found: Vec<Found> = Vec::new();
    let mut unlisted: Vec<Skipped> = Vec::new();
    for path in paths {
        let metadata = std::fs::metadata(path).map_err(|source| CollectError::Io {
            path: path.display().to_string(),
            source,
        })?;
        let before = found.len();
        let unlisted_before = unlisted.len();
        if metadata.is_file() {
            found.push(Found {
                path: path.clone(),
                via_link: false,
                symlinked_file: is_symlink(path),
                lowercase_beside: has_lowercase_beside(path),
            });
        } else {
            let mut met = Vec::new();
            walk(path, is_symlink(path), &mut met).map_err(|source| CollectError::Io {
                path: path.display().to_string(),
                source,
            })?;
            for met in met {
                match met {
                    Met::Found(skill) => found.push(skill),
                    Met::Unreadable(skipped) => unlisted.push(skipped),
                }
            }
        }
        // A folder that could not be listed may hold skills: not finding any is then no verdict.
        if found.len() == before && unlisted.len() == unlisted_before {
            return Err(CollectError::NoSkills {
                path: path.display().to_string(),
            });
        }
    }
    found.retain(|found| !config.is_ignored(&found.path));
    // Reading is independent per file: spread it over the cores, keeping discovery order.
    let read = crate::parallel::map(&found, |found| {
        let path = &found.path;
        let display = path.display().to_string();
        match read_skill_bytes(path) {
            Ok(bytes) => {
                let mut file = SkillFile::from_bytes(path.clone(), display, bytes);
                file.placement.symlinked_dir = found.via_link;
                file.placement.symlinked_file = found.symlinked_file;
                file.placement.lowercase_beside = found.lowercase_beside;
                Ok(file)
            }
            Err(reason) => Err(Skipped {
                path: display,
                reason,
            }),
        }
    });
    let mut files = Vec::with_capacity(read.len());
    let mut skipped = unlisted;
    for result in read {
        match result {
            Ok(file) => files.push(file),
            Err(skip) => skipped.push(skip),
        }
    }
    place(&mut files);
    Ok(Collected { files, skipped })
}

/// Reads a SKILL.md without ever blocking or reading without bound: `O_NONBLOCK` keeps a FIFO from
/// hanging the open, only regular files are read (a link to `/dev/zero` never ends), and the read
/// stops one byte past the limit. Links are followed: a linked skill is still checked (and reported).
fn read_skill_bytes(path: &Path) -> Result<Vec<u8>, String> {
    use std::io::Read;

    use rustix::fs::{FileType, Mode, OFlags};

    let flags = OFlags::RDONLY | OFlags::NONBLOCK | OFlags::CLOEXEC;
    let descriptor = rustix::fs::open(path, flags, Mode::empty())
        .map_err(|errno| std::io::Error::from(errno).to_string())?;
    let stat =
        rustix::fs::fstat(&descriptor).map_err(|errno| std::io::Error::from(errno).to_string())?;
    if FileType::from_raw_mode(stat.st_mode) != FileType::RegularFile {
        return Err(
            "not a regular file (a FIFO, socket or device); no client reads it".to_string(),
        );
    }
    // Sized from the file, so the read takes one call and no regrowth (the size is a hint; the limit holds).
    let size = usize::try_from(stat.st_size).unwrap_or(0);
    let mut bytes = Vec::with_capacity(size.min(MAX_FILE_BYTES as usize) + 1);
    std::fs::File::from(descriptor)
        .take(MAX_FILE_BYTES + 1)
        .read_to_end(&mut bytes)
        .map_err(|error| error.to_string())?;
    if bytes.len() as u64 > MAX_FILE_BYTES {
        return Err(format!(
            "larger than {MAX_FILE_BYTES} bytes; no client loads a file that large"
        ));
    }
    Ok(bytes)
}

/// Whether the folder of the `SKILL.md` at `path` also lists a `skill.md` (by exact name, from the
/// listing: a probe would find `SKILL.md` itself on a case-insensitive filesystem).
fn has_lowercase_beside(path: &Path) -> bool {
    if path.file_name() != Some(std::ffi::OsStr::new(SKILL_FILE_NAMES[0])) {
        return false;
    }
    let dir = path.parent().filter(|dir| !dir.as_os_str().is_empty());
    std::fs::read_dir(dir.unwrap_or(Path::new("."))).is_ok_and(|entries| {
        entries
            .flatten()
            .any(|entry| entry.file_name() == std::ffi::OsStr::new(SKILL_FILE_NAMES[1]))
    })
}

fn is_symlink(path: &Path) -> bool {
    std::fs::symlink_metadata(path).is_ok_and(|metadata| metadata.file_type().is_symlink())
}

/// The skill file names looked for, in order of preference: skills-ref 0.1.1 (`find_skill_md`) accepts a
/// lowercase `skill.md` when there is no `SKILL.md`; most clients do not ([`super::rules::workspace`]).
pub const SKILL_FILE_NAMES: [&str; 2] = ["SKILL.md", "skill.md"];

/// A skill file the walk found, with what its folder listing says about it.
struct Found {
    path: PathBuf,
    /// Reached through a linked folder.
    via_link: bool,
    /// The file itself is a link.
    symlinked_file: bool,
    /// A lowercase `skill.md` sits beside this `SKILL.md`.
    lowercase_beside: bool,
}

/// What the walk met: a skill file, or a folder it could not list.
enum Met {
    Found(Found),
    Unreadable(Skipped),
}

fn unreadable(path: &Path, errno: rustix::io::Errno) -> Met {
    Met::Unreadable(Skipped {
        path: path.display().to_string(),
        reason: format!(
            "cannot be listed ({}); its skills were not read",
            std::io::Error::from(errno)
        ),
    })
}

fn is_skipped_folder(name: &[u8]) -> bool {
    name.starts_with(b".") || matches!(name, b"node_modules" | b"target" | b"__pycache__")
}

/// The skill file of a listed folder, by exact name from the listing, never by probing `dir/SKILL.md`:
/// on a case-insensitive filesystem that probe also opens `skill.md`, and the report would name a file
/// that does not exist.
fn skill_file_in(dir: &Path, entries: &[crate::fs::walk::Entry], via_link: bool) -> Option<Found> {
    let entry = SKILL_FILE_NAMES.iter().find_map(|wanted| {
        entries
            .iter()
            .find(|entry| entry.name_bytes() == wanted.as_bytes())
    })?;
    let lowercase = SKILL_FILE_NAMES[1].as_bytes();
    Some(Found {
        path: dir.join(entry.os_name()),
        via_link,
        symlinked_file: entry.kind == rustix::fs::FileType::Symlink,
        lowercase_beside: entry.name_bytes() != lowercase
            && entries.iter().any(|other| other.name_bytes() == lowercase),
    })
}

/// Walks `dir` with the one walker ([`crate::fs::walk`]): a folder that cannot be listed is reported
/// with its own path and the walk goes on. Links are followed as the path would be, so a linked folder
/// given or met is still listed, but never walked into: that is how cycles start.
fn walk(dir: &Path, via_link: bool, met: &mut Vec<Met>) -> std::io::Result<()> {
    use rustix::fs::FileType;

    let root = crate::fs::open::root_directory(dir)?;
    let options = crate::fs::walk::Options {
        max_depth: if via_link { 0 } else { MAX_DEPTH },
        skip: is_skipped_folder,
        parallel: true,
    };
    let walked = crate::fs::walk::walk(&root, dir, &options, &|folder, met: &mut Vec<Met>| {
        met.extend(skill_file_in(folder.path, folder.entries, via_link).map(Met::Found));
        if via_link || folder.depth >= MAX_DEPTH {
            return false;
        }
        for entry in folder.entries {
            if entry.kind != FileType::Symlink || is_skipped_folder(entry.name_bytes()) {
                continue;
            }
            let leads_to_folder =
                crate::fs::open::target_kind_at(folder.descriptor, entry.name.as_c_str())
                    .is_ok_and(|kind| kind == FileType::Directory);
            if !leads_to_folder {
                continue;
            }
            // Report the linked skill, but do not walk below it.
            let path = folder.path_of(&entry.name);
            let listed = crate::fs::open::root_directory(&path)
                .and_then(|linked| crate::fs::walk::list(&linked));
            match listed {
                Ok(entries) => met.extend(skill_file_in(&path, &entries, true).map(Met::Found)),
                // Gone or no longer a folder since it was listed: nothing to report.
                Err(rustix::io::Errno::NOENT | rustix::io::Errno::NOTDIR) => {}
                Err(errno) => met.push(unreadable(&path, errno)),
            }
        }
        true
    });
    if let Some(problem) = walked.problems.iter().find(|problem| problem.path == dir) {
        // The folder named itself cannot be listed: that is the walk's failure, not a skipped part.
        return Err(std::io::Error::from(problem.errno));
    }
    let start = met.len();
    met.extend(walked.found);
    met.extend(
        walked
            .problems
            .iter()
            .map(|problem| unreadable(&problem.path, problem.errno)),
    );
    // Every folder before its subfolders, subfolders by name: linked folders, reported while their
    // parent is visited, take their place among the others.
    met[start..].sort_by(|a, b| met_path(a).cmp(met_path(b)));
    Ok(())
}

fn met_path(met: &Met) -> &Path {
    match met {
        Met::Found(found) => found.path.parent().unwrap_or(&found.path),
        Met::Unreadable(skipped) => Path::new(&skipped.path),
    }
}

/// Fills in nesting and duplicate-name facts, in discovery order (which is sorted by path).
pub fn place(files: &mut [SkillFile]) {
    let dirs: Vec<PathBuf> = files.iter().map(|file| file.dir().to_path_buf()).collect();
    let skill_dirs: std::collections::HashSet<&Path> = dirs.iter().map(PathBuf::as_path).collect();
    let displays: Vec<String> = files.iter().map(|file| file.display_path.clone()).collect();
    // A lowercase `skill.md` is invisible to every client that compares names (nagents, 10xGraph, Codex
    // look for `SKILL.md` only), so it neither has nor causes a duplicate.
    let names: Vec<Option<String>> = crate::parallel::map(files, |file| {
        if file.is_lowercase_skill_file() {
            None
        } else {
            declared_name(file)
        }
    });
    let mut by_name: BTreeMap<String, Vec<usize>> = BTreeMap::new();
    for (index, name) in names.iter().enumerate() {
        if let Some(name) = name {
            by_name.entry(name.clone()).or_default().push(index);
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
    }
}

/// The name a skill declares: the YAML `name`, else the folder name (what nagents and Codex use).
fn declared_name(file: &SkillFile) -> Option<String> {
    let layout = crate::frontmatter::yaml::layout(&file.source).ok()?;
    // The file keeps this parse, and its lint reuses it.
    let parsed = file.parse_frontmatter(layout.yaml);
    let name = parsed
        .as_ref()
        .as_ref()
        .ok()
        .and_then(Option::as_ref)
        .and_then(|root| root.get("name"))
        .and_then(|entry| {
            entry
                .value
                .as_scalar()
                .map(|(text, _)| text.trim().to_string())
        });
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

/// The `<available_skills>` text 10xGraph would build from these files, given in its discovery order:
/// skipped skills left out, a later skill with an already-loaded name shadowed.
pub fn tenxgraph_catalog(files: &[SkillFile], files_probe: &dyn FileProbe) -> String {
    let profiles = [ProfileId::Tenxgraph];
    let mut loaded: Vec<crate::tenxgraph::LoadedSkill> = Vec::new();
    // Names already taken, so shadowing stays linear in the number of skills.
    let mut taken: std::collections::HashSet<String> = std::collections::HashSet::new();
    // 10xGraph opens `<folder>/SKILL.md`: a lowercase `skill.md` is not in its catalog on a case-sensitive
    // filesystem, the one the fidelity tests and CI run on.
    for file in files.iter().filter(|file| !file.is_lowercase_skill_file()) {
        let context = SkillContext::new(file, &profiles, files_probe);
        if let Ok(skill) = verdict::tenxgraph_load(&context) {
            if taken.insert(skill.name.clone()) {
                loaded.push(skill);
            }
        }
    }
    verdict::tenxgraph_catalog(&loaded)
}
