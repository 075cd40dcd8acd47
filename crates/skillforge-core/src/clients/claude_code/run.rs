//! Running the real Claude Code for one request (`claude -p --output-format stream-json`), and what its
//! event stream says the model did with the skills.
//!
//! Observed on 2.1.332 against a scripted Messages endpoint (`tests/fidelity/test_eval.py`): the stream
//! opens with `{"type":"system","subtype":"init","claude_code_version":…}`; each model answer comes as
//! `{"type":"assistant","message":{"id","content":[…],"usage":{…}}}` (one line per content block of the
//! same message); the model uses a skill with a `tool_use` block named `Skill` whose input is
//! `{"skill": NAME}`; the run ends with `{"type":"result","is_error","subtype","total_cost_usd",…}`. With
//! `--max-turns 1` the client makes one model request: a `Skill` call is carried out locally (the skill's
//! text is added to the conversation) and the run ends with the subtype `error_max_turns`, which here is
//! the bound asked for, not a failure. A user-level skill of the same name (HOME/.claude/skills) wins over
//! the project's, which is why the runs get an empty HOME.

use std::ffi::OsString;
use std::path::Path;

use serde_json::Value;

use crate::clients::stream::{skill_folder_of, Detection, StreamEvent, StreamReader, Usage};

/// Where a project's skills are installed for Claude Code.
pub const SKILLS_FOLDER: &str = ".claude/skills";

/// The size of one request with two one-line skills, in bytes of JSON (2.1.332: 49,294): the client's
/// instructions and tool definitions, which every request carries.
pub const BASE_REQUEST_BYTES: u64 = 49_000;

/// US dollars per million input tokens assumed for the estimate when none is given (the client
/// reports its own cost figure for every finished run, which is what the eval counts).
pub const ASSUMED_INPUT_PRICE_PER_MTOK: f64 = 5.0;

/// The arguments of one run; the request itself is written to the client's standard input, so a query
/// that starts with `-` is never read as an option.
pub fn arguments(max_turns: u32) -> Vec<OsString> {
    [
        "-p",
        "--output-format",
        "stream-json",
        "--verbose",
        "--max-turns",
    ]
    .iter()
    .map(OsString::from)
    .chain([OsString::from(max_turns.to_string())])
    .collect()
}

/// Variables passed on from the caller's environment: the credentials and endpoint of the model
/// service, and how to reach it. Nothing else of the caller's environment reaches the client.
fn passed_on(name: &str) -> bool {
    const PREFIXES: [&str; 4] = ["ANTHROPIC_", "CLAUDE_CODE_", "AWS_", "VERTEX_"];
    const NAMES: [&str; 11] = [
        "PATH",
        "LANG",
        "LC_ALL",
        "HTTPS_PROXY",
        "HTTP_PROXY",
        "NO_PROXY",
        "https_proxy",
        "http_proxy",
        "no_proxy",
        "NODE_EXTRA_CA_CERTS",
        "SSL_CERT_FILE",
    ];
    PREFIXES.iter().any(|prefix| name.starts_with(prefix))
        || NAMES.contains(&name)
        || matches!(name, "CLOUD_ML_REGION" | "GOOGLE_APPLICATION_CREDENTIALS")
}

/// The variables that carry a credential Claude Code can use without its own login files.
pub const CREDENTIALS: [&str; 5] = [
    "ANTHROPIC_API_KEY",
    "ANTHROPIC_AUTH_TOKEN",
    "CLAUDE_CODE_OAUTH_TOKEN",
    "CLAUDE_CODE_USE_BEDROCK",
    "CLAUDE_CODE_USE_VERTEX",
];

/// What to tell a user whose environment holds none of [`CREDENTIALS`].
pub const CREDENTIALS_HINT: &str = "set ANTHROPIC_API_KEY (or CLAUDE_CODE_OAUTH_TOKEN from `claude setup-token`, \
or CLAUDE_CODE_USE_BEDROCK / CLAUDE_CODE_USE_VERTEX with their credentials): each run gets an empty HOME, so \
the login of an installed Claude Code is not used";

/// The client's whole environment for a run with `home` as HOME.
pub fn environment(caller: &[(OsString, OsString)], home: &Path) -> Vec<(OsString, OsString)> {
    let mut environment: Vec<(OsString, OsString)> = caller
        .iter()
        .filter(|(name, _)| name.to_str().is_some_and(passed_on))
        .cloned()
        .collect();
    if !environment.iter().any(|(name, _)| name == "PATH") {
        environment.push(("PATH".into(), "/usr/local/bin:/usr/bin:/bin".into()));
    }
    environment.extend(
        [
            ("HOME", home.as_os_str()),
            ("TERM", "dumb".as_ref()),
            // No update checks, telemetry or error reports from the runs.
            ("DISABLE_AUTOUPDATER", "1".as_ref()),
            ("DISABLE_TELEMETRY", "1".as_ref()),
            ("DISABLE_ERROR_REPORTING", "1".as_ref()),
            ("CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC", "1".as_ref()),
        ]
        .map(|(name, value)| (OsString::from(name), value.to_os_string())),
    );
    environment
}

/// Turns the lines of `--output-format stream-json` into events.
#[derive(Debug, Default)]
pub struct Reader {
    /// The id of the last assistant message seen, while no other event came after it: further lines
    /// of the same message (its other content blocks) are the same request.
    open_message: Option<String>,
}

impl StreamReader for Reader {
    fn read_line(&mut self, line: &str) -> Vec<StreamEvent> {
        let Ok(event) = serde_json::from_str::<Value>(line) else {
            return Vec::new();
        };
        let kind = event
            .get("type")
            .and_then(Value::as_str)
            .unwrap_or_default();
        let mut events = Vec::new();
        match kind {
            "assistant" => {
                let message = event.get("message").unwrap_or(&Value::Null);
                let id = message
                    .get("id")
                    .and_then(Value::as_str)
                    .unwrap_or_default()
                    .to_string();
                if self.open_message.as_deref() != Some(id.as_str()) {
                    events.push(StreamEvent::Request(usage_of(message.get("usage"))));
                }
                self.open_message = Some(id);
                let blocks = message.get("content").and_then(Value::as_array);
                for block in blocks.into_iter().flatten() {
                    events.extend(skill_use(block));
                }
                return events;
            }
            "system" if event.get("subtype").and_then(Value::as_str) == Some("init") => {
                if let Some(version) = event.get("claude_code_version").and_then(Value::as_str) {
                    events.push(StreamEvent::Version(version.to_string()));
                }
            }
            "result" => events.push(finished(&event)),
            _ => {}
        }
        self.open_message = None;
        events
    }
}

fn usage_of(usage: Option<&Value>) -> Usage {
    let count = |key: &str| {
        usage
            .and_then(|usage| usage.get(key))
            .and_then(Value::as_u64)
            .unwrap_or(0)
    };
    Usage {
        input_tokens: count("input_tokens")
            + count("cache_creation_input_tokens")
            + count("cache_read_input_tokens"),
        output_tokens: count("output_tokens"),
    }
}

/// The skill a `tool_use` block uses: a `Skill` call, or a `Read` of a skill's SKILL.md.
fn skill_use(block: &Value) -> Option<StreamEvent> {
    if block.get("type").and_then(Value::as_str) != Some("tool_use") {
        return None;
    }
    let input = block.get("input")?;
    match block.get("name").and_then(Value::as_str)? {
        "Skill" => {
            let name = input
                .get("skill")
                .and_then(Value::as_str)?
                .trim()
                .trim_start_matches('/');
            (!name.is_empty()).then(|| StreamEvent::SkillUsed {
                folder: name.to_string(),
                how: Detection::SkillTool,
            })
        }
        "Read" => {
            let path = input.get("file_path").and_then(Value::as_str)?;
            skill_folder_of(path, SKILLS_FOLDER).map(|folder| StreamEvent::SkillUsed {
                folder: folder.to_string(),
                how: Detection::ReadSkillFile,
            })
        }
        _ => None,
    }
}

fn finished(event: &Value) -> StreamEvent {
    let subtype = event
        .get("subtype")
        .and_then(Value::as_str)
        .unwrap_or_default();
    let failed = event
        .get("is_error")
        .and_then(Value::as_bool)
        .unwrap_or(false)
        && subtype != "error_max_turns";
    let error = failed.then(|| {
        let said = event
            .get("result")
            .and_then(Value::as_str)
            .map(str::to_string)
            .or_else(|| {
                event.get("errors").and_then(Value::as_array).map(|errors| {
                    errors
                        .iter()
                        .filter_map(Value::as_str)
                        .collect::<Vec<_>>()
                        .join("; ")
                })
            })
            .filter(|text| !text.trim().is_empty());
        match said {
            // A failed request ends with the subtype `success` and the error as its result.
            Some(text) if subtype == "success" || subtype.is_empty() => text.trim().to_string(),
            Some(text) => format!("{subtype}: {}", text.trim()),
            None => subtype.to_string(),
        }
    });
    StreamEvent::Finished {
        error,
        cost_usd: event.get("total_cost_usd").and_then(Value::as_f64),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The events of a stream the real client printed
    /// (tests/fidelity/capture_claude_eval_streams.py).
    fn events_of(case: &str) -> Vec<StreamEvent> {
        crate::clients::stream::recorded::events_of("claude-code", case, Reader::default())
    }
    use crate::clients::stream::recorded::requests;

    #[test]
    fn a_skill_tool_call_names_the_skill() {
        let events = events_of("skill-tool");
        assert_eq!(
            events.first(),
            Some(&StreamEvent::Version("2.1.332".into()))
        );
        assert!(events.contains(&StreamEvent::SkillUsed {
            folder: "pdf".into(),
            how: Detection::SkillTool
        }));
        assert_eq!(requests(&events), 1);
        // `--max-turns 1` ends the run right after the skill: the bound, not a failure.
        assert!(matches!(
            events.last(),
            Some(StreamEvent::Finished {
                error: None,
                cost_usd: Some(_)
            })
        ));
    }

    #[test]
    fn a_read_of_the_skill_file_is_a_use_of_the_skill() {
        let events = events_of("read-skill-file");
        assert!(events.contains(&StreamEvent::SkillUsed {
            folder: "pdf".into(),
            how: Detection::ReadSkillFile
        }));
    }

    #[test]
    fn a_plain_answer_uses_no_skill() {
        let events = events_of("text");
        assert!(!events
            .iter()
            .any(|event| matches!(event, StreamEvent::SkillUsed { .. })));
        assert_eq!(requests(&events), 1);
        assert!(matches!(
            events.last(),
            Some(StreamEvent::Finished { error: None, .. })
        ));
    }

    #[test]
    fn a_failed_request_is_an_error_with_the_client_s_message() {
        let events = events_of("api-error");
        assert!(matches!(
            events.last(),
            Some(StreamEvent::Finished { error: Some(message), .. }) if message == "API Error: 400 scripted failure"
        ));
    }

    #[test]
    fn blocks_of_one_message_are_one_request() {
        let mut reader = Reader::default();
        let block = |kind: &str| {
            format!(
                r#"{{"type":"assistant","message":{{"id":"m1","content":[{{"type":"{kind}","text":"x"}}],"usage":{{"input_tokens":5,"cache_read_input_tokens":7,"output_tokens":2}}}}}}"#
            )
        };
        let first = reader.read_line(&block("thinking"));
        let second = reader.read_line(&block("text"));
        assert_eq!(
            first,
            vec![StreamEvent::Request(Usage {
                input_tokens: 12,
                output_tokens: 2
            })]
        );
        assert!(second.is_empty());
        assert!(reader.read_line("not json").is_empty());
    }

    #[test]
    fn only_the_credentials_and_endpoint_reach_the_client() {
        let caller: Vec<(OsString, OsString)> = [
            ("ANTHROPIC_API_KEY", "k"),
            ("ANTHROPIC_BASE_URL", "http://127.0.0.1:1"),
            ("HOME", "/home/someone"),
            ("SECRET_TOKEN", "s"),
            ("CLAUDE_CONFIG_DIR", "/home/someone/.claude"),
            ("PATH", "/opt/bin"),
        ]
        .map(|(name, value)| (OsString::from(name), OsString::from(value)))
        .to_vec();
        let environment = environment(&caller, Path::new("/sandbox/home"));
        let names: Vec<&str> = environment
            .iter()
            .filter_map(|(name, _)| name.to_str())
            .collect();
        assert!(names.contains(&"ANTHROPIC_API_KEY") && names.contains(&"ANTHROPIC_BASE_URL"));
        assert!(!names.contains(&"SECRET_TOKEN") && !names.contains(&"CLAUDE_CONFIG_DIR"));
        assert!(environment.contains(&("HOME".into(), "/sandbox/home".into())));
        assert_eq!(
            environment
                .iter()
                .filter(|(name, _)| name == "HOME")
                .count(),
            1
        );
    }
}
