//! Scripted mock models: a JSON list of steps, one per model request, for reproducible runs.
//!
//! ```json
//! [
//!   {"tool": "skill", "arguments": {"name": "pdf-tools"}},
//!   {"tool_calls": [{"tool": "read_skill_resource", "arguments": {"skill_name": "pdf-tools", "path": "a.md"}}]},
//!   {"text": "Done."}
//! ]
//! ```

use std::collections::BTreeMap;

use serde::Deserialize;

/// One tool call in a script.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ScriptCall {
    pub tool: String,
    pub arguments: BTreeMap<String, String>,
}

/// One model response.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ScriptStep {
    Text { text: String },
    Calls(Vec<ScriptCall>),
}

/// Why a script cannot be used.
#[derive(Debug, thiserror::Error)]
pub enum ScriptError {
    #[error("the script is not valid JSON: {0}")]
    Json(#[from] serde_json::Error),
    #[error(
        "step {step}: expected {{\"text\": …}}, {{\"tool\": …, \"arguments\": {{…}}}} or {{\"tool_calls\": [...]}}"
    )]
    Shape { step: usize },
    #[error("step {step}: argument `{argument}` must be a string")]
    Argument { step: usize, argument: String },
}

#[derive(Deserialize)]
struct RawCall {
    tool: String,
    #[serde(default)]
    arguments: BTreeMap<String, serde_json::Value>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawStep {
    text: Option<String>,
    tool: Option<String>,
    #[serde(default)]
    arguments: BTreeMap<String, serde_json::Value>,
    tool_calls: Option<Vec<RawCall>>,
}

fn strings(
    step: usize,
    arguments: BTreeMap<String, serde_json::Value>,
) -> Result<BTreeMap<String, String>, ScriptError> {
    arguments
        .into_iter()
        .map(|(key, value)| match value {
            serde_json::Value::String(text) => Ok((key, text)),
            _ => Err(ScriptError::Argument {
                step,
                argument: key,
            }),
        })
        .collect()
}

/// Parses a script; steps are numbered from 1 in messages.
pub fn parse_script(text: &str) -> Result<Vec<ScriptStep>, ScriptError> {
    let raw: Vec<serde_json::Value> = serde_json::from_str(text)?;
    let mut steps = Vec::with_capacity(raw.len());
    for (index, value) in raw.into_iter().enumerate() {
        let step = index + 1;
        let raw: RawStep =
            serde_json::from_value(value).map_err(|_| ScriptError::Shape { step })?;
        let parsed = match (raw.text, raw.tool, raw.tool_calls) {
            (Some(text), None, None) => ScriptStep::Text { text },
            (None, Some(tool), None) => ScriptStep::Calls(vec![ScriptCall {
                tool,
                arguments: strings(step, raw.arguments)?,
            }]),
            (None, None, Some(calls)) if !calls.is_empty() => ScriptStep::Calls(
                calls
                    .into_iter()
                    .map(|call| {
                        Ok(ScriptCall {
                            tool: call.tool,
                            arguments: strings(step, call.arguments)?,
                        })
                    })
                    .collect::<Result<_, ScriptError>>()?,
            ),
            _ => return Err(ScriptError::Shape { step }),
        };
        steps.push(parsed);
    }
    Ok(steps)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_all_step_shapes() {
        let steps = parse_script(
            r#"[{"tool":"skill","arguments":{"name":"a"}},{"tool_calls":[{"tool":"x"}]},{"text":"done"}]"#,
        );
        let steps = steps.map_err(|e| e.to_string());
        assert_eq!(steps.as_ref().map(Vec::len), Ok(3));
        assert!(matches!(
            parse_script(r#"[{"text":"a","tool":"b"}]"#),
            Err(ScriptError::Shape { step: 1 })
        ));
        assert!(matches!(
            parse_script(r#"[{"tool":"skill","arguments":{"name":1}}]"#),
            Err(ScriptError::Argument { step: 1, .. })
        ));
    }
}
