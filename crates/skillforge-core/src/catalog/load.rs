//! The load-budget view: what a client hands the model when one skill is loaded, computed from the
//! editor's text so the author sees the effect of an edit before saving.
//!
//! nagents returns the whole SKILL.md (frontmatter included) cut to `limit * 4` bytes; the view
//! adds where that cut falls in the author's text. 10xGraph's `activate_skill` returns the body
//! without frontmatter, never cut, with a listing of the skill's bundled files.

use std::collections::BTreeMap;
use std::path::Path;

use serde::{Deserialize, Serialize};

use crate::clients::nagents::budget::{budget_skill_content, InvalidTokenLimit, SkillLoadResult};
use crate::clients::nagents::metadata::parse_skill_metadata;
use crate::clients::tenxgraph::registry::{Registry, ScannedDir, ToolOutput, MAX_LISTED_FILES};
use crate::skill::Skill;

/// Where nagents' cut falls in the original text.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
pub struct CutPosition {
    /// UTF-16 offset of the first character left out (CodeMirror's unit).
    pub utf16_offset: u32,
    /// UTF-8 byte offset of the same place.
    pub byte_offset: u32,
    /// 1-based line on which the cut falls.
    pub line: u32,
}

/// nagents' load of this skill.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
pub struct NagentsLoad {
    pub result: SkillLoadResult,
    /// `None` when nothing was cut.
    pub cut: Option<CutPosition>,
    /// Why nagents would not list this skill at all (its metadata is refused); the load is then
    /// shown as if the skill were listed under its folder's name.
    pub problem: Option<String>,
}

/// 10xGraph's `activate_skill` for this skill.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
pub struct TenxgraphLoad {
    /// The skill's name as 10xGraph reads it; `None` when it skips the skill.
    pub name: Option<String>,
    /// The tool's result; `None` when 10xGraph skips the skill.
    pub output: Option<ToolOutput>,
    /// Bundled files as the tool lists them (at most 200).
    pub files: Vec<String>,
    pub files_truncated: bool,
    /// The loader's diagnostics for this skill (why it is skipped, or what it forgave).
    pub diagnostics: Vec<String>,
}

/// Both clients' load of one skill at one limit.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
pub struct LoadPreview {
    pub nagents: NagentsLoad,
    pub tenxgraph: TenxgraphLoad,
}

/// Where a cut after `kept` bytes of `text` falls.
pub fn cut_position(text: &str, kept: usize) -> CutPosition {
    let before = &text[..kept.min(text.len())];
    let utf16_offset: usize = before.chars().map(char::len_utf16).sum();
    // Lines as an editor counts them: \n, \r\n and a lone \r end a line.
    let mut line = 1;
    let bytes = before.as_bytes();
    for (index, byte) in bytes.iter().enumerate() {
        match byte {
            b'\n' => line += 1,
            b'\r' if bytes.get(index + 1) != Some(&b'\n') => line += 1,
            _ => {}
        }
    }
    CutPosition {
        utf16_offset: u32::try_from(utf16_offset).unwrap_or(u32::MAX),
        byte_offset: u32::try_from(before.len()).unwrap_or(u32::MAX),
        line,
    }
}

/// The load-budget view of the SKILL.md at `path` whose current text is `text`.
pub fn load_preview(
    path: &Path,
    text: &str,
    token_limit: u32,
) -> Result<LoadPreview, InvalidTokenLimit> {
    let location = path.display().to_string();
    let dir = path.parent().unwrap_or(path);
    let dir_name = dir
        .file_name()
        .map(|name| name.to_string_lossy().into_owned())
        .unwrap_or_default();
    let (skill, problem) = match parse_skill_metadata(text, &location, &dir_name) {
        Ok(skill) => (skill, None),
        Err(error) => (
            Skill {
                name: dir_name,
                description: String::new(),
                location: location.clone(),
            },
            Some(format!("{location}: {error}")),
        ),
    };
    let result = budget_skill_content(&skill, text, token_limit)?;
    let cut = result
        .truncated
        .then(|| cut_position(text, result.content.len()));
    let nagents = NagentsLoad {
        result,
        cut,
        problem,
    };

    let scanned = ScannedDir::from_text(dir, text);
    let diagnostics = scanned
        .diagnostics
        .iter()
        .map(|d| format!("{}: {}", d.level, d.message))
        .collect();
    let name = scanned.meta.as_ref().map(|meta| meta.name.clone());
    let registry = Registry::from_scan(
        std::slice::from_ref(&scanned),
        BTreeMap::from([(dir.to_path_buf(), text.to_string())]),
    );
    let tenxgraph = match &name {
        Some(name) => {
            let (files, files_truncated) = registry.list_files(name, MAX_LISTED_FILES);
            // The tool is offered `read_skill_resource` exactly when some skill bundles a file.
            let can_read_files = !files.is_empty();
            TenxgraphLoad {
                name: Some(name.clone()),
                output: Some(registry.activate_skill(name, std::iter::empty(), can_read_files)),
                files,
                files_truncated,
                diagnostics,
            }
        }
        None => TenxgraphLoad {
            name: None,
            output: None,
            files: Vec::new(),
            files_truncated: false,
            diagnostics,
        },
    };
    Ok(LoadPreview { nagents, tenxgraph })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cut_positions_count_utf16_and_lines() {
        let text = "ab\né😀\r\nxyz";
        assert_eq!(
            cut_position(text, 3),
            CutPosition {
                utf16_offset: 3,
                byte_offset: 3,
                line: 2
            }
        );
        // After "ab\né😀\r\n": 3 + 1 + 2 + 2 = 8 units, line 3.
        assert_eq!(cut_position(text, 3 + 2 + 4 + 2).utf16_offset, 8);
        assert_eq!(cut_position(text, 3 + 2 + 4 + 2).line, 3);
    }

    #[test]
    fn both_clients_load_the_unsaved_text() {
        let Ok(temp) = tempfile::tempdir() else {
            return;
        };
        let dir = temp.path().join("demo");
        std::fs::create_dir_all(dir.join("references")).ok();
        std::fs::write(dir.join("references/guide.md"), "guide").ok();
        std::fs::write(
            dir.join("SKILL.md"),
            "---\nname: demo\ndescription: old\n---\nold body",
        )
        .ok();
        let text = format!(
            "---\nname: demo\ndescription: new\n---\n{}\nend",
            "x".repeat(40)
        );
        let preview = load_preview(&dir.join("SKILL.md"), &text, 10);
        let Ok(preview) = preview else {
            panic!("{preview:?}");
        };
        assert!(preview.nagents.result.truncated);
        assert_eq!(preview.nagents.cut.map(|cut| cut.byte_offset), Some(40));
        assert_eq!(preview.nagents.cut.map(|cut| cut.line), Some(5));
        let output = preview.tenxgraph.output.map(|output| output.content);
        assert!(output
            .as_deref()
            .is_some_and(|text| text.contains("xxxx\nend")
                && text.contains("<file>references/guide.md</file>")));
        assert_eq!(preview.tenxgraph.files, ["references/guide.md"]);
        assert!(load_preview(&dir.join("SKILL.md"), &text, 0).is_err());
    }
}
