//! Per-profile verdicts: does the client load the skill (under which name and description), skip it, or
//! fail its whole catalog because of it.
//!
//! 10xGraph's verdict comes from the engine's one model of its loader, [`crate::clients::tenxgraph`].

use serde::{Deserialize, Serialize};

use super::context::SkillContext;
use super::{Diagnostic, ProfileId, Severity};
use crate::clients::nagents::metadata;
use crate::clients::tenxgraph::{self, LoadedSkill};
use crate::clients::{claude_code, codex, copilot, gemini, opencode};
use crate::python;

/// What one client does with one skill.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
#[serde(tag = "outcome", rename_all = "kebab-case")]
pub enum Outcome {
    /// The skill is offered to the model under this name and description.
    Loads { name: String, description: String },
    /// The skill loads (it can be invoked by name) but the model is not told about it.
    Unlisted { name: String, reason: String },
    /// The skill is left out; the others still load.
    Skipped { reason: String },
    /// Because of this skill, the client loads no skill at all.
    FailsCatalog { reason: String },
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
pub struct Verdict {
    pub profile: ProfileId,
    #[serde(flatten)]
    pub outcome: Outcome,
}

/// 10xGraph's `load_skill` for one SKILL.md: the skill, or why it is skipped.
pub fn tenxgraph_load(context: &SkillContext<'_>) -> Result<LoadedSkill, String> {
    if context.file.invalid_utf8_at.is_some() {
        return Err("Cannot read file: not valid UTF-8".to_string());
    }
    // 10xGraph splits at Python's line boundaries (a lone `\r` or a form feed ends a line too) and reads
    // the YAML with PyYAML, so its own split and loader are replayed rather than the linter's layout.
    match context.tenxgraph_yaml() {
        Some(yaml) => yaml.loaded.clone().into_result(),
        None => Err(tenxgraph::NO_FRONTMATTER.to_string()),
    }
}

/// The verdict of each selected profile for one file, given its diagnostics.
pub fn verdicts(context: &SkillContext<'_>, diagnostics: &[Diagnostic]) -> Vec<Verdict> {
    context
        .profiles
        .iter()
        .map(|profile| Verdict {
            profile: *profile,
            outcome: outcome(context, *profile, diagnostics),
        })
        .collect()
}

fn first_error(diagnostics: &[Diagnostic], profile: ProfileId) -> Option<&Diagnostic> {
    diagnostics.iter().find(|diagnostic| {
        diagnostic.severity == Severity::Error && diagnostic.profiles.contains(&profile)
    })
}

fn outcome(context: &SkillContext<'_>, profile: ProfileId, diagnostics: &[Diagnostic]) -> Outcome {
    let placement = &context.file.placement;
    let loads_from_yaml = || Outcome::Loads {
        name: context.string_field("name").map_or_else(
            || context.file.dir_name.clone(),
            |(name, _)| name.trim().to_string(),
        ),
        description: context
            .string_field("description")
            .map(|(text, _)| text.trim().to_string())
            .unwrap_or_default(),
    };
    if context.file.is_lowercase_skill_file() && profile != ProfileId::Spec {
        return Outcome::Skipped {
            reason: crate::lint::rules::workspace::skill_file_name_case::LOWERCASE_SKIPPED
                .to_string(),
        };
    }
    match profile {
        ProfileId::Nagents => {
            if placement.symlinked_dir || placement.symlinked_file {
                return Outcome::Skipped {
                    reason: "symbolic links are skipped during discovery".to_string(),
                };
            }
            if let Some(decode_error) = &context.file.utf8_decode_error {
                // nagents reads the file as UTF-8 and skips it with Python's decoding error.
                return Outcome::Skipped {
                    reason: decode_error.clone(),
                };
            }
            let location = context.file.display_path.clone();
            match nagents_metadata(context.source, &location, &context.file.dir_name) {
                Ok(skill) if !placement.nagents_same_name.is_empty() => Outcome::FailsCatalog {
                    reason: format!(
                        "Duplicate skill name {} at {location}",
                        python::repr(&skill.name)
                    ),
                },
                Ok(skill) => Outcome::Loads {
                    name: skill.name,
                    description: skill.description,
                },
                Err(error) => Outcome::Skipped {
                    reason: error.to_string(),
                },
            }
        }
        ProfileId::Tenxgraph => match tenxgraph_load(context) {
            Ok(skill) if placement.tenxgraph_shadowed_by.is_some() => Outcome::Skipped {
                reason: tenxgraph::shadowed_message(
                    &skill.name,
                    placement
                        .tenxgraph_shadowed_by
                        .as_deref()
                        .unwrap_or_default(),
                ),
            },
            Ok(skill) => Outcome::Loads {
                name: skill.name,
                description: skill.description,
            },
            Err(reason) => Outcome::Skipped { reason },
        },
        ProfileId::ClaudeCode => claude_code_outcome(context),
        ProfileId::Codex => codex_outcome(context),
        ProfileId::Copilot => copilot_outcome(context),
        ProfileId::Gemini => gemini_outcome(context),
        ProfileId::Opencode => opencode_outcome(context),
        ProfileId::Spec | ProfileId::ClaudeUpload => match first_error(diagnostics, profile) {
            Some(diagnostic) => Outcome::Skipped {
                reason: format!(
                    "{} {}: {}",
                    diagnostic.code, diagnostic.rule, diagnostic.message
                ),
            },
            None => loads_from_yaml(),
        },
    }
}

/// Codex's verdict, from its model ([`codex::file_verdict`]): the file as if its skill folder sat in
/// one of Codex's skill roots. Its messages are those `skills/list` reports.
fn codex_outcome(context: &SkillContext<'_>) -> Outcome {
    let file = context.file;
    let contents = file.utf8_error.map_or(Ok(context.source), Err);
    let policy = file.read_inside(context.files, std::path::Path::new("agents/openai.yaml"));
    let depth = match codex::depth_in_root(&file.path) {
        Ok(depth) => depth,
        Err(reason) => {
            return Outcome::Skipped {
                reason: reason.to_string(),
            }
        }
    };
    match codex::file_verdict(
        contents,
        &file.dir_name,
        depth,
        file.placement.symlinked_file,
        policy.as_deref(),
    ) {
        codex::FileVerdict::Loads {
            name,
            description,
            listed: true,
        } => Outcome::Loads { name, description },
        codex::FileVerdict::Loads {
            name,
            listed: false,
            ..
        } => Outcome::Unlisted {
            name,
            reason: codex::IMPLICIT_OFF.to_string(),
        },
        codex::FileVerdict::Dropped(drop) => Outcome::Skipped {
            reason: drop.to_string(),
        },
        codex::FileVerdict::Ignored(reason) => Outcome::Skipped {
            reason: reason.to_string(),
        },
    }
}

/// GitHub Copilot CLI's verdict, from its model ([`copilot::file_verdict`]): the file as if its skill
/// folder sat in one of Copilot's skill folders. Its messages are those `copilot skill list` prints;
/// invalid UTF-8 is read as U+FFFD, as the client does.
fn copilot_outcome(context: &SkillContext<'_>) -> Outcome {
    let file = context.file;
    if copilot::hidden_in_root(&file.path) {
        return Outcome::Skipped {
            reason: copilot::HIDDEN_IGNORED.to_string(),
        };
    }
    match context.copilot().clone() {
        copilot::FileVerdict::Loads {
            name,
            description,
            listed: true,
        } => Outcome::Loads { name, description },
        copilot::FileVerdict::Loads {
            name,
            listed: false,
            ..
        } => Outcome::Unlisted {
            name,
            reason: copilot::MODEL_INVOCATION_OFF.to_string(),
        },
        copilot::FileVerdict::Dropped(drop) => Outcome::Skipped {
            reason: drop.to_string(),
        },
        copilot::FileVerdict::Ignored(reason) => Outcome::Skipped {
            reason: reason.to_string(),
        },
    }
}

/// Gemini CLI's verdict, from its model ([`gemini::file_verdict_of`]): the file as if its skill folder
/// sat in one of Gemini's skill roots. Invalid UTF-8 is read as U+FFFD, as the client does. Gemini
/// says nothing about a skill it drops; the reason is Skillforge's.
fn gemini_outcome(context: &SkillContext<'_>) -> Outcome {
    match gemini::file_verdict_of(context.gemini(), &context.file.path) {
        gemini::FileVerdict::Loads { name, description } => Outcome::Loads { name, description },
        gemini::FileVerdict::Dropped(drop) => Outcome::Skipped {
            reason: drop.to_string(),
        },
        gemini::FileVerdict::Ignored(reason) => Outcome::Skipped {
            reason: reason.to_string(),
        },
    }
}

/// OpenCode's verdict, from its model ([`opencode::file_verdict`]): any SKILL.md below one of its roots
/// is read, at any depth; invalid UTF-8 is read as U+FFFD, as the client does.
fn opencode_outcome(context: &SkillContext<'_>) -> Outcome {
    if opencode::hidden_in_config_root(&context.file.path) {
        return Outcome::Skipped {
            reason: opencode::HIDDEN_IGNORED.to_string(),
        };
    }
    match context.opencode() {
        Ok((name, Some(description))) => Outcome::Loads {
            name: name.clone(),
            description: description.clone(),
        },
        Ok((name, None)) => Outcome::Unlisted {
            name: name.clone(),
            reason: opencode::NO_DESCRIPTION_UNLISTED.to_string(),
        },
        Err(drop) => Outcome::Skipped {
            reason: format!("{drop}; {}", opencode::SILENT),
        },
    }
}

/// Claude Code's verdict, from its model ([`claude_code::file_verdict`]): the file as if its skill
/// folder sat in one of Claude Code's skill roots. Invalid UTF-8 is read as U+FFFD, as the client does.
fn claude_code_outcome(context: &SkillContext<'_>) -> Outcome {
    let placement = &context.file.placement;
    let place = claude_code::Place::of(&context.file.path, placement.nested_in.is_some());
    match claude_code::file_verdict(
        &context.file.dir_name,
        context.source.as_bytes(),
        place,
        placement.first_of_its_name,
    ) {
        claude_code::FileVerdict::Listed { name, description } => {
            Outcome::Loads { name, description }
        }
        claude_code::FileVerdict::Unlisted { name, reason } => Outcome::Unlisted {
            name,
            reason: reason.to_string(),
        },
        claude_code::FileVerdict::Ignored(reason) => Outcome::Skipped {
            reason: reason.to_string(),
        },
    }
}

/// The name 10xGraph's loader gives the skill in `file`, or `None` when it skips it (a lowercase
/// `skill.md` it never reads, undecodable bytes, no frontmatter, YAML or fields it refuses).
pub(crate) fn tenxgraph_name(file: &crate::lint::context::SkillFile) -> Option<String> {
    if file.invalid_utf8_at.is_some() || file.is_lowercase_skill_file() {
        return None;
    }
    file.tenxgraph_yaml()?
        .loaded
        .skill
        .as_ref()
        .map(|skill| skill.name.clone())
}

/// The name nagents gives the skill in `file`, or `None` when nagents does not load it at all
/// (a linked or lowercase file, undecodable bytes, metadata it refuses).
pub(crate) fn nagents_name(file: &crate::lint::context::SkillFile) -> Option<String> {
    let placement = &file.placement;
    if placement.symlinked_dir
        || placement.symlinked_file
        || file.utf8_decode_error.is_some()
        || file.is_lowercase_skill_file()
    {
        return None;
    }
    nagents_metadata(&file.source, &file.display_path, &file.dir_name)
        .ok()
        .map(|skill| skill.name)
}

/// nagents' `parse_skill_metadata` on a SKILL.md. It reads the body only for a fallback description, so
/// when the file has a closed frontmatter block the lines up to its closing `---` give the same result,
/// without splitting a long body into lines; only a skill left with the fallback is parsed again whole.
fn nagents_metadata(
    source: &str,
    location: &str,
    dir_name: &str,
) -> Result<crate::skill::Skill, metadata::MetadataError> {
    if let Some(end) = nagents_frontmatter_end(source) {
        match metadata::parse_skill_metadata(&source[..end], location, dir_name) {
            Ok(skill) if skill.description == metadata::FALLBACK_DESCRIPTION => {}
            // Every other outcome comes from the frontmatter lines alone, which the prefix holds whole.
            result => return result,
        }
    }
    metadata::parse_skill_metadata(source, location, dir_name)
}

/// Where the line after nagents' closing `---` starts: line 1 strips to `---` and a later line
/// right-strips to `---`, both at Python's `splitlines` boundaries; `None` without such a block.
fn nagents_frontmatter_end(source: &str) -> Option<usize> {
    let mut lines = tenxgraph::PythonLines::new(source);
    let (first, _, _) = lines.next()?;
    if python::strip(first) != "---" {
        return None;
    }
    lines
        .find(|(line, _, _)| python::rstrip(line) == "---")
        .map(|(_, _, next)| next)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn skill_files(dir: &std::path::Path, found: &mut Vec<Vec<u8>>) {
        for entry in std::fs::read_dir(dir).into_iter().flatten().flatten() {
            let path = entry.path();
            if path.is_dir() {
                skill_files(&path, found);
            } else if path
                .file_name()
                .is_some_and(|name| name.eq_ignore_ascii_case("SKILL.md"))
            {
                found.push(std::fs::read(&path).unwrap_or_default());
            }
        }
    }

    #[test]
    fn nagents_reads_the_frontmatter_alone_exactly_as_the_whole_file() {
        let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR"));
        let mut texts = Vec::new();
        skill_files(&root.join("tests/fixtures"), &mut texts);
        skill_files(&root.join("../../tests/fixtures"), &mut texts);
        let mut cases: Vec<String> = texts
            .iter()
            .map(|bytes| String::from_utf8_lossy(bytes).into_owned())
            .collect();
        cases.extend(
            [
                "---\nname: a\n---\n\n# Title\nFirst body line.\n",
                "---\nname: a\ndescription: Load with skill(name) for instructions.\n---\nBody\n",
                "---\r\nname: bad name\r\n---\r\nBody\r\n",
                "---\n---\n",
                "--- \nname: a\n  ---\nx\n---\rBody\u{2028}line",
                "---\nname: a\ndescription:\n---\n",
            ]
            .map(str::to_string),
        );
        assert!(cases.len() > 50);
        for text in &cases {
            assert_eq!(
                nagents_metadata(text, "loc", "dir"),
                metadata::parse_skill_metadata(text, "loc", "dir"),
                "{text:?}"
            );
        }
    }
}
