//! Running the real Codex for one request (`codex exec --json`), and what its event stream says the
//! model did with the skills.
//!
//! Observed on 0.171.0 against a scripted Responses endpoint (tests/fidelity/codex_eval_notes.md; the
//! streams in `tests/fixtures/eval/codex/` are the client's own output): the model uses a skill by
//! reading its SKILL.md with a shell command, printed as a `command_execution` item whose `command` is
//! the quoted shell line (`/bin/bash -lc "sed -n '1,200p' .agents/skills/NAME/SKILL.md"`) and whose
//! `aggregated_output`, once completed, is the file's text (the only trace when the command runs inside
//! the skill's folder as `cat SKILL.md`). The turn ends with `turn.completed` (its usage summed over the
//! turn's requests) or `turn.failed`; top-level `error` lines are retries and warnings, not the end.
//! The version is not in the stream (`codex --version` says it).
//!
//! What a run must provide: stdin closed after the request (an open pipe makes Codex wait), a TMPDIR
//! that exists and does not hold CODEX_HOME (else its sandbox cannot start and a read leaves no trace),
//! and an empty CODEX_HOME and HOME: Codex lists `CODEX_HOME/skills` and `HOME/.agents/skills` too.

use std::ffi::OsString;
use std::path::Path;

use serde_json::Value;

use crate::clients::stream::{Detection, StreamEvent, StreamReader, Usage};

/// Where a project's skills are installed for Codex.
pub const SKILLS_FOLDER: &str = ".agents/skills";

/// The size of one request with two one-line skills, in bytes of JSON, with the default model
/// (0.171.0: about 60 KB): the client's instructions and tools, which every request carries.
pub const BASE_REQUEST_BYTES: u64 = 60_000;

/// US dollars per million input tokens assumed for the estimate and for runs stopped before Codex
/// reported its tokens, when none is given.
pub const ASSUMED_INPUT_PRICE_PER_MTOK: f64 = 1.25;

/// The variable that carries a key Codex sends without its own login files (`OPENAI_API_KEY` is not
/// sent by 0.171.0); a provider set with `-c model_providers.X.env_key=NAME` adds NAME.
pub const CREDENTIALS: [&str; 1] = ["CODEX_API_KEY"];

/// What to tell a user whose environment holds no credential.
pub const CREDENTIALS_HINT: &str = "set CODEX_API_KEY (Codex does not send OPENAI_API_KEY from the environment; \
each run gets an empty CODEX_HOME, so the login of an installed Codex is not used), or name your provider's key \
variable with --codex-config model_providers.NAME.env_key=VARIABLE";

/// The arguments of one run: the request is read from standard input (`-`), so a query that starts
/// with `-` is never read as an option; `config` adds `-c KEY=VALUE` settings.
pub fn arguments(config: &[String]) -> Vec<OsString> {
    let mut arguments: Vec<OsString> = Vec::new();
    for pair in config {
        arguments.push("-c".into());
        arguments.push(pair.into());
    }
    arguments.extend(
        [
            "exec",
            "--json",
            "--skip-git-repo-check",
            "--ephemeral",
            "--sandbox",
            "read-only",
            "-",
        ]
        .iter()
        .map(OsString::from),
    );
    arguments
}

/// What is wrong with `setting`, a `-c KEY=VALUE` setting for Codex, in words for the user; None when it
/// has a non-empty KEY before its first `=` and fits on one line. (Codex reads VALUE as TOML, and as a
/// plain string when it is not, so any VALUE is taken.)
pub fn setting_problem(setting: &str) -> Option<String> {
    if setting.contains(['\n', '\r']) {
        return Some("holds a line break: give one KEY=VALUE setting per line".into());
    }
    match setting.split_once('=') {
        None => Some("has no `=`: write it as KEY=VALUE, e.g. model_provider=\"azure\"".into()),
        Some((key, _)) if key.trim().is_empty() => Some(
            "has nothing before its `=`: write it as KEY=VALUE, e.g. model_provider=\"azure\""
                .into(),
        ),
        Some(_) => None,
    }
}

/// The key variables named by `model_providers.NAME.env_key=VARIABLE` settings.
pub fn provider_key_variables(config: &[String]) -> Vec<String> {
    config
        .iter()
        .filter_map(|pair| pair.split_once('='))
        .filter(|(key, _)| {
            key.trim().starts_with("model_providers.") && key.trim().ends_with(".env_key")
        })
        .map(|(_, value)| value.trim().trim_matches(['"', '\'']).to_string())
        .filter(|name| !name.is_empty())
        .collect()
}

fn passed_on(name: &str, provider_keys: &[String]) -> bool {
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
    name.starts_with("OPENAI_")
        || NAMES.contains(&name)
        || provider_keys.iter().any(|key| key == name)
}

/// The client's whole environment for a run: `home` as HOME, `codex_home` as CODEX_HOME and `temporary`
/// as TMPDIR; of the caller's environment only the credentials (`provider_keys` among them), the
/// endpoint settings and how to reach them.
pub fn environment(
    caller: &[(OsString, OsString)],
    home: &Path,
    codex_home: &Path,
    temporary: &Path,
    provider_keys: &[String],
) -> Vec<(OsString, OsString)> {
    let mut environment: Vec<(OsString, OsString)> = caller
        .iter()
        .filter(|(name, _)| {
            name.to_str()
                .is_some_and(|name| passed_on(name, provider_keys))
        })
        .cloned()
        .collect();
    if !environment.iter().any(|(name, _)| name == "PATH") {
        environment.push(("PATH".into(), "/usr/local/bin:/usr/bin:/bin".into()));
    }
    for (name, value) in [
        ("HOME", home),
        ("CODEX_HOME", codex_home),
        ("TMPDIR", temporary),
    ] {
        environment.push((name.into(), value.as_os_str().to_os_string()));
    }
    environment.push(("TERM".into(), "dumb".into()));
    environment
}

/// Turns the lines of `codex exec --json` into events. `skills` are the installed skills as (folder,
/// SKILL.md text): a command's output that holds a skill's frontmatter is a read of that skill.
#[derive(Debug, Default)]
pub struct Reader {
    skills: Vec<(String, String)>,
    /// Whether a command finished since the last model request was counted: the next item the model
    /// produces comes from a new request.
    tool_output_pending: bool,
    requests: u32,
}

impl Reader {
    pub fn new(skills: Vec<(String, String)>) -> Reader {
        let skills = skills
            .into_iter()
            .map(|(folder, text)| (folder, signature_of(&text)))
            .filter(|(_, signature)| !signature.trim().is_empty())
            .collect();
        Reader {
            skills,
            ..Reader::default()
        }
    }

    fn model_item(&mut self, events: &mut Vec<StreamEvent>) {
        if self.requests == 0 || self.tool_output_pending {
            self.requests += 1;
            self.tool_output_pending = false;
            events.push(StreamEvent::Request(Usage::default()));
        }
    }
}

/// What identifies a SKILL.md in a command's output: its frontmatter block (else its first 512 bytes).
fn signature_of(text: &str) -> String {
    let text = text.replace("\r\n", "\n");
    if let Some(rest) = text.strip_prefix("---\n") {
        if let Some(end) = rest.find("\n---") {
            return text[..end + 4 + 4].to_string();
        }
    }
    text.chars().take(512).collect()
}

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
            kind @ ("item.started" | "item.completed") => {
                let item = event.get("item").unwrap_or(&Value::Null);
                match item.get("type").and_then(Value::as_str).unwrap_or_default() {
                    "command_execution" => {
                        if kind == "item.started" {
                            self.model_item(&mut events);
                        }
                        let command = item
                            .get("command")
                            .and_then(Value::as_str)
                            .unwrap_or_default();
                        let output = item
                            .get("aggregated_output")
                            .and_then(Value::as_str)
                            .unwrap_or_default();
                        let folder = read_skill(command).or_else(|| {
                            self.skills
                                .iter()
                                .find(|(_, signature)| {
                                    output.replace("\r\n", "\n").contains(signature.as_str())
                                })
                                .map(|(folder, _)| folder.clone())
                        });
                        if let Some(folder) = folder {
                            events.push(StreamEvent::SkillUsed {
                                folder,
                                how: Detection::ReadSkillFile,
                            });
                        }
                        if kind == "item.completed" {
                            self.tool_output_pending = true;
                            events.push(StreamEvent::ToolFinished);
                        }
                    }
                    "error" => {
                        if let Some(message) = item.get("message").and_then(Value::as_str) {
                            events.push(StreamEvent::Notice(message.to_string()));
                        }
                    }
                    // Reasoning and messages come from the model's answer.
                    "reasoning" | "agent_message" => self.model_item(&mut events),
                    _ => {}
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
                events.push(StreamEvent::Usage(Usage {
                    input_tokens: count("input_tokens"),
                    output_tokens: count("output_tokens"),
                }));
                events.push(StreamEvent::Finished {
                    error: None,
                    cost_usd: None,
                });
            }
            "turn.failed" => {
                if self.requests == 0 {
                    // The request was made (and failed): it counts.
                    self.requests = 1;
                    events.push(StreamEvent::Request(Usage::default()));
                }
                let message = event
                    .pointer("/error/message")
                    .and_then(Value::as_str)
                    .unwrap_or("the turn failed");
                events.push(StreamEvent::Finished {
                    error: Some(message.to_string()),
                    cost_usd: None,
                });
            }
            "error" => {
                if let Some(message) = event.get("message").and_then(Value::as_str) {
                    events.push(StreamEvent::Notice(message.to_string()));
                }
            }
            _ => {}
        }
        events
    }
}

/// The skill folder whose SKILL.md a shell command names (`…/<folder>/SKILL.md`, in any skills folder:
/// the project's, HOME's or Codex's own).
fn read_skill(command: &str) -> Option<String> {
    command
        .split(|c: char| {
            c.is_whitespace() || matches!(c, '\'' | '"' | ';' | '&' | '|' | '(' | ')' | '<' | '>')
        })
        .find_map(|word| {
            let folder = word.strip_suffix("/SKILL.md")?.rsplit('/').next()?;
            (!folder.is_empty() && folder != "." && folder != "..").then(|| folder.to_string())
        })
}

#[cfg(test)]
mod tests {
    use super::*;

    const PDF: &str = "---\nname: pdf-forms\ndescription: Fill in, flatten and check PDF forms. Use when the user asks to fill or inspect a PDF form.\n---\n# pdf-forms\n\nSteps for pdf-forms.\n";

    /// The events of a stream the real client printed
    /// (tests/fidelity/capture_codex_eval_streams.py).
    fn events_of(case: &str) -> Vec<StreamEvent> {
        crate::clients::stream::recorded::events_of(
            "codex",
            case,
            Reader::new(vec![("pdf-forms".into(), PDF.into())]),
        )
    }
    use crate::clients::stream::recorded::requests;

    fn used(events: &[StreamEvent]) -> Vec<String> {
        events
            .iter()
            .filter_map(|event| match event {
                StreamEvent::SkillUsed { folder, .. } => Some(folder.clone()),
                _ => None,
            })
            .collect()
    }

    fn failed(events: &[StreamEvent]) -> Option<String> {
        events.iter().find_map(|event| match event {
            StreamEvent::Finished { error, .. } => Some(error.clone().unwrap_or_default()),
            _ => None,
        })
    }

    #[test]
    fn every_way_of_reading_the_skill_file_is_a_use_of_the_skill() {
        for case in [
            "read-relative",
            "read-absolute",
            "read-cat-absolute",
            "read-with-reasoning",
            "read-relative-exec-command",
        ] {
            let events = events_of(case);
            assert_eq!(
                used(&events).first().map(String::as_str),
                Some("pdf-forms"),
                "{case}"
            );
            assert_eq!(requests(&events), 2, "{case}");
            assert_eq!(failed(&events), Some(String::new()), "{case}");
        }
        // Inside the skill's folder the command names no path: the output is the file's text.
        assert_eq!(
            used(&events_of("read-in-workdir"))
                .first()
                .map(String::as_str),
            Some("pdf-forms")
        );
    }

    #[test]
    fn the_first_skill_read_comes_first_and_a_listing_is_not_a_read() {
        assert_eq!(
            used(&events_of("read-other-skill")),
            ["release-notes", "release-notes"]
        );
        assert_eq!(
            used(&events_of("read-both-skills"))
                .first()
                .map(String::as_str),
            Some("pdf-forms")
        );
        let list_then_read = events_of("list-then-read");
        assert_eq!(
            used(&list_then_read).first().map(String::as_str),
            Some("pdf-forms")
        );
        assert_eq!(requests(&list_then_read), 3);
    }

    #[test]
    fn a_plain_answer_uses_no_skill_and_reports_its_tokens() {
        let events = events_of("plain-answer");
        assert!(used(&events).is_empty());
        assert_eq!(requests(&events), 1);
        assert!(events
            .iter()
            .any(|event| matches!(event, StreamEvent::Usage(usage) if usage.input_tokens > 0)));
    }

    #[test]
    fn failures_end_the_run_with_the_client_s_message_and_retries_do_not() {
        for case in ["server-error-500", "rate-limited-429", "bad-request-400"] {
            let events = events_of(case);
            assert!(
                failed(&events).is_some_and(|message| !message.is_empty()),
                "{case}"
            );
            assert_eq!(requests(&events), 1, "{case}");
        }
        let recovered = events_of("server-error-then-answer");
        assert_eq!(failed(&recovered), Some(String::new()));
        assert!(recovered
            .iter()
            .any(|event| matches!(event, StreamEvent::Notice(_))));
        // No answer at all: the stream stops before the turn ends; the caller's timeout decides.
        assert_eq!(failed(&events_of("no-answer")), None);
    }

    #[test]
    fn a_setting_needs_a_key_before_its_equals_sign_on_one_line() {
        for good in [
            "model_provider=\"fake\"",
            " skills.bundled.enabled = false ",
            "model_providers.fake.base_url=\"http://127.0.0.1:9/v1?a=b\"",
            "empty_value=",
        ] {
            assert_eq!(setting_problem(good), None, "{good}");
        }
        for (bad, says) in [
            ("model_provider", "no `=`"),
            ("", "no `=`"),
            ("=\"fake\"", "nothing before"),
            ("  =x", "nothing before"),
            ("a=1\nb=2", "line break"),
        ] {
            let problem = setting_problem(bad).unwrap_or_default();
            assert!(problem.contains(says), "{bad:?}: {problem}");
        }
    }

    #[test]
    fn provider_keys_are_passed_on_and_nothing_else() {
        let config = vec![
            "model_provider=\"fake\"".to_string(),
            "model_providers.fake.env_key=\"FAKE_API_KEY\"".to_string(),
        ];
        let keys = provider_key_variables(&config);
        assert_eq!(keys, ["FAKE_API_KEY"]);
        let caller: Vec<(OsString, OsString)> = [
            ("FAKE_API_KEY", "k"),
            ("CODEX_HOME", "/home/me/.codex"),
            ("OTHER", "x"),
        ]
        .map(|(name, value)| (OsString::from(name), OsString::from(value)))
        .to_vec();
        let environment = environment(
            &caller,
            Path::new("/s/home"),
            Path::new("/s/codex-home"),
            Path::new("/s/tmp"),
            &keys,
        );
        assert!(environment.contains(&("FAKE_API_KEY".into(), "k".into())));
        assert!(environment.contains(&("CODEX_HOME".into(), "/s/codex-home".into())));
        assert!(!environment
            .iter()
            .any(|(name, value)| name == "OTHER" || value == "/home/me/.codex"));
        assert_eq!(arguments(&config).last(), Some(&OsString::from("-")));
    }
}
