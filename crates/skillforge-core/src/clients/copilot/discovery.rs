//! Where GitHub Copilot CLI 1.0.102 finds skills and how it walks a skill root.
//!
//! Observed on the binary (docs/clients-observed.md, "GitHub Copilot CLI 1.0.102"; probes `tree-*`,
//! `order-anc-*`, `prec-anc`, `nested2`). Folders and files are opened through [`crate::fs`], following
//! links, as the client follows them everywhere below a root (`tree-symlink`); a folder reached twice
//! (a link cycle) is walked once.

use std::collections::HashSet;
use std::os::fd::OwnedFd;
use std::os::unix::ffi::OsStrExt;
use std::path::{Path, PathBuf};

use rustix::fs::FileType;

use super::frontmatter::{self, Drop, Parsed};
use crate::fs::read::{self, Identity, Limit};
use crate::fs::{open, walk};

/// The project skill folders of one folder, in the client's order (`tree-precedence`: `.github`
/// before `.agents` before `.claude`).
pub const PROJECT_FAMILIES: [&str; 3] = [".github/skills", ".agents/skills", ".claude/skills"];
/// The same, as path components, to find where a file sits below one.
pub const PROJECT_ROOTS: &[&[&str]] = &[
    &[".github", "skills"],
    &[".agents", "skills"],
    &[".claude", "skills"],
];

/// Where a skill comes from, as `skill list --json` names it (`source`). Listing runs are cut where it
/// changes.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Source {
    /// The working folder's own skill folders.
    Project,
    /// An ancestor's skill folders (up to the git root).
    Inherited,
    /// `~/.copilot/skills`.
    PersonalCopilot,
    /// `~/.agents/skills`.
    PersonalAgents,
    /// The client's own skills, listed last.
    Builtin,
}

impl Source {
    /// The `<location>` of the listing: ancestors' skills are `project` too, both personal roots
    /// `user` (`order-anc-git`, `tree-order-roots`).
    pub fn location(self) -> &'static str {
        match self {
            Source::Project | Source::Inherited => "project",
            Source::PersonalCopilot | Source::PersonalAgents => "user",
            Source::Builtin => "builtin",
        }
    }

    /// The `source` of `skill list --json`.
    pub fn id(self) -> &'static str {
        match self {
            Source::Project => "project",
            Source::Inherited => "inherited",
            Source::PersonalCopilot => "personal-copilot",
            Source::PersonalAgents => "personal-agents",
            Source::Builtin => "builtin",
        }
    }
}

/// A skill root: a folder the client walks, whether or not it exists.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Root {
    pub path: PathBuf,
    pub source: Source,
}

/// The roots of a client started in `project` (canonical) with `home`: for each family, the working
/// folder's, then each ancestor's, nearest first, up to the git root ([`is_repository`]), or up to the file system's root outside a repository (`tree-git-ancestors`,
/// `tree-no-git-ancestors`); then `~/.copilot/skills` and `~/.agents/skills`. Folders below the
/// working folder are not roots (`below-cwd`).
pub fn roots(project: &Path, home: Option<&Path>) -> Vec<Root> {
    let git_root = project.ancestors().find(|folder| is_repository(folder));
    let folders: Vec<&Path> = project
        .ancestors()
        .take_while(|folder| git_root.is_none_or(|top| folder.starts_with(top)))
        .collect();
    let mut roots = Vec::new();
    for family in PROJECT_FAMILIES {
        for (index, folder) in folders.iter().enumerate() {
            roots.push(Root {
                path: folder.join(family),
                source: if index == 0 {
                    Source::Project
                } else {
                    Source::Inherited
                },
            });
        }
    }
    if let Some(home) = home {
        roots.push(Root {
            path: home.join(".copilot/skills"),
            source: Source::PersonalCopilot,
        });
        roots.push(Root {
            path: home.join(".agents/skills"),
            source: Source::PersonalAgents,
        });
    }
    roots
}

/// Whether `folder` is a git repository's top as the client tells it: a `.git` file (a worktree), or a
/// `.git` folder holding `HEAD`, `objects` and `refs` (`tree-git-ancestors`); a `.git` folder with only
/// `HEAD` is not one, and the ancestors above it are read too (`layers-head-only` of the fidelity suite).
fn is_repository(folder: &Path) -> bool {
    let git = folder.join(".git");
    git.is_file()
        || (git.join("HEAD").is_file() && git.join("objects").is_dir() && git.join("refs").is_dir())
}

/// A `SKILL.md` found below a root, with the client's verdict on it.
#[derive(Debug, Clone)]
pub struct Found {
    /// The file's path as walked (a followed link under its own name: `.github/skills/linked`).
    pub path: PathBuf,
    pub source: Source,
    pub verdict: Result<Parsed, Drop>,
}

/// Walks one root as the client does: a `SKILL.md` in the root makes the root itself the only skill
/// there (`tree-nested`: `root-file`); otherwise folders at any depth, in byte order of their names,
/// depth first; the first folder holding a `SKILL.md` is a skill and nothing below it is read
/// (`nested2`: `top/child` not loaded, `a/b/…/deep11` loaded); folders whose name starts with `.` are
/// skipped at every level (`tree-hidden`), `node_modules` is not; links to folders and to files are
/// followed, a dangling one is ignored (`tree-symlink`); only the exact name `SKILL.md` counts
/// (`tree-non-skill-files`).
pub fn scan(root: &Root, found: &mut Vec<Found>) {
    let Ok(descriptor) = open::root_directory(&root.path) else {
        return;
    };
    let mut visited: HashSet<(u64, u64)> = HashSet::new();
    visit(descriptor, root.path.clone(), root, &mut visited, found);
}

fn visit(
    folder: OwnedFd,
    path: PathBuf,
    root: &Root,
    visited: &mut HashSet<(u64, u64)>,
    found: &mut Vec<Found>,
) {
    if let Ok(identity) = Identity::of_fd(&folder) {
        if !visited.insert((identity.device, identity.inode)) {
            return;
        }
    }
    if let Ok(file) = open::file_at_following(&folder, "SKILL.md") {
        if let Ok(read) = read::regular(file, Limit::SKILL_FILE) {
            let name = path
                .file_name()
                .map(|name| name.to_string_lossy().into_owned())
                .unwrap_or_default();
            found.push(Found {
                path: path.join("SKILL.md"),
                source: root.source,
                verdict: frontmatter::parse_skill(&read.bytes, &name),
            });
            return;
        }
    }
    let Ok(mut entries) = walk::list(&folder) else {
        return;
    };
    entries.sort_by(|a, b| a.name_bytes().cmp(b.name_bytes()));
    for entry in entries {
        let name = entry.os_name();
        if name.as_bytes().starts_with(b".") {
            continue;
        }
        if !matches!(
            entry.kind,
            FileType::Directory | FileType::Symlink | FileType::Unknown
        ) {
            continue;
        }
        if let Ok(child) = open::directory_at_following(&folder, name) {
            visit(child, path.join(name), root, visited, found);
        }
    }
}
