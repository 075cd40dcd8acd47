//! The isolated place one client run happens in: a fresh temporary folder holding a project with the
//! skills installed where the client reads them, an empty HOME, an empty CODEX_HOME and a TMPDIR,
//! removed when the run is over. Nothing of the user's own home, settings or installed skills is there.

use std::io::Write as _;
use std::os::unix::fs::{DirBuilderExt as _, OpenOptionsExt as _};
use std::path::{Path, PathBuf};

use crate::bundle::collect::BundleFile;

/// A skill as it is installed in every run: the name it declares, the folder it is installed as, and
/// its files (read once, through the guarded reader, before the first run).
#[derive(Debug, Clone)]
pub struct InstalledSkill {
    pub name: String,
    pub folder: String,
    pub files: Vec<BundleFile>,
}

/// One run's folders, removed on drop.
#[derive(Debug)]
pub struct Sandbox {
    root: tempfile::TempDir,
}

impl Sandbox {
    /// Makes the folders and installs `skills` under `PROJECT/<skills_folder>/<folder>/`.
    pub fn new(skills_folder: &str, skills: &[InstalledSkill]) -> std::io::Result<Sandbox> {
        let root = tempfile::Builder::new()
            .prefix("skillforge-eval-")
            .tempdir()?;
        let sandbox = Sandbox { root };
        for folder in [
            sandbox.project(),
            sandbox.home(),
            sandbox.codex_home(),
            sandbox.temporary(),
        ] {
            private_folder(&folder)?;
        }
        let skills_root = sandbox.project().join(skills_folder);
        for skill in skills {
            let folder = skills_root.join(&skill.folder);
            for file in &skill.files {
                // Paths were checked by the reader: relative, `/`-separated, no `..`, no empty part.
                let path = folder.join(&file.path);
                if let Some(parent) = path.parent() {
                    std::fs::DirBuilder::new()
                        .recursive(true)
                        .mode(0o700)
                        .create(parent)?;
                }
                let mut out = std::fs::OpenOptions::new()
                    .write(true)
                    .create_new(true)
                    .mode(if file.executable { 0o700 } else { 0o600 })
                    .open(&path)?;
                out.write_all(&file.bytes)?;
            }
        }
        Ok(sandbox)
    }

    pub fn root(&self) -> &Path {
        self.root.path()
    }

    /// The folder the client is started in.
    pub fn project(&self) -> PathBuf {
        self.root.path().join("project")
    }

    pub fn home(&self) -> PathBuf {
        self.root.path().join("home")
    }

    pub fn codex_home(&self) -> PathBuf {
        self.root.path().join("codex-home")
    }

    /// The run's TMPDIR: Codex's sandbox needs one that exists and does not hold CODEX_HOME.
    pub fn temporary(&self) -> PathBuf {
        self.root.path().join("tmp")
    }
}

fn private_folder(path: &Path) -> std::io::Result<()> {
    std::fs::DirBuilder::new().mode(0o700).create(path)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn installs_the_skills_where_the_client_reads_them_and_removes_everything_after() {
        let skill = InstalledSkill {
            name: "pdf-tools".into(),
            folder: "pdf".into(),
            files: vec![
                BundleFile {
                    path: "SKILL.md".into(),
                    bytes: b"---\nname: pdf-tools\n---\n".to_vec(),
                    executable: false,
                },
                BundleFile {
                    path: "scripts/fill.py".into(),
                    bytes: b"print(1)\n".to_vec(),
                    executable: true,
                },
            ],
        };
        let Ok(sandbox) = Sandbox::new(".claude/skills", &[skill]) else {
            panic!("no sandbox")
        };
        let root = sandbox.root().to_path_buf();
        let installed = sandbox.project().join(".claude/skills/pdf");
        assert_eq!(
            std::fs::read_to_string(installed.join("SKILL.md"))
                .ok()
                .as_deref(),
            Some("---\nname: pdf-tools\n---\n")
        );
        use std::os::unix::fs::PermissionsExt as _;
        let mode = std::fs::metadata(installed.join("scripts/fill.py"))
            .map(|m| m.permissions().mode() & 0o777);
        assert_eq!(mode.ok(), Some(0o700));
        assert_eq!(
            std::fs::read_dir(sandbox.home())
                .map(|entries| entries.count())
                .ok(),
            Some(0)
        );
        drop(sandbox);
        assert!(!root.exists());
    }
}
