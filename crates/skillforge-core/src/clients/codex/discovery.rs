//! Where Codex 0.171.0 finds skills and how it walks a skill root.
//!
//! Observed on the binary (docs/clients-observed.md, "Discovery"; extra probes `p1`, `p5`, `p6`,
//! `p21` of tests/fidelity/test_codex.py). Every folder and file is opened through [`crate::fs`]:
//! beneath an open folder, never through a link, except folder links inside a root, which Codex
//! follows (`tree-symlink`).

use std::collections::{HashSet, VecDeque};
use std::os::fd::OwnedFd;
use std::os::unix::ffi::OsStrExt;
use std::path::{Path, PathBuf};

use rustix::fs::FileType;

use super::frontmatter::{self, Drop, Parsed};
use crate::frontmatter::yaml::{self, Value};
use crate::fs::read::{self, Identity, Limit};
use crate::fs::{open, walk};
use crate::text::TextRange;

/// Folders below a root that are still scanned: `a/b/c/d/e/deep` loads, `a/b/c/d/e/f/deep7` not.
pub const MAX_DEPTH: usize = 6;
/// Folders one root is scanned for at most (Codex's per-root cap, root included).
pub const MAX_FOLDERS_PER_ROOT: usize = 2000;
/// The admin root (`/etc/codex/skills`, scope admin).
pub const ADMIN_ROOT: &str = "/etc/codex/skills";

/// A root's scope; it orders the listing (admin, then repository, then user).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum Scope {
    Admin,
    Repo,
    User,
}

/// The places Codex reads besides the project: `HOME`, `CODEX_HOME` (default `HOME/.codex`) and
/// the admin root.
#[derive(Debug, Clone)]
pub struct Environment {
    pub home: Option<PathBuf>,
    pub codex_home: Option<PathBuf>,
    pub admin_root: PathBuf,
}

impl Environment {
    /// From the process environment, as the client started there would see it.
    pub fn from_process() -> Self {
        let home = std::env::var_os("HOME")
            .filter(|home| !home.is_empty())
            .map(PathBuf::from);
        let codex_home = std::env::var_os("CODEX_HOME")
            .filter(|path| !path.is_empty())
            .map(PathBuf::from)
            .or_else(|| home.as_ref().map(|home| home.join(".codex")));
        Self {
            home,
            codex_home,
            admin_root: PathBuf::from(ADMIN_ROOT),
        }
    }
}

/// A skill root: an existing folder, by its canonical path (as the roots table shows it).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Root {
    pub path: PathBuf,
    pub scope: Scope,
}

/// The roots of a client started in `project` (canonical), in Codex's order, duplicates removed:
/// `.codex/skills` of the working folder and of each folder above it up to the git repository's
/// root (a `.git` folder holding `HEAD`, or a `.git` file; an empty `.git` folder does not count
/// here: `p21` with and without `HEAD`), then `$CODEX_HOME/skills`, `~/.agents/skills`,
/// `/etc/codex/skills`, then `.agents/skills` of every folder from the project root (the nearest
/// folder holding any `.git`) down to the working folder; outside a repository only the working
/// folder's (`tree ng`, `p5`). Missing roots are left out.
pub fn roots(project: &Path, environment: &Environment) -> Vec<Root> {
    let repository = project.ancestors().find(|folder| {
        let git = folder.join(".git");
        git.join("HEAD").is_file() || git.is_file()
    });
    let mut candidates: Vec<(PathBuf, Scope)> = project
        .ancestors()
        .take_while(|folder| repository.is_some_and(|top| folder.starts_with(top)))
        .map(|folder| (folder.join(".codex/skills"), Scope::Repo))
        .collect();
    if candidates.is_empty() {
        candidates.push((project.join(".codex/skills"), Scope::Repo));
    }
    if let Some(codex_home) = &environment.codex_home {
        candidates.push((codex_home.join("skills"), Scope::User));
    }
    if let Some(home) = &environment.home {
        candidates.push((home.join(".agents/skills"), Scope::User));
    }
    candidates.push((environment.admin_root.clone(), Scope::Admin));
    let top = project
        .ancestors()
        .find(|folder| std::fs::symlink_metadata(folder.join(".git")).is_ok())
        .unwrap_or(project);
    let mut between: Vec<&Path> = project
        .ancestors()
        .take_while(|folder| folder.starts_with(top))
        .collect();
    between.reverse();
    candidates.extend(
        between
            .into_iter()
            .map(|folder| (folder.join(".agents/skills"), Scope::Repo)),
    );
    let mut roots: Vec<Root> = Vec::new();
    for (path, scope) in candidates {
        let Ok(path) = std::fs::canonicalize(&path) else {
            continue;
        };
        if !path.is_dir() || roots.iter().any(|root| root.path == path) {
            continue;
        }
        roots.push(Root { path, scope });
    }
    roots
}

/// A `SKILL.md` found below a root.
#[derive(Debug, Clone)]
pub struct Found {
    /// Index into the roots.
    pub root: usize,
    /// The path below the root as walked, a followed link under its own name (`r4/linked/SKILL.md`).
    pub relative: PathBuf,
    /// What the file is, to drop a second name for the same file (Codex keeps the first path it
    /// meets for one resolved file, `p6`).
    pub identity: (u64, u64),
    pub verdict: Result<Skill, Drop>,
}

/// A skill that loads.
#[derive(Debug, Clone)]
pub struct Skill {
    pub parsed: Parsed,
    /// False when `agents/openai.yaml` sets `policy.allow_implicit_invocation: false`: loaded, but
    /// not listed to the model (`p2` `noimp`).
    pub implicit: bool,
}

/// Walks one root breadth first, as Codex does: entries whose name starts with `.` are skipped at
/// every level (`tree-hidden`), folders and links to folders are entered down to [`MAX_DEPTH`],
/// a file named exactly `SKILL.md` is read (not `skill.md`; not a link to a file: `tree-symlink`),
/// also directly in the root (`tree-non-skill-files`) and inside another skill (`tree-nested`).
pub fn scan(root_index: usize, root: &Root, found: &mut Vec<Found>) {
    let Ok(descriptor) = open::root_directory(&root.path) else {
        return;
    };
    let mut visited: HashSet<(u64, u64)> = HashSet::new();
    if let Ok(identity) = Identity::of_fd(&descriptor) {
        visited.insert((identity.device, identity.inode));
    }
    let mut queue: VecDeque<(OwnedFd, PathBuf, usize)> = VecDeque::new();
    queue.push_back((descriptor, PathBuf::new(), 0));
    while let Some((folder, relative, depth)) = queue.pop_front() {
        let Ok(entries) = walk::list(&folder) else {
            continue;
        };
        for entry in entries {
            let name = entry.os_name();
            if name.as_bytes().starts_with(b".") {
                continue;
            }
            let child = match entry.kind {
                FileType::Directory => open::directory_at(&folder, name).ok(),
                FileType::Symlink => open::directory_at_following(&folder, name).ok(),
                FileType::RegularFile if name == "SKILL.md" => {
                    if let Some(skill) = read_skill(root_index, &folder, &relative, root) {
                        found.push(skill);
                    }
                    None
                }
                _ => None,
            };
            let Some(child) = child else { continue };
            if depth + 1 > MAX_DEPTH || visited.len() >= MAX_FOLDERS_PER_ROOT {
                continue;
            }
            let Ok(identity) = Identity::of_fd(&child) else {
                continue;
            };
            if visited.insert((identity.device, identity.inode)) {
                queue.push_back((child, relative.join(name), depth + 1));
            }
        }
    }
}

fn read_skill(root_index: usize, folder: &OwnedFd, relative: &Path, root: &Root) -> Option<Found> {
    let read = read::regular_at(folder, "SKILL.md", Limit::SKILL_FILE).ok()?;
    let folder_name = match relative.file_name() {
        Some(name) => name.to_string_lossy().into_owned(),
        // A SKILL.md in the root itself is named after the root's folder.
        None => root
            .path
            .file_name()
            .map(|name| name.to_string_lossy().into_owned())
            .unwrap_or_default(),
    };
    let verdict = frontmatter::parse_skill(&read.bytes, &folder_name);
    let verdict = match verdict {
        Ok(parsed) => {
            let policy = policy(folder);
            if !policy.for_codex {
                return None;
            }
            Ok(Skill {
                parsed,
                implicit: policy.implicit,
            })
        }
        Err(drop) => Err(drop),
    };
    Some(Found {
        root: root_index,
        relative: relative.join("SKILL.md"),
        identity: (read.identity.device, read.identity.inode),
        verdict,
    })
}

/// What `agents/openai.yaml` beside a `SKILL.md` decides.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Policy {
    /// `policy.products` names other products only (`[chatgpt]`): the skill is not loaded at all,
    /// without an error (`p2` `prod`).
    pub for_codex: bool,
    /// `policy.allow_implicit_invocation: false`: loaded, not listed (`p2` `noimp`).
    pub implicit: bool,
}

impl Policy {
    /// No `agents/openai.yaml`, or one that does not parse (`p2` `badyaml`).
    pub const OPEN: Policy = Policy {
        for_codex: true,
        implicit: true,
    };
}

/// Reads the policy beside a skill; a missing or unreadable file changes nothing.
fn policy(folder: &OwnedFd) -> Policy {
    let Ok(agents) = open::directory_at_following(folder, "agents") else {
        return Policy::OPEN;
    };
    let Ok(read) = read::regular_at(&agents, "openai.yaml", Limit::SKILL_FILE) else {
        return Policy::OPEN;
    };
    policy_of(&read.bytes)
}

/// The policy an `agents/openai.yaml` holds; one that is not UTF-8 or does not parse changes nothing.
pub fn policy_of(bytes: &[u8]) -> Policy {
    let Ok(text) = std::str::from_utf8(bytes) else {
        return Policy::OPEN;
    };
    let Ok(Some(root)) = yaml::parse(text, TextRange::new(0, text.len())) else {
        return Policy::OPEN;
    };
    let Some(policy) = root.get("policy").map(|entry| &entry.value) else {
        return Policy::OPEN;
    };
    let implicit = !matches!(
        policy.get("allow_implicit_invocation").map(|entry| &entry.value.value),
        Some(Value::Scalar { text, .. }) if text == "false"
    );
    let for_codex = match policy.get("products").map(|entry| &entry.value.value) {
        Some(Value::Sequence { items, .. }) if !items.is_empty() => items
            .iter()
            .any(|item| item.as_scalar().is_some_and(|(text, _)| text == "codex")),
        _ => true,
    };
    Policy {
        for_codex,
        implicit,
    }
}
