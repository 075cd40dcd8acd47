//! The one walker of a folder tree: folders are opened relative to their already-open parent and never
//! through a link, entries are listed with `getdents` (one system call per buffer of names), and a folder
//! that cannot be opened or listed is reported with its own path instead of ending the walk or being
//! dropped unseen.

use std::ffi::{CStr, CString, OsStr, OsString};
use std::mem::MaybeUninit;
use std::ops::ControlFlow;
use std::os::fd::{AsFd, BorrowedFd, OwnedFd};
use std::os::unix::ffi::OsStrExt;
use std::path::{Component, Path, PathBuf};

use rustix::fs::{AtFlags, FileType, RawDir};
use rustix::io::Errno;

use super::open;

/// One listed entry: its name and what the listing (or, when it does not say, `lstat`) reports.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Entry {
    pub name: CString,
    pub kind: FileType,
}

impl Entry {
    pub fn name_bytes(&self) -> &[u8] {
        self.name.as_bytes()
    }

    pub fn os_name(&self) -> &OsStr {
        OsStr::from_bytes(self.name.as_bytes())
    }
}

/// Lists the open folder `descriptor` into `buffer` (one `getdents` call per buffer of names), calling
/// `visit` with each name and the type the listing reports, `.` and `..` left out, in the order the
/// file system gives them. The type is [`FileType::Unknown`] when the file system does not say
/// ([`open::kind_at`] tells it then). Nothing is allocated per entry: this is the hot path of
/// discovery. Returns `Break` when `visit` stopped the listing.
pub fn each_entry(
    descriptor: impl AsFd,
    buffer: &mut [MaybeUninit<u8>],
    mut visit: impl FnMut(&CStr, FileType) -> ControlFlow<()>,
) -> Result<ControlFlow<()>, Errno> {
    let mut reader = RawDir::new(descriptor, buffer);
    while let Some(entry) = reader.next() {
        let entry = entry?;
        let name = entry.file_name();
        if matches!(name.to_bytes(), b"." | b"..") {
            continue;
        }
        if visit(name, entry.file_type()).is_break() {
            return Ok(ControlFlow::Break(()));
        }
    }
    Ok(ControlFlow::Continue(()))
}

/// The entries of the open folder `descriptor`, `.` and `..` left out, sorted by name. An entry whose
/// type cannot be found out is left out, as one that vanished meanwhile.
pub fn list(descriptor: &OwnedFd) -> Result<Vec<Entry>, Errno> {
    let mut buffer = Vec::with_capacity(16 * 1024);
    let mut entries = Vec::new();
    let _ = each_entry(descriptor, buffer.spare_capacity_mut(), |name, listed| {
        let kind = match listed {
            FileType::Unknown => match open::kind_at(descriptor, name) {
                Ok(kind) => kind,
                Err(_) => return ControlFlow::Continue(()),
            },
            known => known,
        };
        entries.push(Entry {
            name: name.to_owned(),
            kind,
        });
        ControlFlow::Continue(())
    })?;
    entries.sort_by(|a, b| a.name.cmp(&b.name));
    Ok(entries)
}

/// A folder met by the walk.
pub struct Folder<'a> {
    /// The folder's path: the root's path as given, joined with the names walked.
    pub path: &'a Path,
    /// 0 for the root.
    pub depth: usize,
    pub descriptor: &'a OwnedFd,
    pub entries: &'a [Entry],
}

impl Folder<'_> {
    pub fn path_of(&self, name: &CStr) -> PathBuf {
        self.path.join(OsStr::from_bytes(name.to_bytes()))
    }

    pub fn find(&self, name: &[u8]) -> Option<&Entry> {
        self.entries.iter().find(|entry| entry.name_bytes() == name)
    }
}

/// A folder the walk could not open or list.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Problem {
    pub path: PathBuf,
    pub errno: Errno,
}

impl std::fmt::Display for Problem {
    fn fmt(&self, formatter: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            formatter,
            "{}: cannot be listed ({}); its skills were not read",
            self.path.display(),
            std::io::Error::from(self.errno)
        )
    }
}

/// Which folders a walk enters.
#[derive(Debug, Clone, Copy)]
pub struct Options {
    /// Folders deeper than this below the root are not entered.
    pub max_depth: usize,
    /// Folder names that are not entered (hidden folders, `node_modules`, …).
    pub skip: fn(&[u8]) -> bool,
    /// Walk the root's subfolders on several threads (for large trees; results keep their order).
    pub parallel: bool,
}

/// Everything a walk gathered.
#[derive(Debug)]
pub struct Walked<R> {
    /// What the visitor kept, in walk order (a folder before its subfolders, subfolders by name).
    pub found: Vec<R>,
    pub problems: Vec<Problem>,
    /// Folders at the depth limit whose subfolders were not entered.
    pub too_deep: Vec<PathBuf>,
}

impl<R> Walked<R> {
    fn new() -> Self {
        Walked {
            found: Vec::new(),
            problems: Vec::new(),
            too_deep: Vec::new(),
        }
    }
}

/// Walks the tree below the open folder `root` (whose path is `root_path`), calling `visit` on every
/// folder; `visit` pushes what it keeps and says whether to enter the folder's subfolders. Links are
/// never entered.
pub fn walk<R: Send>(
    root: &OwnedFd,
    root_path: &Path,
    options: &Options,
    visit: &(dyn Fn(&Folder<'_>, &mut Vec<R>) -> bool + Sync),
) -> Walked<R> {
    struct ByName<'v, R> {
        skip: fn(&[u8]) -> bool,
        visit: &'v (dyn Fn(&Folder<'_>, &mut Vec<R>) -> bool + Sync),
    }
    impl<R> Visitor<R> for ByName<'_, R> {
        type State = ();
        fn folder(&self, folder: &Folder<'_>, _: Option<&()>, out: &mut Vec<R>) -> Option<()> {
            (self.visit)(folder, out).then_some(())
        }
        fn enter(&self, _: &Folder<'_>, _: &(), entry: &Entry) -> bool {
            !(self.skip)(entry.name_bytes())
        }
    }
    let visitor = ByName {
        skip: options.skip,
        visit,
    };
    walk_with(
        root,
        root_path,
        &Limits {
            max_depth: options.max_depth,
            parallel: options.parallel,
        },
        &visitor,
    )
}

/// How many levels of a parallel walk spread their subfolders over the cores.
const PARALLEL_LEVELS: usize = 2;

/// The bounds of a [`walk_with`].
#[derive(Debug, Clone, Copy)]
pub struct Limits {
    /// Folders deeper than this below the root are not entered.
    pub max_depth: usize,
    /// Walk the root's subfolders on several threads (for large trees; results keep their order).
    pub parallel: bool,
}

/// What a [`walk_with`] does in each folder, with a state each folder hands down to its subfolders
/// (for example the ignore files read on the way down).
pub trait Visitor<R>: Sync {
    type State: Send + Sync;
    /// Called on every folder entered, with the state of the folder it is in (`None` for the root);
    /// pushes what it keeps and returns the state its subfolders get, or `None` not to enter them.
    fn folder(
        &self,
        folder: &Folder<'_>,
        parent: Option<&Self::State>,
        out: &mut Vec<R>,
    ) -> Option<Self::State>;
    /// Whether to enter the subfolder `entry` of `folder`, whose state is `state`.
    fn enter(&self, folder: &Folder<'_>, state: &Self::State, entry: &Entry) -> bool;
}

/// Walks the tree below the open folder `root` as [`walk`] does, the visitor deciding per folder and
/// per subfolder. Links are never entered.
pub fn walk_with<R: Send, V: Visitor<R>>(
    root: &OwnedFd,
    root_path: &Path,
    limits: &Limits,
    visitor: &V,
) -> Walked<R> {
    let mut walked = Walked::new();
    walk_in(root, root_path, 0, None, limits, visitor, &mut walked);
    walked
}

fn walk_in<R: Send, V: Visitor<R>>(
    descriptor: &OwnedFd,
    path: &Path,
    depth: usize,
    parent: Option<&V::State>,
    limits: &Limits,
    visitor: &V,
    walked: &mut Walked<R>,
) {
    let entries = match list(descriptor) {
        Ok(entries) => entries,
        Err(errno) => {
            walked.problems.push(Problem {
                path: path.to_path_buf(),
                errno,
            });
            return;
        }
    };
    let folder = Folder {
        path,
        depth,
        descriptor,
        entries: &entries,
    };
    let Some(state) = visitor.folder(&folder, parent, &mut walked.found) else {
        return;
    };
    let children: Vec<&Entry> = entries
        .iter()
        .filter(|entry| entry.kind == FileType::Directory && visitor.enter(&folder, &state, entry))
        .collect();
    if depth >= limits.max_depth {
        if !children.is_empty() {
            walked.too_deep.push(path.to_path_buf());
        }
        return;
    }
    let enter = |entry: &Entry, walked: &mut Walked<R>| {
        let child_path = folder.path_of(&entry.name);
        match open::directory_at(descriptor, entry.name.as_c_str()) {
            Ok(child) => walk_in(
                &child,
                &child_path,
                depth + 1,
                Some(&state),
                limits,
                visitor,
                walked,
            ),
            // Replaced by something else since it was listed: gone, not a problem.
            Err(Errno::NOENT | Errno::NOTDIR | Errno::LOOP) => {}
            Err(errno) => walked.problems.push(Problem {
                path: child_path,
                errno,
            }),
        }
    };
    if depth < PARALLEL_LEVELS && limits.parallel && children.len() >= 2 {
        // Listing folders is most of a large walk and the subtrees are independent: walk the folders of
        // the top levels on every core, then join their findings in name order. Two levels, as most
        // trees hold one or two folders (`skills`, `.claude`) above their many skills.
        let parts = crate::parallel::map_from(2, &children, |entry| {
            let mut part = Walked::new();
            enter(entry, &mut part);
            part
        });
        for part in parts {
            walked.found.extend(part.found);
            walked.problems.extend(part.problems);
            walked.too_deep.extend(part.too_deep);
        }
    } else {
        for entry in children {
            enter(entry, walked);
        }
    }
}

/// Why a link inside a root could not be resolved to a place beneath it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Unresolved {
    /// The link, or a link on its way, leads out of the root.
    Outside,
    /// A folder on its way is missing or no folder, or links loop (`errno`, after `at`, names below
    /// the root).
    Io { errno: Errno, at: Vec<OsString> },
}

impl Unresolved {
    /// Why the link cannot be followed, in words that finish "a symbolic link to X, which …".
    pub fn why(errno: Errno) -> String {
        match errno {
            Errno::LOOP => "goes round in a loop of links".to_string(),
            Errno::NOENT => "leads to nothing (no such file or folder)".to_string(),
            Errno::NOTDIR => "passes through a file as if it were a folder".to_string(),
            Errno::ACCESS => "passes through a folder that may not be read".to_string(),
            other => format!("cannot be followed: {}", std::io::Error::from(other)),
        }
    }
}

/// How many links one resolution follows before it is a loop, as the kernel counts (`MAXSYMLINKS`).
const MAX_LINKS: u32 = 40;

/// How many of the deepest folders on a resolution's way are kept open, so that each component costs
/// one open however deep the way goes (a folder above them is opened again from the root).
const OPEN_FOLDERS: usize = 64;

/// Where a link inside a root points, as names below that root.
///
/// `root` is the open root folder and `root_path` its canonical path (for absolute targets);
/// `link_folder` is the link's folder as names below the root, reached without links; `target` the
/// link's text. The target is resolved the way the kernel would, one component at a time and never
/// past the root: each folder on the way is opened without following links, a link met on the way
/// (or as the last component) is resolved in turn, and `..` is the parent of the folder actually
/// reached. So `missing/../../b` is not `b`, as the kernel finds nothing there either. The last
/// component need not exist; opening it (without following links) is the caller's step.
pub fn resolve_beneath(
    root: impl AsFd,
    root_path: &Path,
    link_folder: &[OsString],
    target: &Path,
) -> Result<Vec<OsString>, Unresolved> {
    let mut cursor = Cursor {
        root: root.as_fd(),
        names: link_folder.to_vec(),
        open: std::collections::VecDeque::new(),
    };
    // The link being resolved is the first the kernel counts.
    let mut links = 1;
    cursor.resolve(root_path, target, &mut links)?;
    Ok(cursor.names)
}

/// Where a resolution stands: names below the root, and the deepest folders among them kept open.
struct Cursor<'r> {
    root: BorrowedFd<'r>,
    names: Vec<OsString>,
    /// `(depth, folder)`: the open folder `names[..depth]`, for consecutive depths, deepest last; at
    /// most [`OPEN_FOLDERS`] of them, and never deeper than `names`.
    open: std::collections::VecDeque<(usize, OwnedFd)>,
}

impl Cursor<'_> {
    fn fail(&self, errno: Errno) -> Unresolved {
        Unresolved::Io {
            errno,
            at: self.names.clone(),
        }
    }

    /// The folder `names` leads to, each component opened without following links: from the deepest
    /// folder kept open, or from the root when none of them is on the way.
    fn folder(&mut self) -> Result<BorrowedFd<'_>, Unresolved> {
        let depth = self.names.len();
        if self.open.is_empty() {
            let top = super::open::directory_beneath(self.root, std::iter::empty())
                .map_err(|(errno, _)| self.fail(errno))?;
            self.open.push_back((0, top));
        }
        while let Some((reached, folder)) = self.open.back() {
            if *reached == depth {
                break;
            }
            let next = super::open::directory_at(folder, self.names[*reached].as_os_str())
                .map_err(|errno| self.fail(errno))?;
            self.open.push_back((reached + 1, next));
            if self.open.len() > OPEN_FOLDERS {
                self.open.pop_front();
            }
        }
        match self.open.back() {
            Some((_, folder)) => Ok(folder.as_fd()),
            None => Err(self.fail(Errno::BADF)),
        }
    }

    /// `..`: the parent of the folder reached (`..` of something that is no folder is the kernel's
    /// ENOENT or ENOTDIR), never above the root.
    fn up(&mut self) -> Result<(), Unresolved> {
        self.folder()?;
        self.names.pop().ok_or(Unresolved::Outside)?;
        while self
            .open
            .back()
            .is_some_and(|(reached, _)| *reached > self.names.len())
        {
            self.open.pop_back();
        }
        Ok(())
    }

    /// Resolves `target`, the text of a link in the folder `names`, leaving `names` where it leads.
    fn resolve(
        &mut self,
        root_path: &Path,
        target: &Path,
        links: &mut u32,
    ) -> Result<(), Unresolved> {
        let relative = if target.is_absolute() {
            let below = target
                .strip_prefix(root_path)
                .map_err(|_| Unresolved::Outside)?;
            self.names.clear();
            self.open.clear();
            below
        } else {
            target
        };
        for component in relative.components() {
            match component {
                Component::CurDir => {}
                Component::ParentDir => self.up()?,
                Component::RootDir | Component::Prefix(_) => return Err(Unresolved::Outside),
                Component::Normal(name) => {
                    let folder = self.folder()?;
                    match rustix::fs::statat(folder, name, AtFlags::SYMLINK_NOFOLLOW) {
                        Ok(stat) if FileType::from_raw_mode(stat.st_mode) == FileType::Symlink => {
                            *links += 1;
                            if *links > MAX_LINKS {
                                return Err(self.fail(Errno::LOOP));
                            }
                            let inner = super::open::link_target_at(folder, name)
                                .map_err(|errno| self.fail(errno))?;
                            self.resolve(root_path, Path::new(&inner), links)?;
                        }
                        // A missing last component is the caller's to report when it opens it; a
                        // folder missing on the way is the kernel's ENOENT at the next component.
                        Ok(_) | Err(Errno::NOENT) => self.names.push(name.to_os_string()),
                        Err(errno) => return Err(self.fail(errno)),
                    }
                }
            }
        }
        // A trailing `/` (or `/.`, which `components` drops) asks for a folder, as the kernel does.
        let text = target.as_os_str().as_bytes();
        if text.ends_with(b"/") || text.ends_with(b"/.") {
            self.folder()?;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn resolves_links_as_the_kernel_would_and_only_inside_the_root() {
        use std::os::unix::fs::symlink;
        let directory = tempfile::tempdir().expect("temporary directory");
        let root_path = directory.path().canonicalize().expect("canonical root");
        for folder in [".claude/skills", "skills/a"] {
            std::fs::create_dir_all(root_path.join(folder)).expect("folder");
        }
        std::fs::write(root_path.join("file"), "text").expect("file");
        symlink("skills", root_path.join("l")).expect("link");
        symlink("skills/a", root_path.join("deep")).expect("link");
        symlink("/etc", root_path.join("out")).expect("link");
        symlink("y", root_path.join("x")).expect("link");
        symlink("x", root_path.join("y")).expect("link");
        let root = super::open::root_directory(&root_path).expect("root");
        let names = |list: &[&str]| list.iter().map(OsString::from).collect::<Vec<_>>();
        let folder = names(&[".claude", "skills"]);
        let resolve = |from: &[OsString], target: &str| {
            resolve_beneath(&root, &root_path, from, Path::new(target))
        };
        let io = |errno, at: &[&str]| {
            Err(Unresolved::Io {
                errno,
                at: names(at),
            })
        };

        assert_eq!(
            resolve(&folder, "../../skills/a"),
            Ok(names(&["skills", "a"]))
        );
        assert_eq!(
            resolve(&folder, "./b"),
            Ok(names(&[".claude", "skills", "b"]))
        );
        assert_eq!(
            resolve(&folder, &format!("{}/skills/a", root_path.display())),
            Ok(names(&["skills", "a"]))
        );
        assert_eq!(
            resolve(&folder, "../../../etc/passwd"),
            Err(Unresolved::Outside)
        );
        assert_eq!(resolve(&folder, "/etc/passwd"), Err(Unresolved::Outside));
        // Links on the way are resolved in turn, and `..` is the parent of where a link led.
        assert_eq!(resolve(&folder, "../../l/a"), Ok(names(&["skills", "a"])));
        assert_eq!(resolve(&[], "deep/../a"), Ok(names(&["skills", "a"])));
        assert_eq!(resolve(&[], "l"), Ok(names(&["skills"])));
        assert_eq!(
            resolve(&folder, "../../out/passwd"),
            Err(Unresolved::Outside)
        );
        // What the kernel would not find is not found: no lexical shortcut over a missing folder.
        assert_eq!(
            resolve(&folder, "missing/../../../skills/a"),
            io(Errno::NOENT, &[".claude", "skills", "missing"])
        );
        assert_eq!(resolve(&[], "file/../skills"), io(Errno::NOTDIR, &["file"]));
        assert_eq!(resolve(&[], "x/a"), io(Errno::LOOP, &[]));
        // A trailing `/` (or `/.`) asks for a folder: the kernel answers ENOTDIR for a file.
        assert_eq!(resolve(&[], "file/"), io(Errno::NOTDIR, &["file"]));
        assert_eq!(resolve(&[], "file/."), io(Errno::NOTDIR, &["file"]));
        assert_eq!(resolve(&[], "skills/a/"), Ok(names(&["skills", "a"])));
        assert_eq!(resolve(&[], "l/"), Ok(names(&["skills"])));
    }

    #[test]
    fn counts_links_as_the_kernel_does() {
        use std::os::unix::fs::symlink;
        let directory = tempfile::tempdir().expect("temporary directory");
        let root_path = directory.path().canonicalize().expect("canonical root");
        std::fs::write(root_path.join("file"), "text").expect("file");
        let root = super::open::root_directory(&root_path).expect("root");
        // Chains of 39, 40 and 41 links ending at `file`; the first link is the one being resolved.
        for length in 39..=41_usize {
            let chain = root_path.join(format!("chain{length}"));
            std::fs::create_dir(&chain).expect("folder");
            for link in 0..length - 1 {
                symlink((link + 1).to_string(), chain.join(link.to_string())).expect("link");
            }
            symlink("../file", chain.join((length - 1).to_string())).expect("link");
            let first = chain.join("0");
            let target = std::fs::read_link(&first).expect("target");
            let folder = vec![OsString::from(format!("chain{length}"))];
            let resolved = resolve_beneath(&root, &root_path, &folder, &target);
            // What the kernel itself does with the same chain.
            match std::fs::metadata(&first) {
                Ok(_) => assert_eq!(resolved, Ok(vec![OsString::from("file")]), "{length}"),
                Err(error) => {
                    assert_eq!(error.raw_os_error(), Some(libc::ELOOP), "{length}");
                    assert!(
                        matches!(
                            resolved,
                            Err(Unresolved::Io {
                                errno: Errno::LOOP,
                                ..
                            })
                        ),
                        "{length}: {resolved:?}"
                    );
                }
            }
        }
    }

    #[test]
    fn resolves_through_folders_deeper_than_the_ones_kept_open() {
        let directory = tempfile::tempdir().expect("temporary directory");
        let root_path = directory.path().canonicalize().expect("canonical root");
        let depth = 3 * OPEN_FOLDERS + 5;
        let deep: PathBuf = std::iter::repeat_n("d", depth).collect();
        std::fs::create_dir_all(root_path.join(&deep)).expect("folders");
        std::fs::write(root_path.join(&deep).join("file"), "text").expect("file");
        std::os::unix::fs::symlink("..", root_path.join(&deep).join("up")).expect("link");
        let root = super::open::root_directory(&root_path).expect("root");
        let d = |count: usize| vec![OsString::from("d"); count];
        // All the way down, and all the way back up with `..` (beyond the folders kept open).
        let down_and_up = format!("{}/{}", deep.display(), vec![".."; depth].join("/"));
        assert_eq!(
            resolve_beneath(&root, &root_path, &[], Path::new(&down_and_up)),
            Ok(Vec::new())
        );
        let mut with_file = d(depth);
        with_file.push(OsString::from("file"));
        let target = format!("{}/up/d/file", deep.display());
        assert_eq!(
            resolve_beneath(&root, &root_path, &[], Path::new(&target)),
            Ok(with_file)
        );
        let past = format!("{}/{}", deep.display(), vec![".."; depth + 1].join("/"));
        assert_eq!(
            resolve_beneath(&root, &root_path, &[], Path::new(&past)),
            Err(Unresolved::Outside)
        );
    }

    #[test]
    fn each_entry_lists_every_name_once_and_stops_when_told() {
        let directory = tempfile::tempdir().expect("temporary directory");
        for index in 0..300 {
            std::fs::write(directory.path().join(format!("file-{index:03}")), "").expect("write");
        }
        std::fs::create_dir(directory.path().join("folder")).expect("create");
        let root = open::root_directory(directory.path()).expect("open");
        // A small buffer, so the listing takes several calls.
        let mut buffer = vec![MaybeUninit::uninit(); 1024];
        let mut names = Vec::new();
        let flow = each_entry(&root, &mut buffer, |name, kind| {
            assert_ne!(kind, FileType::Symlink);
            names.push(name.to_owned());
            ControlFlow::Continue(())
        })
        .expect("list");
        assert_eq!(flow, ControlFlow::Continue(()));
        names.sort();
        names.dedup();
        assert_eq!(names.len(), 301);
        // A listing reads on from where the descriptor stands: a second one needs a fresh open.
        let root = open::root_directory(directory.path()).expect("open");
        let sorted: Vec<CString> = list(&root)
            .expect("list")
            .into_iter()
            .map(|entry| entry.name)
            .collect();
        assert_eq!(sorted, names);
        let root = open::root_directory(directory.path()).expect("open");
        let mut seen = 0;
        let flow = each_entry(&root, &mut buffer, |_, _| {
            seen += 1;
            if seen == 5 {
                ControlFlow::Break(())
            } else {
                ControlFlow::Continue(())
            }
        })
        .expect("list");
        assert_eq!((flow, seen), (ControlFlow::Break(()), 5));
    }

    #[test]
    fn reports_a_folder_it_cannot_list_and_walks_the_rest() {
        let directory = tempfile::tempdir().expect("temporary directory");
        for folder in ["a", "b/c", "d"] {
            std::fs::create_dir_all(directory.path().join(folder)).expect("create");
        }
        std::os::unix::fs::symlink("/etc", directory.path().join("etc")).expect("link");
        let root = open::root_directory(directory.path()).expect("open");
        let options = Options {
            max_depth: 8,
            skip: |_| false,
            parallel: true,
        };
        let walked = walk(&root, directory.path(), &options, &|folder,
                                                               found: &mut Vec<
            PathBuf,
        >| {
            found.push(folder.path.to_path_buf());
            true
        });
        let relative: Vec<_> = walked
            .found
            .iter()
            .map(|path| {
                path.strip_prefix(directory.path())
                    .expect("below")
                    .to_path_buf()
            })
            .collect();
        let expected: Vec<PathBuf> = ["", "a", "b", "b/c", "d"]
            .iter()
            .map(PathBuf::from)
            .collect();
        assert_eq!(relative, expected, "links are never entered");
        assert!(walked.problems.is_empty());
    }
}
