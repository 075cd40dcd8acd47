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
    #[error("{path}: is {kind}, not a SKILL.md or a folder of skills")]
    NotAFolder { path: String, kind: &'static str },
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
/// Files that cannot be linted (not a regular file, larger than [`MAX_FILE_BYTES`], unreadable) are left
/// out; [`collect_all`] says which and why.
pub fn collect(paths: &[PathBuf], config: &Config) -> Result<Vec<SkillFile>, CollectError> {
    collect_all(paths, config).map(|collected| collected.files)
}

/// A SKILL.md that was found but could not be linted.
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

/// Like [`collect`], also reporting the files it could not read.
pub fn collect_all(paths: &[PathBuf], config: &Config) -> Result<Collected, CollectError> {
    let mut found: Vec<Found> = Vec::new();
    let mut too_deep = Vec::new();
    // The same file and folder named twice (`lint d d/x/SKILL.md`) is linted once; a linked copy met
    // within one path stays, since a client sees it twice.
    let mut seen = std::collections::HashSet::new();
    for path in paths {
        let metadata = std::fs::metadata(path).map_err(|source| CollectError::Io {
            path: path.display().to_string(),
            source,
        })?;
        let mut here = Vec::new();
        if metadata.is_file() {
            here.push(Found {
                path: path.clone(),
                via_link: false,
                symlinked_file: is_symlink(path),
                lowercase_beside: has_lowercase_beside(path),
                too_deep: false,
            });
        } else if metadata.is_dir() {
            walk(path, 0, is_symlink(path), &mut here).map_err(|source| CollectError::Io {
                path: path.display().to_string(),
                source,
            })?;
        } else {
            use std::os::unix::fs::MetadataExt;
            let kind = rustix::fs::FileType::from_raw_mode(metadata.mode());
            return Err(CollectError::NotAFolder {
                path: path.display().to_string(),
                kind: crate::fs::open::describe(kind),
            });
        }
        if here.is_empty() {
            return Err(CollectError::NoSkills {
                path: path.display().to_string(),
            });
        }
        let keys: Vec<Option<FileKey>> = here.iter().map(|found| file_key(&found.path)).collect();
        for (entry, key) in here.into_iter().zip(&keys) {
            if key.is_some_and(|key| seen.contains(&key)) {
                continue;
            }
            if entry.too_deep {
                too_deep.push(Skipped {
                    path: entry.path.display().to_string(),
                    reason: format!(
                        "is deeper than the limit of {MAX_DEPTH} folder levels below {}; lint a folder nearer to it",
                        path.display()
                    ),
                });
            } else {
                found.push(entry);
            }
        }
        seen.extend(keys.into_iter().flatten());
    }
    found.retain(|found| !config.is_ignored(&found.path));
    too_deep.retain(|skipped| !config.is_ignored(Path::new(&skipped.path)));
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
    let mut skipped = too_deep;
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
    let kind = FileType::from_raw_mode(stat.st_mode);
    if kind != FileType::RegularFile {
        return Err(format!(
            "is {}, not a regular file; no client reads it",
            crate::fs::open::describe(kind)
        ));
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
    /// Below [`MAX_DEPTH`]: found only to say it is not linted.
    too_deep: bool,
}

/// A skill file and its folder by device and inode, links followed: the same pair reached by two
/// given paths is one skill.
type FileKey = (u64, u64, u64, u64);

fn file_key(path: &Path) -> Option<FileKey> {
    use std::os::unix::fs::MetadataExt;
    let file = std::fs::metadata(path).ok()?;
    let folder = path.parent().filter(|dir| !dir.as_os_str().is_empty());
    let folder = std::fs::metadata(folder.unwrap_or(Path::new("."))).ok()?;
    Some((file.dev(), file.ino(), folder.dev(), folder.ino()))
}

/// How many folders below [`MAX_DEPTH`] are searched for skill files that are too deep to lint, so a
/// deep tree costs a bounded look.
const DEEPER_FOLDERS: usize = 1000;

/// Skill files in the folders below `descriptor` (listed as `entries`; a folder at [`MAX_DEPTH`] or
/// below): reported, not linted.
fn deeper(
    descriptor: &rustix::fd::OwnedFd,
    dir: &Path,
    entries: &[Listed],
    budget: &mut usize,
    found: &mut Vec<Found>,
) {
    use std::os::unix::ffi::OsStrExt;

    use rustix::fs::{FileType, Mode, OFlags};

    for entry in entries {
        let name = entry.name.as_bytes();
        if entry.kind != FileType::Directory
            || name.starts_with(b".")
            || matches!(name, b"node_modules" | b"target" | b"__pycache__")
        {
            continue;
        }
        if *budget == 0 {
            return;
        }
        *budget -= 1;
        let flags = OFlags::RDONLY | OFlags::DIRECTORY | OFlags::NOFOLLOW | OFlags::CLOEXEC;
        let Ok(child) = rustix::fs::openat(descriptor, entry.name.as_c_str(), flags, Mode::empty())
        else {
            continue;
        };
        let child_dir = dir.join(std::ffi::OsStr::from_bytes(name));
        let Ok(below) = list(&child) else {
            continue;
        };
        let skill_file = SKILL_FILE_NAMES[0].as_bytes();
        if let Some(skill) = below
            .iter()
            .find(|below| below.name.as_bytes() == skill_file)
        {
            found.push(Found {
                path: child_dir.join(std::ffi::OsStr::from_bytes(skill.name.as_bytes())),
                via_link: false,
                symlinked_file: skill.kind == FileType::Symlink,
                lowercase_beside: false,
                too_deep: true,
            });
        }
        deeper(&child, &child_dir, &below, budget, found);
    }
}

fn walk(dir: &Path, depth: usize, via_link: bool, found: &mut Vec<Found>) -> std::io::Result<()> {
    use rustix::fs::{Mode, OFlags};

    // Links are followed here as the path would be: a linked folder given or met is still listed.
    let flags = OFlags::RDONLY | OFlags::DIRECTORY | OFlags::CLOEXEC;
    let descriptor = rustix::fs::open(dir, flags, Mode::empty())?;
    walk_in(&descriptor, dir, depth, via_link, found)
}

/// One listed entry: its name and what the listing (or, when it does not say, `lstat`) reports.
struct Listed {
    name: std::ffi::CString,
    kind: rustix::fs::FileType,
}

/// The entries of the open directory `descriptor`, `.` and `..` left out, sorted by name. An entry
/// whose type cannot be found out is left out, as one that vanished meanwhile.
fn list(descriptor: &rustix::fd::OwnedFd) -> std::io::Result<Vec<Listed>> {
    use rustix::fs::{AtFlags, FileType, RawDir};

    let mut buffer = Vec::with_capacity(16 * 1024);
    let mut reader = RawDir::new(descriptor, buffer.spare_capacity_mut());
    let mut entries = Vec::new();
    while let Some(entry) = reader.next() {
        let entry = entry?;
        let name = entry.file_name();
        if matches!(name.to_bytes(), b"." | b"..") {
            continue;
        }
        let kind = match entry.file_type() {
            FileType::Unknown => {
                match rustix::fs::statat(descriptor, name, AtFlags::SYMLINK_NOFOLLOW) {
                    Ok(stat) => FileType::from_raw_mode(stat.st_mode),
                    Err(_) => continue,
                }
            }
            known => known,
        };
        entries.push(Listed {
            name: name.to_owned(),
            kind,
        });
    }
    entries.sort_by(|a, b| a.name.cmp(&b.name));
    Ok(entries)
}

/// [`walk`] of a directory already open: subfolders are opened relative to it, so no path is looked
/// up again from the root and no folder is checked twice to be one.
fn walk_in(
    descriptor: &rustix::fd::OwnedFd,
    dir: &Path,
    depth: usize,
    via_link: bool,
    found: &mut Vec<Found>,
) -> std::io::Result<()> {
    use std::os::unix::ffi::OsStrExt;

    use rustix::fs::{AtFlags, FileType, Mode, OFlags};

    let entries = list(descriptor)?;
    let path_of = |name: &std::ffi::CStr| dir.join(std::ffi::OsStr::from_bytes(name.to_bytes()));
    // The names come from the listing, never from probing `dir/SKILL.md`: on a case-insensitive
    // filesystem that probe also opens `skill.md`, and the report would name a file that does not exist.
    let skill_file = SKILL_FILE_NAMES.iter().find_map(|wanted| {
        entries
            .iter()
            .find(|entry| entry.name.as_bytes() == wanted.as_bytes())
    });
    if let Some(entry) = skill_file {
        let lowercase = SKILL_FILE_NAMES[1].as_bytes();
        found.push(Found {
            path: path_of(&entry.name),
            via_link,
            symlinked_file: entry.kind == FileType::Symlink,
            lowercase_beside: entry.name.as_bytes() != lowercase
                && entries
                    .iter()
                    .any(|other| other.name.as_bytes() == lowercase),
            too_deep: false,
        });
    }
    if depth >= MAX_DEPTH && !via_link {
        let mut budget = DEEPER_FOLDERS;
        deeper(descriptor, dir, &entries, &mut budget, found);
    }
    if depth >= MAX_DEPTH || via_link {
        return Ok(());
    }
    let mut children = Vec::new();
    for entry in &entries {
        let name = entry.name.as_bytes();
        if name.starts_with(b".") || matches!(name, b"node_modules" | b"target" | b"__pycache__") {
            continue;
        }
        let linked_dir = || {
            rustix::fs::statat(descriptor, entry.name.as_c_str(), AtFlags::empty())
                .is_ok_and(|stat| FileType::from_raw_mode(stat.st_mode) == FileType::Directory)
        };
        if entry.kind == FileType::Directory {
            children.push((entry, false));
        } else if entry.kind == FileType::Symlink && linked_dir() {
            // Report the linked skill, but never recurse through links: that is how cycles start.
            children.push((entry, true));
        }
    }
    let open_child = |entry: &Listed| {
        let flags = OFlags::RDONLY | OFlags::DIRECTORY | OFlags::CLOEXEC;
        rustix::fs::openat(descriptor, entry.name.as_c_str(), flags, Mode::empty())
    };
    if depth == 0 {
        // Listing folders is most of a large walk and the subtrees are independent: walk the top-level
        // folders on every core, then join their findings in name order.
        let subtrees = crate::parallel::map_from(2, &children, |(entry, via_link)| {
            let mut below = Vec::new();
            let child = open_child(entry)?;
            walk_in(
                &child,
                &path_of(&entry.name),
                depth + 1,
                *via_link,
                &mut below,
            )
            .map(|()| below)
        });
        for subtree in subtrees {
            found.extend(subtree?);
        }
    } else {
        for (entry, via_link) in &children {
            let child = open_child(entry)?;
            walk_in(&child, &path_of(&entry.name), depth + 1, *via_link, found)?;
        }
    }
    Ok(())
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
