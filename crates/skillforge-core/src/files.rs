//! Guarded file access inside the folders an author opened.
//!
//! Every path that arrives from the UI is checked twice: lexically (absolute, no `..`, under an opened
//! root) and then physically, by walking from the root with directory descriptors and `O_NOFOLLOW`,
//! so a symbolic link planted inside a skill cannot redirect a read or a write outside the root, even
//! if it appears between a check and an open.
//!
//! Saves are atomic (temporary file in the same folder, fsync, rename) and refuse to replace a file
//! that changed on disk since the author read it, unless the author explicitly chose to save over it.

use std::ffi::OsString;
use std::io::{Read, Write};
use std::os::fd::OwnedFd;
use std::path::{Component, Path, PathBuf};

use rustix::fs::{Mode, OFlags};
use serde::{Deserialize, Serialize};
use sha2::{Digest, Sha256};

/// Files larger than this are not opened for editing: no SKILL.md is anywhere near it, and an editor
/// holding hundreds of megabytes helps nobody.
pub const MAX_EDITABLE_BYTES: u64 = 16 * 1024 * 1024;

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
    #[error("{}: {size} bytes is more than the {limit} bytes the editor opens", path.display())]
    TooLarge {
        path: PathBuf,
        size: u64,
        limit: u64,
    },
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

/// A short, stable digest of a file's bytes, used to notice edits made outside the app.
#[derive(Debug, Clone, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
pub struct Fingerprint(pub String);

impl Fingerprint {
    pub fn of(bytes: &[u8]) -> Self {
        let digest = Sha256::digest(bytes);
        Self(digest.iter().map(|byte| format!("{byte:02x}")).collect())
    }
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
        let (name, parents) = located
            .components
            .split_last()
            .ok_or_else(|| FileError::NotAFile(path.to_path_buf()))?;
        let parent = open_directory_beneath(located.root, parents, path)?;
        let bytes = read_regular(&parent, name, path)?;
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
            let flags = OFlags::RDONLY | OFlags::DIRECTORY | OFlags::NOFOLLOW | OFlags::CLOEXEC;
            directory = match rustix::fs::openat(&directory, part.as_os_str(), flags, Mode::empty())
            {
                Ok(child) => child,
                Err(rustix::io::Errno::LOOP | rustix::io::Errno::NOTDIR)
                    if is_symlink(&directory, part) =>
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
        let (name, parents) = located
            .components
            .split_last()
            .ok_or_else(|| FileError::AlreadyExists(path.to_path_buf()))?;
        let parent = open_directory_beneath(located.root, parents, path)?;
        match rustix::fs::mkdirat(&parent, name.as_os_str(), Mode::from_raw_mode(0o755)) {
            Ok(()) => Ok(()),
            Err(rustix::io::Errno::EXIST) if is_symlink(&parent, name) => Err(FileError::Symlink {
                path: path.to_path_buf(),
                component: located.components.iter().collect(),
            }),
            Err(rustix::io::Errno::EXIST) => Err(FileError::AlreadyExists(path.to_path_buf())),
            Err(error) => Err(io_error(path, error)),
        }
    }

    /// Writes `text` atomically, keeping the permissions of the file it replaces.
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
        let (name, parents) = located
            .components
            .split_last()
            .ok_or_else(|| FileError::NotAFile(path.to_path_buf()))?;
        let parent = open_directory_beneath(located.root, parents, path)?;
        let existing = match read_regular(&parent, name, path) {
            Ok(current) => Some(current),
            Err(FileError::NotFound(_)) => None,
            Err(error) => return Err(error),
        };
        match (guard, &existing) {
            (SaveGuard::New, Some(_)) => return Err(FileError::AlreadyExists(path.to_path_buf())),
            (SaveGuard::Unchanged(_), None) => {
                return Err(FileError::ChangedOnDisk(path.to_path_buf()))
            }
            (SaveGuard::Unchanged(expected), Some(current))
                if &Fingerprint::of(current) != expected =>
            {
                return Err(FileError::ChangedOnDisk(path.to_path_buf()))
            }
            _ => {}
        }
        let mode = match existing {
            Some(_) => rustix::fs::statat(
                &parent,
                name.as_os_str(),
                rustix::fs::AtFlags::SYMLINK_NOFOLLOW,
            )
            .map(|stat| Mode::from_raw_mode(stat.st_mode) & Mode::from_raw_mode(0o7777))
            .map_err(|error| io_error(path, error))?,
            None => Mode::from_raw_mode(0o644),
        };
        write_atomically(&parent, name, bytes, mode, path)?;
        Ok(Fingerprint::of(bytes))
    }
}

/// Opens an absolute folder by walking from `/` with directory descriptors, refusing a symbolic link
/// at every step, so no link can redirect the open between a check and the use (no path-string open).
/// `..` is walked like any name (it is never a link). On failure, says which component failed.
pub fn open_directory_from_root(path: &Path) -> Result<OwnedFd, (rustix::io::Errno, OsString)> {
    let mut descriptor = rustix::fs::openat(
        rustix::fs::CWD,
        c"/",
        OFlags::RDONLY | OFlags::DIRECTORY | OFlags::CLOEXEC,
        Mode::empty(),
    )
    .map_err(|errno| (errno, OsString::from("/")))?;
    for component in path.components() {
        let name = match component {
            Component::Normal(name) => name,
            Component::ParentDir => std::ffi::OsStr::new(".."),
            Component::RootDir | Component::CurDir | Component::Prefix(_) => continue,
        };
        descriptor = rustix::fs::openat(
            &descriptor,
            name,
            OFlags::RDONLY | OFlags::DIRECTORY | OFlags::NOFOLLOW | OFlags::CLOEXEC,
            Mode::empty(),
        )
        .map_err(|errno| (errno, name.to_os_string()))?;
    }
    Ok(descriptor)
}

fn io_error(path: &Path, error: rustix::io::Errno) -> FileError {
    FileError::Io {
        path: path.to_path_buf(),
        source: error.into(),
    }
}

/// Opens `root/parents…` as a directory, refusing a symbolic link at every step below the root.
fn open_directory_beneath(
    root: &Path,
    parents: &[OsString],
    path: &Path,
) -> Result<OwnedFd, FileError> {
    let mut directory = rustix::fs::open(
        root,
        OFlags::RDONLY | OFlags::DIRECTORY | OFlags::CLOEXEC,
        Mode::empty(),
    )
    .map_err(|error| missing_or_io(path, error))?;
    let mut walked = PathBuf::new();
    for part in parents {
        walked.push(part);
        let flags = OFlags::RDONLY | OFlags::DIRECTORY | OFlags::NOFOLLOW | OFlags::CLOEXEC;
        directory = match rustix::fs::openat(&directory, part.as_os_str(), flags, Mode::empty()) {
            Ok(child) => child,
            Err(rustix::io::Errno::LOOP) => {
                return Err(FileError::Symlink {
                    path: path.to_path_buf(),
                    component: walked,
                })
            }
            Err(rustix::io::Errno::NOTDIR) if is_symlink(&directory, part) => {
                return Err(FileError::Symlink {
                    path: path.to_path_buf(),
                    component: walked,
                })
            }
            Err(error) => return Err(missing_or_io(path, error)),
        };
    }
    Ok(directory)
}

fn is_symlink(directory: &OwnedFd, name: &OsString) -> bool {
    rustix::fs::statat(
        directory,
        name.as_os_str(),
        rustix::fs::AtFlags::SYMLINK_NOFOLLOW,
    )
    .is_ok_and(|stat| {
        rustix::fs::FileType::from_raw_mode(stat.st_mode) == rustix::fs::FileType::Symlink
    })
}

fn missing_or_io(path: &Path, error: rustix::io::Errno) -> FileError {
    if error == rustix::io::Errno::NOENT {
        FileError::NotFound(path.to_path_buf())
    } else {
        io_error(path, error)
    }
}

/// Reads a regular file in `directory`; `O_NONBLOCK` keeps a FIFO from hanging the open.
fn read_regular(directory: &OwnedFd, name: &OsString, path: &Path) -> Result<Vec<u8>, FileError> {
    let flags = OFlags::RDONLY | OFlags::NOFOLLOW | OFlags::NONBLOCK | OFlags::CLOEXEC;
    let descriptor = match rustix::fs::openat(directory, name.as_os_str(), flags, Mode::empty()) {
        Ok(descriptor) => descriptor,
        Err(rustix::io::Errno::LOOP) => {
            return Err(FileError::Symlink {
                path: path.to_path_buf(),
                component: PathBuf::from(name),
            })
        }
        Err(error) => return Err(missing_or_io(path, error)),
    };
    let stat = rustix::fs::fstat(&descriptor).map_err(|error| io_error(path, error))?;
    if rustix::fs::FileType::from_raw_mode(stat.st_mode) != rustix::fs::FileType::RegularFile {
        return Err(FileError::NotAFile(path.to_path_buf()));
    }
    let size = u64::try_from(stat.st_size).unwrap_or(0);
    if size > MAX_EDITABLE_BYTES {
        return Err(FileError::TooLarge {
            path: path.to_path_buf(),
            size,
            limit: MAX_EDITABLE_BYTES,
        });
    }
    let mut file = std::fs::File::from(descriptor);
    let mut bytes = Vec::with_capacity(usize::try_from(size).unwrap_or(0));
    // The file may grow between fstat and read: never read past the limit.
    Read::by_ref(&mut file)
        .take(MAX_EDITABLE_BYTES + 1)
        .read_to_end(&mut bytes)
        .map_err(|source| FileError::Io {
            path: path.to_path_buf(),
            source,
        })?;
    if bytes.len() as u64 > MAX_EDITABLE_BYTES {
        return Err(FileError::TooLarge {
            path: path.to_path_buf(),
            size: bytes.len() as u64,
            limit: MAX_EDITABLE_BYTES,
        });
    }
    Ok(bytes)
}

fn write_atomically(
    directory: &OwnedFd,
    name: &OsString,
    bytes: &[u8],
    mode: Mode,
    path: &Path,
) -> Result<(), FileError> {
    let mut temporary_name = OsString::from(".");
    temporary_name.push(name);
    temporary_name.push(format!(".skillforge-{}.tmp", std::process::id()));
    let flags = OFlags::WRONLY | OFlags::CREATE | OFlags::EXCL | OFlags::NOFOLLOW | OFlags::CLOEXEC;
    // A temporary file left by a crashed save of this same process id is stale: remove it first.
    let _ = rustix::fs::unlinkat(
        directory,
        temporary_name.as_os_str(),
        rustix::fs::AtFlags::empty(),
    );
    let descriptor = rustix::fs::openat(directory, temporary_name.as_os_str(), flags, mode)
        .map_err(|error| io_error(path, error))?;
    let written = (|| -> std::io::Result<()> {
        rustix::fs::fchmod(&descriptor, mode)?;
        let mut file = std::fs::File::from(descriptor);
        file.write_all(bytes)?;
        file.sync_all()?;
        Ok(())
    })();
    let renamed = written.and_then(|()| {
        rustix::fs::renameat(
            directory,
            temporary_name.as_os_str(),
            directory,
            name.as_os_str(),
        )?;
        // Make the rename itself durable.
        rustix::fs::fsync(directory)?;
        Ok(())
    });
    renamed.map_err(|source| {
        let _ = rustix::fs::unlinkat(
            directory,
            temporary_name.as_os_str(),
            rustix::fs::AtFlags::empty(),
        );
        FileError::Io {
            path: path.to_path_buf(),
            source,
        }
    })
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
