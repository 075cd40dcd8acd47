//! Paths inside the folders an author opened.
//!
//! Every path that arrives from the UI is checked twice: lexically (absolute, no `..`, under an opened
//! root) and then physically, by walking from the root with directory descriptors and `O_NOFOLLOW`,
//! so a symbolic link planted inside a skill cannot redirect a read or a write outside the root, even
//! if it appears between a check and an open.
//!
//! Saves are atomic (temporary file in the same folder, fsync, rename) and refuse to replace a file
//! that changed on disk since the author read it, unless the author explicitly chose to save over it.

use std::ffi::OsString;
use std::os::fd::OwnedFd;
use std::path::{Component, Path, PathBuf};

use rustix::fs::Mode;
use serde::{Deserialize, Serialize};

use super::open;
use super::read::{self, Limit, ReadError};
use super::write::{self, Expect, WriteError};
pub use super::Fingerprint;

/// Why a file inside a workspace cannot be read or written.
#[derive(Debug, thiserror::Error)]
pub enum FileError {
    #[error("{}: outside the opened folders; only files inside them can be read or written", .0.display())]
    OutsideRoots(PathBuf),
    #[error("{}: the path must be absolute and must not contain `..`", .0.display())]
    NotNormal(PathBuf),
    #[error("{}: `{}` is a symbolic link; links inside a workspace are not followed", path.display(), component.display())]
    Symlink { path: PathBuf, component: PathBuf },
    #[error("{}: no such file", .0.display())]
    NotFound(PathBuf),
    #[error("{}: not a regular file", .0.display())]
    NotAFile(PathBuf),
    #[error("{}: larger than the {limit} bytes the editor opens", path.display())]
    TooLarge { path: PathBuf, limit: u64 },
    #[error("{}: not UTF-8 text (invalid byte at offset {offset}); open it in a binary-safe editor", path.display())]
    NotUtf8 { path: PathBuf, offset: usize },
    #[error("{}: changed on disk since it was opened; reload it, or choose to save over it", .0.display())]
    ChangedOnDisk(PathBuf),
    #[error("{}: already exists; choose another name", .0.display())]
    AlreadyExists(PathBuf),
    #[error("{}: {source}", path.display())]
    Io {
        path: PathBuf,
        #[source]
        source: std::io::Error,
    },
}

/// A text file as read from disk.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
pub struct TextFile {
    /// The exact text, byte for byte: BOM and line endings included, so offsets match the linter's.
    pub text: String,
    pub fingerprint: Fingerprint,
}

/// What a save may replace.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
#[serde(tag = "kind", content = "fingerprint", rename_all = "snake_case")]
pub enum SaveGuard {
    /// Create a new file; fail if one exists.
    New,
    /// Replace the file only if it still has this fingerprint.
    Unchanged(Fingerprint),
    /// Replace whatever is there (the author chose "keep mine").
    Overwrite,
}

/// The folders an author opened; every access goes through them.
#[derive(Debug, Clone, Default)]
pub struct Roots {
    roots: Vec<PathBuf>,
}

/// A path split into the root that contains it and the components below that root.
struct Located<'a> {
    root: &'a Path,
    components: Vec<OsString>,
}

impl Located<'_> {
    /// The open folder of the last component, and that component's name; `root_itself` is the error
    /// for a path that names a root.
    fn open_parent(
        &self,
        path: &Path,
        root_itself: fn(PathBuf) -> FileError,
    ) -> Result<(OwnedFd, &OsString), FileError> {
        let (name, parents) = self
            .components
            .split_last()
            .ok_or_else(|| root_itself(path.to_path_buf()))?;
        Ok((open_directory_beneath(self.root, parents, path)?, name))
    }
}

impl Roots {
    /// `roots` should be absolute (as returned by [`crate::workspace::check_root`]).
    pub fn new(roots: impl IntoIterator<Item = PathBuf>) -> Self {
        Self {
            roots: roots.into_iter().collect(),
        }
    }

    pub fn as_slice(&self) -> &[PathBuf] {
        &self.roots
    }

    /// Whether `path` lies under one of the roots, judged lexically.
    pub fn contains(&self, path: &Path) -> bool {
        self.locate(path).is_ok()
    }

    fn locate(&self, path: &Path) -> Result<Located<'_>, FileError> {
        if !path.is_absolute() || path.components().any(|c| matches!(c, Component::ParentDir)) {
            return Err(FileError::NotNormal(path.to_path_buf()));
        }
        // The deepest root wins, so a root nested in another is addressed through itself.
        let root = self
            .roots
            .iter()
            .filter(|root| path.starts_with(root))
            .max_by_key(|root| root.components().count())
            .ok_or_else(|| FileError::OutsideRoots(path.to_path_buf()))?;
        let components = path
            .strip_prefix(root)
            .map_err(|_| FileError::OutsideRoots(path.to_path_buf()))?
            .components()
            .filter_map(|component| match component {
                Component::Normal(part) => Some(part.to_os_string()),
                _ => None,
            })
            .collect();
        Ok(Located { root, components })
    }

    /// Reads a UTF-8 text file under a root without following any link below the root.
    pub fn read_text(&self, path: &Path) -> Result<TextFile, FileError> {
        let located = self.locate(path)?;
        let (parent, name) = located.open_parent(path, FileError::NotAFile)?;
        let bytes = read::regular_at(&parent, name.as_os_str(), Limit::SKILL_FILE)
            .map_err(|error| read_error(path, name, error))?
            .bytes;
        let fingerprint = Fingerprint::of(&bytes);
        let text = String::from_utf8(bytes).map_err(|error| FileError::NotUtf8 {
            path: path.to_path_buf(),
            offset: error.utf8_error().valid_up_to(),
        })?;
        Ok(TextFile { text, fingerprint })
    }

    /// Creates a folder (and any missing parents) under a root, refusing links on the way.
    pub fn create_directory(&self, path: &Path) -> Result<(), FileError> {
        let located = self.locate(path)?;
        let mut directory = open_directory_beneath(located.root, &[], path)?;
        let mut walked = PathBuf::new();
        for part in &located.components {
            walked.push(part);
            match rustix::fs::mkdirat(&directory, part.as_os_str(), Mode::from_raw_mode(0o755)) {
                Ok(()) | Err(rustix::io::Errno::EXIST) => {}
                Err(error) => return Err(io_error(path, error)),
            }
            directory = match open::directory_at(&directory, part.as_os_str()) {
                Ok(child) => child,
                Err(rustix::io::Errno::LOOP | rustix::io::Errno::NOTDIR)
                    if open::is_symlink_at(&directory, part.as_os_str()) =>
                {
                    return Err(FileError::Symlink {
                        path: path.to_path_buf(),
                        component: walked,
                    });
                }
                Err(rustix::io::Errno::NOTDIR) => {
                    return Err(FileError::NotAFile(path.to_path_buf()))
                }
                Err(error) => return Err(io_error(path, error)),
            };
        }
        Ok(())
    }

    /// Creates one new folder under a root whose parent already exists; fails if anything is already
    /// there (a folder, a file or a link), so a copy never lands inside something the author owns.
    pub fn create_new_directory(&self, path: &Path) -> Result<(), FileError> {
        let located = self.locate(path)?;
        let (parent, name) = located.open_parent(path, FileError::AlreadyExists)?;
        match rustix::fs::mkdirat(&parent, name.as_os_str(), Mode::from_raw_mode(0o755)) {
            Ok(()) => Ok(()),
            Err(rustix::io::Errno::EXIST) if open::is_symlink_at(&parent, name.as_os_str()) => {
                Err(FileError::Symlink {
                    path: path.to_path_buf(),
                    component: located.components.iter().collect(),
                })
            }
            Err(rustix::io::Errno::EXIST) => Err(FileError::AlreadyExists(path.to_path_buf())),
            Err(error) => Err(io_error(path, error)),
        }
    }

    /// Writes `text` atomically, keeping the permissions and owner of the file it replaces.
    ///
    /// Returns the fingerprint of what was written.
    pub fn write_text(
        &self,
        path: &Path,
        text: &str,
        guard: &SaveGuard,
    ) -> Result<Fingerprint, FileError> {
        self.write_bytes(path, text.as_bytes(), guard)
    }

    /// Writes `bytes` atomically, like [`Roots::write_text`], for files that need not be text.
    pub fn write_bytes(
        &self,
        path: &Path,
        bytes: &[u8],
        guard: &SaveGuard,
    ) -> Result<Fingerprint, FileError> {
        let located = self.locate(path)?;
        let (parent, name) = located.open_parent(path, FileError::NotAFile)?;
        let expect = match guard {
            SaveGuard::New => Expect::Absent,
            SaveGuard::Unchanged(fingerprint) => Expect::Content {
                bytes_digest: fingerprint.clone(),
                identity: None,
            },
            SaveGuard::Overwrite => Expect::Anything,
        };
        write::replace_at(&parent, name.as_os_str(), bytes, &expect)
            .map_err(|error| write_error(path, name, error))?;
        Ok(Fingerprint::of(bytes))
    }
}

impl Roots {
    /// Opens a folder under a root (or a root itself) without following any link below the root.
    pub fn open_folder(&self, path: &Path) -> Result<OwnedFd, FileError> {
        let located = self.locate(path)?;
        open_directory_beneath(located.root, &located.components, path)
    }

    /// What `path` is, as `lstat` sees it (a link is a link), with its size; its folder is reached
    /// without following links.
    pub fn kind_of(&self, path: &Path) -> Result<(rustix::fs::FileType, u64), FileError> {
        let located = self.locate(path)?;
        let (parent, name) = located.open_parent(path, FileError::NotAFile)?;
        rustix::fs::statat(
            &parent,
            name.as_os_str(),
            rustix::fs::AtFlags::SYMLINK_NOFOLLOW,
        )
        .map(|stat| {
            (
                rustix::fs::FileType::from_raw_mode(stat.st_mode),
                u64::try_from(stat.st_size).unwrap_or(0),
            )
        })
        .map_err(|errno| missing_or_io(path, errno))
    }

    /// Moves `from` to `to` (both under the same root); never replaces anything at `to`, and never
    /// follows a link on the way to either.
    pub fn rename(&self, from: &Path, to: &Path) -> Result<(), FileError> {
        let source = self.locate(from)?;
        let target = self.locate(to)?;
        if source.root != target.root {
            return Err(FileError::OutsideRoots(to.to_path_buf()));
        }
        let (from_parent, from_name) = source.open_parent(from, FileError::NotAFile)?;
        let (to_parent, to_name) = target.open_parent(to, FileError::AlreadyExists)?;
        match rustix::fs::renameat_with(
            &from_parent,
            from_name.as_os_str(),
            &to_parent,
            to_name.as_os_str(),
            rustix::fs::RenameFlags::NOREPLACE,
        ) {
            Ok(()) => Ok(()),
            Err(rustix::io::Errno::EXIST | rustix::io::Errno::NOTEMPTY) => {
                Err(FileError::AlreadyExists(to.to_path_buf()))
            }
            Err(rustix::io::Errno::NOENT) => Err(FileError::NotFound(from.to_path_buf())),
            Err(errno) => Err(io_error(from, errno)),
        }
    }

    /// Deletes the file, link or folder (with everything in it) at `path`. A link is removed, never
    /// followed; nothing outside `path` is touched.
    pub fn remove(&self, path: &Path) -> Result<(), FileError> {
        let located = self.locate(path)?;
        let (parent, name) = located.open_parent(path, FileError::NotAFile)?;
        remove_at(&parent, name.as_os_str()).map_err(|errno| missing_or_io(path, errno))
    }
}

/// Removes `name` in `parent`: a folder after its contents, anything else with `unlink`.
fn remove_at(parent: &OwnedFd, name: &std::ffi::OsStr) -> Result<(), rustix::io::Errno> {
    let kind = open::kind_at(parent, name)?;
    if kind != rustix::fs::FileType::Directory {
        return rustix::fs::unlinkat(parent, name, rustix::fs::AtFlags::empty());
    }
    let folder = open::directory_at(parent, name)?;
    for entry in super::walk::list(&folder)? {
        remove_at(&folder, entry.os_name())?;
    }
    rustix::fs::unlinkat(parent, name, rustix::fs::AtFlags::REMOVEDIR)
}

/// The nearest folder at or above `folder` (canonical) that holds a `.git`: the repository a linted
/// path belongs to, whose files reads and configuration may come from.
///
/// Only a `.git` of the folder's own owner counts, and the search stops below a folder anyone may
/// create files in (sticky and world-writable, like `/tmp`): a `.git` planted there by another user
/// would otherwise widen what is read and pull in their `skillforge.toml`.
pub fn enclosing_repository(folder: &Path) -> Option<PathBuf> {
    use std::os::unix::fs::MetadataExt;
    let owner = std::fs::metadata(folder).ok()?.uid();
    for ancestor in folder.ancestors() {
        let shared = std::fs::symlink_metadata(ancestor)
            .map_or(true, |metadata| metadata.mode() & 0o1002 == 0o1002);
        if shared {
            return None;
        }
        if let Ok(git) = std::fs::symlink_metadata(ancestor.join(".git")) {
            return (git.uid() == owner).then(|| ancestor.to_path_buf());
        }
    }
    None
}

fn io_error(path: &Path, error: rustix::io::Errno) -> FileError {
    FileError::Io {
        path: path.to_path_buf(),
        source: error.into(),
    }
}

fn read_error(path: &Path, name: &OsString, error: ReadError) -> FileError {
    match error {
        ReadError::NotFound => FileError::NotFound(path.to_path_buf()),
        ReadError::Symlink => FileError::Symlink {
            path: path.to_path_buf(),
            component: PathBuf::from(name),
        },
        ReadError::NotRegular(_) => FileError::NotAFile(path.to_path_buf()),
        ReadError::TooLarge { limit } => FileError::TooLarge {
            path: path.to_path_buf(),
            limit: limit.bytes,
        },
        ReadError::Io(errno) => io_error(path, errno),
    }
}

fn write_error(path: &Path, name: &OsString, error: WriteError) -> FileError {
    match error {
        WriteError::Changed => FileError::ChangedOnDisk(path.to_path_buf()),
        WriteError::Exists => FileError::AlreadyExists(path.to_path_buf()),
        WriteError::NotRegular(_) => FileError::NotAFile(path.to_path_buf()),
        WriteError::Symlink => FileError::Symlink {
            path: path.to_path_buf(),
            component: PathBuf::from(name),
        },
        WriteError::Read(error) => read_error(path, name, error),
        error @ (WriteError::Owner { .. }
        | WriteError::HardLinked { .. }
        | WriteError::Attribute { .. }
        | WriteError::OpenForWriting
        | WriteError::Conflict { .. }) => FileError::Io {
            path: path.to_path_buf(),
            source: std::io::Error::new(std::io::ErrorKind::PermissionDenied, error.to_string()),
        },
        WriteError::Io(source) => FileError::Io {
            path: path.to_path_buf(),
            source,
        },
    }
}

/// Opens `root/parents…` as a directory, refusing a symbolic link at every step below the root.
fn open_directory_beneath(
    root: &Path,
    parents: &[OsString],
    path: &Path,
) -> Result<OwnedFd, FileError> {
    let directory = open::root_directory(root).map_err(|error| missing_or_io(path, error))?;
    open::directory_beneath(&directory, parents.iter().map(OsString::as_os_str)).map_err(
        |(errno, failed)| {
            // `failed` names the component that failed; with no components, the root itself did.
            let walked: PathBuf = parents.iter().take(failed + 1).collect();
            let linked = errno == rustix::io::Errno::LOOP
                || (errno == rustix::io::Errno::NOTDIR
                    && parents.get(failed).is_some_and(|name| {
                        open::directory_beneath(
                            &directory,
                            parents[..failed].iter().map(OsString::as_os_str),
                        )
                        .is_ok_and(|above| open::is_symlink_at(&above, name.as_os_str()))
                    }));
            if linked {
                FileError::Symlink {
                    path: path.to_path_buf(),
                    component: walked,
                }
            } else {
                missing_or_io(path, errno)
            }
        },
    )
}

fn missing_or_io(path: &Path, error: rustix::io::Errno) -> FileError {
    if error == rustix::io::Errno::NOENT {
        FileError::NotFound(path.to_path_buf())
    } else {
        io_error(path, error)
    }
}

#[cfg(test)]
mod tests {
    use std::os::unix::fs::PermissionsExt;

    use super::*;

    fn workspace() -> (tempfile::TempDir, Roots) {
        let directory = tempfile::tempdir().expect("temporary directory");
        let root = directory.path().join("root");
        std::fs::create_dir_all(root.join("skill")).expect("create skill folder");
        std::fs::write(
            root.join("skill/SKILL.md"),
            "\u{feff}---\r\nname: skill\r\n---\r\n",
        )
        .expect("write");
        std::fs::write(directory.path().join("secret.txt"), "secret").expect("write");
        (directory, Roots::new([root]))
    }

    #[test]
    fn reads_exact_bytes_with_bom_and_crlf() {
        let (directory, roots) = workspace();
        let file = roots
            .read_text(&directory.path().join("root/skill/SKILL.md"))
            .expect("read");
        assert_eq!(file.text, "\u{feff}---\r\nname: skill\r\n---\r\n");
        assert_eq!(file.fingerprint, Fingerprint::of(file.text.as_bytes()));
    }

    #[test]
    fn refuses_paths_outside_the_roots() {
        let (directory, roots) = workspace();
        let outside = directory.path().join("secret.txt");
        assert!(matches!(
            roots.read_text(&outside),
            Err(FileError::OutsideRoots(_))
        ));
        let dotted = directory.path().join("root/../secret.txt");
        assert!(matches!(
            roots.read_text(&dotted),
            Err(FileError::NotNormal(_))
        ));
        assert!(matches!(
            roots.read_text(Path::new("root/skill/SKILL.md")),
            Err(FileError::NotNormal(_))
        ));
        let guard = SaveGuard::Overwrite;
        assert!(matches!(
            roots.write_text(&outside, "x", &guard),
            Err(FileError::OutsideRoots(_))
        ));
        assert_eq!(std::fs::read_to_string(outside).expect("read"), "secret");
    }

    #[test]
    fn refuses_symlinks_below_the_root() {
        let (directory, roots) = workspace();
        let root = directory.path().join("root");
        std::os::unix::fs::symlink(directory.path(), root.join("escape")).expect("symlink");
        std::os::unix::fs::symlink(
            directory.path().join("secret.txt"),
            root.join("skill/leak.md"),
        )
        .expect("symlink");
        let through_directory = root.join("escape/secret.txt");
        assert!(matches!(
            roots.read_text(&through_directory),
            Err(FileError::Symlink { .. })
        ));
        assert!(matches!(
            roots.read_text(&root.join("skill/leak.md")),
            Err(FileError::Symlink { .. })
        ));
        let written = roots.write_text(&through_directory, "pwned", &SaveGuard::Overwrite);
        assert!(matches!(written, Err(FileError::Symlink { .. })));
        assert_eq!(
            std::fs::read_to_string(directory.path().join("secret.txt")).expect("read"),
            "secret"
        );
    }

    #[test]
    fn saves_atomically_and_keeps_permissions() {
        let (directory, roots) = workspace();
        let path = directory.path().join("root/skill/SKILL.md");
        std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o600)).expect("chmod");
        let original = roots.read_text(&path).expect("read");
        let written = roots
            .write_text(
                &path,
                "new text",
                &SaveGuard::Unchanged(original.fingerprint),
            )
            .expect("save");
        assert_eq!(std::fs::read_to_string(&path).expect("read"), "new text");
        assert_eq!(written, Fingerprint::of(b"new text"));
        let mode = std::fs::metadata(&path).expect("stat").permissions().mode() & 0o777;
        assert_eq!(mode, 0o600);
        let leftovers: Vec<_> = std::fs::read_dir(path.parent().expect("parent"))
            .expect("list")
            .flatten()
            .filter(|entry| entry.file_name().to_string_lossy().ends_with(".tmp"))
            .collect();
        assert!(
            leftovers.is_empty(),
            "temporary files left behind: {leftovers:?}"
        );
    }

    #[test]
    fn refuses_to_overwrite_an_edit_made_elsewhere() {
        let (directory, roots) = workspace();
        let path = directory.path().join("root/skill/SKILL.md");
        let original = roots.read_text(&path).expect("read");
        std::fs::write(&path, "their edit").expect("external edit");
        let guard = SaveGuard::Unchanged(original.fingerprint);
        assert!(matches!(
            roots.write_text(&path, "my edit", &guard),
            Err(FileError::ChangedOnDisk(_))
        ));
        assert_eq!(std::fs::read_to_string(&path).expect("read"), "their edit");
        roots
            .write_text(&path, "my edit", &SaveGuard::Overwrite)
            .expect("explicit overwrite");
        assert_eq!(std::fs::read_to_string(&path).expect("read"), "my edit");
    }

    #[test]
    fn new_files_never_replace_existing_ones() {
        let (directory, roots) = workspace();
        let path = directory.path().join("root/skill/SKILL.md");
        assert!(matches!(
            roots.write_text(&path, "x", &SaveGuard::New),
            Err(FileError::AlreadyExists(_))
        ));
        let fresh = directory.path().join("root/skill/notes.md");
        roots
            .write_text(&fresh, "notes", &SaveGuard::New)
            .expect("create");
        assert_eq!(std::fs::read_to_string(fresh).expect("read"), "notes");
    }

    #[test]
    fn reports_binary_fifo_and_missing_files_clearly() {
        let (directory, roots) = workspace();
        let root = directory.path().join("root");
        std::fs::write(root.join("binary.bin"), [0x66, 0x6f, 0xff, 0x00]).expect("write");
        let binary = roots.read_text(&root.join("binary.bin"));
        assert!(
            matches!(binary, Err(FileError::NotUtf8 { offset: 2, .. })),
            "{binary:?}"
        );
        rustix::fs::mknodat(
            rustix::fs::CWD,
            root.join("fifo"),
            rustix::fs::FileType::Fifo,
            Mode::from_raw_mode(0o644),
            0,
        )
        .expect("mkfifo");
        assert!(matches!(
            roots.read_text(&root.join("fifo")),
            Err(FileError::NotAFile(_))
        ));
        assert!(matches!(
            roots.read_text(&root.join("gone.md")),
            Err(FileError::NotFound(_))
        ));
        let message = roots
            .read_text(&root.join("gone.md"))
            .expect_err("missing")
            .to_string();
        assert!(
            message.contains("gone.md") && message.contains("no such file"),
            "{message}"
        );
    }
}
