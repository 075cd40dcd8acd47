//! Where Gemini CLI 0.61.0 finds skills, and in which order (`SkillManager.discoverSkills` and
//! `loadSkillsFromDir` in the core chunk of the bundle; docs/clients-observed.md):
//!
//! - roots, in order: the bundle's `builtin/`, extensions' `skills/` (not modelled), `~/.gemini/skills`,
//!   `~/.agents/skills`, then `.gemini/skills` and `.agents/skills` of the working folder only (no
//!   parent, no git root; `g-subdir`, `g-subdir-git`); `~` is `$GEMINI_CLI_HOME`, else `HOME`;
//! - in a root: its own `SKILL.md`, then `*/SKILL.md` (glob, `nodir`, dot folders and
//!   `node_modules` skipped), the folders in descending byte order of their names (`g-order`,
//!   `g-many`); links are followed (a dangling one is passed over) and the location keeps the
//!   path through the link (`g-symlink`);
//! - the working folder is the physical one (getcwd), a root the absolute path as written.

use std::path::{Path, PathBuf};

/// The skill roots for a client started in `project` (already canonical) with `home` as its `~`,
/// in the order they are read (later skills replace earlier ones of the same name).
pub fn roots(project: &Path, home: Option<&Path>) -> Vec<PathBuf> {
    let mut roots = Vec::new();
    if let Some(home) = home {
        roots.push(home.join(".gemini").join("skills"));
        roots.push(home.join(".agents").join("skills"));
    }
    roots.push(project.join(".gemini").join("skills"));
    roots.push(project.join(".agents").join("skills"));
    roots
}

/// Whether the glob `*` (with `dot: false`) and the `node_modules` ignore let a folder name through.
pub fn folder_walked(name: &[u8]) -> bool {
    !name.starts_with(b".") && name != b"node_modules"
}

/// The `SKILL.md` files of one root in the client's order: the root's own first, then one per
/// folder, descending byte order of the folder names. Files that exist but cannot be read as a
/// folder listing are named in `problems`.
pub fn skill_files(root: &Path, problems: &mut Vec<String>) -> Vec<PathBuf> {
    let mut files = Vec::new();
    // `fs.stat` follows a linked root (`g-symlink-root`); a missing root is no problem.
    if !std::fs::metadata(root).is_ok_and(|meta| meta.is_dir()) {
        return files;
    }
    let own = root.join("SKILL.md");
    if std::fs::metadata(&own).is_ok_and(|meta| meta.is_file()) {
        files.push(own);
    }
    let entries = match std::fs::read_dir(root) {
        Ok(entries) => entries,
        Err(error) => {
            problems.push(format!("{}: {error}", root.display()));
            return files;
        }
    };
    let mut folders: Vec<std::ffi::OsString> = entries
        .flatten()
        .map(|entry| entry.file_name())
        .filter(|name| folder_walked(name.as_encoded_bytes()))
        .filter(|name| std::fs::metadata(root.join(name)).is_ok_and(|meta| meta.is_dir()))
        .collect();
    folders.sort_by(|a, b| b.as_encoded_bytes().cmp(a.as_encoded_bytes()));
    for folder in folders {
        let file = root.join(&folder).join("SKILL.md");
        if std::fs::metadata(&file).is_ok_and(|meta| meta.is_file()) {
            files.push(file);
        }
    }
    files
}
