//! Where OpenCode 1.18.33 finds skills, in its scan order (the `duplicate skill name` warnings of the
//! probe runs show the order; docs/clients-observed.md):
//!
//! 1. `~/.claude/skills`, then `~/.agents/skills`;
//! 2. from the working folder up to the worktree (the git root, or `/` outside a repository), each
//!    folder's `.claude/skills`, then its `.agents/skills`;
//! 3. the config folders, each read as `{skill,skills}/**/SKILL.md`: `$XDG_CONFIG_HOME/opencode`
//!    (`~/.config/opencode`), every `.opencode` from the working folder up to the worktree,
//!    `~/.opencode`, then `$OPENCODE_CONFIG_DIR`.
//!
//! Every root is read to any depth, links to folders and to files followed (the location keeps the
//! link's path; a dangling link is passed over); the file name must be exactly `SKILL.md`. Hidden
//! folders are read below the `.claude` and `.agents` roots and skipped below the config folders.
//! `OPENCODE_DISABLE_CLAUDE_CODE(_SKILLS)` drops the `.claude` roots, `OPENCODE_DISABLE_EXTERNAL_SKILLS`
//! the `.claude` and `.agents` ones. The config's `skills.paths` and `skills.urls` are not modelled.
//!
//! Skills are kept in a map by name, the built-in `customize-opencode` first. The client parses every
//! file concurrently and a later finisher replaces an earlier one of the same name, so which of them it
//! keeps changes from run to run (it tends towards the end of the scan order). The model keeps the
//! last in scan order, and names the others.

use std::collections::HashSet;
use std::os::unix::fs::MetadataExt;
use std::path::{Path, PathBuf};

use super::{builtin, file_verdict, FileVerdict};

/// Deeper than this the model stops (the client has no limit; this only bounds a hostile tree).
pub const MAX_DEPTH: usize = 64;

/// What the client reads from its environment.
#[derive(Debug, Clone, Default)]
pub struct Environment {
    pub home: Option<PathBuf>,
    /// `$XDG_CONFIG_HOME` (default `~/.config`).
    pub config_home: Option<PathBuf>,
    /// `$OPENCODE_CONFIG_DIR`.
    pub config_dir: Option<PathBuf>,
    /// `OPENCODE_DISABLE_CLAUDE_CODE` or `OPENCODE_DISABLE_CLAUDE_CODE_SKILLS`.
    pub no_claude: bool,
    /// `OPENCODE_DISABLE_EXTERNAL_SKILLS`.
    pub no_external: bool,
}

/// A flag as the client reads one: `1` or `true`.
fn flag(name: &str) -> bool {
    std::env::var(name).is_ok_and(|value| value == "1" || value.eq_ignore_ascii_case("true"))
}

impl Environment {
    /// From the process environment, as the client started there would see it.
    pub fn from_process() -> Self {
        let path = |name: &str| {
            std::env::var_os(name)
                .filter(|value| !value.is_empty())
                .map(PathBuf::from)
        };
        let home = path("HOME");
        Self {
            config_home: path("XDG_CONFIG_HOME")
                .or_else(|| home.as_ref().map(|home| home.join(".config"))),
            config_dir: path("OPENCODE_CONFIG_DIR"),
            no_claude: flag("OPENCODE_DISABLE_CLAUDE_CODE")
                || flag("OPENCODE_DISABLE_CLAUDE_CODE_SKILLS"),
            no_external: flag("OPENCODE_DISABLE_EXTERNAL_SKILLS"),
            home,
        }
    }
}

/// One folder read with `**/SKILL.md`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Root {
    pub path: PathBuf,
    /// Whether folders whose name starts with `.` are entered.
    pub hidden: bool,
}

/// A `SKILL.md` the client read, with its verdict.
#[derive(Debug, Clone)]
pub struct Found {
    /// The path as found (links not resolved), which the listing shows.
    pub path: PathBuf,
    pub verdict: FileVerdict,
}

/// A skill as the client keeps it: one per name.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Loaded {
    pub name: String,
    /// `None`: loaded but not listed.
    pub description: Option<String>,
    /// The location the listing shows (unescaped): the path, or `<built-in>`.
    pub location: String,
    /// The other files that loaded under the same name, any of which the real client may keep instead.
    pub rivals: Vec<String>,
}

/// Everything a client started in one folder finds.
#[derive(Debug, Clone, Default)]
pub struct Discovered {
    pub roots: Vec<Root>,
    /// Every `SKILL.md` read, in scan order.
    pub found: Vec<Found>,
    /// One skill per name, the built-in first, in the order names were first met.
    pub skills: Vec<Loaded>,
    /// Folders and files that exist but could not be read (the client skips them silently).
    pub problems: Vec<String>,
}

/// The worktree of a client started in `folder`: the nearest folder holding a git repository (a
/// `.git` folder with a `HEAD`, or a `.git` file as a linked worktree has; an empty `.git` folder does
/// not count, `p15`), else `/`.
pub fn worktree(folder: &Path) -> Option<&Path> {
    folder.ancestors().find(|ancestor| {
        let git = ancestor.join(".git");
        git.join("HEAD").is_file() || git.is_file()
    })
}

/// The roots of a client started in `project` (its physical path), in scan order, duplicates removed.
pub fn roots(project: &Path, environment: &Environment) -> Vec<Root> {
    let repository = worktree(project);
    let upward: Vec<&Path> = match repository {
        Some(top) => project
            .ancestors()
            .take_while(|folder| folder.starts_with(top))
            .collect(),
        None => project.ancestors().collect(),
    };
    let mut roots = Vec::new();
    let external = |folder: &Path, roots: &mut Vec<Root>| {
        if !environment.no_claude && !environment.no_external {
            roots.push(Root {
                path: folder.join(".claude").join("skills"),
                hidden: true,
            });
        }
        if !environment.no_external {
            roots.push(Root {
                path: folder.join(".agents").join("skills"),
                hidden: true,
            });
        }
    };
    if let Some(home) = &environment.home {
        external(home, &mut roots);
    }
    for folder in &upward {
        external(folder, &mut roots);
    }
    let config = |folder: PathBuf, roots: &mut Vec<Root>| {
        for name in ["skill", "skills"] {
            roots.push(Root {
                path: folder.join(name),
                hidden: false,
            });
        }
    };
    if let Some(config_home) = &environment.config_home {
        config(config_home.join("opencode"), &mut roots);
    }
    for folder in &upward {
        config(folder.join(".opencode"), &mut roots);
    }
    if let Some(home) = &environment.home {
        config(home.join(".opencode"), &mut roots);
    }
    if let Some(config_dir) = &environment.config_dir {
        config(config_dir.clone(), &mut roots);
    }
    let mut seen = HashSet::new();
    roots.retain(|root| seen.insert(root.path.clone()));
    roots
}

/// Discovers as OpenCode started in `project` would (the folder is canonicalised, as the client's
/// working folder is).
pub fn discover(project: &Path, environment: &Environment) -> std::io::Result<Discovered> {
    let project = std::fs::canonicalize(project)?;
    let roots = roots(&project, environment);
    let mut discovered = Discovered::default();
    let mut seen_files = HashSet::new();
    for root in &roots {
        let mut ancestors = Vec::new();
        walk(
            &root.path,
            root.hidden,
            0,
            &mut ancestors,
            &mut seen_files,
            &mut discovered,
        );
    }
    discovered.roots = roots;
    discovered.skills = keep_one_per_name(&discovered.found, true);
    Ok(discovered)
}

/// The map by name: the built-in first (when `with_builtin`), then every loaded file; a later one
/// of a name replaces the earlier (the real client's winner among them varies from run to run).
pub fn keep_one_per_name(found: &[Found], with_builtin: bool) -> Vec<Loaded> {
    let mut skills: Vec<Loaded> = Vec::new();
    if with_builtin {
        skills.push(Loaded {
            name: builtin::NAME.to_string(),
            description: Some(builtin::DESCRIPTION.to_string()),
            location: builtin::LOCATION.to_string(),
            rivals: Vec::new(),
        });
    }
    for item in found {
        let (name, description) = match &item.verdict {
            FileVerdict::Listed { name, description } => (name, Some(description.clone())),
            FileVerdict::Unlisted { name } => (name, None),
            FileVerdict::Dropped(_) => continue,
        };
        let location = item.path.to_string_lossy().into_owned();
        match skills.iter_mut().find(|skill| skill.name == *name) {
            Some(skill) => {
                let replaced = std::mem::replace(&mut skill.location, location);
                // The built-in goes in before any file is read, so a file of its name always replaces
                // it; only files are rivals of one another.
                if replaced != builtin::LOCATION {
                    skill.rivals.push(replaced);
                }
                skill.description = description;
            }
            None => skills.push(Loaded {
                name: name.clone(),
                description,
                location,
                rivals: Vec::new(),
            }),
        }
    }
    skills
}

/// `**/SKILL.md` below `folder`, links followed; `ancestors` are the (device, inode) of the folders
/// on the way down, so a link back up is not followed forever.
fn walk(
    folder: &Path,
    hidden: bool,
    depth: usize,
    ancestors: &mut Vec<(u64, u64)>,
    seen_files: &mut HashSet<PathBuf>,
    discovered: &mut Discovered,
) {
    if depth > MAX_DEPTH {
        return;
    }
    let identity = match std::fs::metadata(folder) {
        Ok(metadata) if metadata.is_dir() => (metadata.dev(), metadata.ino()),
        Ok(_) => return,
        Err(error) if depth == 0 && error.kind() == std::io::ErrorKind::NotFound => return,
        Err(_) => return,
    };
    if ancestors.contains(&identity) {
        return;
    }
    let entries = match std::fs::read_dir(folder) {
        Ok(entries) => entries,
        Err(error) => {
            discovered
                .problems
                .push(format!("{}: {error}", folder.display()));
            return;
        }
    };
    let mut names: Vec<std::ffi::OsString> = entries
        .filter_map(|entry| entry.ok().map(|entry| entry.file_name()))
        .collect();
    names.sort();
    ancestors.push(identity);
    for name in names {
        let path = folder.join(&name);
        // `metadata` follows links: a dangling one fails and is passed over, as the client does.
        let Ok(metadata) = std::fs::metadata(&path) else {
            continue;
        };
        if metadata.is_dir() {
            if !hidden && name.as_encoded_bytes().starts_with(b".") {
                continue;
            }
            walk(&path, hidden, depth + 1, ancestors, seen_files, discovered);
        } else if metadata.is_file() && name == "SKILL.md" {
            // A root met twice through links (or listed twice) reads each path once.
            if !seen_files.insert(path.clone()) {
                continue;
            }
            match std::fs::read(&path) {
                Ok(bytes) => discovered.found.push(Found {
                    verdict: file_verdict(&bytes),
                    path,
                }),
                Err(error) => discovered
                    .problems
                    .push(format!("{}: {error}", path.display())),
            }
        }
    }
    ancestors.pop();
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn roots_in_scan_order() {
        let environment = Environment {
            home: Some(PathBuf::from("/h")),
            config_home: Some(PathBuf::from("/h/.config")),
            ..Environment::default()
        };
        let paths: Vec<String> = roots(Path::new("/nonexistent-oc/p"), &environment)
            .into_iter()
            .map(|root| {
                format!(
                    "{}{}",
                    root.path.display(),
                    if root.hidden { "" } else { " (no hidden)" }
                )
            })
            .collect();
        assert_eq!(
            paths,
            [
                "/h/.claude/skills",
                "/h/.agents/skills",
                "/nonexistent-oc/p/.claude/skills",
                "/nonexistent-oc/p/.agents/skills",
                "/nonexistent-oc/.claude/skills",
                "/nonexistent-oc/.agents/skills",
                "/.claude/skills",
                "/.agents/skills",
                "/h/.config/opencode/skill (no hidden)",
                "/h/.config/opencode/skills (no hidden)",
                "/nonexistent-oc/p/.opencode/skill (no hidden)",
                "/nonexistent-oc/p/.opencode/skills (no hidden)",
                "/nonexistent-oc/.opencode/skill (no hidden)",
                "/nonexistent-oc/.opencode/skills (no hidden)",
                "/.opencode/skill (no hidden)",
                "/.opencode/skills (no hidden)",
                "/h/.opencode/skill (no hidden)",
                "/h/.opencode/skills (no hidden)",
            ]
        );
    }

    #[test]
    fn one_skill_per_name_the_last_found_kept() {
        let found = |path: &str, name: &str| Found {
            path: PathBuf::from(path),
            verdict: FileVerdict::Listed {
                name: name.into(),
                description: path.into(),
            },
        };
        let skills = keep_one_per_name(
            &[
                found("/a", "x"),
                found("/b", "customize-opencode"),
                found("/c", "x"),
            ],
            true,
        );
        assert_eq!(skills.len(), 2);
        assert_eq!(skills[0].location, "/b");
        assert!(skills[0].rivals.is_empty());
        assert_eq!(skills[1].location, "/c");
        assert_eq!(skills[1].rivals, ["/a"]);
    }
}
