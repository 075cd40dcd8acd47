//! A workspace: the folders an author opened, checked up front so that a wrong path gets a clear
//! error instead of an empty catalog.

use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};

use crate::skill::Skill;

/// Why a workspace root cannot be opened.
#[derive(Debug, thiserror::Error)]
pub enum WorkspaceError {
    #[error("{}: no such folder; check the path or create it", .0.display())]
    NotFound(PathBuf),
    #[error("{}: is a file, not a folder; open the folder that contains your skills", .0.display())]
    NotADirectory(PathBuf),
    #[error("{}: cannot be read ({source}); check its permissions", path.display())]
    Unreadable {
        path: PathBuf,
        #[source]
        source: std::io::Error,
    },
}

/// Everything discovery found, including what a strict client would refuse, so one bad skill
/// never blanks the author's view.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
pub struct CatalogReport {
    /// The skills in catalog (name) order.
    pub skills: Vec<Skill>,
    /// Bounded discovery diagnostics, as the client reports them.
    pub diagnostics: Vec<String>,
    /// The message with which the client would fail the whole catalog, if it would.
    pub error: Option<String>,
    /// Skills whose name another skill already uses.
    pub duplicates: Vec<Skill>,
}

/// Checks that `path` is a readable folder and returns it made absolute (links not resolved).
pub fn check_root(path: &Path) -> Result<PathBuf, WorkspaceError> {
    let absolute = std::path::absolute(path).map_err(|source| WorkspaceError::Unreadable {
        path: path.to_path_buf(),
        source,
    })?;
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
        return Err(WorkspaceError::NotADirectory(absolute));
    }
    std::fs::read_dir(&absolute).map_err(|source| WorkspaceError::Unreadable {
        path: absolute.clone(),
        source,
    })?;
    Ok(absolute)
}

/// Discovers the skills under `roots` the way the nagents directory source does.
pub fn scan(roots: &[PathBuf]) -> Result<CatalogReport, WorkspaceError> {
    let mut report = CatalogReport::default();
    for root in roots {
        let root = check_root(root)?;
        walk(&root, &mut report);
    }
    report.skills.sort_by(|a, b| a.name.cmp(&b.name));
    Ok(report)
}

/// Interim walk used until the full directory source lands.
fn walk(directory: &Path, report: &mut CatalogReport) {
    let Ok(entries) = std::fs::read_dir(directory) else {
        return;
    };
    let mut names: Vec<_> = entries.flatten().map(|entry| entry.path()).collect();
    names.sort();
    for path in names {
        let Ok(metadata) = std::fs::symlink_metadata(&path) else {
            continue;
        };
        if metadata.is_dir() {
            walk(&path, report);
        } else if metadata.is_file() && path.file_name().is_some_and(|name| name == "SKILL.md") {
            let text = std::fs::read_to_string(&path).unwrap_or_default();
            let directory_name = directory
                .file_name()
                .map(|name| name.to_string_lossy().into_owned());
            let mut name = directory_name.unwrap_or_default();
            let mut description = String::new();
            for line in text
                .lines()
                .skip(1)
                .take_while(|line| line.trim_end() != "---")
            {
                if let Some(value) = line.strip_prefix("name:") {
                    name = value.trim().to_string();
                } else if let Some(value) = line.strip_prefix("description:") {
                    description = value.trim().to_string();
                }
            }
            report.skills.push(Skill {
                name,
                description,
                location: path.display().to_string(),
            });
        }
    }
}
