//! Everything a rule may look at for one SKILL.md, computed once per file.

use std::os::fd::OwnedFd;
use std::path::{Path, PathBuf};
use std::sync::Arc;

use serde::{Deserialize, Serialize};

use super::ProfileId;
use crate::frontmatter::yaml::lines::SourceLines;
use crate::frontmatter::yaml::{self, Entry, Layout, LayoutError, Node, YamlError};
use crate::text::TextRange;

/// Facts about a skill's place in the workspace, gathered before any rule runs.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
pub struct Placement {
    /// The skill folder is a symbolic link.
    pub symlinked_dir: bool,
    /// SKILL.md itself is a symbolic link.
    pub symlinked_file: bool,
    /// The folder of an enclosing skill, when this skill sits inside another one.
    pub nested_in: Option<String>,
    /// Other SKILL.md files (display paths, in discovery order) that declare the same name.
    pub same_name_elsewhere: Vec<String>,
    /// Those of them that nagents loads too (it never sees a linked, undecodable or unparsable file),
    /// in discovery order: what makes its catalog refuse the name.
    pub nagents_same_name: Vec<String>,
    /// Whether this file comes first among the files sharing its name.
    pub first_of_its_name: bool,
    /// The SKILL.md (display path) that 10xGraph loads first under the name it loads this one with, when
    /// that is another file: only skills its loader accepts take a name, by the name it reads.
    pub tenxgraph_shadowed_by: Option<String>,
    /// A lowercase `skill.md` sits beside this `SKILL.md`, where no client reads it.
    pub lowercase_beside: bool,
}

/// Answers "does this file exist?" for link checks; the engine passes the real filesystem, tests may not.
pub trait FileProbe: Sync {
    /// Whether `inside` (a relative path without `..`) exists in the skill folder `skill_dir`.
    fn exists(&self, skill_dir: &Path, inside: &Path) -> bool;

    /// [`FileProbe::exists`] of each of `inside`, in order.
    fn exist(&self, skill_dir: &Path, inside: &[&Path]) -> Vec<bool> {
        inside
            .iter()
            .map(|inside| self.exists(skill_dir, inside))
            .collect()
    }

    /// The bytes of the regular file `inside` the skill folder, or `None` when there is none to read.
    fn read(&self, skill_dir: &Path, inside: &Path) -> Option<Vec<u8>> {
        let _ = (skill_dir, inside);
        None
    }
}

/// The real filesystem.
#[derive(Debug, Default, Clone, Copy)]
pub struct RealFiles;

impl FileProbe for RealFiles {
    /// Looked up from the skill folder without following any link (a link counts as present), so a
    /// check never touches what a link inside a skill points to.
    fn exists(&self, skill_dir: &Path, inside: &Path) -> bool {
        let Some((name, parents)) = split_inside(inside) else {
            return true;
        };
        crate::fs::open::root_directory(skill_folder(skill_dir))
            .ok()
            .and_then(|skill| {
                crate::fs::open::directory_beneath(&skill, parents.iter().copied()).ok()
            })
            .is_some_and(|parent| crate::fs::open::kind_at(&parent, name).is_ok())
    }

    /// The skill folder opened once, and each folder on the way once.
    fn exist(&self, skill_dir: &Path, inside: &[&Path]) -> Vec<bool> {
        let Ok(skill) = crate::fs::open::root_directory(skill_folder(skill_dir)) else {
            return inside
                .iter()
                .map(|inside| split_inside(inside).is_none())
                .collect();
        };
        let mut folders: std::collections::HashMap<Vec<&std::ffi::OsStr>, Option<OwnedFd>> =
            std::collections::HashMap::new();
        inside
            .iter()
            .map(|inside| {
                let Some((name, parents)) = split_inside(inside) else {
                    return true;
                };
                if parents.is_empty() {
                    return crate::fs::open::kind_at(&skill, name).is_ok();
                }
                let parent = folders.entry(parents).or_insert_with_key(|parents| {
                    crate::fs::open::directory_beneath(&skill, parents.iter().copied()).ok()
                });
                parent
                    .as_ref()
                    .is_some_and(|parent| crate::fs::open::kind_at(parent, name).is_ok())
            })
            .collect()
    }

    /// Read from the skill folder without following any link, so nothing outside it is ever read (a
    /// client that follows a link there may see more).
    fn read(&self, skill_dir: &Path, inside: &Path) -> Option<Vec<u8>> {
        let (name, parents) = split_inside(inside)?;
        let skill = crate::fs::open::root_directory(skill_folder(skill_dir)).ok()?;
        let parent = crate::fs::open::directory_beneath(&skill, parents.iter().copied()).ok()?;
        crate::fs::read::regular_at(&parent, name, crate::fs::Limit::SKILL_FILE)
            .ok()
            .map(|read| read.bytes)
    }
}

/// The skill folder to open: `.` for an empty path (a SKILL.md named without a folder).
fn skill_folder(skill_dir: &Path) -> &Path {
    if skill_dir.as_os_str().is_empty() {
        Path::new(".")
    } else {
        skill_dir
    }
}

/// A relative path's last name and the folders before it (`.` and `..` left out); `None` when empty.
fn split_inside(inside: &Path) -> Option<(&std::ffi::OsStr, Vec<&std::ffi::OsStr>)> {
    let mut names: Vec<&std::ffi::OsStr> = inside
        .components()
        .filter_map(|component| match component {
            std::path::Component::Normal(name) => Some(name),
            _ => None,
        })
        .collect();
    let name = names.pop()?;
    Some((name, names))
}

/// One SKILL.md as read from disk (or from an editor buffer).
#[derive(Debug, Clone)]
pub struct SkillFile {
    /// Path of the SKILL.md.
    pub path: PathBuf,
    /// The path as reports show it.
    pub display_path: String,
    /// Name of the folder holding the SKILL.md.
    pub dir_name: String,
    /// The text; invalid UTF-8 is replaced so that the rest of the file can still be checked.
    pub source: String,
    /// Byte offset of the first invalid UTF-8 sequence in the original bytes.
    pub invalid_utf8_at: Option<usize>,
    /// Python's `UnicodeDecodeError` text for those bytes, as the Python clients report it.
    pub utf8_decode_error: Option<String>,
    /// Rust's error for those bytes, as the Rust clients report it.
    pub utf8_error: Option<std::str::Utf8Error>,
    pub placement: Placement,
    /// The first parse of the frontmatter, shared by placement and lint so a workspace run parses each file
    /// once. It is keyed by the YAML text and its offset, so a file whose `source` was replaced since is
    /// parsed afresh rather than trusted.
    frontmatter: std::sync::OnceLock<Arc<ParsedFrontmatter>>,
    /// The first read of the frontmatter by 10xGraph's loader (PyYAML's rules), shared by placement
    /// (shadowing), lint and the catalog; keyed like `frontmatter`.
    tenxgraph: std::sync::OnceLock<(String, Arc<TenxgraphYaml>)>,
    /// Which fixes were found harmless for this text ([`super::fix`]), so linting the same text again
    /// (the next pass of `--fix`, the report after it, the editor's next keystroke) checks none twice.
    /// Shared by clones, keyed by the text and options the answers hold for.
    pub(crate) fix_checks: Arc<std::sync::Mutex<super::fix::FixChecks>>,
    /// Where the text was read from, for writing fixes back; `None` for an editor buffer.
    pub origin: Option<Origin>,
    /// What the walk that found the file saw of its folder, when it came from one.
    pub listing: Option<Arc<super::listing::Listing>>,
}

/// Where a SKILL.md was read: the open boundary folder, the names below it (links resolved), and what
/// the file was, so a fix is written only over the very text it was computed from.
#[derive(Debug, Clone)]
pub struct Origin {
    pub boundary: PathBuf,
    pub names: Vec<std::ffi::OsString>,
    pub descriptor: Arc<std::os::fd::OwnedFd>,
    pub identity: crate::fs::read::Identity,
}

/// One parse of a frontmatter block and the exact input it came from.
#[derive(Debug)]
struct ParsedFrontmatter {
    yaml_start: usize,
    yaml_text: String,
    shared: Arc<Result<Option<Node>, YamlError>>,
}

impl SkillFile {
    /// Wraps raw bytes, recording (not failing on) invalid UTF-8.
    pub fn from_bytes(path: PathBuf, display_path: String, bytes: Vec<u8>) -> Self {
        let dir_name = path
            .parent()
            .and_then(Path::file_name)
            .map(|name| name.to_string_lossy().into_owned())
            .unwrap_or_default();
        let (source, utf8_error, utf8_decode_error) = match String::from_utf8(bytes) {
            Ok(text) => (text, None, None),
            Err(error) => {
                let decode_error = crate::python::utf8_error(error.as_bytes(), &error.utf8_error());
                (
                    String::from_utf8_lossy(error.as_bytes()).into_owned(),
                    Some(error.utf8_error()),
                    Some(decode_error),
                )
            }
        };
        let invalid_utf8_at = utf8_error.map(|error| error.valid_up_to());
        Self {
            path,
            display_path,
            dir_name,
            source,
            invalid_utf8_at,
            utf8_decode_error,
            utf8_error,
            placement: Placement::default(),
            frontmatter: std::sync::OnceLock::new(),
            tenxgraph: std::sync::OnceLock::new(),
            fix_checks: Arc::default(),
            origin: None,
            listing: None,
        }
    }

    /// The YAML parse of the block at `yaml` in this file's text ([`yaml::parse`]), made once and shared
    /// while the text of that block stays the same.
    pub fn parse_frontmatter(&self, yaml: TextRange) -> Arc<Result<Option<Node>, YamlError>> {
        let text = yaml.slice(&self.source);
        if let Some(cached) = self.frontmatter.get() {
            if cached.yaml_start == yaml.start() && cached.yaml_text == text {
                return Arc::clone(&cached.shared);
            }
            return Arc::new(yaml::parse(&self.source, yaml));
        }
        let parsed = Arc::new(ParsedFrontmatter {
            yaml_start: yaml.start(),
            yaml_text: text.to_string(),
            shared: Arc::new(yaml::parse(&self.source, yaml)),
        });
        let kept = self.frontmatter.get_or_init(|| parsed);
        Arc::clone(&kept.shared)
    }

    /// 10xGraph's `load_skill` on the frontmatter, read with its own split and PyYAML's rules, made once
    /// and shared while the text stays the same; `None` when 10xGraph finds no frontmatter (or cannot
    /// decode the file).
    pub fn tenxgraph_yaml(&self) -> Option<Arc<TenxgraphYaml>> {
        if self.invalid_utf8_at.is_some() {
            return None;
        }
        let raw_yaml = crate::clients::tenxgraph::split_frontmatter(&self.source).yaml?;
        // `split_frontmatter` returns a slice of the source.
        let start = raw_yaml.as_ptr() as usize - self.source.as_ptr() as usize;
        if let Some((text, cached)) = self.tenxgraph.get() {
            if cached.start == start && text == raw_yaml {
                return Some(Arc::clone(cached));
            }
        }
        let made = Arc::new(TenxgraphYaml {
            start,
            loaded: crate::clients::tenxgraph::load_yaml(raw_yaml),
        });
        let _ = self
            .tenxgraph
            .set((raw_yaml.to_string(), Arc::clone(&made)));
        Some(made)
    }

    /// [`FileProbe::exist`] for paths inside this file's skill folder, answered from what the walk saw
    /// where it listed the folder, from `files` elsewhere.
    pub fn exist(&self, files: &dyn FileProbe, inside: &[&Path]) -> Vec<bool> {
        let Some(listing) = &self.listing else {
            return files.exist(self.dir(), inside);
        };
        let mut answers: Vec<Option<bool>> = inside.iter().map(|path| listing.has(path)).collect();
        let unknown: Vec<&Path> = inside
            .iter()
            .zip(&answers)
            .filter(|(_, answer)| answer.is_none())
            .map(|(path, _)| *path)
            .collect();
        if !unknown.is_empty() {
            let mut asked = files.exist(self.dir(), &unknown).into_iter();
            for answer in answers.iter_mut().filter(|answer| answer.is_none()) {
                *answer = asked.next();
            }
        }
        answers
            .into_iter()
            .map(|answer| answer.unwrap_or(false))
            .collect()
    }

    /// [`FileProbe::read`] of a file inside this skill folder; `None` at once where the walk listed its
    /// folder without it.
    pub fn read_inside(&self, files: &dyn FileProbe, inside: &Path) -> Option<Vec<u8>> {
        if let Some(listing) = &self.listing {
            // Absent from a listed folder, or inside a folder absent from a listed one.
            let mut at = PathBuf::new();
            for component in inside.components() {
                at.push(component);
                if listing.has(&at) == Some(false) {
                    return None;
                }
            }
        }
        files.read(self.dir(), inside)
    }

    /// Whether the file is named `skill.md`, which skills-ref accepts but most clients never look for.
    pub fn is_lowercase_skill_file(&self) -> bool {
        self.path
            .file_name()
            .is_some_and(|name| name == std::ffi::OsStr::new("skill.md"))
    }

    /// The skill folder.
    pub fn dir(&self) -> &Path {
        self.path.parent().unwrap_or(Path::new("."))
    }
}

/// The parsed view of one file that rules read.
pub struct SkillContext<'a> {
    pub file: &'a SkillFile,
    pub source: &'a str,
    /// Lines as YAML reads them, indexed on first use: a clean file needs no positions at all.
    lines: std::cell::OnceCell<SourceLines>,
    /// Whether the text holds a `\r` anywhere (most files do not, and the line-ending rules stop there).
    pub has_carriage_return: bool,
    pub layout: Result<Layout, LayoutError>,
    /// `None` when there is no frontmatter block to parse; see [`SkillContext::yaml`].
    yaml: Option<Arc<Result<Option<Node>, YamlError>>>,
    /// When the YAML fails as written but parses once its plain `: ` values are quoted (10xGraph's retry),
    /// that parse, with every range in the file as written ([`super::repair`]).
    pub repaired: Option<Option<Node>>,
    /// Set when a rule reads the repaired frontmatter; see [`SkillContext::take_read_repaired`].
    read_repaired: std::cell::Cell<bool>,
    /// The profiles the run was asked about.
    pub profiles: &'a [ProfileId],
    pub files: &'a dyn FileProbe,
    /// The body's local links, parsed once for the rules that need them (Markdown parsing dominates the
    /// cost of linting a large body).
    links: std::cell::OnceCell<Vec<crate::lint::rules::body::LocalLink>>,
    /// The frontmatter as Claude Code reads it, parsed once for the rules about its own fields.
    claude_code: std::cell::OnceCell<crate::clients::claude_code::frontmatter::Parsed>,
    /// What 10xGraph's loader makes of the frontmatter, read once for its verdict and rules.
    tenxgraph: std::cell::OnceCell<Option<Arc<TenxgraphYaml>>>,
    /// What OpenCode keeps of the file, judged once for its verdict and rules.
    opencode: std::cell::OnceCell<Result<(String, Option<String>), crate::clients::opencode::Drop>>,
    copilot: std::cell::OnceCell<crate::clients::copilot::FileVerdict>,
    gemini: std::cell::OnceCell<
        Result<crate::clients::gemini::frontmatter::Parsed, crate::clients::gemini::Drop>,
    >,
}

/// 10xGraph's frontmatter (split as 10xGraph splits it) and its loader's result.
#[derive(Debug, Clone)]
pub struct TenxgraphYaml {
    /// Where the YAML text starts in the file.
    pub start: usize,
    pub loaded: crate::clients::tenxgraph::Loaded,
}

impl<'a> SkillContext<'a> {
    pub fn new(file: &'a SkillFile, profiles: &'a [ProfileId], files: &'a dyn FileProbe) -> Self {
        let source = file.source.as_str();
        let layout = yaml::layout(source);
        let yaml = layout
            .as_ref()
            .ok()
            .map(|layout| file.parse_frontmatter(layout.yaml));
        let lines = std::cell::OnceCell::new();
        let repaired = match (&layout, yaml.as_deref()) {
            (Ok(layout), Some(Err(_))) => crate::clients::tenxgraph::repair::parse_repaired(
                source,
                lines.get_or_init(|| SourceLines::new(source)),
                layout,
            ),
            _ => None,
        };
        Self {
            file,
            source,
            lines,
            has_carriage_return: source.contains('\r'),
            layout,
            yaml,
            repaired,
            read_repaired: std::cell::Cell::new(false),
            profiles,
            files,
            links: std::cell::OnceCell::new(),
            claude_code: std::cell::OnceCell::new(),
            tenxgraph: std::cell::OnceCell::new(),
            opencode: std::cell::OnceCell::new(),
            copilot: std::cell::OnceCell::new(),
            gemini: std::cell::OnceCell::new(),
        }
    }

    /// 10xGraph's `load_skill` on the frontmatter, read with its own split and PyYAML's rules; `None`
    /// when 10xGraph finds no frontmatter (or cannot decode the file).
    pub fn tenxgraph_yaml(&self) -> Option<&TenxgraphYaml> {
        self.tenxgraph
            .get_or_init(|| self.file.tenxgraph_yaml())
            .as_deref()
    }

    /// Lines as YAML reads them: LF, CRLF and a lone CR each end one.
    pub fn lines(&self) -> &SourceLines {
        self.lines.get_or_init(|| SourceLines::new(self.source))
    }

    /// The YAML parse of the frontmatter block; `None` when there is no block to parse.
    pub fn yaml(&self) -> Option<&Result<Option<Node>, YamlError>> {
        self.yaml.as_deref()
    }

    /// The frontmatter as Claude Code reads it (its own YAML reading and quote retry), parsed on first use.
    pub fn claude_code_frontmatter(&self) -> &crate::clients::claude_code::frontmatter::Parsed {
        self.claude_code
            .get_or_init(|| crate::clients::claude_code::frontmatter::parse(self.source))
    }

    /// What OpenCode keeps of this file: its name and description (`None`: none written), or why it drops
    /// it ([`crate::clients::opencode::judge`]; invalid UTF-8 is already U+FFFD, as the client reads it).
    pub fn opencode(&self) -> &Result<(String, Option<String>), crate::clients::opencode::Drop> {
        self.opencode
            .get_or_init(|| crate::clients::opencode::judge(self.source.as_bytes()))
    }

    /// What GitHub Copilot CLI does with this file where it sits ([`crate::clients::copilot::file_verdict`]),
    /// computed once for SF607 and the verdict; invalid UTF-8 is already U+FFFD, as the client reads it.
    pub fn copilot(&self) -> &crate::clients::copilot::FileVerdict {
        self.copilot.get_or_init(|| {
            crate::clients::copilot::file_verdict(
                self.source.as_bytes(),
                &self.file.dir_name,
                self.file.placement.nested_in.is_some(),
            )
        })
    }

    /// How Gemini CLI reads this file's frontmatter ([`crate::clients::gemini::frontmatter::parse_text`]),
    /// read once for its rules and its verdict.
    pub fn gemini(
        &self,
    ) -> &Result<crate::clients::gemini::frontmatter::Parsed, crate::clients::gemini::Drop> {
        self.gemini
            .get_or_init(|| crate::clients::gemini::frontmatter::parse_text(self.source))
    }

    /// Relative link and image targets in the body.
    pub fn local_links(&self) -> &[crate::lint::rules::body::LocalLink] {
        self.links
            .get_or_init(|| crate::lint::rules::body::local_links(self))
    }

    /// The frontmatter root when it parsed and is a mapping. When it fails only because plain values
    /// contain `: `, the root as read after quoting them, so the other findings are not hidden behind
    /// plain-scalar-colon.
    pub fn frontmatter(&self) -> Option<&Node> {
        match (self.yaml.as_deref(), &self.repaired) {
            (Some(Ok(Some(node))), _) if node.entries().is_some() => Some(node),
            (Some(Err(_)), Some(Some(node))) if node.entries().is_some() => {
                self.read_repaired.set(true);
                Some(node)
            }
            _ => None,
        }
    }

    /// Whether the frontmatter was read from the repaired parse since the last call. Strict clients
    /// never get past the syntax error, so findings resting on that parse must not decide their verdicts.
    pub fn take_read_repaired(&self) -> bool {
        self.read_repaired.replace(false)
    }

    /// Whether the YAML parsed (an empty document counts as parsed).
    pub fn yaml_parsed(&self) -> bool {
        matches!(self.yaml.as_deref(), Some(Ok(_)))
    }

    pub fn field(&self, key: &str) -> Option<&Entry> {
        self.frontmatter()?.get(key)
    }

    /// A top-level string field (any scalar style) with the range of its value.
    pub fn string_field(&self, key: &str) -> Option<(&str, TextRange)> {
        let entry = self.field(key)?;
        entry
            .value
            .as_scalar()
            .map(|(text, _)| (text, entry.value.range))
    }

    /// The body range, or the whole file when there is no frontmatter.
    pub fn body_range(&self) -> TextRange {
        match &self.layout {
            Ok(layout) => layout.body,
            Err(_) => TextRange::new(0, self.source.len()),
        }
    }

    pub fn body(&self) -> &str {
        self.body_range().slice(self.source)
    }

    /// Where to point a finding about the frontmatter as a whole: its opening line, or the file start.
    pub fn frontmatter_anchor(&self) -> TextRange {
        match &self.layout {
            Ok(layout) => layout.open,
            Err(LayoutError::NotAtStart { open } | LayoutError::Unterminated { open }) => *open,
            Err(LayoutError::Missing) => TextRange::empty(0),
        }
    }

    /// Whether any selected profile is one of these.
    pub fn selects(&self, profiles: &[ProfileId]) -> bool {
        self.profiles
            .iter()
            .any(|profile| profiles.contains(profile))
    }

    /// The line terminator the file uses, so fixes insert lines that match: CRLF when any line ends so,
    /// a lone CR when that is the only kind of line break, LF otherwise.
    pub fn newline(&self) -> &'static str {
        if !self.has_carriage_return {
            "\n"
        } else if self.source.contains("\r\n") {
            "\r\n"
        } else if !self.source.contains('\n') {
            "\r"
        } else {
            "\n"
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn name_in(context: &SkillContext<'_>) -> Option<String> {
        context
            .string_field("name")
            .map(|(name, _)| name.to_string())
    }

    #[test]
    fn a_replaced_text_is_parsed_afresh_not_read_from_the_kept_parse() {
        let mut file = SkillFile::from_bytes(
            PathBuf::from("a/SKILL.md"),
            "a/SKILL.md".into(),
            b"---\nname: first\n---\n".to_vec(),
        );
        let profiles = [ProfileId::Spec];
        assert_eq!(
            name_in(&SkillContext::new(&file, &profiles, &RealFiles)).as_deref(),
            Some("first")
        );
        file.source = "---\nname: again\n---\n".to_string();
        assert_eq!(
            name_in(&SkillContext::new(&file, &profiles, &RealFiles)).as_deref(),
            Some("again")
        );
        // The same block at another offset has other ranges: not shared either.
        file.source = "\u{feff}---\nname: first\n---\n".to_string();
        let context = SkillContext::new(&file, &profiles, &RealFiles);
        assert_eq!(
            context
                .string_field("name")
                .map(|(_, range)| range.slice(context.source)),
            Some("first")
        );
    }
}
