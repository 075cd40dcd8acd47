//! Bounded reads of regular files: a FIFO, a device or `/dev/zero` is refused before a byte is read,
//! and no read goes past its size limit however much the file grows meanwhile.

use std::os::fd::{AsFd, OwnedFd};
use std::path::Path;

use rustix::fs::FileType;
use rustix::io::Errno;

use super::open;

/// How large a file of one kind may be before it is refused.
///
/// The limits are the engine's only size caps; clients' own limits (nagents' 4,000,000-byte SKILL.md)
/// are client behaviour and live with the client's model, below these.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Limit {
    pub bytes: u64,
    /// What is read, for messages: "a SKILL.md", "an input file".
    pub what: &'static str,
}

impl Limit {
    /// A `SKILL.md` linted, edited or loaded: no client reads one past 4,000,000 bytes (nagents) and an
    /// editor holding more helps nobody; 16 MiB leaves room to see why a file is too large.
    pub const SKILL_FILE: Limit = Limit {
        bytes: 16 * 1024 * 1024,
        what: "a SKILL.md",
    };
    /// A resource beside a skill (scripts, references, assets) that is exported or loaded.
    pub const RESOURCE: Limit = Limit {
        bytes: 64 * 1024 * 1024,
        what: "a skill resource",
    };
    /// A file the user hands a command: eval queries, a model script, `skillforge.toml`.
    pub const INPUT: Limit = Limit {
        bytes: 8 * 1024 * 1024,
        what: "an input file",
    };

    pub const fn with_bytes(self, bytes: u64) -> Limit {
        Limit {
            bytes,
            what: self.what,
        }
    }
}

/// Why a file was not read.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ReadError {
    #[error("no such file")]
    NotFound,
    #[error("is a symbolic link; links are not followed")]
    Symlink,
    #[error("is {}, not a regular file; only regular files are read", open::describe(*.0))]
    NotRegular(FileType),
    #[error("is larger than the {} bytes allowed for {}", .limit.bytes, .limit.what)]
    TooLarge { limit: Limit },
    #[error("{}", std::io::Error::from(*.0))]
    Io(Errno),
}

impl ReadError {
    /// From a failed open: `ELOOP` from `O_NOFOLLOW` is a link, `ENOENT` a missing file.
    pub fn from_open(errno: Errno) -> ReadError {
        match errno {
            Errno::LOOP => ReadError::Symlink,
            Errno::NOENT => ReadError::NotFound,
            Errno::ISDIR => ReadError::NotRegular(FileType::Directory),
            other => ReadError::Io(other),
        }
    }
}

/// What a read saw of the file, to tell later whether it changed.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Identity {
    pub device: u64,
    pub inode: u64,
    pub size: u64,
    pub modified: (i64, i64),
    /// The inode's change time: unlike the modification time, no program can set it back.
    pub changed: (i64, i64),
    pub mode: u32,
    pub owner: u32,
    pub group: u32,
    /// How many names (hard links) the file has.
    pub links: u64,
}

impl Identity {
    pub fn of(stat: &rustix::fs::Stat) -> Identity {
        Identity {
            device: stat.st_dev,
            inode: stat.st_ino,
            size: u64::try_from(stat.st_size).unwrap_or(0),
            modified: (stat.st_mtime, stat.st_mtime_nsec as i64),
            changed: (stat.st_ctime, stat.st_ctime_nsec as i64),
            mode: stat.st_mode,
            owner: stat.st_uid,
            group: stat.st_gid,
            links: stat.st_nlink,
        }
    }

    pub fn of_fd(descriptor: impl AsFd) -> Result<Identity, Errno> {
        rustix::fs::fstat(descriptor).map(|stat| Identity::of(&stat))
    }

    /// Same file, same size, same modification and change times.
    pub fn unchanged(&self, other: &Identity) -> bool {
        self.device == other.device
            && self.inode == other.inode
            && self.size == other.size
            && self.modified == other.modified
            && self.changed == other.changed
    }
}

/// A file's bytes and what it was when read.
#[derive(Debug, Clone)]
pub struct Read {
    pub bytes: Vec<u8>,
    pub identity: Identity,
}

/// Reads the open file `descriptor` if it is a regular file within `limit`.
pub fn regular(descriptor: OwnedFd, limit: Limit) -> Result<Read, ReadError> {
    let stat = rustix::fs::fstat(&descriptor).map_err(ReadError::Io)?;
    let kind = FileType::from_raw_mode(stat.st_mode);
    if kind != FileType::RegularFile {
        return Err(ReadError::NotRegular(kind));
    }
    let identity = Identity::of(&stat);
    if identity.size > limit.bytes {
        return Err(ReadError::TooLarge { limit });
    }
    let bytes = bounded(&descriptor, identity.size, limit)?;
    Ok(Read { bytes, identity })
}

/// Reads at most `limit` bytes from `descriptor`, sized from `expected` so a whole file usually arrives
/// in one call; one byte more than the limit means the file is too large (it grew while read).
pub fn bounded(descriptor: impl AsFd, expected: u64, limit: Limit) -> Result<Vec<u8>, ReadError> {
    let cap = usize::try_from(limit.bytes).unwrap_or(usize::MAX);
    let mut content = vec![
        0_u8;
        usize::try_from(expected)
            .unwrap_or(0)
            .min(cap)
            .saturating_add(1)
            .max(1)
    ];
    let mut filled = 0;
    loop {
        if filled == content.len() {
            if content.len() > cap {
                return Err(ReadError::TooLarge { limit });
            }
            let grown = content
                .len()
                .saturating_mul(2)
                .max(8192)
                .min(cap.saturating_add(1));
            content.resize(grown, 0);
        }
        // Only a read of 0 bytes is the end: a short read is not (FUSE `direct_io`, network filesystems).
        match rustix::io::read(&descriptor, &mut content[filled..]) {
            Ok(0) => break,
            Ok(count) => filled += count,
            Err(Errno::INTR) => continue,
            Err(errno) => return Err(ReadError::Io(errno)),
        }
    }
    content.truncate(filled);
    if content.len() > cap {
        return Err(ReadError::TooLarge { limit });
    }
    Ok(content)
}

/// The first bytes of a file and the size it had when opened.
#[derive(Debug, Clone)]
pub struct Prefix {
    pub bytes: Vec<u8>,
    /// The whole file's size, which may exceed what was read.
    pub size: u64,
}

/// Reads at most `max` bytes from the start of the open regular file `descriptor` (a file shown
/// cut, such as a resource a model asked for); a larger file is not an error, its size says so.
pub fn prefix(descriptor: impl AsFd, max: usize) -> Result<Prefix, ReadError> {
    let stat = rustix::fs::fstat(&descriptor).map_err(ReadError::Io)?;
    let kind = FileType::from_raw_mode(stat.st_mode);
    if kind != FileType::RegularFile {
        return Err(ReadError::NotRegular(kind));
    }
    let size = u64::try_from(stat.st_size).unwrap_or(0);
    let mut bytes = vec![0_u8; usize::try_from(size).unwrap_or(usize::MAX).min(max)];
    let mut filled = 0;
    while filled < max {
        if filled == bytes.len() {
            // Grown since the fstat: read on, up to `max`.
            let grown = bytes.len().saturating_mul(2).max(8192).min(max);
            bytes.resize(grown, 0);
        }
        match rustix::io::read(&descriptor, &mut bytes[filled..]) {
            Ok(0) => break,
            Ok(count) => filled += count,
            Err(Errno::INTR) => continue,
            Err(errno) => return Err(ReadError::Io(errno)),
        }
    }
    bytes.truncate(filled);
    Ok(Prefix { bytes, size })
}

/// Reads the regular file `name` inside `directory`, never through a link.
pub fn regular_at(
    directory: impl AsFd,
    name: impl rustix::path::Arg,
    limit: Limit,
) -> Result<Read, ReadError> {
    let descriptor = open::file_at(directory, name).map_err(ReadError::from_open)?;
    regular(descriptor, limit)
}

/// Why an input file the user named cannot be read; the message names the file.
#[derive(Debug, Clone, thiserror::Error)]
#[error("{}: {source}", .path.display())]
pub struct InputError {
    pub path: std::path::PathBuf,
    #[source]
    pub source: ReadError,
}

/// Reads a file the user named on the command line (queries, a script, a configuration): links are
/// followed, but only a regular file within `limit` is read.
pub fn input(path: &Path, limit: Limit) -> Result<Read, InputError> {
    let fail = |source| InputError {
        path: path.to_path_buf(),
        source,
    };
    let descriptor = open::input_file(path).map_err(|errno| fail(ReadError::from_open(errno)))?;
    regular(descriptor, limit).map_err(fail)
}

/// [`input`] as UTF-8 text; the error names the first invalid byte.
pub fn input_text(path: &Path, limit: Limit) -> Result<String, InputTextError> {
    let read = input(path, limit)?;
    String::from_utf8(read.bytes).map_err(|error| InputTextError::NotUtf8 {
        path: path.to_path_buf(),
        offset: error.utf8_error().valid_up_to(),
    })
}

#[derive(Debug, Clone, thiserror::Error)]
pub enum InputTextError {
    #[error(transparent)]
    Read(#[from] InputError),
    #[error("{}: not UTF-8 text (invalid byte at offset {offset})", .path.display())]
    NotUtf8 {
        path: std::path::PathBuf,
        offset: usize,
    },
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn refuses_what_is_not_a_regular_file() {
        for device in ["/dev/zero", "/dev/urandom", "/dev/null"] {
            let error = input(Path::new(device), Limit::INPUT).expect_err(device);
            assert_eq!(
                error.source,
                ReadError::NotRegular(FileType::CharacterDevice),
                "{device}"
            );
            assert!(error.to_string().starts_with(device), "{error}");
            assert!(error.to_string().contains("character device"), "{error}");
        }
        let directory = tempfile::tempdir().expect("temporary directory");
        let fifo = directory.path().join("fifo");
        rustix::fs::mknodat(
            rustix::fs::CWD,
            &fifo,
            FileType::Fifo,
            rustix::fs::Mode::from_raw_mode(0o600),
            0,
        )
        .expect("mkfifo");
        // Opening a FIFO for reading would block until a writer came; this returns at once.
        let error = input(&fifo, Limit::INPUT).expect_err("fifo");
        assert_eq!(error.source, ReadError::NotRegular(FileType::Fifo));
        let error = input(directory.path(), Limit::INPUT).expect_err("folder");
        assert_eq!(error.source, ReadError::NotRegular(FileType::Directory));
        let error = input(&directory.path().join("gone"), Limit::INPUT).expect_err("missing");
        assert_eq!(error.source, ReadError::NotFound);
    }

    #[test]
    fn stops_at_the_limit() {
        let directory = tempfile::tempdir().expect("temporary directory");
        let path = directory.path().join("big");
        std::fs::write(&path, vec![b'a'; 10_001]).expect("write");
        let limit = Limit::INPUT.with_bytes(10_000);
        let error = input(&path, limit).expect_err("too large");
        assert_eq!(error.source, ReadError::TooLarge { limit });
        std::fs::write(&path, vec![b'a'; 10_000]).expect("write");
        assert_eq!(
            input(&path, limit).expect("at the limit").bytes.len(),
            10_000
        );
        std::fs::write(&path, b"").expect("write");
        assert!(input(&path, limit).expect("empty").bytes.is_empty());
    }

    #[test]
    fn a_prefix_stops_at_its_length_and_tells_the_size() {
        let directory = tempfile::tempdir().expect("temporary directory");
        let path = directory.path().join("file");
        std::fs::write(&path, b"0123456789").expect("write");
        let folder = open::root_directory(directory.path()).expect("open");
        let read = |max| prefix(open::file_at(&folder, "file").expect("open"), max).expect("read");
        let cut = read(4);
        assert_eq!((cut.bytes.as_slice(), cut.size), (&b"0123"[..], 10));
        let whole = read(100);
        assert_eq!(
            (whole.bytes.as_slice(), whole.size),
            (&b"0123456789"[..], 10)
        );
        assert!(read(0).bytes.is_empty());
        let error = prefix(open::file_at(&folder, ".").expect("open"), 10).expect_err("folder");
        assert_eq!(error, ReadError::NotRegular(FileType::Directory));
    }

    #[test]
    fn never_follows_a_link_below_a_directory() {
        let directory = tempfile::tempdir().expect("temporary directory");
        std::fs::write(directory.path().join("secret"), "secret").expect("write");
        std::os::unix::fs::symlink(
            directory.path().join("secret"),
            directory.path().join("link"),
        )
        .expect("link");
        let folder = open::root_directory(directory.path()).expect("open");
        assert_eq!(
            regular_at(&folder, "link", Limit::SKILL_FILE).expect_err("link"),
            ReadError::Symlink
        );
        assert_eq!(
            regular_at(&folder, "secret", Limit::SKILL_FILE)
                .expect("file")
                .bytes,
            b"secret"
        );
    }
}
