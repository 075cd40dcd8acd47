//! The files of a skill besides its SKILL.md: `scripts/`, `references/`, `assets/` and anything else in
//! the skill folder. Listed, created, renamed and deleted through the guarded file layer ([`crate::fs`]):
//! nothing below a root is reached through a link, nothing existing is replaced, and every path is
//! checked to stay inside the skill's own folder.

use std::os::fd::OwnedFd;
use std::path::{Component, Path, PathBuf};

use rustix::fs::FileType;
use serde::Serialize;

use crate::fs::{FileError, Roots, SaveGuard};

/// How many entries of one skill folder are listed; a larger folder says it was cut.
pub const MAX_ENTRIES: usize = 2_000;
/// How deep below the skill folder the listing goes (the lint walk's own limit).
pub const MAX_DEPTH: usize = crate::lint::workspace::MAX_DEPTH;
/// How much of a file is read to tell text from binary.
const SNIFF_BYTES: usize = 8 * 1024;

/// Why a change to a skill's files was refused.
#[derive(Debug, thiserror::Error)]
pub enum ResourceError {
    #[error("{}: not a SKILL.md; resources belong to a skill", .0.display())]
    NotASkill(PathBuf),
    #[error("`{name}` is not a usable file name: {why}")]
    BadName { name: String, why: &'static str },
    #[error("{}: outside the skill folder {}; files are created, renamed and deleted only inside it", path.display(), folder.display())]
    OutsideSkill { path: PathBuf, folder: PathBuf },
    #[error("{}: this is the skill itself; rename or delete the skill folder instead", .0.display())]
    SkillFile(PathBuf),
    #[error("`{0}` is not a valid skill name: use 1-64 lowercase letters, digits and single hyphens, not at the start or end")]
    InvalidSkillName(String),
    #[error("{}: {reason}", path.display())]
    NameNotUpdated { path: PathBuf, reason: String },
    #[error(transparent)]
    File(#[from] FileError),
}

/// What a listed entry is.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
#[serde(rename_all = "snake_case")]
pub enum ResourceKind {
    Folder,
    /// A regular file of UTF-8 text: opens in the editor.
    Text,
    /// A regular file that is not UTF-8 text (images, archives): never opened as text.
    Binary,
    /// A regular file larger than the editor opens.
    TooLarge,
    /// A symbolic link: never followed.
    Symlink,
    /// A FIFO, socket or device: never read.
    Special,
}

/// One file or folder of a skill.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
pub struct ResourceEntry {
    /// Absolute path.
    pub path: String,
    /// Relative to the skill folder, with `/`.
    pub relative: String,
    pub name: String,
    /// 0 for an entry of the skill folder itself.
    pub depth: u32,
    pub kind: ResourceKind,
    /// Bytes, for files.
    pub size: f64,
    /// Why the entry cannot be opened, when it cannot ("binary file", "link to … outside the skill folder").
    pub note: Option<String>,
}

/// The files of one skill, folders before the files they hold, each level by name.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
pub struct SkillFiles {
    /// The skill folder, absolute.
    pub folder: String,
    pub entries: Vec<ResourceEntry>,
    /// More entries than [`MAX_ENTRIES`], or folders deeper than [`MAX_DEPTH`], were left out.
    pub truncated: bool,
    /// Folders that could not be listed, with why.
    pub problems: Vec<String>,
}

/// The folder of the skill whose SKILL.md is `skill_file`.
pub fn skill_folder(skill_file: &Path) -> Result<&Path, ResourceError> {
    let is_skill = skill_file
        .file_name()
        .is_some_and(|name| name.eq_ignore_ascii_case("SKILL.md"));
    match skill_file.parent() {
        Some(folder) if is_skill && skill_file.is_absolute() => Ok(folder),
        _ => Err(ResourceError::NotASkill(skill_file.to_path_buf())),
    }
}

/// Whether the bytes read from the start of a file are text: no NUL byte and valid UTF-8 (a character
/// cut by the end of the sample is allowed when the file goes on).
pub fn looks_like_text(sample: &[u8], whole: bool) -> bool {
    if sample.contains(&0) {
        return false;
    }
    match std::str::from_utf8(sample) {
        Ok(_) => true,
        Err(error) => !whole && error.error_len().is_none(),
    }
}

/// Lists the files of the skill whose SKILL.md is `skill_file` (the SKILL.md itself left out).
pub fn list(roots: &Roots, skill_file: &Path) -> Result<SkillFiles, ResourceError> {
    let folder = skill_folder(skill_file)?;
    let descriptor = roots.open_folder(folder)?;
    let mut listing = SkillFiles {
        folder: folder.display().to_string(),
        entries: Vec::new(),
        truncated: false,
        problems: Vec::new(),
    };
    list_into(&descriptor, folder, "", 0, &mut listing);
    Ok(listing)
}

fn list_into(
    descriptor: &OwnedFd,
    path: &Path,
    relative: &str,
    depth: usize,
    out: &mut SkillFiles,
) {
    let entries = match crate::fs::walk::list(descriptor) {
        Ok(entries) => entries,
        Err(errno) => {
            out.problems.push(format!(
                "{}: cannot be listed ({})",
                path.display(),
                std::io::Error::from(errno)
            ));
            return;
        }
    };
    // Folders first, then files, each by name, as file managers show them.
    let mut ordered: Vec<&crate::fs::walk::Entry> = entries.iter().collect();
    ordered.sort_by_key(|entry| (entry.kind != FileType::Directory, entry.name.clone()));
    for entry in ordered {
        if depth == 0 && entry.name_bytes() == b"SKILL.md" {
            continue;
        }
        if out.entries.len() >= MAX_ENTRIES {
            out.truncated = true;
            return;
        }
        let name = entry.os_name().to_string_lossy().into_owned();
        let entry_path = path.join(entry.os_name());
        let entry_relative = if relative.is_empty() {
            name.clone()
        } else {
            format!("{relative}/{name}")
        };
        let (kind, size, note) = classify(descriptor, entry, &entry_relative);
        out.entries.push(ResourceEntry {
            path: entry_path.display().to_string(),
            relative: entry_relative.clone(),
            name,
            depth: u32::try_from(depth).unwrap_or(u32::MAX),
            kind,
            size: size as f64,
            note,
        });
        if kind == ResourceKind::Folder {
            if depth >= MAX_DEPTH {
                out.truncated = true;
                continue;
            }
            match crate::fs::open::directory_at(descriptor, entry.name.as_c_str()) {
                Ok(child) => list_into(&child, &entry_path, &entry_relative, depth + 1, out),
                Err(errno) => out.problems.push(format!(
                    "{}: cannot be listed ({})",
                    entry_path.display(),
                    std::io::Error::from(errno)
                )),
            }
        }
    }
}

fn classify(
    folder: &OwnedFd,
    entry: &crate::fs::walk::Entry,
    relative: &str,
) -> (ResourceKind, u64, Option<String>) {
    use crate::fs::read::{self, Limit};
    match entry.kind {
        FileType::Directory => (ResourceKind::Folder, 0, None),
        FileType::Symlink => {
            let target = crate::fs::open::link_target_at(folder, entry.name.as_c_str())
                .map(PathBuf::from)
                .unwrap_or_default();
            let base = Path::new(relative).parent().unwrap_or(Path::new(""));
            let inside =
                crate::lint::rules::body::resolve_inside(&base.join(&target).to_string_lossy());
            let note = match inside {
                Ok(inside) if !target.is_absolute() => format!(
                    "symbolic link to {}; links are not followed, open `{}` itself",
                    target.display(),
                    inside.display()
                ),
                _ => format!(
                    "symbolic link to {}, outside the skill folder; links are not followed",
                    target.display()
                ),
            };
            (ResourceKind::Symlink, 0, Some(note))
        }
        FileType::RegularFile => {
            let Ok(file) = crate::fs::open::file_at(folder, entry.name.as_c_str()) else {
                return (
                    ResourceKind::Special,
                    0,
                    Some("cannot be opened; check its permissions".to_string()),
                );
            };
            match read::prefix(file, SNIFF_BYTES) {
                Ok(prefix) if prefix.size > Limit::SKILL_FILE.bytes => (
                    ResourceKind::TooLarge,
                    prefix.size,
                    Some(format!(
                        "{} bytes: larger than the {} bytes the editor opens",
                        prefix.size,
                        Limit::SKILL_FILE.bytes
                    )),
                ),
                Ok(prefix) => {
                    let whole = prefix.bytes.len() as u64 >= prefix.size;
                    if looks_like_text(&prefix.bytes, whole) {
                        (ResourceKind::Text, prefix.size, None)
                    } else {
                        (
                            ResourceKind::Binary,
                            prefix.size,
                            Some(format!("binary file, {}", human_size(prefix.size))),
                        )
                    }
                }
                Err(error) => (ResourceKind::Special, 0, Some(error.to_string())),
            }
        }
        other => (
            ResourceKind::Special,
            0,
            Some(format!(
                "{}; only regular files are opened",
                crate::fs::open::describe(other)
            )),
        ),
    }
}

/// "1.2 KB", "3 bytes".
pub fn human_size(bytes: u64) -> String {
    match bytes {
        0..=1023 => format!("{bytes} bytes"),
        1024..=1_048_575 => format!("{:.1} KB", bytes as f64 / 1024.0),
        _ => format!("{:.1} MB", bytes as f64 / 1_048_576.0),
    }
}

/// `relative` (with `/`) made a path inside `folder`, refusing empty, absolute, `.`/`..` and
/// NUL-holding names.
pub fn inside_folder(folder: &Path, relative: &str) -> Result<PathBuf, ResourceError> {
    let bad = |why| ResourceError::BadName {
        name: relative.to_string(),
        why,
    };
    let trimmed = relative.trim();
    if trimmed.is_empty() {
        return Err(bad("the name is empty"));
    }
    if trimmed.contains('\0') {
        return Err(bad("it contains a NUL character"));
    }
    if trimmed.contains('\\') {
        return Err(bad(
            "`\\` is not a folder separator on Linux and macOS; use `/`",
        ));
    }
    if trimmed.starts_with('/') {
        return Err(ResourceError::OutsideSkill {
            path: PathBuf::from(trimmed),
            folder: folder.to_path_buf(),
        });
    }
    let mut path = folder.to_path_buf();
    for component in Path::new(trimmed).components() {
        match component {
            Component::Normal(part) => path.push(part),
            Component::CurDir => return Err(bad("`.` is not a file name")),
            Component::ParentDir | Component::RootDir | Component::Prefix(_) => {
                return Err(ResourceError::OutsideSkill {
                    path: folder.join(trimmed),
                    folder: folder.to_path_buf(),
                })
            }
        }
    }
    Ok(path)
}

/// Checks that the absolute `path` lies strictly inside `folder` (lexically; the file layer then
/// refuses links physically) and is not the SKILL.md itself.
fn check_inside(folder: &Path, path: &Path) -> Result<(), ResourceError> {
    let normal = path.is_absolute()
        && !path
            .components()
            .any(|component| matches!(component, Component::ParentDir | Component::CurDir));
    if !normal || !path.starts_with(folder) || path == folder {
        return Err(ResourceError::OutsideSkill {
            path: path.to_path_buf(),
            folder: folder.to_path_buf(),
        });
    }
    if path == folder.join("SKILL.md") {
        return Err(ResourceError::SkillFile(path.to_path_buf()));
    }
    Ok(())
}

/// Creates an empty file (or, with `folder`, a folder) at `relative` inside the skill; missing folders
/// on the way are made; nothing existing is replaced. Returns the new path.
pub fn create(
    roots: &Roots,
    skill_file: &Path,
    relative: &str,
    folder: bool,
) -> Result<PathBuf, ResourceError> {
    create_with(roots, skill_file, relative, folder, "")
}

fn create_with(
    roots: &Roots,
    skill_file: &Path,
    relative: &str,
    folder: bool,
    text: &str,
) -> Result<PathBuf, ResourceError> {
    let skill = skill_folder(skill_file)?;
    let path = inside_folder(skill, relative)?;
    check_inside(skill, &path)?;
    if let Some(parent) = path.parent().filter(|parent| *parent != skill) {
        roots.create_directory(parent)?;
    }
    if folder {
        roots.create_new_directory(&path)?;
    } else {
        roots.write_text(&path, text, &SaveGuard::New)?;
    }
    Ok(path)
}

/// Renames (or moves) the file or folder `from` of the skill to `to_relative`, a path relative to the
/// skill folder; refused when it would leave the folder, rename the SKILL.md or replace anything.
pub fn rename(
    roots: &Roots,
    skill_file: &Path,
    from: &Path,
    to_relative: &str,
) -> Result<PathBuf, ResourceError> {
    let skill = skill_folder(skill_file)?;
    check_inside(skill, from)?;
    let to = inside_folder(skill, to_relative)?;
    check_inside(skill, &to)?;
    if to.starts_with(from) && to != from {
        return Err(ResourceError::BadName {
            name: to_relative.to_string(),
            why: "a folder cannot be moved into itself",
        });
    }
    if let Some(parent) = to.parent().filter(|parent| *parent != skill) {
        roots.create_directory(parent)?;
    }
    roots.rename(from, &to)?;
    Ok(to)
}

/// Deletes the file, link or folder `path` of the skill (never the SKILL.md or the skill folder).
pub fn delete(roots: &Roots, skill_file: &Path, path: &Path) -> Result<(), ResourceError> {
    let skill = skill_folder(skill_file)?;
    check_inside(skill, path)?;
    roots.remove(path)?;
    Ok(())
}

/// Creates the missing file a link of the skill points to (`target` as written in the link, relative
/// to the skill folder); it must resolve inside the folder and not exist yet. Markdown files start
/// with a heading named after the file.
pub fn create_link_target(
    roots: &Roots,
    skill_file: &Path,
    target: &str,
) -> Result<PathBuf, ResourceError> {
    let skill = skill_folder(skill_file)?;
    let without_fragment = target.split(['#', '?']).next().unwrap_or_default();
    let inside = crate::lint::rules::body::resolve_inside(without_fragment).map_err(|why| {
        ResourceError::OutsideSkill {
            path: PathBuf::from(format!("{target} ({why})")),
            folder: skill.to_path_buf(),
        }
    })?;
    let relative = inside.to_string_lossy().into_owned();
    let text = if inside
        .extension()
        .is_some_and(|extension| extension.eq_ignore_ascii_case("md"))
    {
        let title = inside
            .file_stem()
            .map(|stem| stem.to_string_lossy().replace(['-', '_'], " "))
            .unwrap_or_default();
        format!("# {title}\n")
    } else {
        String::new()
    };
    create_with(roots, skill_file, &relative, false, &text)
}

/// Renames the skill folder to `new_name` and sets the SKILL.md's `name` to it in the same operation.
/// `fingerprint` is that of the SKILL.md as the editor last read or saved it: the rename is refused
/// when the file changed since, so no edit is lost. Returns the new SKILL.md path.
pub fn rename_skill(
    roots: &Roots,
    skill_file: &Path,
    new_name: &str,
    fingerprint: &crate::fs::Fingerprint,
) -> Result<PathBuf, ResourceError> {
    if !crate::scaffold::is_valid_name(new_name) {
        return Err(ResourceError::InvalidSkillName(new_name.to_string()));
    }
    let folder = skill_folder(skill_file)?;
    let parent = folder
        .parent()
        .ok_or_else(|| ResourceError::NotASkill(skill_file.to_path_buf()))?;
    if roots.as_slice().iter().any(|root| root == folder) {
        return Err(ResourceError::NameNotUpdated {
            path: folder.to_path_buf(),
            reason: "is an opened folder itself; close it and rename it in your file manager"
                .to_string(),
        });
    }
    let current = roots.read_text(skill_file)?;
    if &current.fingerprint != fingerprint {
        return Err(FileError::ChangedOnDisk(skill_file.to_path_buf()).into());
    }
    let renamed_text = with_name(skill_file, &current.text, new_name)?;
    let new_folder = parent.join(new_name);
    if new_folder == folder {
        return Ok(skill_file.to_path_buf());
    }
    let file_name = skill_file
        .file_name()
        .unwrap_or(std::ffi::OsStr::new("SKILL.md"));
    roots.rename(folder, &new_folder)?;
    let new_file = new_folder.join(file_name);
    if renamed_text != current.text {
        let written = roots.write_text(
            &new_file,
            &renamed_text,
            &SaveGuard::Unchanged(current.fingerprint.clone()),
        );
        if let Err(error) = written {
            // Put the folder back, so the skill is as it was and the failure is the only news.
            let _ = roots.rename(&new_folder, folder);
            return Err(error.into());
        }
    }
    Ok(new_file)
}

/// The SKILL.md text with its `name` value set to `name`, through the same edit the
/// `name-directory-mismatch` fix makes; refused when the frontmatter has no `name` to update.
fn with_name(skill_file: &Path, text: &str, name: &str) -> Result<String, ResourceError> {
    use crate::lint::context::SkillFile;
    use crate::lint::workspace::{lint_file, LintOptions};
    let renamed_path = skill_file
        .parent()
        .and_then(Path::parent)
        .map(|parent| parent.join(name).join("SKILL.md"))
        .unwrap_or_else(|| PathBuf::from(name).join("SKILL.md"));
    let file = SkillFile::from_bytes(
        renamed_path.clone(),
        renamed_path.display().to_string(),
        text.as_bytes().to_vec(),
    );
    let options = LintOptions {
        profiles: vec![crate::lint::ProfileId::Spec],
        config: Default::default(),
    };
    let report = lint_file(&file, &options, &crate::lint::context::RealFiles);
    let not_updated = |reason: &str| ResourceError::NameNotUpdated {
        path: skill_file.to_path_buf(),
        reason: reason.to_string(),
    };
    if report.diagnostics.iter().any(|diagnostic| {
        matches!(
            diagnostic.rule.as_str(),
            "name-missing" | "frontmatter-missing" | "yaml-invalid" | "frontmatter-unterminated"
        )
    }) {
        return Err(not_updated(
            "its frontmatter has no readable `name`; fix the frontmatter first, then rename",
        ));
    }
    let Some(mismatch) = report
        .diagnostics
        .iter()
        .find(|diagnostic| diagnostic.rule == "name-directory-mismatch")
    else {
        return Ok(text.to_string());
    };
    let fixed = mismatch
        .fix
        .as_ref()
        .and_then(|fix| crate::lint::fix::apply_one(text, &fix.edits))
        .ok_or_else(|| {
            not_updated("its `name` cannot be rewritten safely; set it by hand, then rename")
        })?;
    Ok(fixed)
}

impl crate::workspace::Workspace {
    fn writable(&self, path: &Path) -> Result<(), crate::workspace::WorkspaceError> {
        if self.is_builtin() || path.starts_with(crate::builtin::LOCATION_PREFIX) {
            return Err(crate::workspace::WorkspaceError::ReadOnly(
                path.display().to_string(),
            ));
        }
        Ok(())
    }

    /// The files of the skill whose SKILL.md is `skill_file`.
    pub fn skill_files(&self, skill_file: &Path) -> Result<SkillFiles, ResourceError> {
        list(self.roots(), skill_file)
    }

    /// Creates a file or folder in a skill ([`create`]).
    pub fn create_resource(
        &self,
        skill_file: &Path,
        relative: &str,
        folder: bool,
    ) -> Result<PathBuf, crate::workspace::WorkspaceError> {
        self.writable(skill_file)?;
        let created = create(self.roots(), skill_file, relative, folder)?;
        self.forget_catalog();
        Ok(created)
    }

    /// Renames a file or folder of a skill ([`rename`]).
    pub fn rename_resource(
        &self,
        skill_file: &Path,
        from: &Path,
        to_relative: &str,
    ) -> Result<PathBuf, crate::workspace::WorkspaceError> {
        self.writable(skill_file)?;
        let renamed = rename(self.roots(), skill_file, from, to_relative)?;
        self.forget_catalog();
        Ok(renamed)
    }

    /// Deletes a file or folder of a skill ([`delete`]).
    pub fn delete_resource(
        &self,
        skill_file: &Path,
        path: &Path,
    ) -> Result<(), crate::workspace::WorkspaceError> {
        self.writable(skill_file)?;
        delete(self.roots(), skill_file, path)?;
        self.forget_catalog();
        Ok(())
    }

    /// Creates the missing target of a link in a skill ([`create_link_target`]).
    pub fn create_link_target(
        &self,
        skill_file: &Path,
        target: &str,
    ) -> Result<PathBuf, crate::workspace::WorkspaceError> {
        self.writable(skill_file)?;
        let created = create_link_target(self.roots(), skill_file, target)?;
        self.forget_catalog();
        Ok(created)
    }

    /// Renames a skill folder together with its `name` ([`rename_skill`]).
    pub fn rename_skill(
        &self,
        skill_file: &Path,
        new_name: &str,
        fingerprint: &crate::fs::Fingerprint,
    ) -> Result<PathBuf, crate::workspace::WorkspaceError> {
        self.writable(skill_file)?;
        let renamed = rename_skill(self.roots(), skill_file, new_name, fingerprint)?;
        self.forget_catalog();
        Ok(renamed)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    struct Fixture {
        _temp: tempfile::TempDir,
        outside: PathBuf,
        root: PathBuf,
        skill: PathBuf,
        roots: Roots,
    }

    fn fixture() -> Fixture {
        let temp = tempfile::tempdir().expect("temporary directory");
        let root = temp.path().join("root");
        let folder = root.join("pdf-tools");
        std::fs::create_dir_all(folder.join("scripts")).expect("mkdir");
        std::fs::write(
            folder.join("SKILL.md"),
            "---\nname: pdf-tools\ndescription: Fills PDF forms. Use when asked to fill a PDF.\n---\n# PDF\n",
        )
        .expect("write");
        std::fs::write(folder.join("scripts/fill.py"), "print('hi')\n").expect("write");
        std::fs::write(folder.join("logo.png"), [0x89, b'P', b'N', b'G', 0, 0, 1]).expect("write");
        let outside = temp.path().join("outside");
        std::fs::create_dir_all(&outside).expect("mkdir");
        std::fs::write(outside.join("secret.txt"), "secret").expect("write");
        Fixture {
            skill: folder.join("SKILL.md"),
            roots: Roots::new([root.clone()]),
            root,
            outside,
            _temp: temp,
        }
    }

    fn kinds(listing: &SkillFiles) -> Vec<(String, ResourceKind, u32)> {
        listing
            .entries
            .iter()
            .map(|entry| (entry.relative.clone(), entry.kind, entry.depth))
            .collect()
    }

    #[test]
    fn lists_folders_first_and_tells_text_from_binary_links_and_fifos() {
        let f = fixture();
        let folder = f.root.join("pdf-tools");
        std::os::unix::fs::symlink(f.outside.join("secret.txt"), folder.join("leak.txt"))
            .expect("link");
        std::os::unix::fs::symlink("scripts/fill.py", folder.join("alias.py")).expect("link");
        rustix::fs::mknodat(
            rustix::fs::CWD,
            folder.join("pipe"),
            FileType::Fifo,
            rustix::fs::Mode::from_raw_mode(0o600),
            0,
        )
        .expect("mkfifo");
        let listing = list(&f.roots, &f.skill).expect("list");
        assert_eq!(
            kinds(&listing),
            [
                ("scripts".to_string(), ResourceKind::Folder, 0),
                ("scripts/fill.py".to_string(), ResourceKind::Text, 1),
                ("alias.py".to_string(), ResourceKind::Symlink, 0),
                ("leak.txt".to_string(), ResourceKind::Symlink, 0),
                ("logo.png".to_string(), ResourceKind::Binary, 0),
                ("pipe".to_string(), ResourceKind::Special, 0),
            ]
        );
        let note = |name: &str| {
            listing
                .entries
                .iter()
                .find(|entry| entry.relative == name)
                .and_then(|entry| entry.note.clone())
                .unwrap_or_default()
        };
        assert_eq!(note("logo.png"), "binary file, 7 bytes");
        assert!(
            note("leak.txt").contains("outside the skill folder"),
            "{}",
            note("leak.txt")
        );
        assert!(
            note("alias.py").contains("open `scripts/fill.py` itself"),
            "{}",
            note("alias.py")
        );
        assert!(note("pipe").contains("FIFO"), "{}", note("pipe"));
        assert!(!listing.truncated);
    }

    #[test]
    fn a_cut_utf8_character_at_the_end_of_a_sample_is_still_text() {
        let text = "é".repeat(10);
        let cut = &text.as_bytes()[..5];
        assert!(looks_like_text(cut, false));
        assert!(!looks_like_text(cut, true));
        assert!(!looks_like_text(b"a\0b", false));
    }

    #[test]
    fn creates_files_and_folders_but_never_replaces_or_leaves_the_skill() {
        let f = fixture();
        let folder = f.root.join("pdf-tools");
        let created = create(&f.roots, &f.skill, "references/forms.md", false).expect("create");
        assert_eq!(created, folder.join("references/forms.md"));
        assert_eq!(std::fs::read_to_string(&created).expect("read"), "");
        create(&f.roots, &f.skill, "assets", true).expect("folder");
        assert!(folder.join("assets").is_dir());
        let again = create(&f.roots, &f.skill, "scripts/fill.py", false).expect_err("exists");
        assert!(
            matches!(again, ResourceError::File(FileError::AlreadyExists(_))),
            "{again}"
        );
        assert_eq!(
            std::fs::read_to_string(folder.join("scripts/fill.py")).expect("read"),
            "print('hi')\n"
        );
        let folder_again = create(&f.roots, &f.skill, "scripts", true).expect_err("exists");
        assert!(matches!(
            folder_again,
            ResourceError::File(FileError::AlreadyExists(_))
        ));
        for escaping in ["../escape.md", "/etc/passwd", "scripts/../../x"] {
            let error = create(&f.roots, &f.skill, escaping, false).expect_err(escaping);
            assert!(
                matches!(error, ResourceError::OutsideSkill { .. }),
                "{escaping}: {error}"
            );
        }
        assert!(!f.root.join("escape.md").exists());
        let skill_md = create(&f.roots, &f.skill, "SKILL.md", false).expect_err("skill");
        assert!(
            matches!(skill_md, ResourceError::SkillFile(_)),
            "{skill_md}"
        );
        assert!(matches!(
            create(&f.roots, &f.skill, "  ", false),
            Err(ResourceError::BadName { .. })
        ));
    }

    #[test]
    fn never_creates_through_a_link_out_of_the_root() {
        let f = fixture();
        let folder = f.root.join("pdf-tools");
        std::os::unix::fs::symlink(&f.outside, folder.join("out")).expect("link");
        let error = create(&f.roots, &f.skill, "out/planted.md", false).expect_err("link");
        assert!(
            matches!(error, ResourceError::File(FileError::Symlink { .. })),
            "{error}"
        );
        assert!(!f.outside.join("planted.md").exists());
    }

    #[test]
    fn renames_inside_the_skill_and_refuses_clobbering_or_leaving_it() {
        let f = fixture();
        let folder = f.root.join("pdf-tools");
        let from = folder.join("scripts/fill.py");
        let to = rename(&f.roots, &f.skill, &from, "scripts/fill_form.py").expect("rename");
        assert_eq!(to, folder.join("scripts/fill_form.py"));
        assert!(!from.exists() && to.is_file());
        std::fs::write(folder.join("scripts/other.py"), "other").expect("write");
        let clobber = rename(&f.roots, &f.skill, &to, "scripts/other.py").expect_err("exists");
        assert!(
            matches!(clobber, ResourceError::File(FileError::AlreadyExists(_))),
            "{clobber}"
        );
        assert_eq!(
            std::fs::read_to_string(folder.join("scripts/other.py")).expect("read"),
            "other"
        );
        let out = rename(&f.roots, &f.skill, &to, "../stolen.py").expect_err("outside");
        assert!(matches!(out, ResourceError::OutsideSkill { .. }), "{out}");
        assert!(to.is_file());
        let skill = rename(&f.roots, &f.skill, &f.skill, "README.md").expect_err("skill file");
        assert!(matches!(skill, ResourceError::SkillFile(_)));
        let into_itself =
            rename(&f.roots, &f.skill, &folder.join("scripts"), "scripts/inner").expect_err("self");
        assert!(
            matches!(into_itself, ResourceError::BadName { .. }),
            "{into_itself}"
        );
        let vanished =
            rename(&f.roots, &f.skill, &folder.join("gone.py"), "here.py").expect_err("vanished");
        assert!(
            matches!(vanished, ResourceError::File(FileError::NotFound(_))),
            "{vanished}"
        );
        let other_skill = f.root.join("other/notes.md");
        let foreign = rename(&f.roots, &f.skill, &other_skill, "notes.md").expect_err("foreign");
        assert!(matches!(foreign, ResourceError::OutsideSkill { .. }));
        // A folder moves with what it holds.
        rename(&f.roots, &f.skill, &folder.join("scripts"), "tools").expect("folder");
        assert!(folder.join("tools/fill_form.py").is_file());
    }

    #[test]
    fn deletes_files_folders_and_links_but_not_what_links_point_to() {
        let f = fixture();
        let folder = f.root.join("pdf-tools");
        std::os::unix::fs::symlink(&f.outside, folder.join("scripts/out")).expect("link");
        delete(&f.roots, &f.skill, &folder.join("logo.png")).expect("file");
        assert!(!folder.join("logo.png").exists());
        delete(&f.roots, &f.skill, &folder.join("scripts")).expect("folder");
        assert!(!folder.join("scripts").exists());
        assert!(
            f.outside.join("secret.txt").is_file(),
            "the link's target stays"
        );
        let gone = delete(&f.roots, &f.skill, &folder.join("scripts")).expect_err("gone");
        assert!(
            matches!(gone, ResourceError::File(FileError::NotFound(_))),
            "{gone}"
        );
        let skill = delete(&f.roots, &f.skill, &f.skill).expect_err("skill");
        assert!(matches!(skill, ResourceError::SkillFile(_)));
        let whole = delete(&f.roots, &f.skill, &folder).expect_err("folder itself");
        assert!(matches!(whole, ResourceError::OutsideSkill { .. }));
        assert!(f.skill.is_file());
        let dotted =
            delete(&f.roots, &f.skill, &folder.join("../pdf-tools/SKILL.md")).expect_err("..");
        assert!(matches!(dotted, ResourceError::OutsideSkill { .. }));
    }

    #[test]
    fn deleting_through_a_linked_folder_is_refused() {
        let f = fixture();
        let folder = f.root.join("pdf-tools");
        std::os::unix::fs::symlink(&f.outside, folder.join("out")).expect("link");
        let error = delete(&f.roots, &f.skill, &folder.join("out/secret.txt")).expect_err("link");
        assert!(
            matches!(error, ResourceError::File(FileError::Symlink { .. })),
            "{error}"
        );
        assert!(f.outside.join("secret.txt").is_file());
    }

    #[test]
    fn creates_a_missing_link_target_inside_the_skill_only() {
        let f = fixture();
        let folder = f.root.join("pdf-tools");
        let created = create_link_target(&f.roots, &f.skill, "references/form-guide.md#fields")
            .expect("create");
        assert_eq!(created, folder.join("references/form-guide.md"));
        assert_eq!(
            std::fs::read_to_string(&created).expect("read"),
            "# form guide\n"
        );
        let again =
            create_link_target(&f.roots, &f.skill, "references/form-guide.md").expect_err("exists");
        assert!(matches!(
            again,
            ResourceError::File(FileError::AlreadyExists(_))
        ));
        let spaced = create_link_target(&f.roots, &f.skill, "notes%20one.txt").expect("decoded");
        assert_eq!(spaced, folder.join("notes one.txt"));
        let out = create_link_target(&f.roots, &f.skill, "../x.md").expect_err("outside");
        assert!(matches!(out, ResourceError::OutsideSkill { .. }), "{out}");
        assert!(!f.root.join("x.md").exists());
    }

    #[test]
    fn renames_a_skill_folder_with_its_name() {
        let f = fixture();
        let current = f.roots.read_text(&f.skill).expect("read");
        let renamed =
            rename_skill(&f.roots, &f.skill, "pdf-forms", &current.fingerprint).expect("rename");
        assert_eq!(renamed, f.root.join("pdf-forms/SKILL.md"));
        let text = std::fs::read_to_string(&renamed).expect("read");
        assert!(
            text.starts_with("---\nname: pdf-forms\ndescription: Fills PDF forms."),
            "{text}"
        );
        assert!(f.root.join("pdf-forms/scripts/fill.py").is_file());
        assert!(!f.root.join("pdf-tools").exists());
    }

    #[test]
    fn a_skill_rename_is_refused_on_conflicts_and_leaves_everything_as_it_was() {
        let f = fixture();
        let original = std::fs::read_to_string(&f.skill).expect("read");
        let fingerprint = crate::fs::Fingerprint::of(original.as_bytes());
        std::fs::create_dir_all(f.root.join("taken")).expect("mkdir");
        let taken = rename_skill(&f.roots, &f.skill, "taken", &fingerprint).expect_err("taken");
        assert!(
            matches!(taken, ResourceError::File(FileError::AlreadyExists(_))),
            "{taken}"
        );
        let invalid =
            rename_skill(&f.roots, &f.skill, "Bad Name", &fingerprint).expect_err("invalid");
        assert!(matches!(invalid, ResourceError::InvalidSkillName(_)));
        let escape = rename_skill(&f.roots, &f.skill, "../x", &fingerprint).expect_err("escape");
        assert!(matches!(escape, ResourceError::InvalidSkillName(_)));
        // Edited elsewhere since the editor read it: nothing is renamed, nothing is written.
        std::fs::write(&f.skill, format!("{original}their edit\n")).expect("write");
        let changed =
            rename_skill(&f.roots, &f.skill, "pdf-forms", &fingerprint).expect_err("changed");
        assert!(
            matches!(changed, ResourceError::File(FileError::ChangedOnDisk(_))),
            "{changed}"
        );
        assert!(f.skill.is_file() && !f.root.join("pdf-forms").exists());
        assert!(std::fs::read_to_string(&f.skill)
            .expect("read")
            .ends_with("their edit\n"));
        // No `name` to update: refused before anything moves.
        std::fs::write(&f.skill, "no frontmatter\n").expect("write");
        let fingerprint = crate::fs::Fingerprint::of(b"no frontmatter\n");
        let nameless =
            rename_skill(&f.roots, &f.skill, "pdf-forms", &fingerprint).expect_err("nameless");
        assert!(
            matches!(nameless, ResourceError::NameNotUpdated { .. }),
            "{nameless}"
        );
        assert!(f.skill.is_file() && !f.root.join("pdf-forms").exists());
    }

    #[test]
    fn an_opened_folder_that_is_a_skill_is_not_renamed() {
        let f = fixture();
        let folder = f.root.join("pdf-tools");
        let roots = Roots::new([folder.clone()]);
        let fingerprint = roots.read_text(&f.skill).expect("read").fingerprint;
        let error = rename_skill(&roots, &f.skill, "pdf-forms", &fingerprint).expect_err("root");
        assert!(
            matches!(error, ResourceError::NameNotUpdated { .. }),
            "{error}"
        );
        assert!(folder.is_dir());
    }
}
