//! Opening files and folders with directory descriptors, never following a symbolic link.
//!
//! Every open in the engine that starts from a path given by a user or found in a listing goes through
//! here: a folder is opened relative to its already-open parent with `O_NOFOLLOW`, so a link planted
//! anywhere below a root can neither redirect a read or a write nor appear between a check and an open.
//! Files are opened with `O_NONBLOCK`, so a FIFO never hangs the open.

use std::ffi::{OsStr, OsString};
use std::os::fd::{AsFd, OwnedFd};
use std::path::{Component, Path};

use rustix::fs::{AtFlags, FileType, Mode, OFlags};
use rustix::io::Errno;

const DIRECTORY: OFlags = OFlags::RDONLY
    .union(OFlags::DIRECTORY)
    .union(OFlags::NOFOLLOW)
    .union(OFlags::CLOEXEC);
const FILE: OFlags = OFlags::RDONLY
    .union(OFlags::NOFOLLOW)
    .union(OFlags::NONBLOCK)
    .union(OFlags::CLOEXEC);

/// Opens the folder `name` inside `parent`; a link there fails (`ELOOP` or `ENOTDIR`).
pub fn directory_at(parent: impl AsFd, name: impl rustix::path::Arg) -> Result<OwnedFd, Errno> {
    rustix::fs::openat(parent, name, DIRECTORY, Mode::empty())
}

/// Opens the file `name` inside `parent` for reading, without following a link or blocking on a FIFO.
pub fn file_at(parent: impl AsFd, name: impl rustix::path::Arg) -> Result<OwnedFd, Errno> {
    rustix::fs::openat(parent, name, FILE, Mode::empty())
}

/// Opens the folder `name` inside `parent`, following a link there: only for a client model whose
/// client itself follows links at that place (Claude Code's skill folders, Codex's skill roots), so its
/// view is reproduced.
pub fn directory_at_following(
    parent: impl AsFd,
    name: impl rustix::path::Arg,
) -> Result<OwnedFd, Errno> {
    rustix::fs::openat(
        parent,
        name,
        DIRECTORY.difference(OFlags::NOFOLLOW),
        Mode::empty(),
    )
}

/// Opens the file `name` inside `parent` for reading, following a link there (see
/// [`directory_at_following`]); a FIFO still never blocks the open.
pub fn file_at_following(
    parent: impl AsFd,
    name: impl rustix::path::Arg,
) -> Result<OwnedFd, Errno> {
    rustix::fs::openat(
        parent,
        name,
        FILE.difference(OFlags::NOFOLLOW),
        Mode::empty(),
    )
}

/// Opens a folder the user named (a root). The path itself may be or pass through links: the user
/// chose it. Nothing below it is followed.
pub fn root_directory(path: &Path) -> Result<OwnedFd, Errno> {
    rustix::fs::open(
        path,
        OFlags::RDONLY | OFlags::DIRECTORY | OFlags::CLOEXEC,
        Mode::empty(),
    )
}

/// Opens a file the user named for reading (an input file): links are followed, since the user chose
/// the path, but a FIFO never hangs the open.
pub fn input_file(path: &Path) -> Result<OwnedFd, Errno> {
    rustix::fs::open(
        path,
        OFlags::RDONLY | OFlags::NONBLOCK | OFlags::CLOEXEC,
        Mode::empty(),
    )
}

/// Creates a file `name` in `parent` that did not exist (never through a link), for writing.
pub fn new_file_at(
    parent: impl AsFd,
    name: impl rustix::path::Arg,
    mode: Mode,
) -> Result<OwnedFd, Errno> {
    rustix::fs::openat(
        parent,
        name,
        OFlags::WRONLY | OFlags::CREATE | OFlags::EXCL | OFlags::NOFOLLOW | OFlags::CLOEXEC,
        mode,
    )
}

/// Opens an absolute folder by walking from `/` with directory descriptors, refusing a symbolic link
/// at every step, so no link can redirect the open between a check and the use (no path-string open).
/// `..` is walked like any name (it is never a link). On failure, says which component failed.
pub fn directory_from_root(path: &Path) -> Result<OwnedFd, (Errno, OsString)> {
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
            Component::ParentDir => OsStr::new(".."),
            Component::RootDir | Component::CurDir | Component::Prefix(_) => continue,
        };
        descriptor =
            directory_at(&descriptor, name).map_err(|errno| (errno, name.to_os_string()))?;
    }
    Ok(descriptor)
}

/// Opens `parent/components…` as a folder, one component at a time; says which component failed
/// (its index) and how. A link among them fails with [`Errno::LOOP`] or [`Errno::NOTDIR`].
pub fn directory_beneath<'a>(
    parent: impl AsFd,
    components: impl IntoIterator<Item = &'a OsStr>,
) -> Result<OwnedFd, (Errno, usize)> {
    let mut descriptor =
        rustix::fs::openat(parent, c".", DIRECTORY, Mode::empty()).map_err(|errno| (errno, 0))?;
    for (index, name) in components.into_iter().enumerate() {
        descriptor = directory_at(&descriptor, name).map_err(|errno| (errno, index))?;
    }
    Ok(descriptor)
}

/// The type of `name` inside `directory` as `lstat` reports it (a link is a link).
pub fn kind_at(directory: impl AsFd, name: impl rustix::path::Arg) -> Result<FileType, Errno> {
    rustix::fs::statat(directory, name, AtFlags::SYMLINK_NOFOLLOW)
        .map(|stat| FileType::from_raw_mode(stat.st_mode))
}

/// The type of what `name` inside `directory` leads to, a link followed (`stat`): for callers that
/// must tell a link to a folder from other links, as Python's `os.walk` does, without opening it.
pub fn target_kind_at(
    directory: impl AsFd,
    name: impl rustix::path::Arg,
) -> Result<FileType, Errno> {
    rustix::fs::statat(directory, name, AtFlags::empty())
        .map(|stat| FileType::from_raw_mode(stat.st_mode))
}

/// Whether `name` inside `directory` is a symbolic link (false when it cannot be inspected).
pub fn is_symlink_at(directory: impl AsFd, name: impl rustix::path::Arg) -> bool {
    kind_at(directory, name).is_ok_and(|kind| kind == FileType::Symlink)
}

/// The raw target of the link `name` inside `directory`.
pub fn link_target_at(
    directory: impl AsFd,
    name: impl rustix::path::Arg,
) -> Result<OsString, Errno> {
    use std::os::unix::ffi::OsStringExt;
    rustix::fs::readlinkat(directory, name, Vec::new())
        .map(|target| OsString::from_vec(target.into_bytes()))
}

/// A word for a file type, for messages: "a FIFO", "a directory", …
pub fn describe(kind: FileType) -> &'static str {
    match kind {
        FileType::RegularFile => "a regular file",
        FileType::Directory => "a folder",
        FileType::Symlink => "a symbolic link",
        FileType::Fifo => "a FIFO (named pipe)",
        FileType::Socket => "a socket",
        FileType::CharacterDevice => "a character device",
        FileType::BlockDevice => "a block device",
        FileType::Unknown => "a file of unknown type",
    }
}
