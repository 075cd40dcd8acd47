//! Running the real Codex for one request (`codex exec --json`), and what its event stream says the
//! model did with the skills.

use std::ffi::OsString;
use std::path::Path;

use serde_json::Value;

use crate::clients::stream::{skill_folder_of, Detection, StreamEvent, StreamReader, Usage};

/// Where a project's skills are installed for Codex.
pub const SKILLS_FOLDER: &str = ".agents/skills";

/// The size of one request of Codex with no skill, in bytes of JSON: its instructions and tools.
pub const BASE_REQUEST_BYTES: u64 = 40_000;

/// US dollars per million input tokens assumed for the estimate when none is given.
pub const ASSUMED_INPUT_PRICE_PER_MTOK: f64 = 1.25;

/// The variables that carry a credential Codex can use without its own login files.
pub const CREDENTIALS: [&str; 2] = ["OPENAI_API_KEY", "CODEX_API_KEY"];

/// What to tell a user whose environment holds none of [`CREDENTIALS`].
pub const CREDENTIALS_HINT: &str =
    "set OPENAI_API_KEY (or CODEX_API_KEY): each run gets an empty CODEX_HOME, so \
the login of an installed Codex is not used";

/// The arguments of one run: the request is read from standard input (`-`), so a query that starts
/// with `-` is never read as an option; `config` adds `-c KEY=VALUE` settings.
pub fn arguments(config: &[String]) -> Vec<OsString> {
    let mut arguments: Vec<OsString> = [
        "exec",
        "--json",
        "--skip-git-repo-check",
        "--sandbox",
        "read-only",
    ]
    .iter()
    .map(OsString::from)
    .collect();
    for pair in config {
        arguments.push("-c".into());
        arguments.push(pair.into());
    }
    arguments.push("-".into());
    arguments
}

fn passed_on(name: &str) -> bool {
    const NAMES: [&str; 12] = [
        "PATH",
        "LANG",
        "LC_ALL",
        "CODEX_API_KEY",
        "HTTPS_PROXY",
        "HTTP_PROXY",
        "NO_PROXY",
        "https_proxy",
        "http_proxy",
        "no_proxy",
        "SSL_CERT_FILE",
        "CODEX_CA_CERTIFICATE",
    ];
    name.starts_with("OPENAI_") || NAMES.contains(&name)
}

/// The client's whole environment for a run with `home` as HOME and `codex_home` as CODEX_HOME.
pub fn environment(
    caller: &[(OsString, OsString)],
    home: &Path,
    codex_home: &Path,
) -> Vec<(OsString, OsString)> {
    let mut environment: Vec<(OsString, OsString)> = caller
        .iter()
        .filter(|(name, _)| name.to_str().is_some_and(passed_on))
        .cloned()
        .collect();
    if !environment.iter().any(|(name, _)| name == "PATH") {
        environment.push(("PATH".into(), "/usr/local/bin:/usr/bin:/bin".into()));
    }
    environment.push(("HOME".into(), home.as_os_str().to_os_string()));
    environment.push(("CODEX_HOME".into(), codex_home.as_os_str().to_os_string()));
    environment.push(("TERM".into(), "dumb".into()));
    environment
}

/// Turns the lines of `codex exec --json` into events.
#[derive(Debug, Default)]
pub struct Reader;

impl StreamReader for Reader {
    fn read_line(&mut self, line: &str) -> Vec<StreamEvent> {
        let Ok(event) = serde_json::from_str::<Value>(line) else {
            return Vec::new();
        };
        let mut events = Vec::new();
        match event
            .get("type")
            .and_then(Value::as_str)
            .unwrap_or_default()
        {
            "item.started" | "item.completed" => {
                let item = event.get("item").unwrap_or(&Value::Null);
                if item.get("type").and_then(Value::as_str) == Some("command_execution") {
                    let command = item
                        .get("command")
                        .and_then(Value::as_str)
                        .unwrap_or_default();
                    if let Some(folder) = read_skill(command) {
                        events.push(StreamEvent::SkillUsed {
                            folder,
                            how: Detection::ReadSkillFile,
                        });
                    }
                }
            }
            "turn.completed" => {
                let usage = event.get("usage");
                let count = |key: &str| {
                    usage
                        .and_then(|usage| usage.get(key))
                        .and_then(Value::as_u64)
                        .unwrap_or(0)
                };
                events.push(StreamEvent::Request(Usage {
                    input_tokens: count("input_tokens"),
                    output_tokens: count("output_tokens"),
                }));
                events.push(StreamEvent::Finished {
                    error: None,
                    cost_usd: None,
                });
            }
            "turn.failed" | "error" => {
                let message = event
                    .pointer("/error/message")
                    .or_else(|| event.get("message"))
                    .and_then(Value::as_str)
                    .unwrap_or("the turn failed");
                events.push(StreamEvent::Finished {
                    error: Some(message.to_string()),
                    cost_usd: None,
                });
            }
            _ => {}
        }
        events
    }
}

/// The skill folder whose SKILL.md a shell command names.
fn read_skill(command: &str) -> Option<String> {
    command
        .split(|c: char| c.is_whitespace() || matches!(c, '\'' | '"' | ';' | '&' | '|' | '(' | ')'))
        .find_map(|word| skill_folder_of(word, SKILLS_FOLDER))
        .map(str::to_string)
}
