//! Which folders a lint run searches for skills, as a CI maintainer expects of a linter run at a
//! repository's root (ripgrep's and ruff's rules, for skills):
//!
//! - the folders clients read skills from are searched although they are hidden: `.claude`,
//!   `.agents`, `.github`, `.codex`, `.opencode`, `.gemini`, `.cursor`, `.windsurf`;
//! - another hidden folder is searched when it holds skills: a SKILL.md in it or in a folder directly
//!   in it (OpenAI's `skills/.curated/<skill>`, `skills/.system/<skill>`), so `.cache` or `.idea` cost
//!   one listing, never a walk; `--hidden` searches every hidden folder;
//! - version-control folders (`.git`, …) are never searched; dependency, cache and build folders
//!   (`node_modules`, `.venv`, `target`, `dist`, a folder marked by a `CACHEDIR.TAG`, …) are not, and
//!   neither is what `.gitignore`, `.ignore` and `.git/info/exclude` files leave out (read in every
//!   folder from the repository's root down, a deeper file's patterns winning, and starting afresh
//!   inside a nested repository); `--no-ignore` searches both.
//!
//! A path named on the command line is always searched, whatever these rules say of it.

use std::os::fd::OwnedFd;
use std::path::Path;
use std::sync::Arc;

use ignore::gitignore::{Gitignore, GitignoreBuilder};
use rustix::fs::FileType;

use crate::fs::walk::{self, Entry};

/// How far a lint run searches beyond the default rules.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Search {
    /// Search every hidden folder (version-control folders still never).
    pub hidden: bool,
    /// Do not apply ignore files or the list of dependency and build folders.
    pub no_ignore: bool,
}

/// Why a folder was not searched.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum PassedOver {
    /// An ignore file leaves it out, or it is a dependency, cache or build folder.
    Ignored,
    /// A hidden folder with no skill in it or directly below it.
    Hidden,
}

/// Hidden folders that clients read skills from.
pub const CLIENT_FOLDERS: [&str; 8] = [
    ".claude",
    ".agents",
    ".github",
    ".codex",
    ".opencode",
    ".gemini",
    ".cursor",
    ".windsurf",
];

/// Version-control folders: never searched.
const VERSION_CONTROL: [&[u8]; 6] = [b".git", b".hg", b".svn", b".jj", b".bzr", b".sl"];

/// Dependency, environment, cache and build folders: their skills are copies of someone else's (or of
/// the repository's own) and would be reported as duplicates. Ruff's default exclusions, for skills.
const DEPENDENCIES: [&[u8]; 21] = [
    b"node_modules",
    b"bower_components",
    b"__pycache__",
    b"__pypackages__",
    b"site-packages",
    b"venv",
    b".venv",
    b".tox",
    b".nox",
    b".direnv",
    b".eggs",
    b".mypy_cache",
    b".pytest_cache",
    b".ruff_cache",
    b".ipynb_checkpoints",
    b".pyenv",
    b".yarn",
    b"target",
    b"dist",
    b"_build",
    b"buck-out",
];

/// How many entries of a hidden folder are looked into for a skill folder before it is passed over.
const PEEK_ENTRIES: usize = 256;

/// The largest ignore file read.
const IGNORE_FILE: crate::fs::Limit = crate::fs::Limit {
    bytes: 1024 * 1024,
    what: "an ignore file",
};

/// The ignore files that apply to a folder: its own, then its parent's, up to the repository's root.
#[derive(Debug, Default)]
pub struct Ignores {
    here: Option<Gitignore>,
    parent: Option<Arc<Ignores>>,
}

impl Ignores {
    /// Whether `path` (below the folder these belong to) is left out: the deepest file with a matching
    /// pattern decides, and within it the last matching pattern (`!` patterns take a path back in).
    pub fn ignores(&self, path: &Path, is_dir: bool) -> bool {
        let mut level = Some(self);
        while let Some(ignores) = level {
            if let Some(matcher) = &ignores.here {
                let matched = matcher.matched(path, is_dir);
                if matched.is_ignore() {
                    return true;
                }
                if matched.is_whitelist() {
                    return false;
                }
            }
            level = ignores.parent.as_deref();
        }
        false
    }
}

impl Search {
    /// The ignore files of the open folder `descriptor` at `path` (listed as `entries`; the place its
    /// patterns are matched against), on top of `parent`'s; problems reading them go to `notes`.
    pub fn ignores_of(
        &self,
        descriptor: &OwnedFd,
        path: &Path,
        entries: &[Entry],
        parent: Option<&Arc<Ignores>>,
        notes: &mut Vec<String>,
    ) -> Arc<Ignores> {
        if self.no_ignore {
            return parent.cloned().unwrap_or_default();
        }
        let has = |name: &str, kind: FileType| {
            entries
                .iter()
                .any(|entry| entry.name_bytes() == name.as_bytes() && entry.kind == kind)
        };
        let repository = has(".git", FileType::Directory) || has(".git", FileType::RegularFile);
        let mut sources: Vec<(String, Vec<u8>)> = Vec::new();
        if has(".git", FileType::Directory) {
            let exclude = crate::fs::open::directory_at(descriptor, ".git")
                .and_then(|git| crate::fs::open::directory_at(&git, "info"))
                .ok()
                .and_then(|info| crate::fs::read::regular_at(&info, "exclude", IGNORE_FILE).ok());
            if let Some(read) = exclude {
                sources.push((".git/info/exclude".to_string(), read.bytes));
            }
        }
        for name in [".gitignore", ".ignore"] {
            if !entries
                .iter()
                .any(|entry| entry.name_bytes() == name.as_bytes())
            {
                continue;
            }
            match crate::fs::read::regular_at(descriptor, name, IGNORE_FILE) {
                Ok(read) => sources.push((name.to_string(), read.bytes)),
                Err(error) => notes.push(format!(
                    "{}: {error}; its patterns were not applied",
                    path.join(name).display()
                )),
            }
        }
        // Inside a nested repository the enclosing one's patterns no longer apply, as in git.
        let parent = if repository { None } else { parent.cloned() };
        if sources.is_empty() {
            return parent.unwrap_or_default();
        }
        let mut builder = GitignoreBuilder::new(path);
        for (_, bytes) in &sources {
            for line in String::from_utf8_lossy(bytes).lines() {
                // Git passes over a pattern it cannot read; so does the search.
                let _ = builder.add_line(None, line);
            }
        }
        let here = builder.build().ok();
        Arc::new(Ignores { here, parent })
    }

    /// Whether the subfolder `entry` of the open folder `folder`, which is at `at` (the place ignore
    /// files are matched against) and whose ignore files are `ignores`, is searched.
    pub fn enters(&self, folder: &OwnedFd, at: &Path, ignores: &Ignores, entry: &Entry) -> bool {
        let name = entry.name_bytes();
        // (A folder marked as a cache is passed over once entered: see [`Search::is_cache`].)
        if self.left_out(at, ignores, entry) {
            return false;
        }
        if !name.starts_with(b".") || self.hidden || is_client_folder(name) {
            return true;
        }
        holds_skills(folder, entry)
    }

    /// Whether the link `entry` of a searched folder at `at` is followed: by its name only, as a link
    /// is never walked further than the skill folder it leads to.
    pub fn follows_link(&self, at: &Path, ignores: &Ignores, entry: &Entry) -> bool {
        let name = entry.name_bytes();
        !self.left_out(at, ignores, entry)
            && (!name.starts_with(b".") || self.hidden || is_client_folder(name))
    }

    /// A version-control folder, a dependency or build folder, or a folder an ignore file leaves out.
    fn left_out(&self, at: &Path, ignores: &Ignores, entry: &Entry) -> bool {
        let name = entry.name_bytes();
        VERSION_CONTROL.contains(&name)
            || (!self.no_ignore
                && (DEPENDENCIES.contains(&name)
                    || ignores.ignores(&at.join(entry.os_name()), true)))
    }

    /// Whether the skill file `entry` of a searched folder at `at` is linted (an ignore file may
    /// leave it out).
    pub fn reads_file(&self, at: &Path, ignores: &Ignores, entry: &Entry) -> bool {
        self.no_ignore || !ignores.ignores(&at.join(entry.os_name()), false)
    }

    /// Why a subfolder the search does not enter is passed over, when it may hold skills (a
    /// version-control folder holds none).
    pub fn why_not(&self, at: &Path, ignores: &Ignores, entry: &Entry) -> Option<PassedOver> {
        let name = entry.name_bytes();
        if VERSION_CONTROL.contains(&name) {
            None
        } else if !self.no_ignore {
            if self.left_out(at, ignores, entry) {
                Some(PassedOver::Ignored)
            } else {
                Some(PassedOver::Hidden)
            }
        } else {
            Some(PassedOver::Hidden)
        }
    }

    /// Whether the open folder `descriptor`, listed as `entries`, is marked as a cache (cargo's
    /// `target` is): then it is not searched. Only a listed `CACHEDIR.TAG` is read, so a folder costs
    /// nothing more than its listing.
    pub fn is_cache(&self, descriptor: &OwnedFd, entries: &[Entry]) -> bool {
        if self.no_ignore
            || !entries
                .iter()
                .any(|entry| entry.name_bytes() == b"CACHEDIR.TAG")
        {
            return false;
        }
        let limit = crate::fs::Limit {
            bytes: 4096,
            what: "a cache tag",
        };
        crate::fs::read::regular_at(descriptor, "CACHEDIR.TAG", limit)
            .is_ok_and(|read| read.bytes.starts_with(CACHE_SIGNATURE))
    }

    /// Whether a folder of this name is passed over by name alone (the look below the depth limit).
    pub fn passes_over(&self, name: &[u8]) -> bool {
        VERSION_CONTROL.contains(&name)
            || (!self.no_ignore && DEPENDENCIES.contains(&name))
            || (name.starts_with(b".") && !self.hidden && !is_client_folder(name))
    }
}

fn is_client_folder(name: &[u8]) -> bool {
    CLIENT_FOLDERS
        .iter()
        .any(|folder| folder.as_bytes() == name)
}

/// The signature a `CACHEDIR.TAG` starts with (the Cache Directory Tagging Specification).
const CACHE_SIGNATURE: &[u8] = b"Signature: 8a477f597d28d172789f06886806bc55";

/// Whether a hidden folder holds skills: a SKILL.md in it, or in a folder directly in it.
fn holds_skills(parent: &OwnedFd, entry: &Entry) -> bool {
    let Ok(folder) = crate::fs::open::directory_at(parent, entry.name.as_c_str()) else {
        // Not openable: the walk enters it and reports why it cannot.
        return true;
    };
    let Ok(entries) = walk::list(&folder) else {
        return true;
    };
    if entries.iter().any(is_skill_file) {
        return true;
    }
    entries
        .iter()
        .filter(|entry| entry.kind == FileType::Directory)
        .take(PEEK_ENTRIES)
        .any(|child| {
            crate::fs::open::directory_at(&folder, child.name.as_c_str())
                .ok()
                .and_then(|open| walk::list(&open).ok())
                .is_some_and(|entries| entries.iter().any(is_skill_file))
        })
}

fn is_skill_file(entry: &Entry) -> bool {
    super::workspace::SKILL_FILE_NAMES
        .iter()
        .any(|name| entry.name_bytes() == name.as_bytes())
}
