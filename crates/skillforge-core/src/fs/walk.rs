//! The one walker of a folder tree: folders are opened relative to their already-open parent and never
//! through a link, entries are listed with `getdents` (one system call per buffer of names), and a folder
//! that cannot be opened or listed is reported with its own path instead of ending the walk or being
//! dropped unseen.

use std::ffi::{CStr, CString, OsStr, OsString};
use std::mem::MaybeUninit;
use std::ops::ControlFlow;
use std::os::fd::{AsFd, OwnedFd};
use std::os::unix::ffi::OsStrExt;
use std::path::{Component, Path, PathBuf};

use rustix::fs::{FileType, RawDir};
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

/// Walks the tree below the open folder `root` (whose path is `root_path`), calling `visit` on every
/// folder; `visit` pushes what it keeps and says whether to enter the folder's subfolders. Links are
/// never entered.
pub fn walk<R: Send>(
    root: &OwnedFd,
    root_path: &Path,
    options: &Options,
    visit: &(dyn Fn(&Folder<'_>, &mut Vec<R>) -> bool + Sync),
) -> Walked<R> {
    let mut walked = Walked {
        found: Vec::new(),
        problems: Vec::new(),
        too_deep: Vec::new(),
    };
    walk_in(root, root_path, 0, options, visit, &mut walked);
    walked
}

fn walk_in<R: Send>(
    descriptor: &OwnedFd,
    path: &Path,
    depth: usize,
    options: &Options,
    visit: &(dyn Fn(&Folder<'_>, &mut Vec<R>) -> bool + Sync),
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
    let descend = visit(&folder, &mut walked.found);
    if !descend {
        return;
    }
    let children: Vec<&Entry> = entries
        .iter()
        .filter(|entry| entry.kind == FileType::Directory && !(options.skip)(entry.name_bytes()))
        .collect();
    if depth >= options.max_depth {
        if !children.is_empty() {
            walked.too_deep.push(path.to_path_buf());
        }
        return;
    }
    let enter = |entry: &Entry, walked: &mut Walked<R>| {
        let child_path = folder.path_of(&entry.name);
        match open::directory_at(descriptor, entry.name.as_c_str()) {
            Ok(child) => walk_in(&child, &child_path, depth + 1, options, visit, walked),
            // Replaced by something else since it was listed: gone, not a problem.
            Err(Errno::NOENT | Errno::NOTDIR | Errno::LOOP) => {}
            Err(errno) => walked.problems.push(Problem {
                path: child_path,
                errno,
            }),
        }
    };
    if depth == 0 && options.parallel && children.len() >= 2 {
        // Listing folders is most of a large walk and the subtrees are independent: walk the top-level
        // folders on every core, then join their findings in name order.
        let parts = crate::parallel::map_from(2, &children, |entry| {
            let mut part = Walked {
                found: Vec::new(),
                problems: Vec::new(),
                too_deep: Vec::new(),
            };
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

/// Where a link inside a root points, as names below that root, or `None` when it leaves the root.
///
/// `link_folder` is the link's folder as names below the root; `target` the link's text. Resolved
/// lexically: every folder below the root was reached without links, so `..` means its parent. The
/// names returned must still be opened without following links, so a chain of links is refused there.
pub fn resolve_beneath(
    root: &Path,
    link_folder: &[OsString],
    target: &Path,
) -> Option<Vec<OsString>> {
    let mut names: Vec<OsString> = if target.is_absolute() {
        let below = target.strip_prefix(root).ok()?;
        return normal_names(Vec::new(), below);
    } else {
        link_folder.to_vec()
    };
    names = normal_names(std::mem::take(&mut names), target)?;
    Some(names)
}

fn normal_names(mut names: Vec<OsString>, path: &Path) -> Option<Vec<OsString>> {
    for component in path.components() {
        match component {
            Component::Normal(name) => names.push(name.to_os_string()),
            Component::CurDir => {}
            Component::ParentDir => {
                names.pop()?;
            }
            Component::RootDir | Component::Prefix(_) => return None,
        }
    }
    Some(names)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn resolves_links_only_inside_the_root() {
        let root = Path::new("/repo");
        let folder = vec![OsString::from(".claude"), OsString::from("skills")];
        let names = |list: &[&str]| list.iter().map(OsString::from).collect::<Vec<_>>();
        assert_eq!(
            resolve_beneath(root, &folder, Path::new("../../skills/a")),
            Some(names(&["skills", "a"]))
        );
        assert_eq!(
            resolve_beneath(root, &folder, Path::new("../../../etc/passwd")),
            None
        );
        assert_eq!(
            resolve_beneath(root, &folder, Path::new("/etc/passwd")),
            None
        );
        assert_eq!(
            resolve_beneath(root, &folder, Path::new("/repo/skills/a")),
            Some(names(&["skills", "a"]))
        );
        assert_eq!(
            resolve_beneath(root, &folder, Path::new("./b")),
            Some(names(&[".claude", "skills", "b"]))
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
