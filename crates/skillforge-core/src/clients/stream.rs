//! What a real client's own event stream says happened in one run: the model requests it made, the
//! skill the model used, and how the run ended. Each client that can be run for trigger evals turns
//! its output lines into these events (`claude_code::run`, `codex::run`).

use serde::{Deserialize, Serialize};

/// How the model used a skill.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
#[serde(rename_all = "kebab-case")]
pub enum Detection {
    /// A call of the client's skill tool naming it (Claude Code's `Skill`).
    SkillTool,
    /// A read of its SKILL.md (a file-reading tool, or a command that reads the file).
    ReadSkillFile,
}

/// Token counts of one model request, as the client reports them.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
pub struct Usage {
    /// Input tokens, those read from or written to a prompt cache included.
    #[cfg_attr(feature = "specta", specta(type = f64))]
    pub input_tokens: u64,
    #[cfg_attr(feature = "specta", specta(type = f64))]
    pub output_tokens: u64,
}

/// One event of a run.
#[derive(Debug, Clone, PartialEq)]
pub enum StreamEvent {
    /// The client's version, as it states it in its stream.
    Version(String),
    /// The client made one more model request (with its tokens, when the client reports them per
    /// request).
    Request(Usage),
    /// Tokens of requests already counted, reported later (Codex gives them once, for the whole turn).
    Usage(Usage),
    /// A tool the model called has finished; its output goes back to the model in a new request.
    ToolFinished,
    /// Something the client said that is not the end of the run (a retry, a warning); the last one
    /// explains a run that ends without finishing.
    Notice(String),
    /// The model used the skill installed in the folder `folder` (the name the client lists it
    /// under when it names it, else the folder's name).
    SkillUsed { folder: String, how: Detection },
    /// The run is over as the client sees it: `error` says what failed, when something did;
    /// `cost_usd` is the client's own cost figure for the run, when it gives one.
    Finished {
        error: Option<String>,
        cost_usd: Option<f64>,
    },
}

/// Reads one client's output, a line at a time.
pub trait StreamReader: Send {
    fn read_line(&mut self, line: &str) -> Vec<StreamEvent>;
}

/// The skill folder named in `path` when it is `…/<skills_folder>/<folder>/SKILL.md`, where
/// `skills_folder` is a client's folder such as `.claude/skills`.
pub fn skill_folder_of<'a>(path: &'a str, skills_folder: &str) -> Option<&'a str> {
    let marker = format!("{skills_folder}/");
    let start = path.rfind(&marker)? + marker.len();
    let rest = &path[start..];
    let (folder, file) = rest.split_once('/')?;
    (file == "SKILL.md" && !folder.is_empty()).then_some(folder)
}

/// Reading the streams the real clients printed (`tests/fixtures/eval/<client>/<case>.jsonl`).
#[cfg(test)]
pub(crate) mod recorded {
    use super::{StreamEvent, StreamReader};

    /// The events `reader` makes of the recorded stream `case` of `client`.
    pub fn events_of(client: &str, case: &str, mut reader: impl StreamReader) -> Vec<StreamEvent> {
        let path = format!(
            "{}/tests/fixtures/eval/{client}/{case}.jsonl",
            env!("CARGO_MANIFEST_DIR")
        );
        let text = std::fs::read_to_string(&path).unwrap_or_else(|error| panic!("{path}: {error}"));
        text.lines()
            .flat_map(|line| reader.read_line(line))
            .collect()
    }

    pub fn requests(events: &[StreamEvent]) -> usize {
        events
            .iter()
            .filter(|event| matches!(event, StreamEvent::Request(_)))
            .count()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn finds_the_folder_of_a_skill_file() {
        assert_eq!(
            skill_folder_of("/tmp/p/.claude/skills/pdf/SKILL.md", ".claude/skills"),
            Some("pdf")
        );
        assert_eq!(
            skill_folder_of(".agents/skills/pdf/SKILL.md", ".agents/skills"),
            Some("pdf")
        );
        assert_eq!(
            skill_folder_of("/p/.agents/skills/pdf/scripts/SKILL.md", ".agents/skills"),
            None
        );
        assert_eq!(
            skill_folder_of("/p/.agents/skills/pdf/REFERENCE.md", ".agents/skills"),
            None
        );
        assert_eq!(
            skill_folder_of("/p/skills/pdf/SKILL.md", ".agents/skills"),
            None
        );
    }
}
