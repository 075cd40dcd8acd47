use super::{claude_field, claude_fields, shown};
use crate::clients::claude_code::fields::{model_id_shaped, model_reading, ModelReading};
use crate::lint::{Finding, SkillContext};

crate::declare_rule! {
    /// ## What it does
    /// Flags a `model` that Claude Code neither resolves nor can use: a value that is not text, or text
    /// that is not one of its aliases (`sonnet`, `opus`, `haiku`, `fable`, `best`, `opusplan`, with
    /// `[1m]`), `inherit`, or a `claude-…` model id.
    ///
    /// ## Why it matters
    /// Claude Code 2.1.332 sends any other text to the API as the model id, as written: typed as
    /// `/name`, a skill with `model: sonet` made the next request with `"model": "sonet"`, which the
    /// binary itself priced as an unknown model; the API answers such a request with an error. A number
    /// or a list is ignored and the skill runs on the session's model. (`claude-…` ids are not judged:
    /// Skillforge holds no list of the ids the API serves.)
    ///
    /// ## Example
    /// ```yaml
    /// model: sonet
    /// ```
    ///
    /// ## Fix
    /// Use an alias (`sonnet`), `inherit`, or a full model id.
    RULE {
        name: "model-not-recognized",
        group: "fields",
        severity: Error,
        profiles: [ClaudeCode],
        fix: None,
        check: check,
    }
}

fn check(context: &SkillContext<'_>, findings: &mut Vec<Finding>) {
    let parsed = claude_fields(context);
    let Some((value, range)) = claude_field(context, parsed, "model") else {
        return;
    };
    match model_reading(value) {
        ModelReading::Resolved => {}
        ModelReading::Verbatim(id) if model_id_shaped(&id) => {}
        ModelReading::Verbatim(id) => findings.push(Finding::new(
            range,
            format!("`model: {id}` is not a Claude Code alias; it is sent to the API as the model id as written"),
        )),
        ModelReading::Ignored if value.is_null() => {}
        ModelReading::Ignored => findings.push(Finding::new(
            range,
            format!("`model` is {}, not a model name; Claude Code ignores it", shown(value)),
        )),
    }
}
