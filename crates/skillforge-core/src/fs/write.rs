//! The one atomic write: a temporary file beside the target (same filesystem), the target's mode and
//! owner, fsync, then an atomic swap — and never over a file that changed since it was read.
//!
//! The check before the swap leaves a window of microseconds in which another writer could still
//! change the old file; so the old file is swapped in place with `renameat2(RENAME_EXCHANGE)`, checked
//! again after the swap while it is still on disk under the temporary name, and swapped back when it
//! changed. Nothing another process wrote is deleted unseen. Filesystems without the exchange (some
//! network filesystems) fall back to a plain rename after the check.

use std::ffi::{OsStr, OsString};
use std::io::Write as _;
use std::os::fd::OwnedFd;
use std::os::unix::ffi::OsStrExt;

use rustix::fs::{AtFlags, FileType, Mode, RenameFlags};
use rustix::io::Errno;

use super::open;
use super::read::{self, Identity, Limit, ReadError};

/// What a write may replace.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Expect {
    /// Nothing: create the file, fail if one exists.
    Absent,
    /// Exactly this content, in this file: fail if anything else is there.
    Content {
        bytes_digest: super::Fingerprint,
        identity: Option<Identity>,
    },
    /// Whatever is there (the author chose to save over it).
    Anything,
}

/// Why a write did not happen. Nothing was changed on disk in every case.
#[derive(Debug, thiserror::Error)]
pub enum WriteError {
    #[error("changed on disk since it was read; nothing written")]
    Changed,
    #[error("already exists")]
    Exists,
    #[error("is open for writing in another program; nothing written")]
    OpenForWriting,
    #[error("changed on disk while it was rewritten, and another program wrote to the rewritten copy too; that copy is kept as {}", .kept.display())]
    Conflict { kept: std::path::PathBuf },
    #[error("is {}, not a regular file; nothing written", open::describe(*.0))]
    NotRegular(FileType),
    #[error("is a symbolic link; links are never written through")]
    Symlink,
    #[error("has {links} names (hard links); a rewrite would give only this one the new text; nothing written")]
    HardLinked { links: u64 },
    #[error("has the extended attribute {name}, which cannot be kept on a rewritten file ({reason}); nothing written")]
    Attribute {
        name: String,
        reason: std::io::Error,
    },
    #[error("belongs to user {owner} and group {group}, which this user cannot keep on a rewritten file; nothing written")]
    Owner { owner: u32, group: u32 },
    #[error(transparent)]
    Read(ReadError),
    #[error("{0}")]
    Io(#[from] std::io::Error),
}

impl From<Errno> for WriteError {
    fn from(errno: Errno) -> Self {
        WriteError::Io(errno.into())
    }
}

/// What is on disk under the name now.
struct Current {
    descriptor: OwnedFd,
    identity: Identity,
}

fn current(directory: &OwnedFd, name: &OsStr) -> Result<Option<Current>, WriteError> {
    let descriptor = match open::file_at(directory, name) {
        Ok(descriptor) => descriptor,
        Err(Errno::NOENT) => return Ok(None),
        Err(Errno::LOOP) => return Err(WriteError::Symlink),
        Err(errno) => return Err(errno.into()),
    };
    let identity = Identity::of_fd(&descriptor)?;
    let kind = FileType::from_raw_mode(identity.mode);
    if kind != FileType::RegularFile {
        return Err(WriteError::NotRegular(kind));
    }
    Ok(Some(Current {
        descriptor,
        identity,
    }))
}

/// Whether `current` still holds what `expect` allows.
fn allowed(expect: &Expect, current: Option<&Current>) -> Result<(), WriteError> {
    match (expect, current) {
        (Expect::Anything, _) | (Expect::Absent, None) => Ok(()),
        (Expect::Absent, Some(_)) => Err(WriteError::Exists),
        (Expect::Content { .. }, None) => Err(WriteError::Changed),
        (
            Expect::Content {
                bytes_digest,
                identity,
            },
            Some(current),
        ) => {
            if identity.is_some_and(|identity| !identity.unchanged(&current.identity)) {
                return Err(WriteError::Changed);
            }
            // Timestamps can be coarser than two writes: compare the content itself too. A file
            // larger than any skill file was not what was read.
            if current.identity.size > Limit::RESOURCE.bytes {
                return Err(WriteError::Changed);
            }
            let limit = Limit::RESOURCE.with_bytes(current.identity.size.saturating_add(1));
            let bytes = read::bounded(&current.descriptor, current.identity.size, limit).map_err(
                |error| match error {
                    // It grew since it was looked at: a writer is at work.
                    ReadError::TooLarge { .. } => WriteError::Changed,
                    other => WriteError::Read(other),
                },
            )?;
            if &super::Fingerprint::of(&bytes) != bytes_digest {
                return Err(WriteError::Changed);
            }
            Ok(())
        }
    }
}

/// Replaces (or creates) `name` in `directory` with `bytes`, atomically, as [`Expect`] allows; keeps
/// the replaced file's mode and owner. Returns the identity of the written file.
pub fn replace_at(
    directory: &OwnedFd,
    name: &OsStr,
    bytes: &[u8],
    expect: &Expect,
) -> Result<Identity, WriteError> {
    let before = current(directory, name)?;
    allowed(expect, before.as_ref())?;
    if let Some(current) = &before {
        // A new file takes over one name only: the other names would keep the old text.
        if current.identity.links > 1 {
            return Err(WriteError::HardLinked {
                links: current.identity.links,
            });
        }
    }
    let mode = before
        .as_ref()
        .map_or(Mode::from_raw_mode(0o644), |current| {
            Mode::from_raw_mode(current.identity.mode) & Mode::from_raw_mode(0o7777)
        });
    let (temporary, descriptor) = temporary_file(directory, name, mode)?;
    let cleanup = |error: WriteError| {
        let _ = rustix::fs::unlinkat(directory, temporary.as_os_str(), AtFlags::empty());
        error
    };
    // The descriptor is closed once written: the new file must not look open for writing to anyone.
    let written = (|| -> Result<Identity, WriteError> {
        // Owner first: a change of owner clears the setuid and setgid bits the mode then restores.
        if let Some(current) = &before {
            keep_owner(&descriptor, &current.identity)?;
        }
        rustix::fs::fchmod(&descriptor, mode)?;
        // After the mode: an access ACL is part of the mode, and it must win.
        if let Some(current) = &before {
            keep_attributes(&current.descriptor, &descriptor)?;
        }
        let mut file = std::fs::File::from(descriptor);
        file.write_all(bytes)?;
        file.sync_all()?;
        Ok(Identity::of_fd(&file)?)
    })();
    let written = written.map_err(cleanup)?;
    let Some(before) = before else {
        // Creating: a file that appeared meanwhile is never replaced.
        return match rustix::fs::renameat_with(
            directory,
            temporary.as_os_str(),
            directory,
            name,
            RenameFlags::NOREPLACE,
        ) {
            Ok(()) => {
                rustix::fs::fsync(directory)?;
                Ok(written)
            }
            Err(Errno::EXIST) => Err(cleanup(WriteError::Exists)),
            Err(Errno::INVAL | Errno::NOSYS | Errno::NOTSUP) => {
                // No RENAME_NOREPLACE here: a hard link fails on an existing name just the same.
                let linked = rustix::fs::linkat(
                    directory,
                    temporary.as_os_str(),
                    directory,
                    name,
                    AtFlags::empty(),
                );
                let _ = rustix::fs::unlinkat(directory, temporary.as_os_str(), AtFlags::empty());
                match linked {
                    Ok(()) => {
                        rustix::fs::fsync(directory)?;
                        Ok(written)
                    }
                    Err(Errno::EXIST) => Err(WriteError::Exists),
                    Err(errno) => Err(errno.into()),
                }
            }
            Err(errno) => Err(cleanup(errno.into())),
        };
    };
    if matches!(expect, Expect::Anything) {
        return swap_in(directory, &temporary, name).map(|()| written);
    }
    // No one may write the old file from here on: a read lease is granted only while nobody has it
    // open for writing, and a program opening it for writing now waits until the lease is dropped.
    let lease = match Lease::take(&before.descriptor, before.identity.owner) {
        Taken::Held(lease) => Some(lease),
        Taken::StillOpen => return Err(cleanup(WriteError::OpenForWriting)),
        // A filesystem without leases (a network one): the checks after the swap decide alone.
        Taken::Unsupported => None,
    };
    // Right before the swap: still the same file, with the same content, untouched since it was read?
    let now = current(directory, name).map_err(cleanup)?;
    let same_file = now
        .as_ref()
        .is_some_and(|now| now.identity.unchanged(&before.identity));
    if !same_file {
        return Err(cleanup(WriteError::Changed));
    }
    allowed(expect, now.as_ref()).map_err(cleanup)?;
    match rustix::fs::renameat_with(
        directory,
        temporary.as_os_str(),
        directory,
        name,
        RenameFlags::EXCHANGE,
    ) {
        Ok(()) => {}
        Err(Errno::INVAL | Errno::NOSYS | Errno::NOTSUP) => {
            // No exchange here: the checks above are the last word.
            drop(lease);
            return swap_in(directory, &temporary, name).map(|()| written);
        }
        Err(errno) => return Err(cleanup(errno.into())),
    }
    // The old file now sits under the temporary name, where no program finds it any more. It must be
    // the file that was checked (nothing renamed over the name in between), unwritten: under the lease
    // a writer can only be one that opened the name before the swap and now waits for the lease, so
    // the old file goes back for it and the new text goes nowhere.
    let swapped_out =
        rustix::fs::statat(directory, temporary.as_os_str(), AtFlags::SYMLINK_NOFOLLOW).is_ok_and(
            |stat| stat.st_dev == before.identity.device && stat.st_ino == before.identity.inode,
        );
    let reason = match &lease {
        _ if !swapped_out => Some(WriteError::Changed),
        Some(lease) if lease.broken() => Some(WriteError::OpenForWriting),
        Some(_) => None,
        None => match writers_gone(&before.descriptor) {
            Settled::StillOpen => Some(WriteError::OpenForWriting),
            Settled::Closed | Settled::Unknown => None,
        },
    }
    .or_else(|| (!untouched_since(&before, expect)).then_some(WriteError::Changed));
    if let Some(reason) = reason {
        rustix::fs::renameat_with(
            directory,
            temporary.as_os_str(),
            directory,
            name,
            RenameFlags::EXCHANGE,
        )?;
        drop(lease);
        return Err(discard_new(
            directory, &temporary, name, bytes, &written, reason,
        ));
    }
    let _ = rustix::fs::unlinkat(directory, temporary.as_os_str(), AtFlags::empty());
    drop(lease);
    sync_folder(directory);
    Ok(written)
}

/// Renames the written `temporary` over `name`, for writes no check guards.
fn swap_in(directory: &OwnedFd, temporary: &OsStr, name: &OsStr) -> Result<(), WriteError> {
    if let Err(errno) = rustix::fs::renameat(directory, temporary, directory, name) {
        let _ = rustix::fs::unlinkat(directory, temporary, AtFlags::empty());
        return Err(errno.into());
    }
    sync_folder(directory);
    Ok(())
}

/// Makes the rename durable. The new file is in place whatever this answers, so a failure is not a
/// failed write (the folder's entry reaches the disk with the next sync of the filesystem).
fn sync_folder(directory: &OwnedFd) {
    let _ = rustix::fs::fsync(directory);
}

/// The extended attributes of the replaced file (ACLs included) on the new one.
fn keep_attributes(from: &OwnedFd, to: &OwnedFd) -> Result<(), WriteError> {
    // The kernel's own limits for a list of names and for one value (XATTR_LIST_MAX, XATTR_SIZE_MAX).
    const MOST: usize = 65_536;
    let mut names = vec![0_u8; MOST];
    let size = match rustix::fs::flistxattr(from, &mut names[..]) {
        Ok(size) => size,
        // This filesystem keeps none.
        Err(Errno::NOTSUP | Errno::NOSYS) => return Ok(()),
        Err(errno) => return Err(errno.into()),
    };
    names.truncate(size);
    let mut value = vec![0_u8; MOST];
    for name in names
        .split(|byte| *byte == 0)
        .filter(|name| !name.is_empty())
    {
        let Ok(key) = std::ffi::CString::new(name) else {
            continue;
        };
        let failed = |errno: Errno| WriteError::Attribute {
            name: String::from_utf8_lossy(name).into_owned(),
            reason: errno.into(),
        };
        let length = rustix::fs::fgetxattr(from, key.as_c_str(), &mut value[..]).map_err(failed)?;
        let value = &value[..length];
        match rustix::fs::fsetxattr(to, key.as_c_str(), value, rustix::fs::XattrFlags::empty()) {
            Ok(()) => {}
            // A security label is the system's to give: the new file got its own when created.
            Err(_) if name.starts_with(b"security.") => {}
            Err(errno) => return Err(failed(errno)),
        }
    }
    Ok(())
}

/// Whether the old file, now under the temporary name, still holds what was checked before the swap.
/// The swap itself sets its change time, so the content is compared again instead: a program may set
/// a modification time back, never the bytes.
fn untouched_since(before: &Current, expect: &Expect) -> bool {
    let Ok(held) = Identity::of_fd(&before.descriptor) else {
        return false;
    };
    let same_shape = held.device == before.identity.device
        && held.inode == before.identity.inode
        && held.size == before.identity.size
        && held.modified == before.identity.modified;
    let Expect::Content { bytes_digest, .. } = expect else {
        return same_shape;
    };
    same_shape
        && rustix::fs::seek(&before.descriptor, rustix::fs::SeekFrom::Start(0)).is_ok()
        && read::bounded(
            &before.descriptor,
            held.size,
            Limit::RESOURCE.with_bytes(held.size),
        )
        .is_ok_and(|bytes| &super::Fingerprint::of(&bytes) == bytes_digest)
}

/// After the old file went back: drops the new one, unless a program that opened the name while the
/// new file stood there wrote to it; then that file is kept beside, named, so nothing is lost.
fn discard_new(
    directory: &OwnedFd,
    temporary: &OsStr,
    name: &OsStr,
    bytes: &[u8],
    written: &Identity,
    reason: WriteError,
) -> WriteError {
    // The two exchanges set the copy's change time, so that says nothing: its modification time and
    // its bytes do (a program may set a modification time back, never the bytes).
    let touched = open::file_at(directory, temporary).is_ok_and(|new| {
        writers_gone(&new);
        let Ok(now) = Identity::of_fd(&new) else {
            return true;
        };
        let same_shape = now.device == written.device
            && now.inode == written.inode
            && now.size == written.size
            && now.modified == written.modified;
        !same_shape
            || !read::bounded(&new, now.size, Limit::RESOURCE.with_bytes(now.size))
                .is_ok_and(|held| held == bytes)
    });
    if touched {
        for attempt in 0..1000_u32 {
            let mut kept = OsString::from(name);
            kept.push(format!(".conflict-{}-{attempt}", std::process::id()));
            match rustix::fs::renameat_with(
                directory,
                temporary,
                directory,
                kept.as_os_str(),
                RenameFlags::NOREPLACE,
            ) {
                Ok(()) => {
                    return WriteError::Conflict {
                        kept: std::path::PathBuf::from(kept),
                    }
                }
                Err(Errno::EXIST) => continue,
                // Kept under the temporary name rather than lost.
                Err(_) => {
                    return WriteError::Conflict {
                        kept: std::path::PathBuf::from(temporary),
                    }
                }
            }
        }
    }
    let _ = rustix::fs::unlinkat(directory, temporary, AtFlags::empty());
    reason
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Settled {
    /// No one has the file open for writing.
    Closed,
    /// This filesystem cannot tell; the identity check alone decides.
    Unknown,
    /// Another program still has it open for writing after the wait.
    StillOpen,
}

/// A read lease held on the replaced file while it is swapped out.
struct Lease<'a> {
    descriptor: &'a OwnedFd,
    /// The file's owner, when the lease had to be taken as that user (see [`as_user`]).
    as_owner: Option<u32>,
}

enum Taken<'a> {
    Held(Lease<'a>),
    /// Another program still has the file open for writing after [`WRITER_WAIT`].
    StillOpen,
    /// No leases here (a network filesystem, leases turned off, a file of another owner that this
    /// process may not act for).
    Unsupported,
}

impl<'a> Lease<'a> {
    /// Takes a read lease on `descriptor` (a file owned by `owner`), waiting up to [`WRITER_WAIT`] for
    /// writers to close it.
    ///
    /// The kernel grants a lease to the file's owner or to a process with `CAP_LEASE`. A process that
    /// may change users but lacks `CAP_LEASE` (root in a container, by default) takes it as the owner.
    fn take(descriptor: &'a OwnedFd, owner: u32) -> Taken<'a> {
        use std::os::fd::AsRawFd;
        let fd = descriptor.as_raw_fd();
        // A break of the lease is signalled: `SIGURG` is ignored unless a program asks for it.
        // SAFETY: plain fcntl calls on a descriptor borrowed for the lease's life; no memory is passed.
        if unsafe { libc::fcntl(fd, F_SETSIG, libc::SIGURG) } != 0 {
            return Taken::Unsupported;
        }
        let deadline = std::time::Instant::now() + WRITER_WAIT;
        let mut pause = std::time::Duration::from_micros(200);
        let mut as_owner = None;
        loop {
            let set = || {
                // SAFETY: as above.
                if unsafe { libc::fcntl(fd, libc::F_SETLEASE, libc::F_RDLCK) } == 0 {
                    Ok(())
                } else {
                    Err(std::io::Error::last_os_error().raw_os_error())
                }
            };
            let taken = match as_owner {
                Some(owner) => as_user(owner, set).unwrap_or(Err(Some(libc::EACCES))),
                None => set(),
            };
            match taken {
                Ok(()) => {
                    return Taken::Held(Lease {
                        descriptor,
                        as_owner,
                    })
                }
                Err(Some(libc::EAGAIN)) => {}
                Err(Some(libc::EACCES)) if as_owner.is_none() => {
                    as_owner = Some(owner);
                    continue;
                }
                Err(_) => return Taken::Unsupported,
            }
            if std::time::Instant::now() >= deadline {
                return Taken::StillOpen;
            }
            std::thread::sleep(pause);
            pause = (pause * 2).min(std::time::Duration::from_millis(20));
        }
    }

    /// Whether a program has asked to open the file for writing since the lease was taken.
    fn broken(&self) -> bool {
        use std::os::fd::AsRawFd;
        // SAFETY: as in `take`. A lease being broken reports the type it is being broken to.
        unsafe { libc::fcntl(self.descriptor.as_raw_fd(), libc::F_GETLEASE) != libc::F_RDLCK }
    }
}

impl Drop for Lease<'_> {
    fn drop(&mut self) {
        use std::os::fd::AsRawFd;
        let fd = self.descriptor.as_raw_fd();
        // SAFETY: as in `take`.
        let unlock = || unsafe { libc::fcntl(fd, libc::F_SETLEASE, libc::F_UNLCK) };
        // Released as whoever took it; failing that, closing the descriptor releases it.
        let _ = match self.as_owner {
            Some(owner) => as_user(owner, unlock).unwrap_or(-1),
            None => unlock(),
        };
    }
}

/// Runs `action` with this thread's filesystem user set to `user`, then sets it back; `None` when this
/// process may not act as that user. `setfsuid` changes the calling thread only, and nothing but
/// `action` runs on it meanwhile.
fn as_user<T>(user: u32, action: impl FnOnce() -> T) -> Option<T> {
    // SAFETY: setfsuid takes and returns plain integers. It answers the previous value whether or
    // not it succeeded, so a second call tells whether the change took.
    let previous = unsafe { libc::setfsuid(user) } as u32;
    // SAFETY: as above.
    let now = unsafe { libc::setfsuid(user) } as u32;
    let result = (now == user).then(action);
    // SAFETY: as above; restores what the thread had.
    unsafe { libc::setfsuid(previous) };
    result
}

/// `fcntl`'s "signal to send for this descriptor" command (`<fcntl.h>` with `_GNU_SOURCE`).
const F_SETSIG: libc::c_int = 10;

/// How long a rewrite waits for another program to finish writing the file it replaces.
const WRITER_WAIT: std::time::Duration = std::time::Duration::from_secs(2);

/// Waits until no one has the file `descriptor` open for writing.
///
/// The kernel grants a read lease only on a file that nobody has open for writing, so taking one (and
/// dropping it at once) answers exactly that, for every process. A lease break while it is held would
/// be signalled: the signal is set to `SIGURG`, which is ignored unless a program asks for it.
fn writers_gone(descriptor: &OwnedFd) -> Settled {
    use std::os::fd::AsRawFd;
    let fd = descriptor.as_raw_fd();
    let deadline = std::time::Instant::now() + WRITER_WAIT;
    let mut pause = std::time::Duration::from_micros(200);
    // SAFETY: plain fcntl calls on a descriptor this function borrows; no memory is passed.
    if unsafe { libc::fcntl(fd, F_SETSIG, libc::SIGURG) } != 0 {
        return Settled::Unknown;
    }
    loop {
        // SAFETY: as above.
        let taken = unsafe { libc::fcntl(fd, libc::F_SETLEASE, libc::F_RDLCK) };
        if taken == 0 {
            // SAFETY: as above.
            unsafe { libc::fcntl(fd, libc::F_SETLEASE, libc::F_UNLCK) };
            return Settled::Closed;
        }
        let errno = std::io::Error::last_os_error().raw_os_error();
        if errno != Some(libc::EAGAIN) {
            // No leases here (a network filesystem, leases turned off, not the file's owner).
            return Settled::Unknown;
        }
        if std::time::Instant::now() >= deadline {
            return Settled::StillOpen;
        }
        std::thread::sleep(pause);
        pause = (pause * 2).min(std::time::Duration::from_millis(20));
    }
}

/// Writes the new file `name` in `directory` with `mode`: created never through a link and never over
/// anything already there, written and synced. For a fresh tree that nobody else sees until it is
/// published with one rename (an export), where a temporary file per file would buy nothing.
pub fn create_at(
    directory: &OwnedFd,
    name: &OsStr,
    bytes: &[u8],
    mode: Mode,
) -> Result<Identity, WriteError> {
    let descriptor = open::new_file_at(directory, name, mode).map_err(|errno| match errno {
        Errno::EXIST => WriteError::Exists,
        other => other.into(),
    })?;
    let written = (|| -> Result<Identity, WriteError> {
        // The umask may have taken bits the caller asked for (an executable script).
        rustix::fs::fchmod(&descriptor, mode)?;
        let mut file = std::fs::File::from(descriptor.try_clone()?);
        file.write_all(bytes)?;
        file.sync_all()?;
        Ok(Identity::of_fd(&descriptor)?)
    })();
    if written.is_err() {
        let _ = rustix::fs::unlinkat(directory, name, AtFlags::empty());
    }
    written
}

/// Opens `root/components…` as a folder, creating each missing one (mode 0755); a link or a file on
/// the way fails, so nothing is ever created outside `root`.
pub fn create_directories<'a>(
    root: &OwnedFd,
    components: impl IntoIterator<Item = &'a OsStr>,
) -> Result<OwnedFd, WriteError> {
    let mut current = open::directory_beneath(root, std::iter::empty())
        .map_err(|(errno, _)| WriteError::from(errno))?;
    for name in components {
        match rustix::fs::mkdirat(&current, name, Mode::from_raw_mode(0o755)) {
            Ok(()) | Err(Errno::EXIST) => {}
            Err(errno) => return Err(errno.into()),
        }
        current = match open::directory_at(&current, name) {
            Ok(next) => next,
            Err(Errno::LOOP) => return Err(WriteError::Symlink),
            Err(Errno::NOTDIR) if open::is_symlink_at(&current, name) => {
                return Err(WriteError::Symlink)
            }
            Err(Errno::NOTDIR) => return Err(WriteError::Exists),
            Err(errno) => return Err(errno.into()),
        };
    }
    Ok(current)
}

/// The replaced file's owner and group on the new one; refused when this user cannot give them.
fn keep_owner(descriptor: &OwnedFd, original: &Identity) -> Result<(), WriteError> {
    let ours = Identity::of_fd(descriptor)?;
    if ours.owner == original.owner && ours.group == original.group {
        return Ok(());
    }
    let owner = (ours.owner != original.owner).then(|| rustix::fs::Uid::from_raw(original.owner));
    let group = (ours.group != original.group).then(|| rustix::fs::Gid::from_raw(original.group));
    rustix::fs::fchown(descriptor, owner, group).map_err(|errno| match errno {
        Errno::PERM => WriteError::Owner {
            owner: original.owner,
            group: original.group,
        },
        other => other.into(),
    })
}

/// Whether `name` is one of the temporary files [`replace_at`] writes beside a file
/// (`.NAME.skillforge-PID-N.tmp`): only ever left behind by a write that was killed, and never content.
pub fn is_temporary_name(name: &str) -> bool {
    let Some(rest) = name
        .strip_prefix('.')
        .and_then(|rest| rest.strip_suffix(".tmp"))
    else {
        return false;
    };
    let Some((_, numbers)) = rest.rsplit_once(".skillforge-") else {
        return false;
    };
    let Some((pid, attempt)) = numbers.split_once('-') else {
        return false;
    };
    let digits = |text: &str| !text.is_empty() && text.bytes().all(|byte| byte.is_ascii_digit());
    digits(pid) && digits(attempt)
}

/// A new, empty file beside `name`, never one that was there: `.NAME.skillforge-PID-N.tmp`.
fn temporary_file(
    directory: &OwnedFd,
    name: &OsStr,
    mode: Mode,
) -> Result<(OsString, OwnedFd), WriteError> {
    for attempt in 0..1000_u32 {
        let mut candidate = OsString::from(".");
        // Long names are cut so the temporary name stays within NAME_MAX.
        candidate.push(OsStr::from_bytes(&name.as_bytes()[..name.len().min(200)]));
        candidate.push(format!(".skillforge-{}-{attempt}.tmp", std::process::id()));
        match open::new_file_at(directory, candidate.as_os_str(), mode) {
            Ok(descriptor) => return Ok((candidate, descriptor)),
            Err(Errno::EXIST) => continue,
            Err(errno) => return Err(errno.into()),
        }
    }
    Err(Errno::EXIST.into())
}

/// Replaces the file at `path` (a file of the program's own, such as its settings, not one of the
/// author's) atomically with `bytes`, creating its folder if needed: the same write, guarded by nothing.
pub fn replace_file(path: &std::path::Path, bytes: &[u8]) -> Result<Identity, WriteError> {
    let (Some(folder), Some(name)) = (path.parent(), path.file_name()) else {
        return Err(WriteError::NotRegular(FileType::Directory));
    };
    std::fs::create_dir_all(folder)?;
    let directory = open::root_directory(folder)?;
    replace_at(&directory, name, bytes, &Expect::Anything)
}

/// What a write may replace after `read`: the same file, unchanged since then.
pub fn expect_read(read: &read::Read) -> Expect {
    Expect::Content {
        bytes_digest: super::Fingerprint::of(&read.bytes),
        identity: Some(read.identity),
    }
}

#[cfg(test)]
mod tests {
    use std::os::unix::fs::{MetadataExt, PermissionsExt};

    use super::*;

    fn folder() -> (tempfile::TempDir, OwnedFd) {
        let directory = tempfile::tempdir().expect("temporary directory");
        let descriptor = open::root_directory(directory.path()).expect("open");
        (directory, descriptor)
    }

    fn leftovers(path: &std::path::Path) -> Vec<String> {
        std::fs::read_dir(path)
            .expect("list")
            .flatten()
            .map(|entry| entry.file_name().to_string_lossy().into_owned())
            .filter(|name| name.ends_with(".tmp"))
            .collect()
    }

    #[test]
    fn replaces_keeping_mode_and_owner() {
        let (directory, descriptor) = folder();
        let path = directory.path().join("SKILL.md");
        std::fs::write(&path, "old").expect("write");
        std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o640)).expect("chmod");
        // As root, give the file to another user, as a shared checkout would have it.
        let is_root = std::fs::metadata("/proc/self")
            .is_ok_and(|proc| std::os::unix::fs::MetadataExt::uid(&proc) == 0);
        if is_root {
            std::os::unix::fs::chown(&path, Some(65534), Some(65534)).expect("chown");
        }
        let read = read::regular_at(&descriptor, "SKILL.md", Limit::SKILL_FILE).expect("read");
        replace_at(
            &descriptor,
            OsStr::new("SKILL.md"),
            b"new",
            &expect_read(&read),
        )
        .expect("replace");
        assert_eq!(std::fs::read(&path).expect("read"), b"new");
        let metadata = std::fs::metadata(&path).expect("stat");
        assert_eq!(metadata.permissions().mode() & 0o7777, 0o640);
        if is_root {
            assert_eq!((metadata.uid(), metadata.gid()), (65534, 65534));
        }
        assert!(leftovers(directory.path()).is_empty());
    }

    #[test]
    fn refuses_a_file_changed_since_it_was_read() {
        let (directory, descriptor) = folder();
        let path = directory.path().join("SKILL.md");
        std::fs::write(&path, "old").expect("write");
        let read = read::regular_at(&descriptor, "SKILL.md", Limit::SKILL_FILE).expect("read");
        // Same size, perhaps the same timestamp tick: the content comparison still sees it.
        std::fs::write(&path, "new").expect("write");
        let error = replace_at(
            &descriptor,
            OsStr::new("SKILL.md"),
            b"fix",
            &expect_read(&read),
        )
        .expect_err("changed");
        assert!(matches!(error, WriteError::Changed), "{error}");
        assert_eq!(std::fs::read(&path).expect("read"), b"new");
        std::fs::remove_file(&path).expect("remove");
        let error = replace_at(
            &descriptor,
            OsStr::new("SKILL.md"),
            b"fix",
            &expect_read(&read),
        )
        .expect_err("gone");
        assert!(matches!(error, WriteError::Changed), "{error}");
        assert!(!path.exists());
        assert!(leftovers(directory.path()).is_empty());
    }

    #[test]
    fn an_edit_with_its_modification_time_set_back_is_still_seen_after_the_swap() {
        let (directory, descriptor) = folder();
        let path = directory.path().join("SKILL.md");
        std::fs::write(&path, "aaaa").expect("write");
        let before = current(&descriptor, OsStr::new("SKILL.md"))
            .expect("open")
            .expect("present");
        let expect = Expect::Content {
            bytes_digest: crate::fs::Fingerprint::of(b"aaaa"),
            identity: None,
        };
        assert!(untouched_since(&before, &expect));
        // What `cp -p` or `rsync -t --inplace` do: same size, other bytes, the old timestamp.
        std::thread::sleep(std::time::Duration::from_millis(20));
        std::fs::write(&path, "bbbb").expect("write");
        let modified = std::time::SystemTime::UNIX_EPOCH
            + std::time::Duration::new(
                before.identity.modified.0 as u64,
                before.identity.modified.1 as u32,
            );
        std::fs::File::open(&path)
            .expect("open")
            .set_modified(modified)
            .expect("set the time back");
        assert!(!untouched_since(&before, &expect));
        // The same edit before the swap is refused outright.
        let error =
            replace_at(&descriptor, OsStr::new("SKILL.md"), b"fix", &expect).expect_err("changed");
        assert!(matches!(error, WriteError::Changed), "{error}");
        assert_eq!(std::fs::read(&path).expect("read"), b"bbbb");
    }

    #[test]
    fn keeps_setuid_and_setgid_bits_of_another_owner() {
        let is_root = std::fs::metadata("/proc/self")
            .is_ok_and(|proc| std::os::unix::fs::MetadataExt::uid(&proc) == 0);
        if !is_root {
            // Only root can give a file to another user; as its owner the bits stay as they are.
            return;
        }
        let (directory, descriptor) = folder();
        let path = directory.path().join("run.sh");
        std::fs::write(&path, "#!/bin/sh\n").expect("write");
        std::os::unix::fs::chown(&path, Some(65534), Some(65534)).expect("chown");
        std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o6755)).expect("chmod");
        replace_at(
            &descriptor,
            OsStr::new("run.sh"),
            b"#!/bin/sh\ntrue\n",
            &Expect::Anything,
        )
        .expect("replace");
        let metadata = std::fs::metadata(&path).expect("stat");
        assert_eq!(metadata.permissions().mode() & 0o7777, 0o6755);
        assert_eq!((metadata.uid(), metadata.gid()), (65534, 65534));
    }

    #[test]
    fn never_writes_through_a_link_or_into_a_fifo() {
        let (directory, descriptor) = folder();
        let outside = tempfile::tempdir().expect("outside");
        std::fs::write(outside.path().join("target"), "theirs").expect("write");
        std::os::unix::fs::symlink(
            outside.path().join("target"),
            directory.path().join("SKILL.md"),
        )
        .expect("link");
        let error = replace_at(&descriptor, OsStr::new("SKILL.md"), b"x", &Expect::Anything)
            .expect_err("link");
        assert!(matches!(error, WriteError::Symlink), "{error}");
        assert_eq!(
            std::fs::read(outside.path().join("target")).expect("read"),
            b"theirs"
        );
        rustix::fs::mknodat(
            &descriptor,
            "fifo",
            FileType::Fifo,
            Mode::from_raw_mode(0o600),
            0,
        )
        .expect("mkfifo");
        let error =
            replace_at(&descriptor, OsStr::new("fifo"), b"x", &Expect::Anything).expect_err("fifo");
        assert!(
            matches!(error, WriteError::NotRegular(FileType::Fifo)),
            "{error}"
        );
        assert!(leftovers(directory.path()).is_empty());
    }

    #[test]
    fn creates_a_fresh_tree_without_following_links() {
        let (directory, descriptor) = folder();
        let outside = tempfile::tempdir().expect("outside");
        std::os::unix::fs::symlink(outside.path(), directory.path().join("link")).expect("link");
        let scripts = create_directories(&descriptor, [OsStr::new("a"), OsStr::new("scripts")])
            .expect("folders");
        create_at(
            &scripts,
            OsStr::new("run.sh"),
            b"#!/bin/sh\n",
            Mode::from_raw_mode(0o755),
        )
        .expect("create");
        let path = directory.path().join("a/scripts/run.sh");
        assert_eq!(std::fs::read(&path).expect("read"), b"#!/bin/sh\n");
        let mode = std::fs::metadata(&path).expect("stat").permissions().mode();
        assert_eq!(mode & 0o777, 0o755);
        let error = create_at(
            &scripts,
            OsStr::new("run.sh"),
            b"x",
            Mode::from_raw_mode(0o644),
        )
        .expect_err("exists");
        assert!(matches!(error, WriteError::Exists), "{error}");
        let error = create_directories(&descriptor, [OsStr::new("link"), OsStr::new("x")])
            .expect_err("link");
        assert!(matches!(error, WriteError::Symlink), "{error}");
        assert!(!outside.path().join("x").exists());
        let error = create_directories(
            &descriptor,
            [OsStr::new("a"), OsStr::new("scripts"), OsStr::new("run.sh")],
        )
        .expect_err("file");
        assert!(matches!(error, WriteError::Exists), "{error}");
    }

    #[test]
    fn creates_only_what_is_absent() {
        let (directory, descriptor) = folder();
        replace_at(&descriptor, OsStr::new("new.md"), b"one", &Expect::Absent).expect("create");
        let error = replace_at(&descriptor, OsStr::new("new.md"), b"two", &Expect::Absent)
            .expect_err("exists");
        assert!(matches!(error, WriteError::Exists), "{error}");
        assert_eq!(
            std::fs::read(directory.path().join("new.md")).expect("read"),
            b"one"
        );
        assert!(leftovers(directory.path()).is_empty());
    }

    #[test]
    fn loses_no_append_made_while_replacing() {
        let (directory, descriptor) = folder();
        let path = directory.path().join("SKILL.md");
        std::fs::write(&path, "").expect("write");
        let stop = std::sync::Arc::new(std::sync::atomic::AtomicBool::new(false));
        let appender = {
            let path = path.clone();
            let stop = stop.clone();
            std::thread::spawn(move || {
                let mut count = 0_u32;
                while !stop.load(std::sync::atomic::Ordering::Relaxed) && count < 2_000 {
                    let mut file = std::fs::OpenOptions::new()
                        .append(true)
                        .open(&path)
                        .expect("open");
                    writeln!(file, "line {count}").expect("append");
                    count += 1;
                }
                count
            })
        };
        // Rewrite the file over and over, each time from what was just read: every line appended
        // either was read (and is kept) or makes the replace fail.
        for _ in 0..400 {
            let Ok(read) = read::regular_at(&descriptor, "SKILL.md", Limit::SKILL_FILE) else {
                continue;
            };
            let _ = replace_at(
                &descriptor,
                OsStr::new("SKILL.md"),
                &read.bytes,
                &expect_read(&read),
            );
        }
        stop.store(true, std::sync::atomic::Ordering::Relaxed);
        let appended = appender.join().expect("appender");
        // A line written to the rewritten copy while the old file went back is kept in a named copy.
        let mut text = std::fs::read_to_string(&path).expect("read");
        for entry in std::fs::read_dir(directory.path()).expect("list").flatten() {
            if entry.file_name().to_string_lossy().contains(".conflict-") {
                text.push_str(&std::fs::read_to_string(entry.path()).expect("read copy"));
            }
        }
        for line in 0..appended {
            assert!(
                text.contains(&format!("line {line}\n")),
                "line {line} of {appended} lost"
            );
        }
        assert!(leftovers(directory.path()).is_empty());
    }

    #[test]
    fn a_swapped_back_copy_is_kept_only_when_another_program_wrote_to_it() {
        let (directory, descriptor) = folder();
        let path = directory.path().join("SKILL.md");
        let name = OsStr::new("SKILL.md");
        let copies = |directory: &std::path::Path| {
            std::fs::read_dir(directory)
                .expect("list")
                .flatten()
                .filter(|entry| entry.file_name().to_string_lossy().contains(".conflict-"))
                .count()
        };
        for someone_wrote in [false, true] {
            std::fs::write(&path, "old").expect("write");
            let (temporary, new) =
                temporary_file(&descriptor, name, Mode::from_raw_mode(0o644)).expect("temporary");
            let mut file = std::fs::File::from(new);
            file.write_all(b"new").expect("write");
            let written = Identity::of_fd(&file).expect("stat");
            drop(file);
            // Past a timestamp tick, so that the swap and its undoing set the copy's change time.
            std::thread::sleep(std::time::Duration::from_millis(30));
            let exchange = || {
                rustix::fs::renameat_with(
                    &descriptor,
                    temporary.as_os_str(),
                    &descriptor,
                    name,
                    RenameFlags::EXCHANGE,
                )
                .expect("exchange");
            };
            exchange();
            if someone_wrote {
                // Same size, the old modification time: only the bytes tell.
                let modified = std::fs::metadata(&path)
                    .expect("stat")
                    .modified()
                    .expect("time");
                let file = std::fs::OpenOptions::new()
                    .write(true)
                    .open(&path)
                    .expect("open");
                (&file).write_all(b"NEW").expect("write");
                file.set_modified(modified).expect("set the time back");
            }
            exchange();
            let error = discard_new(
                &descriptor,
                &temporary,
                name,
                b"new",
                &written,
                WriteError::OpenForWriting,
            );
            assert_eq!(std::fs::read(&path).expect("read"), b"old");
            if someone_wrote {
                assert!(matches!(error, WriteError::Conflict { .. }), "{error}");
                assert_eq!(copies(directory.path()), 1);
            } else {
                assert!(matches!(error, WriteError::OpenForWriting), "{error}");
                assert_eq!(copies(directory.path()), 0);
            }
            assert!(leftovers(directory.path()).is_empty());
        }
    }

    #[test]
    fn refuses_to_split_a_hard_link() {
        let (directory, descriptor) = folder();
        let path = directory.path().join("SKILL.md");
        std::fs::write(&path, "old").expect("write");
        std::fs::hard_link(&path, directory.path().join("other.md")).expect("link");
        let read = read::regular_at(&descriptor, "SKILL.md", Limit::SKILL_FILE).expect("read");
        let result = replace_at(
            &descriptor,
            OsStr::new("SKILL.md"),
            b"new",
            &expect_read(&read),
        );
        assert!(
            matches!(result, Err(WriteError::HardLinked { links: 2 })),
            "{result:?}"
        );
        assert_eq!(std::fs::read(&path).expect("read"), b"old");
        assert_eq!(
            std::fs::read(directory.path().join("other.md")).expect("read"),
            b"old"
        );
        assert!(leftovers(directory.path()).is_empty());
    }

    #[test]
    fn keeps_extended_attributes_and_the_access_acl() {
        let (directory, descriptor) = folder();
        let path = directory.path().join("SKILL.md");
        std::fs::write(&path, "old").expect("write");
        std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o640)).expect("chmod");
        let file = std::fs::File::open(&path).expect("open");
        rustix::fs::fsetxattr(
            &file,
            "user.origin",
            b"upstream",
            rustix::fs::XattrFlags::empty(),
        )
        .expect("this filesystem keeps user attributes");
        // POSIX ACL, version 2: owner rw-, user 65534 r--, group r--, mask r--, others ---.
        let mut acl = 2_u32.to_le_bytes().to_vec();
        for (tag, permissions, id) in [
            (0x01_u16, 6_u16, u32::MAX),
            (0x02, 4, 65_534),
            (0x04, 4, u32::MAX),
            (0x10, 4, u32::MAX),
            (0x20, 0, u32::MAX),
        ] {
            acl.extend(tag.to_le_bytes());
            acl.extend(permissions.to_le_bytes());
            acl.extend(id.to_le_bytes());
        }
        rustix::fs::fsetxattr(
            &file,
            "system.posix_acl_access",
            &acl,
            rustix::fs::XattrFlags::empty(),
        )
        .expect("this filesystem keeps ACLs");
        drop(file);
        let read = read::regular_at(&descriptor, "SKILL.md", Limit::SKILL_FILE).expect("read");
        replace_at(
            &descriptor,
            OsStr::new("SKILL.md"),
            b"new",
            &expect_read(&read),
        )
        .expect("write");
        let file = std::fs::File::open(&path).expect("open");
        let value = |name: &str| {
            let mut value = vec![0_u8; 256];
            let length = rustix::fs::fgetxattr(&file, name, &mut value[..]).expect(name);
            value.truncate(length);
            value
        };
        assert_eq!(value("user.origin"), b"upstream");
        assert_eq!(value("system.posix_acl_access"), acl);
        assert_eq!(
            std::fs::metadata(&path).expect("stat").permissions().mode() & 0o7777,
            0o640
        );
    }

    #[test]
    fn a_file_held_open_for_writing_is_never_swapped_out() {
        let (directory, descriptor) = folder();
        let path = directory.path().join("SKILL.md");
        std::fs::write(&path, "old").expect("write");
        let read = read::regular_at(&descriptor, "SKILL.md", Limit::SKILL_FILE).expect("read");
        let writer = std::fs::OpenOptions::new()
            .append(true)
            .open(&path)
            .expect("open");
        let inode = std::fs::metadata(&path).expect("stat").ino();
        let result = replace_at(
            &descriptor,
            OsStr::new("SKILL.md"),
            b"new",
            &expect_read(&read),
        );
        assert!(
            matches!(result, Err(WriteError::OpenForWriting)),
            "{result:?}"
        );
        // The writer's file never left its name, and nothing is left beside it.
        assert_eq!(std::fs::metadata(&path).expect("stat").ino(), inode);
        assert_eq!(std::fs::read(&path).expect("read"), b"old");
        assert!(leftovers(directory.path()).is_empty());
        drop(writer);
    }

    #[test]
    fn tells_its_own_temporary_names() {
        assert!(is_temporary_name(".SKILL.md.skillforge-123-0.tmp"));
        assert!(is_temporary_name(".a.b.skillforge-1-42.tmp"));
        assert!(!is_temporary_name("SKILL.md.skillforge-123-0.tmp"));
        assert!(!is_temporary_name(".SKILL.md.skillforge-x-0.tmp"));
        assert!(!is_temporary_name(".notes.tmp"));
        assert!(!is_temporary_name(".SKILL.md.skillforge--0.tmp"));
    }
}
