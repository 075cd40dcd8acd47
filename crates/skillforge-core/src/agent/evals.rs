//! Trigger queries saved beside a skill, as `evals/evals.json` in the agentskills.io trigger-eval
//! layout: `[{"query": "...", "should_trigger": true | false}]`, where `true` means "this skill".
//!
//! The playground's table names the skill each query should trigger (or none) across the whole
//! workspace; beside one skill, that becomes whether the query should trigger *this* skill. The
//! layout has no way to say "another skill": such a query is saved with `"should_trigger": false`
//! (right for this skill, and what every reader of the layout expects) and the other skill's name in
//! an extra `"expected_skill"` field, which those readers ignore and the table reads back.

use std::path::{Path, PathBuf};

use serde::Serialize;

use super::triggers::EvalQuery;
use crate::clients::nagents::metadata::parse_skill_metadata;
use crate::fs::{FileError, Fingerprint, Roots, SaveGuard};

/// Where a skill's trigger queries live, relative to its SKILL.md.
pub fn evals_path(skill_path: &Path) -> PathBuf {
    skill_path
        .parent()
        .unwrap_or(skill_path)
        .join("evals")
        .join("evals.json")
}

#[derive(Serialize)]
struct TriggerEval<'a> {
    query: &'a str,
    should_trigger: bool,
    /// The other skill the query should trigger, when it names one.
    #[serde(skip_serializing_if = "Option::is_none")]
    expected_skill: Option<&'a str>,
}

/// The field that keeps a query's expected skill when it is not the skill the file sits beside.
pub const EXPECTED_SKILL_FIELD: &str = "expected_skill";

/// The file's text for the skill named `skill_name`.
pub fn render_trigger_evals(skill_name: &str, queries: &[EvalQuery]) -> String {
    let evals: Vec<TriggerEval> = queries
        .iter()
        .map(|query| {
            let expected = query.should_trigger.as_deref();
            let this_skill = expected == Some(skill_name);
            TriggerEval {
                query: &query.query,
                should_trigger: this_skill,
                expected_skill: expected.filter(|_| !this_skill),
            }
        })
        .collect();
    // Serializing plain strings and booleans cannot fail; an empty list is still a valid file.
    let mut text = serde_json::to_string_pretty(&evals).unwrap_or_else(|_| "[]".to_string());
    text.push('\n');
    text
}

/// What was written.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
pub struct SavedEvals {
    pub path: String,
    pub fingerprint: Fingerprint,
}

/// Writes the trigger queries beside the SKILL.md at `skill_path`, through the guarded file access:
/// `guard` decides whether an existing file may be replaced (never one changed on disk since it
/// was read, unless the author chose to overwrite it).
pub fn save_trigger_evals(
    roots: &Roots,
    skill_path: &Path,
    queries: &[EvalQuery],
    guard: &SaveGuard,
) -> Result<SavedEvals, FileError> {
    let skill = roots.read_text(skill_path)?;
    let location = skill_path.display().to_string();
    let directory_name = skill_path
        .parent()
        .and_then(Path::file_name)
        .map(|name| name.to_string_lossy().into_owned())
        .unwrap_or_default();
    // The name nagents lists the skill under; a skill it refuses keeps its folder's name.
    let name = parse_skill_metadata(&skill.text, &location, &directory_name)
        .map(|skill| skill.name)
        .unwrap_or(directory_name);
    let path = evals_path(skill_path);
    if let Some(folder) = path.parent() {
        roots.create_directory(folder)?;
    }
    let fingerprint = roots.write_text(&path, &render_trigger_evals(&name, queries), guard)?;
    Ok(SavedEvals {
        path: path.display().to_string(),
        fingerprint,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn query(text: &str, expected: Option<&str>) -> EvalQuery {
        EvalQuery {
            query: text.into(),
            should_trigger: expected.map(str::to_string),
        }
    }

    #[test]
    fn saves_beside_the_skill_and_refuses_to_clobber() {
        let Ok(temp) = tempfile::tempdir() else {
            return;
        };
        let root = temp.path().to_path_buf();
        let skill_path = root.join("pdf/SKILL.md");
        std::fs::create_dir_all(root.join("pdf")).ok();
        std::fs::write(&skill_path, "---\nname: pdf-tools\ndescription: d\n---\n").ok();
        let roots = Roots::new([root.clone()]);
        let queries = [
            query("fill this form", Some("pdf-tools")),
            query("bake a cake", None),
            query("write sql", Some("sql")),
        ];
        let saved = save_trigger_evals(&roots, &skill_path, &queries, &SaveGuard::New);
        let Ok(saved) = saved else {
            panic!("{saved:?}");
        };
        let text = std::fs::read_to_string(root.join("pdf/evals/evals.json")).unwrap_or_default();
        let parsed: serde_json::Value = serde_json::from_str(&text).unwrap_or_default();
        assert_eq!(
            parsed,
            serde_json::json!([
                {"query": "fill this form", "should_trigger": true},
                {"query": "bake a cake", "should_trigger": false},
                {"query": "write sql", "should_trigger": false, "expected_skill": "sql"}
            ])
        );
        // A second "new" save, or one against a stale fingerprint, is refused.
        assert!(matches!(
            save_trigger_evals(&roots, &skill_path, &queries, &SaveGuard::New),
            Err(FileError::AlreadyExists(_))
        ));
        std::fs::write(root.join("pdf/evals/evals.json"), "[]").ok();
        assert!(matches!(
            save_trigger_evals(
                &roots,
                &skill_path,
                &queries,
                &SaveGuard::Unchanged(saved.fingerprint)
            ),
            Err(FileError::ChangedOnDisk(_))
        ));
    }
}
