//! "New skill…": a skill that passes every profile from its first keystroke.

use std::path::{Path, PathBuf};

use crate::fs::{FileError, Roots, SaveGuard};

/// Why a skill cannot be created.
#[derive(Debug, thiserror::Error)]
pub enum ScaffoldError {
    #[error("`{0}` is not a valid skill name: use 1-64 lowercase letters, digits and single hyphens, not at the start or end")]
    InvalidName(String),
    #[error(transparent)]
    File(#[from] FileError),
}

/// What to create besides SKILL.md.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct ScaffoldOptions {
    pub scripts: bool,
    pub references: bool,
}

/// Whether `name` follows the specification's naming rule, which every client accepts.
pub fn is_valid_name(name: &str) -> bool {
    (1..=64).contains(&name.len())
        && name
            .bytes()
            .all(|byte| byte.is_ascii_lowercase() || byte.is_ascii_digit() || byte == b'-')
        && !name.starts_with('-')
        && !name.ends_with('-')
        && !name.contains("--")
}

/// The description of a new SKILL.md, flagged by `description-placeholder` until the author replaces it.
pub const PLACEHOLDER_DESCRIPTION: &str = "Describe what this skill does in one sentence. Use when the user asks to … (name the requests it should answer).";

/// The text of a new SKILL.md.
pub fn skill_text(name: &str, options: ScaffoldOptions) -> String {
    let title = name
        .split('-')
        .map(|word| {
            let mut characters = word.chars();
            characters
                .next()
                .map(|first| first.to_ascii_uppercase().to_string() + characters.as_str())
                .unwrap_or_default()
        })
        .collect::<Vec<_>>()
        .join(" ");
    let mut text = format!(
        "---\nname: {name}\ndescription: {PLACEHOLDER_DESCRIPTION}\nlicense: MIT\n---\n\n# {title}\n\n## Steps\n\n1. First step.\n2. Second step.\n"
    );
    if options.references {
        text.push_str("\nDetails that are needed only sometimes are in [references/REFERENCE.md](references/REFERENCE.md).\n");
    }
    if options.scripts {
        text.push_str("\nRun `scripts/run.sh` to do the mechanical part; it prints what it did.\n");
    }
    text
}

/// Creates `parent/<name>/SKILL.md` (and the optional folders) inside the open roots; never replaces
/// anything that exists. Returns the path of the new SKILL.md.
pub fn create_skill(
    roots: &Roots,
    parent: &Path,
    name: &str,
    options: ScaffoldOptions,
) -> Result<PathBuf, ScaffoldError> {
    if !is_valid_name(name) {
        return Err(ScaffoldError::InvalidName(name.to_string()));
    }
    let folder = parent.join(name);
    if roots.read_text(&folder.join("SKILL.md")).is_ok() {
        return Err(FileError::AlreadyExists(folder).into());
    }
    roots.create_directory(&folder)?;
    let skill = folder.join("SKILL.md");
    roots.write_text(&skill, &skill_text(name, options), &SaveGuard::New)?;
    if options.references {
        roots.create_directory(&folder.join("references"))?;
        let reference = "# Reference\n\nDetails the skill needs only for some tasks.\n";
        roots.write_text(
            &folder.join("references/REFERENCE.md"),
            reference,
            &SaveGuard::New,
        )?;
    }
    if options.scripts {
        roots.create_directory(&folder.join("scripts"))?;
        let script = "#!/usr/bin/env sh\n# Does the mechanical part of the skill; prints what it did.\nset -eu\necho \"done\"\n";
        roots.write_text(&folder.join("scripts/run.sh"), script, &SaveGuard::New)?;
    }
    Ok(skill)
}

#[cfg(test)]
mod tests {
    use std::collections::HashMap;

    use super::*;
    use crate::editor::LintSession;
    use crate::lint::{ProfileId, Severity};

    #[test]
    fn names_follow_the_specification() {
        for good in ["a", "pdf-tools", "x1-2y", &"a".repeat(64)] {
            assert!(is_valid_name(good), "{good}");
        }
        for bad in [
            "",
            "-a",
            "a-",
            "a--b",
            "A",
            "a_b",
            "a b",
            "../x",
            &"a".repeat(65),
            "é",
        ] {
            assert!(!is_valid_name(bad), "{bad}");
        }
    }

    #[test]
    fn a_new_skill_has_only_its_placeholder_flagged_under_any_profile() {
        let directory = tempfile::tempdir().expect("temporary directory");
        let root = directory.path().join("skills");
        std::fs::create_dir(&root).expect("mkdir");
        let roots = Roots::new([root.clone()]);
        let options = ScaffoldOptions {
            scripts: true,
            references: true,
        };
        let skill = create_skill(&roots, &root, "pdf-tools", options).expect("create");
        assert_eq!(skill, root.join("pdf-tools/SKILL.md"));
        assert!(root.join("pdf-tools/scripts/run.sh").is_file());
        let session = LintSession::open(std::slice::from_ref(&root)).expect("open");
        let report = session.lint_workspace(&HashMap::new(), &ProfileId::ALL);
        let findings: Vec<&str> = report
            .files
            .iter()
            .flat_map(|file| &file.diagnostics)
            .filter(|d| d.severity != Severity::Info)
            .map(|d| d.rule.as_str())
            .collect();
        // Only the placeholder description is flagged, until the author replaces it.
        assert_eq!(findings, ["description-placeholder"]);
        let text = std::fs::read_to_string(&skill).expect("read").replace(
            PLACEHOLDER_DESCRIPTION,
            "Fills PDF forms. Use when the user asks to fill a PDF form.",
        );
        let replaced = session.lint_buffer(&skill, &text, &ProfileId::ALL);
        let left: Vec<_> = replaced
            .diagnostics
            .iter()
            .filter(|d| d.severity != Severity::Info)
            .collect();
        assert!(left.is_empty(), "{left:#?}");
    }

    #[test]
    fn never_replaces_an_existing_skill_or_leaves_the_roots() {
        let directory = tempfile::tempdir().expect("temporary directory");
        let root = directory.path().join("skills");
        std::fs::create_dir_all(root.join("taken")).expect("mkdir");
        std::fs::write(root.join("taken/SKILL.md"), "mine").expect("write");
        let roots = Roots::new([root.clone()]);
        let created = create_skill(&roots, &root, "taken", ScaffoldOptions::default());
        assert!(
            matches!(
                created,
                Err(ScaffoldError::File(FileError::AlreadyExists(_)))
            ),
            "{created:?}"
        );
        assert_eq!(
            std::fs::read_to_string(root.join("taken/SKILL.md")).expect("read"),
            "mine"
        );
        let outside = create_skill(
            &roots,
            directory.path(),
            "escape",
            ScaffoldOptions::default(),
        );
        assert!(
            matches!(
                outside,
                Err(ScaffoldError::File(FileError::OutsideRoots(_)))
            ),
            "{outside:?}"
        );
        assert!(matches!(
            create_skill(&roots, &root, "../x", ScaffoldOptions::default()),
            Err(ScaffoldError::InvalidName(_))
        ));
    }
}
