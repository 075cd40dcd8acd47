//! What Claude Code 2.1.332 does with its own frontmatter fields when a skill runs: `model`, `effort`,
//! `context`, `agent`, `hooks`, `shell`, `user-invocable`, `disable-model-invocation`, `allowed-tools`,
//! `argument-hint` and the argument placeholders of the body.
//!
//! Rests on the client's code (`BQe`, which reads a skill's fields; `_ne`, `BLs`, `zIe`/`LDr`, `bgn`/`Qf`,
//! `I5e`, `KB`/`Lk`, `_vt` and `PIe` in the 2.1.332 bundle) and on what the binary did when a probe skill
//! was run through it (tests/fidelity/test_claude_code_fields.py: the skill invoked by the model's Skill
//! tool call or typed as `/name args`, the requests it then sent and its `--debug-file` log):
//! - `model`: an alias (`sonnet`, `opus`, `haiku`, `fable`, `best`, `opusplan`, `sonnet[1m]`, `opus[1m]`,
//!   `fable[1m]`, any case) is resolved and `inherit` keeps the session's model; any other string is sent
//!   to the API as the model id, as written (`sonet` went out as `"model": "sonet"`, and the binary priced
//!   it `costBasis: "unknown"`); a value that is not a string is ignored. It takes effect when the skill is
//!   typed as a command; a model's Skill tool call kept the session's model.
//! - `effort`: `low`, `medium`, `high`, `xhigh`, `max` (any case) or an integer (what `parseInt` reads
//!   from the start of the text); anything else is dropped with a debug-log line `Skill NAME has invalid
//!   effort …` and the request keeps the session's effort.
//! - `context`: only the exact string `fork` runs the skill in a subagent (`Fork`, `forks` run inline).
//! - `agent`: the subagent type of a forked skill, matched by exact name; without `context: fork` it has
//!   no effect.
//! - `shell`: `bash` or `powershell` after trimming and lower-casing; anything else logs `Frontmatter
//!   'shell: …' … is not recognized … Falling back to bash.`
//! - `hooks`: a map from hook events to lists of matchers (`{matcher, hooks: [{type, …}]}`); an unknown
//!   event is dropped (`unknown hook event; entry ignored`), a malformed entry makes the client load the
//!   skill with no hooks and no `allowed-tools` at all.
//! - `user-invocable`, `disable-model-invocation`: true or false, or a string or number reading `1`,
//!   `true`, `yes`, `on` / `0`, `false`, `no`, `off` (any case, trimmed); anything else reads as false.
//! - `allowed-tools`: a string or a list of strings, split at spaces and commas outside parentheses; each
//!   entry names a tool exactly (`Bash`, `Bash(git:*)`), a misspelled or lower-cased name grants nothing.
//! - the body: `$ARGUMENTS`, `$ARGUMENTS[N]`, `$N` and `$NAME` for the names of `arguments` are filled
//!   from the arguments, counted from 0; a `$N` past the arguments given stays as written; `${…}` forms
//!   are never filled; when nothing was filled the arguments are appended as `ARGUMENTS: …`.

use super::frontmatter::{js_trim, Js};

/// The tool names the client's permission rules know (`xrt` in the 2.1.332 bundle).
pub const TOOL_NAMES: &[&str] = &[
    "Agent",
    "Artifact",
    "AskUserQuestion",
    "Bash",
    "ClaudeDesign",
    "CronCreate",
    "CronDelete",
    "CronList",
    "Edit",
    "EndConversation",
    "EnterPlanMode",
    "EnterWorktree",
    "ExitPlanMode",
    "ExitWorktree",
    "Glob",
    "Grep",
    "ListAgents",
    "ListMcpResourcesTool",
    "LSP",
    "Monitor",
    "NotebookEdit",
    "OfferChromeSetup",
    "PowerShell",
    "Projects",
    "propose_skills",
    "PushNotification",
    "Read",
    "ReadMcpResourceDirTool",
    "ReadMcpResourceTool",
    "ReadNotifications",
    "RemoteTrigger",
    "ReportFindings",
    "ScheduleWakeup",
    "SendFeedback",
    "SendMessage",
    "SendUserFile",
    "SendUserMessage",
    "SetGoal",
    "ShareOnboardingGuide",
    "ShowOnboardingRolePicker",
    "Skill",
    "SubagentHandback",
    "TaskCreate",
    "TaskGet",
    "TaskList",
    "TaskStop",
    "TaskUpdate",
    "TodoWrite",
    "ToolSearch",
    "WaitForMcpServers",
    "WebFetch",
    "WebSearch",
    "Workflow",
    "Write",
];

/// Former tool names the client still maps to current ones (`jKo`).
pub const TOOL_ALIASES: &[(&str, &str)] = &[
    ("Task", "Agent"),
    ("KillShell", "TaskStop"),
    ("KillBash", "TaskStop"),
    ("ListPeers", "ListAgents"),
    ("Brief", "SendUserMessage"),
    ("ListMcpResources", "ListMcpResourcesTool"),
    ("ReadMcpResource", "ReadMcpResourceTool"),
    ("ReadMcpResourceDir", "ReadMcpResourceDirTool"),
    ("ProposeGoal", "SetGoal"),
];

/// The model aliases the client resolves (`ume`), compared lower-cased (`KB`).
pub const MODEL_ALIASES: &[&str] = &[
    "sonnet",
    "opus",
    "haiku",
    "fable",
    "best",
    "sonnet[1m]",
    "opus[1m]",
    "fable[1m]",
    "opusplan",
];

/// The named effort levels (`ba`).
pub const EFFORT_LEVELS: &[&str] = &["low", "medium", "high", "xhigh", "max"];

/// The shells a skill may name (`ta`).
pub const SHELLS: &[&str] = &["bash", "powershell"];

/// The hook events (`Oc`).
pub const HOOK_EVENTS: &[&str] = &[
    "PreToolUse",
    "PostToolUse",
    "PostToolUseFailure",
    "PostToolBatch",
    "Notification",
    "UserPromptSubmit",
    "UserPromptExpansion",
    "SessionStart",
    "SessionEnd",
    "Stop",
    "StopFailure",
    "SubagentStart",
    "SubagentStop",
    "PreCompact",
    "PostCompact",
    "PreModelSwitch",
    "PostModelSwitch",
    "PermissionRequest",
    "PermissionDenied",
    "Setup",
    "TeammateIdle",
    "TaskCreated",
    "TaskCompleted",
    "Elicitation",
    "ElicitationResult",
    "ConfigChange",
    "WorktreeCreate",
    "WorktreeRemove",
    "InstructionsLoaded",
    "CwdChanged",
    "FileChanged",
    "DirectoryAdded",
    "MessageDisplay",
    "PreSkillShellCommand",
];

/// The hook types a skill's hook entry may have, each with the string field it needs.
pub const HOOK_TYPES: &[(&str, &str)] = &[
    ("command", "command"),
    ("prompt", "prompt"),
    ("agent", "prompt"),
    ("http", "url"),
];

/// The agent types the client has built in (its system prompt lists them for the Agent tool); a
/// project's or user's `.claude/agents` may add more.
pub const BUILTIN_AGENTS: &[&str] = &[
    "claude",
    "Explore",
    "general-purpose",
    "Plan",
    "statusline-setup",
];

/// `allowed-tools` as the client splits it (`bgn`, `Qf`): a string or the strings of a list, each cut at
/// spaces and commas outside parentheses.
pub fn allowed_tool_entries(value: &Js) -> Vec<String> {
    let texts: Vec<String> = match value {
        Js::String(text) => vec![text.clone()],
        Js::Array(items) => items
            .iter()
            .filter_map(|item| match item {
                Js::String(text) => Some(text.clone()),
                _ => None,
            })
            .collect(),
        _ => Vec::new(),
    };
    let mut entries = Vec::new();
    for text in texts {
        let mut current = String::new();
        let mut in_parentheses = false;
        for c in text.chars() {
            match c {
                '(' => {
                    in_parentheses = true;
                    current.push(c);
                }
                ')' => {
                    in_parentheses = false;
                    current.push(c);
                }
                ',' | ' ' if !in_parentheses => {
                    if !current.trim().is_empty() {
                        entries.push(current.trim().to_string());
                    }
                    current.clear();
                }
                _ => {
                    if !current.is_empty() || !c.is_whitespace() {
                        current.push(c);
                    }
                }
            }
        }
        if !current.trim().is_empty() {
            entries.push(current.trim().to_string());
        }
    }
    entries
}

/// The tool an `allowed-tools` entry names: the text before `(`.
pub fn tool_of(entry: &str) -> &str {
    entry.split('(').next().unwrap_or(entry).trim()
}

/// Whether the client knows the tool an entry names: a current or former tool name, an MCP tool
/// (`mcp__server__tool`), or a pattern with `*` (matched against tool names at run time).
pub fn tool_known(tool: &str) -> bool {
    TOOL_NAMES.contains(&tool)
        || TOOL_ALIASES.iter().any(|(old, _)| *old == tool)
        || tool.starts_with("mcp__")
        || tool.contains('*')
}

/// The known tool an unknown name most likely meant: the same name in another case.
pub fn tool_suggestion(tool: &str) -> Option<&'static str> {
    TOOL_NAMES
        .iter()
        .chain(TOOL_ALIASES.iter().map(|(old, _)| old))
        .find(|known| known.eq_ignore_ascii_case(tool))
        .copied()
}

/// What the client does with a `model` value.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ModelReading {
    /// An alias or `inherit`.
    Resolved,
    /// Sent to the API as the model id, as written (trimmed).
    Verbatim(String),
    /// Not a non-blank string: ignored.
    Ignored,
}

/// `BQe`'s reading of `model`.
pub fn model_reading(value: &Js) -> ModelReading {
    let Js::String(text) = value else {
        return ModelReading::Ignored;
    };
    let trimmed = js_trim(text);
    if trimmed.is_empty() {
        return ModelReading::Ignored;
    }
    let lower = trimmed.to_lowercase();
    if lower == "inherit" || MODEL_ALIASES.contains(&lower.as_str()) {
        return ModelReading::Resolved;
    }
    ModelReading::Verbatim(trimmed.to_string())
}

/// Whether a model id sent as written is at least shaped like an Anthropic model id (`claude-…`).
/// Skillforge holds no list of the ids the API serves, so such an id is not judged.
pub fn model_id_shaped(id: &str) -> bool {
    id.to_lowercase().starts_with("claude-")
}

/// `_ne`: whether an `effort` value is one the client uses (null and empty count as absent, so valid).
pub fn effort_valid(value: &Js) -> bool {
    match value {
        Js::Null => true,
        Js::Number(number) => {
            number.fract() == 0.0 && number.is_finite() || js_parse_int(&value.to_js_string())
        }
        _ => {
            let text = value.to_js_string();
            if text.is_empty() {
                return true;
            }
            let lower = text.to_lowercase();
            EFFORT_LEVELS.contains(&lower.as_str()) || js_parse_int(&lower)
        }
    }
}

/// Whether JavaScript's `parseInt(text, 10)` gives a number: optional leading white space, an optional
/// sign, then a digit.
fn js_parse_int(text: &str) -> bool {
    let rest = text.trim_start_matches(super::frontmatter::js_space);
    let rest = rest.strip_prefix(['+', '-']).unwrap_or(rest);
    rest.starts_with(|c: char| c.is_ascii_digit())
}

/// `BLs`: whether a `shell` value is one the client runs (absent, null and blank count as unset).
pub fn shell_valid(value: &Js) -> bool {
    if value.is_null() {
        return true;
    }
    let text = value.to_js_string();
    let text = js_trim(&text).to_lowercase();
    text.is_empty() || SHELLS.contains(&text.as_str())
}

/// `zIe`: a flag's reading, `None` when the client reads it as neither (then it counts as false).
pub fn flag_value(value: &Js) -> Option<bool> {
    match value {
        Js::Bool(flag) => Some(*flag),
        Js::String(_) | Js::Number(_) => {
            let text = value.to_js_string().to_lowercase();
            match js_trim(&text) {
                "1" | "true" | "yes" | "on" => Some(true),
                "0" | "false" | "no" | "off" => Some(false),
                _ => None,
            }
        }
        _ => None,
    }
}

/// What is wrong with a `hooks` value, as the client reports it (`I5e` and its schema): each problem with
/// the path of the part it is about; empty when the client takes the hooks as written.
pub fn hook_problems(value: &Js) -> Vec<(Vec<String>, String)> {
    let mut problems = Vec::new();
    let Js::Object(events) = value else {
        if !value.is_null() {
            problems.push((
                Vec::new(),
                "`hooks` must map hook events to lists of matchers".to_string(),
            ));
        }
        return problems;
    };
    for (event, matchers) in events.iter() {
        let path = vec![event.clone()];
        if !HOOK_EVENTS.contains(&event.as_str()) {
            problems.push((
                path,
                format!("`{event}` is not a hook event; Claude Code ignores this entry"),
            ));
            continue;
        }
        let Js::Array(matchers) = matchers else {
            problems.push((path, format!("`{event}` must be a list of matchers")));
            continue;
        };
        for (index, matcher) in matchers.iter().enumerate() {
            let Js::Object(fields) = matcher else {
                problems.push((
                    path.clone(),
                    format!("matcher {index} of `{event}` is not a map"),
                ));
                continue;
            };
            let hooks = fields
                .iter()
                .find(|(key, _)| key == "hooks")
                .map(|(_, v)| v);
            let Some(Js::Array(hooks)) = hooks else {
                problems.push((
                    path.clone(),
                    format!("matcher {index} of `{event}` has no `hooks` list"),
                ));
                continue;
            };
            for (number, hook) in hooks.iter().enumerate() {
                let Js::Object(hook) = hook else {
                    problems.push((
                        path.clone(),
                        format!("hook {number} of `{event}` is not a map"),
                    ));
                    continue;
                };
                let get = |key: &str| hook.iter().find(|(name, _)| name == key).map(|(_, v)| v);
                let Some(Js::String(kind)) = get("type") else {
                    problems.push((
                        path.clone(),
                        format!("hook {number} of `{event}` has no `type`"),
                    ));
                    continue;
                };
                match HOOK_TYPES.iter().find(|(name, _)| name == kind) {
                    None => problems.push((
                        path.clone(),
                        format!("`{kind}` is not a hook type (hook {number} of `{event}`)"),
                    )),
                    Some((_, needed)) if !matches!(get(needed), Some(Js::String(_))) => problems
                        .push((
                            path.clone(),
                            format!(
                                "the `{kind}` hook {number} of `{event}` has no `{needed}` string"
                            ),
                        )),
                    Some(_) => {}
                }
            }
        }
    }
    problems
}

/// `PIe`: the argument names of `arguments` (a string split at white space, or the strings of a list),
/// blank and all-digit names left out.
pub fn argument_names(value: Option<&Js>) -> Vec<String> {
    let keep = |name: &str| !name.trim().is_empty() && !name.bytes().all(|b| b.is_ascii_digit());
    match value {
        Some(Js::String(text)) => text
            .split(super::frontmatter::js_space)
            .filter(|name| keep(name))
            .map(str::to_string)
            .collect(),
        Some(Js::Array(items)) => items
            .iter()
            .filter_map(|item| match item {
                Js::String(name) if keep(name) => Some(name.clone()),
                _ => None,
            })
            .collect(),
        _ => Vec::new(),
    }
}

/// One argument placeholder in a body, with its byte range in the body.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Placeholder {
    pub start: usize,
    pub end: usize,
    pub kind: PlaceholderKind,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub enum PlaceholderKind {
    /// `$ARGUMENTS`: all the arguments.
    All,
    /// `$N` or `$ARGUMENTS[N]`: the argument at this index, from 0.
    Index(usize),
    /// `$NAME` for a name of `arguments`.
    Named(String),
    /// `${…}` around what would be a placeholder: never filled.
    Braced(String),
}

fn word_byte(byte: u8) -> bool {
    byte.is_ascii_alphanumeric() || byte == b'_'
}

/// The placeholders `_vt` fills in `body`, and the `${…}` forms it leaves alone. A `$` after a
/// backslash is not a placeholder.
pub fn placeholders(body: &str, names: &[String]) -> Vec<Placeholder> {
    let bytes = body.as_bytes();
    let mut found = Vec::new();
    let mut index = 0;
    while let Some(offset) = body[index..].find('$') {
        let start = index + offset;
        index = start + 1;
        if start > 0 && bytes[start - 1] == b'\\' {
            continue;
        }
        let rest = &body[start + 1..];
        if let Some(inner) = rest.strip_prefix('{') {
            if let Some(close) = inner.find('}') {
                let text = &inner[..close];
                let indexed = text
                    .strip_prefix("ARGUMENTS[")
                    .and_then(|tail| tail.strip_suffix(']'))
                    .is_some_and(|digits| {
                        !digits.is_empty() && digits.bytes().all(|b| b.is_ascii_digit())
                    });
                let fills = text == "ARGUMENTS"
                    || indexed
                    || (!text.is_empty() && text.bytes().all(|b| b.is_ascii_digit()))
                    || names.iter().any(|name| name == text);
                if fills {
                    found.push(Placeholder {
                        start,
                        end: start + 2 + close + 1,
                        kind: PlaceholderKind::Braced(text.to_string()),
                    });
                }
            }
            continue;
        }
        // Longer names first, as the client tries them.
        let mut sorted: Vec<&String> = names.iter().collect();
        sorted.sort_by_key(|name| std::cmp::Reverse(name.len()));
        if let Some(name) = sorted.into_iter().find(|name| {
            rest.starts_with(name.as_str())
                && !rest[name.len()..]
                    .bytes()
                    .next()
                    .is_some_and(|b| b == b'[' || word_byte(b))
        }) {
            found.push(Placeholder {
                start,
                end: start + 1 + name.len(),
                kind: PlaceholderKind::Named(name.clone()),
            });
            continue;
        }
        if let Some(tail) = rest.strip_prefix("ARGUMENTS[") {
            let digits = tail.bytes().take_while(u8::is_ascii_digit).count();
            if digits > 0 && tail.as_bytes().get(digits) == Some(&b']') {
                if let Ok(number) = tail[..digits].parse() {
                    found.push(Placeholder {
                        start,
                        end: start + 1 + "ARGUMENTS[".len() + digits + 1,
                        kind: PlaceholderKind::Index(number),
                    });
                    continue;
                }
            }
        }
        let digits = rest.bytes().take_while(u8::is_ascii_digit).count();
        if digits > 0 && !rest.as_bytes().get(digits).is_some_and(|b| word_byte(*b)) {
            if let Ok(number) = rest[..digits].parse() {
                found.push(Placeholder {
                    start,
                    end: start + 1 + digits,
                    kind: PlaceholderKind::Index(number),
                });
            }
            continue;
        }
        if rest.starts_with("ARGUMENTS") {
            found.push(Placeholder {
                start,
                end: start + 1 + "ARGUMENTS".len(),
                kind: PlaceholderKind::All,
            });
        }
    }
    found
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::rc::Rc;

    #[test]
    fn allowed_tools_split_like_the_client() {
        let value = Js::String("Read, Bash(git add:*) Write".into());
        assert_eq!(
            allowed_tool_entries(&value),
            ["Read", "Bash(git add:*)", "Write"]
        );
        let list = Js::Array(Rc::new(vec![
            Js::String("Read Grep".into()),
            Js::Number(1.0),
        ]));
        assert_eq!(allowed_tool_entries(&list), ["Read", "Grep"]);
        assert!(tool_known("Task") && tool_known("mcp__s__t") && !tool_known("bash"));
        assert_eq!(tool_suggestion("bash"), Some("Bash"));
    }

    #[test]
    fn values_read_as_the_client_reads_them() {
        assert_eq!(
            model_reading(&Js::String(" Sonnet ".into())),
            ModelReading::Resolved
        );
        assert_eq!(
            model_reading(&Js::String("sonet".into())),
            ModelReading::Verbatim("sonet".into())
        );
        assert_eq!(model_reading(&Js::Number(4.0)), ModelReading::Ignored);
        assert!(effort_valid(&Js::String("HIGH".into())) && effort_valid(&Js::String("3x".into())));
        assert!(
            !effort_valid(&Js::String("high ".into()))
                && !effort_valid(&Js::String("extreme".into()))
        );
        assert!(
            shell_valid(&Js::String(" PowerShell ".into()))
                && !shell_valid(&Js::String("fish".into()))
        );
        assert_eq!(flag_value(&Js::String(" YES".into())), Some(true));
        assert_eq!(flag_value(&Js::String("ture".into())), None);
    }

    #[test]
    fn placeholders_found_as_the_client_fills_them() {
        let names = vec!["file".to_string()];
        let kinds: Vec<PlaceholderKind> = placeholders(
            "$0 $ARGUMENTS[2] $file $files ${1} \\$3 $ARGUMENTS $1x",
            &names,
        )
        .into_iter()
        .map(|placeholder| placeholder.kind)
        .collect();
        assert_eq!(
            kinds,
            [
                PlaceholderKind::Index(0),
                PlaceholderKind::Index(2),
                PlaceholderKind::Named("file".into()),
                PlaceholderKind::Braced("1".into()),
                PlaceholderKind::All,
            ]
        );
    }
}
