//! The builtin skills, embedded from the repository's `skills/` folder at compile time.

use std::path::{Path, PathBuf};

use include_dir::{include_dir, Dir};

use crate::fs::{FileError, Roots, SaveGuard};
use crate::lint::context::FileProbe;

/// The repository's `skills/` folder, as it was when the engine was compiled.
pub static BUILTIN_SKILLS: Dir<'static> = include_dir!("$CARGO_MANIFEST_DIR/../../skills");

/// How builtin skill locations start: `package:skillforge/skills/<dir>/SKILL.md`.
pub const LOCATION_PREFIX: &str = "package:skillforge/skills/";

/// The text of a builtin file, by its location; `None` when there is no such text file.
pub fn file_text(location: &str) -> Option<&'static str> {
    let relative = location.strip_prefix(LOCATION_PREFIX)?;
    BUILTIN_SKILLS.get_file(relative)?.contents_utf8()
}

/// Why a builtin skill cannot be duplicated.
#[derive(Debug, thiserror::Error)]
pub enum DuplicateError {
    #[error("`{0}` is not a builtin skill")]
    UnknownSkill(String),
    #[error("{}: a folder with this name is already there; choose another folder, or rename or remove it first", .0.display())]
    FolderExists(PathBuf),
    #[error(transparent)]
    File(FileError),
}

/// The folder name of the builtin skill a location belongs to, e.g. `writing-skill-descriptions` for
/// `package:skillforge/skills/writing-skill-descriptions/SKILL.md`; `None` unless the location names
/// an embedded file or folder inside a builtin skill.
pub fn skill_dir_name(location: &str) -> Option<&str> {
    let relative = location.strip_prefix(LOCATION_PREFIX)?;
    let (dir_name, _) = relative.split_once('/').unwrap_or((relative, ""));
    builtin_skill(dir_name)?;
    let inside = is_embedded(relative);
    let is_skill = BUILTIN_SKILLS
        .get_file(format!("{dir_name}/SKILL.md"))
        .is_some();
    (inside && is_skill).then_some(dir_name)
}

/// Whether `relative` (below the embedded `skills/` folder, e.g. `my-skill/references/a.md`) names an
/// embedded file or folder.
pub fn is_embedded(relative: &str) -> bool {
    BUILTIN_SKILLS.get_file(relative).is_some()
        || BUILTIN_SKILLS
            .get_dir(relative.trim_end_matches('/'))
            .is_some()
}

/// The linter's "does this linked file exist?": builtin locations
/// (`package:skillforge/skills/...`) are answered from the embedded files, every other path from
/// the disk.
#[derive(Debug, Default, Clone, Copy)]
pub struct EmbeddedOrDisk;

impl FileProbe for EmbeddedOrDisk {
    fn exists(&self, skill_dir: &Path, inside: &Path) -> bool {
        let path = skill_dir.join(inside);
        match path
            .to_str()
            .and_then(|path| path.strip_prefix(LOCATION_PREFIX))
        {
            Some(relative) => is_embedded(relative),
            None => crate::lint::context::RealFiles.exists(skill_dir, inside),
        }
    }
}

/// A top-level folder of the embedded skills, looked up by its exact name (never a nested path).
fn builtin_skill(dir_name: &str) -> Option<&'static Dir<'static>> {
    BUILTIN_SKILLS
        .dirs()
        .find(|dir| dir.path().as_os_str() == dir_name)
}

/// Copies every file of the builtin skill `skill_dir_name` into a new folder
/// `destination_parent/<skill_dir_name>/` and returns the path of the copied SKILL.md.
///
/// `destination_parent` must be absolute. Everything is written through [`Roots`] rooted at it, so no
/// link is followed and nothing that exists is replaced: if `<skill_dir_name>` is already there, nothing
/// is written at all. A failure part way (a full disk) leaves the files copied so far in the new folder.
pub fn duplicate_builtin(
    skill_dir_name: &str,
    destination_parent: &Path,
) -> Result<PathBuf, DuplicateError> {
    let skill = builtin_skill(skill_dir_name)
        .ok_or_else(|| DuplicateError::UnknownSkill(skill_dir_name.to_string()))?;
    let roots = Roots::new([destination_parent.to_path_buf()]);
    let folder = destination_parent.join(skill.path());
    roots
        .create_new_directory(&folder)
        .map_err(|error| match error {
            FileError::AlreadyExists(path) => DuplicateError::FolderExists(path),
            other => DuplicateError::File(other),
        })?;
    copy_contents(&roots, skill, destination_parent).map_err(DuplicateError::File)?;
    Ok(folder.join("SKILL.md"))
}

fn copy_contents(roots: &Roots, dir: &Dir<'_>, destination_parent: &Path) -> Result<(), FileError> {
    for file in dir.files() {
        roots.write_bytes(
            &destination_parent.join(file.path()),
            file.contents(),
            &SaveGuard::New,
        )?;
    }
    for child in dir.dirs() {
        roots.create_directory(&destination_parent.join(child.path()))?;
        copy_contents(roots, child, destination_parent)?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use std::path::Path;

    use super::*;

    const SKILL: &str = "structuring-skill-resources";

    #[test]
    fn links_in_builtin_skills_are_checked_against_the_embedded_files() {
        let location = format!("{LOCATION_PREFIX}{SKILL}/SKILL.md");
        let Some(text) = file_text(&location) else {
            panic!("no builtin {SKILL}")
        };
        assert!(text.contains("](references/layout-checklist.md)"));
        let session = crate::editor::LintSession::default();
        let missing_links = |text: &str| -> Vec<String> {
            session
                .lint_buffer(Path::new(&location), text, &[])
                .diagnostics
                .into_iter()
                .filter(|d| d.rule == "link-target-missing")
                .map(|d| d.message)
                .collect()
        };
        let missing = missing_links(text);
        assert!(missing.is_empty(), "{missing:?}");

        // A link to a file that is not embedded is still reported.
        let broken = format!("{text}\nSee [gone](references/not-embedded.md).\n");
        assert_eq!(
            missing_links(&broken),
            ["`references/not-embedded.md` does not exist in the skill folder"]
        );
        assert!(EmbeddedOrDisk.exists(
            Path::new(&format!("{LOCATION_PREFIX}{SKILL}")),
            Path::new("scripts")
        ));
        assert!(!EmbeddedOrDisk.exists(
            Path::new(&format!("{LOCATION_PREFIX}{SKILL}")),
            Path::new("nope")
        ));
    }

    /// Every embedded file of a builtin skill, as (path relative to the skills folder, bytes).
    fn embedded_files(dir: &Dir<'static>) -> Vec<(PathBuf, &'static [u8])> {
        let mut files: Vec<_> = dir
            .files()
            .map(|file| (file.path().to_path_buf(), file.contents()))
            .collect();
        for child in dir.dirs() {
            files.extend(embedded_files(child));
        }
        files
    }

    /// Every file under `folder`, relative to `base`.
    fn files_on_disk(base: &Path, folder: &Path) -> Vec<PathBuf> {
        let mut found = Vec::new();
        for entry in std::fs::read_dir(folder).expect("readable folder") {
            let path = entry.expect("directory entry").path();
            if path.is_dir() {
                found.extend(files_on_disk(base, &path));
            } else {
                found.push(path.strip_prefix(base).expect("under base").to_path_buf());
            }
        }
        found
    }

    #[test]
    fn every_file_of_a_builtin_skill_is_copied_byte_for_byte() {
        let directory = tempfile::tempdir().expect("temporary directory");
        let skill = builtin_skill(SKILL).expect("a builtin skill with scripts and references");
        let expected = embedded_files(skill);
        assert!(expected.len() > 2, "the skill has bundled files");

        let created = duplicate_builtin(SKILL, directory.path()).expect("duplicated");

        assert_eq!(created, directory.path().join(SKILL).join("SKILL.md"));
        for (relative, bytes) in &expected {
            let copied = std::fs::read(directory.path().join(relative)).expect("copied file");
            assert_eq!(&copied, bytes, "{}", relative.display());
        }
        let mut on_disk = files_on_disk(directory.path(), directory.path());
        let mut wanted: Vec<_> = expected.into_iter().map(|(path, _)| path).collect();
        on_disk.sort();
        wanted.sort();
        assert_eq!(on_disk, wanted, "nothing more and nothing less");
    }

    #[test]
    fn an_existing_folder_is_refused_and_left_untouched() {
        let directory = tempfile::tempdir().expect("temporary directory");
        let folder = directory.path().join(SKILL);
        std::fs::create_dir(&folder).expect("folder");
        std::fs::write(folder.join("SKILL.md"), "mine").expect("author's file");

        let error = duplicate_builtin(SKILL, directory.path()).expect_err("refused");

        assert!(matches!(&error, DuplicateError::FolderExists(path) if path == &folder));
        assert!(error.to_string().contains(&folder.display().to_string()));
        assert_eq!(
            std::fs::read_to_string(folder.join("SKILL.md")).expect("kept"),
            "mine"
        );
        assert_eq!(
            files_on_disk(&folder, &folder),
            vec![PathBuf::from("SKILL.md")]
        );
    }

    #[test]
    fn a_link_in_the_way_is_refused_and_not_followed() {
        let directory = tempfile::tempdir().expect("temporary directory");
        let elsewhere = tempfile::tempdir().expect("another folder");
        let link = directory.path().join(SKILL);
        std::os::unix::fs::symlink(elsewhere.path(), &link).expect("link");

        let error = duplicate_builtin(SKILL, directory.path()).expect_err("refused");

        assert!(
            matches!(error, DuplicateError::File(FileError::Symlink { .. })),
            "{error}"
        );
        assert!(std::fs::read_dir(elsewhere.path())
            .expect("readable")
            .next()
            .is_none());
    }

    #[test]
    fn only_builtin_skills_are_duplicated() {
        let directory = tempfile::tempdir().expect("temporary directory");
        for name in [
            "",
            "no-such-skill",
            "..",
            "structuring-skill-resources/scripts",
        ] {
            assert!(
                matches!(
                    duplicate_builtin(name, directory.path()),
                    Err(DuplicateError::UnknownSkill(_))
                ),
                "{name}"
            );
        }
        assert!(std::fs::read_dir(directory.path())
            .expect("readable")
            .next()
            .is_none());
    }

    #[test]
    fn locations_name_their_builtin_skill() {
        let location = |rest: &str| format!("{LOCATION_PREFIX}{rest}");
        assert_eq!(
            skill_dir_name(&location("structuring-skill-resources/SKILL.md")),
            Some(SKILL)
        );
        assert_eq!(
            skill_dir_name(&location(
                "structuring-skill-resources/scripts/check_links.py"
            )),
            Some(SKILL)
        );
        for outside in [
            location("structuring-skill-resources/missing.md"),
            location("../Cargo.toml"),
            location(""),
            "/etc/passwd".to_string(),
            "structuring-skill-resources/SKILL.md".to_string(),
        ] {
            assert_eq!(skill_dir_name(&outside), None, "{outside}");
        }
    }

    #[test]
    fn builtin_files_are_found_by_location() {
        let text =
            super::file_text("package:skillforge/skills/writing-skill-descriptions/SKILL.md");
        assert!(text.is_some_and(|text| text.contains("name: writing-skill-descriptions")));
        assert_eq!(
            super::file_text("package:skillforge/skills/../Cargo.toml"),
            None
        );
        assert_eq!(super::file_text("/etc/passwd"), None);
    }
}
