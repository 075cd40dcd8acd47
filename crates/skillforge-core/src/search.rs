//! Search across a workspace: every SKILL.md the workspace's walk found (the lint walk, with its depth
//! limit and ignore files) and the files in each of those skill folders. Binary files, links and files
//! larger than [`MAX_FILE_BYTES`] are passed over; results are bounded and say when they were cut.

use std::os::fd::OwnedFd;
use std::path::{Path, PathBuf};

use rustix::fs::FileType;
use serde::{Deserialize, Serialize};

use crate::fs::read::{self, Limit};
use crate::fs::Roots;

/// How many matches a search returns at most; [`SearchResults::truncated`] says when there were more.
pub const MAX_MATCHES: usize = 1_000;
/// How many matches of one file are returned at most.
pub const MAX_MATCHES_PER_FILE: usize = 100;
/// How many files one search reads at most.
pub const MAX_FILES: usize = 20_000;
/// Files larger than this are not searched.
pub const MAX_FILE_BYTES: u64 = 4 * 1024 * 1024;
/// How much of a long line a preview shows around the match (characters each side).
const PREVIEW_CONTEXT: usize = 60;

/// What to look for.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
pub struct SearchQuery {
    pub text: String,
    pub case_sensitive: bool,
}

/// One match: where it is and the line it is on.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
pub struct SearchMatch {
    /// 1-based line number.
    pub line: u32,
    /// UTF-16 offset of the match into the whole file, as the editor counts.
    pub offset: u32,
    /// The line (or the part of a long line around the match).
    pub preview: String,
    /// The match within `preview`, in UTF-16 units.
    pub preview_start: u32,
    pub preview_end: u32,
}

/// The matches of one file.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
pub struct SearchFile {
    /// Absolute path, or a builtin location.
    pub path: String,
    /// The SKILL.md of the skill the file belongs to.
    pub skill: String,
    pub matches: Vec<SearchMatch>,
    /// Matches of this file left out beyond [`MAX_MATCHES_PER_FILE`].
    pub more: u32,
}

/// Everything one search found.
#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
pub struct SearchResults {
    pub files: Vec<SearchFile>,
    /// Matches returned.
    pub matches: u32,
    /// The search stopped at [`MAX_MATCHES`] or [`MAX_FILES`]: there may be more.
    pub truncated: bool,
    pub files_searched: u32,
    /// Binary, too large or unreadable files that were passed over.
    pub skipped: u32,
}

/// Where the search reads skills from.
pub enum Scope<'a> {
    /// SKILL.md files found by the workspace's walk, read through the guarded file layer.
    Folders {
        roots: &'a Roots,
        skill_files: Vec<PathBuf>,
    },
    /// Texts given directly (the builtin skills): `(location, text)`.
    Texts(Vec<(String, &'a str)>),
}

/// Searches `scope` for `query`; an empty query finds nothing.
pub fn search(scope: &Scope<'_>, query: &SearchQuery) -> SearchResults {
    let mut results = SearchResults::default();
    if query.text.is_empty() || query.text.contains('\n') {
        return results;
    }
    let matcher = Matcher::new(query);
    match scope {
        Scope::Texts(texts) => {
            for (location, text) in texts {
                if !search_text(location, location, text, &matcher, &mut results) {
                    break;
                }
            }
        }
        Scope::Folders { roots, skill_files } => {
            let mut skill_files = skill_files.clone();
            skill_files.sort();
            skill_files.dedup();
            for skill_file in &skill_files {
                if !search_skill(roots, skill_file, &matcher, &mut results) {
                    break;
                }
            }
        }
    }
    results
}

/// Searches one skill: its SKILL.md, then its other files. False when the search must stop.
fn search_skill(
    roots: &Roots,
    skill_file: &Path,
    matcher: &Matcher,
    results: &mut SearchResults,
) -> bool {
    let skill = skill_file.display().to_string();
    match roots.read_text(skill_file) {
        Ok(file) => {
            if !search_text(&skill, &skill, &file.text, matcher, results) {
                return false;
            }
        }
        Err(_) => results.skipped += 1,
    }
    let Some(folder) = skill_file.parent() else {
        return true;
    };
    let Ok(descriptor) = roots.open_folder(folder) else {
        return true;
    };
    search_folder(&descriptor, folder, &skill, 0, matcher, results)
}

fn search_folder(
    descriptor: &OwnedFd,
    path: &Path,
    skill: &str,
    depth: usize,
    matcher: &Matcher,
    results: &mut SearchResults,
) -> bool {
    let Ok(entries) = crate::fs::walk::list(descriptor) else {
        return true;
    };
    // A folder holding its own SKILL.md is another skill, searched as such.
    if depth > 0
        && entries
            .iter()
            .any(|entry| entry.name_bytes() == b"SKILL.md")
    {
        return true;
    }
    for entry in &entries {
        // Hidden files and folders are passed over, as the skill walk passes them over.
        if entry.name_bytes().first() == Some(&b'.')
            || (depth == 0 && entry.name_bytes() == b"SKILL.md")
        {
            continue;
        }
        let entry_path = path.join(entry.os_name());
        match entry.kind {
            FileType::Directory if depth < crate::lint::workspace::MAX_DEPTH => {
                if let Ok(child) = crate::fs::open::directory_at(descriptor, entry.name.as_c_str())
                {
                    if !search_folder(&child, &entry_path, skill, depth + 1, matcher, results) {
                        return false;
                    }
                }
            }
            FileType::RegularFile => {
                if results.files_searched as usize >= MAX_FILES {
                    results.truncated = true;
                    return false;
                }
                let limit = Limit::RESOURCE.with_bytes(MAX_FILE_BYTES);
                let text = read::regular_at(descriptor, entry.name.as_c_str(), limit)
                    .ok()
                    .filter(|read| crate::resources::looks_like_text(&read.bytes, true))
                    .and_then(|read| String::from_utf8(read.bytes).ok());
                match text {
                    Some(text) => {
                        let location = entry_path.display().to_string();
                        if !search_text(&location, skill, &text, matcher, results) {
                            return false;
                        }
                    }
                    None => results.skipped += 1,
                }
            }
            _ => {}
        }
    }
    true
}

/// Searches one file's text. False when the search reached [`MAX_MATCHES`].
fn search_text(
    location: &str,
    skill: &str,
    text: &str,
    matcher: &Matcher,
    results: &mut SearchResults,
) -> bool {
    results.files_searched += 1;
    let mut file = SearchFile {
        path: location.to_string(),
        skill: skill.to_string(),
        matches: Vec::new(),
        more: 0,
    };
    let mut line_offset_utf16 = 0usize;
    let mut stopped = false;
    for (index, line) in text.split_inclusive('\n').enumerate() {
        let content = line.strip_suffix('\n').unwrap_or(line);
        let content = content.strip_suffix('\r').unwrap_or(content);
        for start in matcher.find_all(content) {
            if results.matches as usize >= MAX_MATCHES {
                results.truncated = true;
                stopped = true;
                break;
            }
            if file.matches.len() >= MAX_MATCHES_PER_FILE {
                file.more += 1;
                continue;
            }
            let end = start + matcher.length_in(content, start);
            let (preview, preview_start, preview_end) = preview_of(content, start, end);
            file.matches.push(SearchMatch {
                line: u32::try_from(index + 1).unwrap_or(u32::MAX),
                offset: u32::try_from(line_offset_utf16 + utf16_len(&content[..start]))
                    .unwrap_or(u32::MAX),
                preview,
                preview_start,
                preview_end,
            });
            results.matches += 1;
        }
        if stopped {
            break;
        }
        line_offset_utf16 += utf16_len(line);
    }
    if !file.matches.is_empty() {
        results.files.push(file);
    }
    !stopped
}

fn utf16_len(text: &str) -> usize {
    text.encode_utf16().count()
}

/// The line around the match (`start..end` bytes), cut to a readable length at character boundaries,
/// with the match's place in it in UTF-16 units.
fn preview_of(line: &str, start: usize, end: usize) -> (String, u32, u32) {
    let before: Vec<(usize, char)> = line[..start].char_indices().collect();
    let cut_start = if before.len() > PREVIEW_CONTEXT {
        before[before.len() - PREVIEW_CONTEXT].0
    } else {
        0
    };
    let cut_end = line[end..]
        .char_indices()
        .nth(PREVIEW_CONTEXT * 2)
        .map_or(line.len(), |(at, _)| end + at);
    let prefix = if cut_start > 0 { "…" } else { "" };
    let suffix = if cut_end < line.len() { "…" } else { "" };
    let leading = &line[cut_start..start];
    let preview = format!("{prefix}{}{}", line[cut_start..cut_end].trim_end(), suffix);
    let preview_start = utf16_len(prefix) + utf16_len(leading);
    let preview_end = preview_start + utf16_len(&line[start..end]);
    (
        preview,
        u32::try_from(preview_start).unwrap_or(0),
        u32::try_from(preview_end).unwrap_or(0),
    )
}

/// Finds the query in a line, with or without case.
struct Matcher {
    needle: String,
    case_sensitive: bool,
}

impl Matcher {
    fn new(query: &SearchQuery) -> Matcher {
        Matcher {
            needle: if query.case_sensitive {
                query.text.clone()
            } else {
                fold(&query.text)
            },
            case_sensitive: query.case_sensitive,
        }
    }

    /// Byte offsets of every non-overlapping match in `line`.
    fn find_all(&self, line: &str) -> Vec<usize> {
        let haystack = if self.case_sensitive {
            std::borrow::Cow::Borrowed(line)
        } else {
            std::borrow::Cow::Owned(fold(line))
        };
        let mut found = Vec::new();
        let mut from = 0;
        while let Some(at) = haystack
            .get(from..)
            .and_then(|rest| rest.find(&self.needle))
        {
            found.push(from + at);
            from += at + self.needle.len().max(1);
        }
        found
    }

    /// The match's length in `line`'s bytes (folding keeps byte lengths, so it is the needle's).
    fn length_in(&self, _line: &str, _start: usize) -> usize {
        self.needle.len()
    }
}

/// Lowercase, character by character, where the lowercase letter has the same UTF-8 length (so byte
/// offsets into the folded text are offsets into the original).
fn fold(text: &str) -> String {
    text.chars()
        .map(|character| {
            let mut lower = character.to_lowercase();
            match (lower.next(), lower.next()) {
                (Some(single), None) if single.len_utf8() == character.len_utf8() => single,
                _ => character,
            }
        })
        .collect()
}

impl crate::workspace::Workspace {
    /// Searches the workspace's SKILL.md files and the files of each skill folder.
    pub fn search(
        &self,
        query: &SearchQuery,
    ) -> Result<SearchResults, crate::workspace::WorkspaceError> {
        match self.source() {
            crate::workspace::Source::Builtin => {
                let texts = crate::workspace::scan_builtin()
                    .skills
                    .into_iter()
                    .filter_map(|skill| {
                        let text = crate::builtin::file_text(&skill.location)?;
                        Some((skill.location, text))
                    })
                    .collect();
                Ok(search(&Scope::Texts(texts), query))
            }
            crate::workspace::Source::Folders(_) => {
                // Read afresh: the snapshot may predate saves, and a search must show what is on disk.
                let skill_files = crate::editor::LintSession::open(self.roots().as_slice())
                    .map_err(|error| crate::workspace::WorkspaceError::Lint(error.to_string()))?
                    .skill_paths();
                Ok(search(
                    &Scope::Folders {
                        roots: self.roots(),
                        skill_files,
                    },
                    query,
                ))
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn query(text: &str) -> SearchQuery {
        SearchQuery {
            text: text.to_string(),
            case_sensitive: false,
        }
    }

    struct Fixture {
        _temp: tempfile::TempDir,
        root: PathBuf,
        roots: Roots,
    }

    fn fixture() -> Fixture {
        let temp = tempfile::tempdir().expect("temporary directory");
        let root = temp.path().join("root");
        let write = |relative: &str, bytes: &[u8]| {
            let path = root.join(relative);
            std::fs::create_dir_all(path.parent().expect("parent")).expect("mkdir");
            std::fs::write(path, bytes).expect("write");
        };
        write(
            "pdf/SKILL.md",
            b"---\r\nname: pdf\r\ndescription: Fills forms.\r\n---\r\n# PDF\r\nUse the Form filler.\r\n",
        );
        write("pdf/scripts/fill.py", b"# fill a FORM\nprint('form')\n");
        write("pdf/assets/logo.png", b"\x89PNG\0\0form");
        write("pdf/.cache/form.txt", b"form");
        write(
            "pdf/nested/SKILL.md",
            b"---\nname: nested\n---\nform inside\n",
        );
        write("other/SKILL.md", b"---\nname: other\n---\nnothing here\n");
        Fixture {
            roots: Roots::new([root.clone()]),
            root,
            _temp: temp,
        }
    }

    fn scope(f: &Fixture) -> Scope<'_> {
        Scope::Folders {
            roots: &f.roots,
            skill_files: vec![
                f.root.join("pdf/SKILL.md"),
                f.root.join("pdf/nested/SKILL.md"),
                f.root.join("other/SKILL.md"),
            ],
        }
    }

    #[test]
    fn finds_matches_in_skill_files_and_resources_grouped_by_file() {
        let f = fixture();
        let results = search(&scope(&f), &query("form"));
        let found: Vec<(String, Vec<u32>)> = results
            .files
            .iter()
            .map(|file| {
                (
                    file.path
                        .strip_prefix(&format!("{}/", f.root.display()))
                        .unwrap_or(&file.path)
                        .to_string(),
                    file.matches.iter().map(|m| m.line).collect(),
                )
            })
            .collect();
        assert_eq!(
            found,
            [
                ("pdf/SKILL.md".to_string(), vec![3, 6]),
                ("pdf/scripts/fill.py".to_string(), vec![1, 2]),
                ("pdf/nested/SKILL.md".to_string(), vec![4]),
            ]
        );
        // The binary asset was passed over; the hidden folder was not searched; the nested skill's
        // file appears once.
        assert_eq!(results.skipped, 1);
        assert_eq!(results.matches, 5);
        assert!(!results.truncated);
        let skill = &results.files[0];
        assert_eq!(skill.skill, skill.path);
        let scripts = &results.files[1];
        assert_eq!(
            scripts.skill,
            f.root.join("pdf/SKILL.md").display().to_string()
        );
    }

    #[test]
    fn offsets_count_utf16_units_of_the_exact_text_and_previews_mark_the_match() {
        let f = fixture();
        let results = search(&scope(&f), &query("form filler"));
        let found = &results.files[0].matches[0];
        let text = std::fs::read_to_string(f.root.join("pdf/SKILL.md")).expect("read");
        let expected = text.find("Form filler").expect("present");
        assert_eq!(
            found.offset as usize,
            text[..expected].encode_utf16().count()
        );
        assert_eq!(found.preview, "Use the Form filler.");
        assert_eq!(
            &found.preview[found.preview_start as usize..found.preview_end as usize],
            "Form filler"
        );
        let sensitive = search(
            &scope(&f),
            &SearchQuery {
                text: "form filler".to_string(),
                case_sensitive: true,
            },
        );
        assert!(sensitive.files.is_empty());
    }

    #[test]
    fn counts_utf16_after_wide_characters_and_cuts_long_lines() {
        let long = format!("{}needle{}", "é😀".repeat(100), "x".repeat(500));
        let results = search(
            &Scope::Texts(vec![("package:one".to_string(), long.as_str())]),
            &query("NEEDLE"),
        );
        let found = &results.files[0].matches[0];
        assert_eq!(
            found.offset as usize,
            "é😀".repeat(100).encode_utf16().count()
        );
        assert!(found.preview.starts_with('…') && found.preview.ends_with('…'));
        let units: Vec<u16> = found.preview.encode_utf16().collect();
        let marked =
            String::from_utf16(&units[found.preview_start as usize..found.preview_end as usize])
                .expect("utf16");
        assert_eq!(marked, "needle");
    }

    #[test]
    fn results_are_bounded_and_say_so() {
        let many = "hit\n".repeat(MAX_MATCHES_PER_FILE + 5);
        let texts: Vec<(String, &str)> = (0..20)
            .map(|index| (format!("package:{index}"), many.as_str()))
            .collect();
        let results = search(&Scope::Texts(texts), &query("hit"));
        assert_eq!(results.matches as usize, MAX_MATCHES);
        assert!(results.truncated);
        assert_eq!(results.files[0].matches.len(), MAX_MATCHES_PER_FILE);
        assert_eq!(results.files[0].more, 5);
        assert!(search(&Scope::Texts(vec![]), &query("")).files.is_empty());
    }

    #[test]
    fn a_workspace_searches_what_its_walk_finds_and_the_builtin_skills_read_only() {
        let f = fixture();
        // The SKILL.md files searched are those the workspace's walk finds (a hidden folder's skill too).
        let hidden = f.root.join(".hidden/secret-skill/SKILL.md");
        std::fs::create_dir_all(hidden.parent().expect("parent")).expect("mkdir");
        std::fs::write(&hidden, "---\nname: secret-skill\n---\nform\n").expect("write");
        let (workspace, _) =
            crate::workspace::Workspace::open(crate::workspace::Source::Folders(vec![f
                .root
                .clone()]))
            .expect("open");
        let results = workspace.search(&query("form")).expect("search");
        let searched: Vec<PathBuf> = results
            .files
            .iter()
            .map(|file| PathBuf::from(&file.path))
            .filter(|path| path.ends_with("SKILL.md"))
            .collect();
        let walked: Vec<PathBuf> = workspace
            .lint_session()
            .expect("session")
            .skill_paths()
            .into_iter()
            .filter(|path| {
                std::fs::read_to_string(path).is_ok_and(|text| text.to_lowercase().contains("form"))
            })
            .collect();
        let mut sorted_walked = walked.clone();
        sorted_walked.sort();
        let mut sorted_searched = searched.clone();
        sorted_searched.sort();
        assert_eq!(sorted_searched, sorted_walked);
        assert!(sorted_searched.contains(&hidden), "{sorted_searched:?}");
        // Saved since the workspace was opened: the search reads the file as it is now.
        std::fs::write(
            f.root.join("other/SKILL.md"),
            "---\nname: other\n---\nform now\n",
        )
        .expect("write");
        let again = workspace.search(&query("form now")).expect("search");
        assert_eq!(again.files.len(), 1);
        let builtin = crate::workspace::Workspace::builtin();
        let found = builtin.search(&query("---")).expect("builtin search");
        assert!(found
            .files
            .iter()
            .all(|file| file.path.starts_with(crate::builtin::LOCATION_PREFIX)));
        assert!(!found.files.is_empty());
        let refused = builtin.create_resource(
            std::path::Path::new("package:skillforge/skills/x/SKILL.md"),
            "notes.md",
            false,
        );
        assert!(
            matches!(refused, Err(crate::workspace::WorkspaceError::ReadOnly(_))),
            "{refused:?}"
        );
    }

    #[test]
    fn never_reads_through_links_or_special_files() {
        let f = fixture();
        let outside = f._temp.path().join("outside");
        std::fs::create_dir_all(&outside).expect("mkdir");
        std::fs::write(outside.join("secret.txt"), "form secret").expect("write");
        std::os::unix::fs::symlink(&outside, f.root.join("pdf/linked")).expect("link");
        std::os::unix::fs::symlink(outside.join("secret.txt"), f.root.join("pdf/secret.txt"))
            .expect("link");
        rustix::fs::mknodat(
            rustix::fs::CWD,
            f.root.join("pdf/pipe"),
            FileType::Fifo,
            rustix::fs::Mode::from_raw_mode(0o600),
            0,
        )
        .expect("mkfifo");
        let results = search(&scope(&f), &query("secret"));
        assert!(results.files.is_empty(), "{results:?}");
        // A SKILL.md that vanished after the walk is passed over, not an error.
        std::fs::remove_file(f.root.join("other/SKILL.md")).expect("remove");
        let results = search(&scope(&f), &query("nothing"));
        assert!(results.files.is_empty());
        assert_eq!(results.skipped, 2);
    }
}
