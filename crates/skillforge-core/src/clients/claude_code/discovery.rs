//! Where Claude Code 2.1.332 finds skills, and in which order.
//!
//! Rests on the client's code (`rce`, `R3i` in the 2.1.332 bundle) and on the probe trees run through
//! the binary:
//! - roots: `~/.claude/skills` (HOME), then `.claude/skills` of the working folder and of each folder
//!   above it, up to and including the git root (the first folder above holding a `.git`); outside a
//!   repository up to `/`; the home folder itself ends the walk and is not read as a project folder;
//! - inside a root, only `<root>/<folder>/SKILL.md` (depth one: `tree-nested` lists neither
//!   `top/child` nor deeper ones, a `SKILL.md` in the root itself and a `skill.md` are not read);
//! - hidden folders are read (`.hidden (hidden)`), folder links and a linked `SKILL.md` are followed
//!   (`tree-symlink`), a dangling link is ignored, a SKILL.md over 1,000,000 bytes is skipped (`tw`);
//! - order: the roots in the order above, each root's skills sorted by folder name with JavaScript's
//!   `localeCompare` (ICU, root collation: `_under` < `0-first` < `alpha` < `Alpha` < `b10` < `b9` <
//!   `dash_x` < `dash-x` < `ü-dir` < `zeta`, `tree-order`; modelled with the CLDR root collation of
//!   `feruca`, ties kept in byte order); a folder name met again in a later root is dropped (the client
//!   keeps the first command of a name).

use std::ffi::OsStr;
use std::os::fd::OwnedFd;
use std::os::unix::ffi::OsStrExt;
use std::path::{Path, PathBuf};

use rustix::fs::FileType;
use rustix::io::Errno;

use super::skill::{folder_offered, Skill};
use crate::fs::{open, read, walk, Limit};

/// The largest SKILL.md the client reads (`tw`), in bytes.
pub const SKILL_FILE_MAX: u64 = 1_000_000;

/// What a start of the client in a project folder sees.
#[derive(Debug, Clone, Default)]
pub struct Discovery {
    /// The roots read, in order (those that do not exist included).
    pub roots: Vec<PathBuf>,
    /// Every skill loaded, in the client's order, names unique.
    pub skills: Vec<Skill>,
    /// Folders and files that exist but could not be read (the client skips them silently).
    pub problems: Vec<String>,
}

impl Discovery {
    /// The skills the model is told about: `disable-model-invocation` ones left out.
    pub fn listed(&self) -> Vec<Skill> {
        self.skills
            .iter()
            .filter(|skill| !skill.model_invocation_disabled)
            .cloned()
            .collect()
    }
}

/// The roots for a client started in `project` with `home` as HOME.
pub fn roots(project: &Path, home: Option<&Path>) -> Vec<PathBuf> {
    let mut roots = Vec::new();
    if let Some(home) = home {
        roots.push(home.join(".claude").join("skills"));
    }
    // `process.cwd()` is the physical path; HOME is compared as given, resolved when it can be.
    let start = std::fs::canonicalize(project).unwrap_or_else(|_| project.to_path_buf());
    let home = home.map(|home| std::fs::canonicalize(home).unwrap_or_else(|_| home.to_path_buf()));
    let repository = git_root(&start);
    for folder in start.ancestors() {
        if home.as_deref() == Some(folder) {
            break;
        }
        roots.push(folder.join(".claude").join("skills"));
        if repository.as_deref() == Some(folder) {
            break;
        }
    }
    roots
}

/// The nearest folder at or above `folder` that holds a `.git` (a folder or a file, as a worktree has).
fn git_root(folder: &Path) -> Option<PathBuf> {
    folder.ancestors().find_map(|ancestor| {
        let descriptor = open::root_directory(ancestor).ok()?;
        open::kind_at(&descriptor, ".git")
            .ok()
            .map(|_| ancestor.to_path_buf())
    })
}

/// Discovers the skills of a client started in `project` with `home` as HOME.
pub fn discover(project: &Path, home: Option<&Path>) -> Discovery {
    let mut discovery = Discovery {
        roots: roots(project, home),
        ..Discovery::default()
    };
    for root in discovery.roots.clone() {
        read_root(&root, &mut discovery);
    }
    discovery
}

fn read_root(root: &Path, discovery: &mut Discovery) {
    let descriptor = match open::root_directory(root) {
        Ok(descriptor) => descriptor,
        Err(Errno::NOENT | Errno::NOTDIR) => return,
        Err(errno) => {
            discovery.problems.push(format!(
                "{}: {}",
                root.display(),
                std::io::Error::from(errno)
            ));
            return;
        }
    };
    let entries = match walk::list(&descriptor) {
        Ok(entries) => entries,
        Err(errno) => {
            discovery.problems.push(format!(
                "{}: {}",
                root.display(),
                std::io::Error::from(errno)
            ));
            return;
        }
    };
    let mut found = Vec::new();
    for entry in entries {
        let is_folder = match entry.kind {
            FileType::Directory => true,
            FileType::Symlink => open::target_kind_at(&descriptor, entry.name.as_c_str())
                .is_ok_and(|kind| kind == FileType::Directory),
            _ => false,
        };
        if !is_folder {
            continue;
        }
        let Ok(folder) = std::str::from_utf8(entry.name_bytes()) else {
            // The client works with JavaScript strings; a name that is not UTF-8 is not modelled.
            discovery.problems.push(format!(
                "{}: a folder name that is not UTF-8 is skipped",
                root.join(OsStr::from_bytes(entry.name_bytes())).display()
            ));
            continue;
        };
        if discovery.skills.iter().any(|skill| skill.folder == folder) || !folder_offered(folder) {
            continue;
        }
        let path = root.join(folder);
        match read_skill_file(&descriptor, folder) {
            Ok(Some(bytes)) => found.push(Skill::load(folder, &bytes)),
            Ok(None) => {}
            Err(problem) => discovery
                .problems
                .push(format!("{}: {problem}", path.join("SKILL.md").display())),
        }
    }
    // `localeCompare`: a stable sort over the byte-ordered listing.
    let mut collator =
        feruca::Collator::new(feruca::Tailoring::Cldr(feruca::Locale::Root), false, false);
    found.sort_by(|a, b| collator.collate(&a.folder, &b.folder));
    discovery.skills.extend(found);
}

/// `<folder>/SKILL.md` below the open root, links followed; `None` when there is none or the client
/// would skip it (not a regular file, over its size limit).
fn read_skill_file(root: &OwnedFd, folder: &str) -> Result<Option<Vec<u8>>, String> {
    let directory = match open::directory_at_following(root, folder) {
        Ok(directory) => directory,
        Err(Errno::NOENT | Errno::NOTDIR | Errno::LOOP) => return Ok(None),
        Err(errno) => return Err(std::io::Error::from(errno).to_string()),
    };
    let file = match open::file_at_following(&directory, "SKILL.md") {
        Ok(file) => file,
        Err(Errno::NOENT | Errno::NOTDIR | Errno::LOOP) => return Ok(None),
        Err(errno) => return Err(std::io::Error::from(errno).to_string()),
    };
    let limit = Limit::SKILL_FILE.with_bytes(SKILL_FILE_MAX);
    match read::regular(file, limit) {
        Ok(read) => Ok(Some(read.bytes)),
        Err(read::ReadError::NotRegular(_) | read::ReadError::TooLarge { .. }) => Ok(None),
        Err(error) => Err(error.to_string()),
    }
}
