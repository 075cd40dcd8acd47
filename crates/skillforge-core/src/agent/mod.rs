//! A deterministic mock agent loop that shows exactly what a client sends a model.
//!
//! Each request is assembled as the client assembles it: for nagents, the system prompt, the
//! skill manifest as a system message at index 1 (0 without a system prompt), the conversation,
//! then the explicit-activation messages; for 10xGraph, the system prompt, the catalog prompt (or
//! the session skill), then the conversation. A mock model answers, its tool calls run through
//! the real tools, and the loop repeats until the model answers in text or the round limit.
//! nagents' catalog is refreshed where nagents refreshes it (run start, before each request,
//! before and after each tool call), so a skill edited during a run shows up as it would.

pub mod evals;
pub mod playground;
pub mod router;
pub mod script;
pub mod triggers;

use std::collections::BTreeMap;
use std::path::PathBuf;
use std::sync::Arc;

use serde::{Deserialize, Serialize};

use crate::clients::nagents::activation::{
    self as nagents_activation, explicit_skill_names, FrozenCatalog, LiveCatalog, ReferenceOutcome,
    MAX_REFERENCES, SKILL_TOOL, SKILL_TOOL_DESCRIPTION,
};
use crate::clients::nagents::budget::{
    validate_skill_token_limit, InvalidTokenLimit, DEFAULT_SKILL_TOKEN_LIMIT,
};
use crate::clients::nagents::discovery::{
    CatalogHolder, DirectoryOptions, DirectorySource, SkillSource, SourceError,
};
use crate::clients::nagents::render_skill_manifest;
use crate::clients::tenxgraph::registry::{
    self as tenxgraph, Registry, ACTIVATE_SKILL_TOOL, READ_SKILL_RESOURCE_TOOL,
};
use crate::text::estimate_skill_tokens;
use router::{RouterDocument, RouterIndex, SkillScore};
pub use script::{ScriptError, ScriptStep};

/// The default number of model requests before the loop gives up.
pub const DEFAULT_MAX_ROUNDS: usize = 8;

/// Which client's behaviour to reproduce.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
pub enum Dialect {
    #[serde(rename = "nagents")]
    Nagents,
    #[serde(rename = "10xgraph")]
    Tenxgraph,
}

/// The mock model.
#[derive(Debug, Clone, PartialEq)]
pub enum MockModel {
    /// Never calls a tool: only `$name` activation loads skills.
    Explicit,
    /// Calls the skill tool for the best-scoring skill at or above `threshold`.
    Router { threshold: f64 },
    /// Answers with the given steps, one per request.
    Script(Vec<ScriptStep>),
}

/// Everything a simulation needs.
#[derive(Debug, Clone)]
pub struct SimulateOptions {
    pub roots: Vec<PathBuf>,
    pub message: String,
    pub dialect: Dialect,
    pub model: MockModel,
    pub token_limit: u32,
    pub system_prompt: Option<String>,
    pub max_rounds: usize,
    /// 10xGraph session mode: the skill `preload_from` names.
    pub session_skill: Option<String>,
    /// 10xGraph's `max_resource_bytes`.
    pub max_resource_bytes: usize,
    /// nagents' directory-walk bounds.
    pub directory: DirectoryOptions,
    /// When nagents' catalog is rediscovered.
    pub refresh: RefreshPolicy,
}

/// When the nagents catalog is rediscovered during a run.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
#[serde(rename_all = "snake_case")]
pub enum RefreshPolicy {
    /// Where nagents refreshes: run start, before each request, around each tool call.
    #[default]
    ClientBoundaries,
    /// Once, at run start: the per-request cost without rediscovery.
    Once,
}

impl SimulateOptions {
    pub fn new(roots: Vec<PathBuf>, message: impl Into<String>) -> Self {
        Self {
            roots,
            message: message.into(),
            dialect: Dialect::Nagents,
            model: MockModel::Explicit,
            token_limit: DEFAULT_SKILL_TOKEN_LIMIT,
            system_prompt: None,
            max_rounds: DEFAULT_MAX_ROUNDS,
            session_skill: None,
            max_resource_bytes: tenxgraph::DEFAULT_MAX_RESOURCE_BYTES,
            directory: DirectoryOptions::default(),
            refresh: RefreshPolicy::ClientBoundaries,
        }
    }
}

/// Why a simulation could not run at all.
#[derive(Debug, thiserror::Error)]
pub enum AgentError {
    /// nagents aborts a run whose catalog refresh fails rather than send a stale catalog.
    #[error("the catalog refresh failed, so the client would abort the run: {0}")]
    Refresh(#[from] SourceError),
    #[error(transparent)]
    TokenLimit(#[from] InvalidTokenLimit),
}

/// Where a request message comes from.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
#[serde(rename_all = "snake_case")]
pub enum Origin {
    SystemPrompt,
    Catalog,
    /// 10xGraph session mode's preloaded skill, or a re-injected active skill.
    SkillInstructions,
    User,
    Activation,
    Assistant,
    ToolResult,
}

/// A tool call made by the model.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
pub struct ToolCall {
    pub id: String,
    pub name: String,
    pub arguments: BTreeMap<String, String>,
}

/// One message of a request.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
pub struct RequestMessage {
    pub role: String,
    pub origin: Origin,
    pub content: String,
    /// ceil(UTF-8 bytes / 4) of the content, the estimate the peers use.
    pub estimated_tokens: u32,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub tool_calls: Vec<ToolCall>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub tool_call_id: Option<String>,
}

impl RequestMessage {
    fn new(role: &str, origin: Origin, content: impl Into<String>) -> Self {
        let content = content.into();
        Self {
            role: role.to_string(),
            origin,
            estimated_tokens: tokens(&content),
            content,
            tool_calls: Vec::new(),
            tool_call_id: None,
        }
    }
}

fn tokens(text: &str) -> u32 {
    u32::try_from(estimate_skill_tokens(text)).unwrap_or(u32::MAX)
}

/// A tool offered to the model.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
pub struct ToolSpec {
    pub name: String,
    pub description: String,
    /// The JSON schema of the parameters, as JSON text.
    pub parameters: String,
}

/// What the model did with a request.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum ModelAction {
    Text { text: String },
    ToolCalls { calls: Vec<ToolCall> },
}

/// The outcome of one tool call.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
pub struct ToolResult {
    pub call_id: String,
    pub name: String,
    pub content: String,
    pub is_error: bool,
    pub estimated_tokens: u32,
}

/// One request and its answer.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
pub struct Round {
    pub index: u32,
    pub messages: Vec<RequestMessage>,
    pub tools: Vec<ToolSpec>,
    pub estimated_tokens: u32,
    pub action: ModelAction,
    pub tool_results: Vec<ToolResult>,
}

/// The router's view of the user's message.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
pub struct RouterReport {
    pub threshold: f64,
    /// Every skill, best first.
    pub scores: Vec<SkillScore>,
    pub chosen: Option<String>,
}

/// The per-turn explicit-activation budget.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
pub struct BudgetReport {
    pub token_limit: u32,
    pub used: u32,
    pub loaded: Vec<String>,
}

/// Something an author should know about the run.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
#[serde(rename_all = "snake_case")]
pub enum WarningKind {
    UnknownReference,
    TruncatedLoad,
    BudgetExhausted,
    TooManyReferences,
    LoadFailed,
    ReferencesIgnored,
    RoundLimit,
    SessionSkillMissing,
    ToolError,
    Diagnostic,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
pub struct Warning {
    pub kind: WarningKind,
    pub message: String,
}

impl Warning {
    fn new(kind: WarningKind, message: impl Into<String>) -> Self {
        Self {
            kind,
            message: message.into(),
        }
    }
}

/// Totals over the run.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
pub struct Totals {
    pub rounds: u32,
    pub tool_calls: u32,
    /// Estimated tokens over every request. A JavaScript number holds any real total exactly.
    #[cfg_attr(feature = "specta", specta(type = f64))]
    pub request_tokens: u64,
    /// Estimated tokens of the last request.
    pub final_request_tokens: u32,
}

/// A whole simulated run.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
pub struct Transcript {
    pub dialect: Dialect,
    pub model: String,
    pub skills: Vec<String>,
    pub rounds: Vec<Round>,
    pub final_text: Option<String>,
    pub router: Option<RouterReport>,
    pub budget: Option<BudgetReport>,
    pub totals: Totals,
    pub warnings: Vec<Warning>,
}

impl Transcript {
    /// The first request's messages as `{role, content}` pairs.
    pub fn request_messages(&self) -> Vec<(String, String)> {
        self.rounds
            .first()
            .map(|round| {
                round
                    .messages
                    .iter()
                    .map(|m| (m.role.clone(), m.content.clone()))
                    .collect()
            })
            .unwrap_or_default()
    }
}

fn model_label(model: &MockModel) -> String {
    match model {
        MockModel::Explicit => "explicit".into(),
        MockModel::Router { .. } => "router".into(),
        MockModel::Script(_) => "script".into(),
    }
}

/// The mock model's state across rounds.
struct Model {
    kind: MockModel,
    next_step: usize,
    calls: u32,
    routed: bool,
}

impl Model {
    fn new(kind: MockModel) -> Self {
        Self {
            kind,
            next_step: 0,
            calls: 0,
            routed: false,
        }
    }

    fn call_id(&mut self) -> String {
        self.calls += 1;
        format!("call_{}", self.calls)
    }

    fn act(&mut self, tool: &str, argument: &str, chosen: Option<&str>) -> ModelAction {
        match self.kind.clone() {
            MockModel::Explicit => ModelAction::Text {
                text: "(explicit model: answered without calling a tool)".into(),
            },
            MockModel::Router { .. } => match chosen {
                Some(name) if !self.routed => {
                    self.routed = true;
                    let id = self.call_id();
                    ModelAction::ToolCalls {
                        calls: vec![ToolCall {
                            id,
                            name: tool.to_string(),
                            arguments: BTreeMap::from([(argument.to_string(), name.to_string())]),
                        }],
                    }
                }
                Some(name) => ModelAction::Text {
                    text: format!("(router model: answered with skill {name})"),
                },
                None => ModelAction::Text {
                    text: "(router model: no skill scored above the threshold)".into(),
                },
            },
            MockModel::Script(steps) => {
                let step = steps.get(self.next_step).cloned();
                self.next_step += 1;
                match step {
                    Some(ScriptStep::Text { text }) => ModelAction::Text { text },
                    Some(ScriptStep::Calls(calls)) => ModelAction::ToolCalls {
                        calls: calls
                            .into_iter()
                            .map(|call| ToolCall {
                                id: self.call_id(),
                                name: call.tool,
                                arguments: call.arguments,
                            })
                            .collect(),
                    },
                    None => ModelAction::Text {
                        text: "(script ended)".into(),
                    },
                }
            }
        }
    }
}

fn routed(model: &MockModel, documents: &[RouterDocument], message: &str) -> Option<RouterReport> {
    let MockModel::Router { threshold } = model else {
        return None;
    };
    let scores = RouterIndex::new(documents).rank(message);
    let chosen = scores
        .first()
        .filter(|best| best.score >= *threshold && best.score > 0.0)
        .map(|best| best.name.clone());
    Some(RouterReport {
        threshold: *threshold,
        scores,
        chosen,
    })
}

fn finish(
    options: &SimulateOptions,
    skills: Vec<String>,
    rounds: Vec<Round>,
    router: Option<RouterReport>,
    budget: Option<BudgetReport>,
    mut warnings: Vec<Warning>,
) -> Transcript {
    let final_text = match rounds.last().map(|round| &round.action) {
        Some(ModelAction::Text { text }) => Some(text.clone()),
        _ => None,
    };
    if final_text.is_none() && !rounds.is_empty() {
        warnings.push(Warning::new(
            WarningKind::RoundLimit,
            format!(
                "the model was still calling tools after {} requests",
                options.max_rounds
            ),
        ));
    }
    let totals = Totals {
        rounds: rounds.len() as u32,
        tool_calls: rounds
            .iter()
            .map(|round| round.tool_results.len() as u32)
            .sum(),
        request_tokens: rounds
            .iter()
            .map(|round| u64::from(round.estimated_tokens))
            .sum(),
        final_request_tokens: rounds
            .last()
            .map(|round| round.estimated_tokens)
            .unwrap_or(0),
    };
    Transcript {
        dialect: options.dialect,
        model: model_label(&options.model),
        skills,
        rounds,
        final_text,
        router,
        budget,
        totals,
        warnings,
    }
}

/// Runs a simulation.
pub async fn simulate(options: &SimulateOptions) -> Result<Transcript, AgentError> {
    validate_skill_token_limit(i64::from(options.token_limit))?;
    match options.dialect {
        Dialect::Nagents => {
            let source: Arc<dyn SkillSource> =
                Arc::new(DirectorySource::new(&options.roots, options.directory));
            match options.refresh {
                RefreshPolicy::ClientBoundaries => {
                    simulate_nagents(options, &CatalogHolder::new(source)).await
                }
                RefreshPolicy::Once => {
                    let catalog = FrozenCatalog::discover(source).await?;
                    simulate_nagents(options, &catalog).await
                }
            }
        }
        Dialect::Tenxgraph => Ok(simulate_tenxgraph(
            options,
            &Registry::discover(&options.roots),
        )),
    }
}

fn activation_warnings(
    outcomes: &[ReferenceOutcome],
    references: usize,
    warnings: &mut Vec<Warning>,
) {
    if references > MAX_REFERENCES {
        warnings.push(Warning::new(
            WarningKind::TooManyReferences,
            format!("{references} skills referenced; only the first {MAX_REFERENCES} are tried"),
        ));
    }
    let loaded = outcomes
        .iter()
        .filter(|outcome| matches!(outcome, ReferenceOutcome::Loaded { .. }))
        .count();
    let exhausted: Vec<&str> = outcomes
        .iter()
        .filter_map(|outcome| match outcome {
            ReferenceOutcome::BudgetExhausted { name } => Some(name.as_str()),
            _ => None,
        })
        .collect();
    for outcome in outcomes {
        match outcome {
            ReferenceOutcome::Unknown { name } => warnings.push(Warning::new(
                WarningKind::UnknownReference,
                format!("${name} is not in the catalog and was skipped silently"),
            )),
            ReferenceOutcome::Failed { name, error } => warnings.push(Warning::new(
                WarningKind::LoadFailed,
                format!("${name} could not be loaded: {error}"),
            )),
            ReferenceOutcome::Loaded { name, result } if result.truncated => {
                warnings.push(Warning::new(
                    WarningKind::TruncatedLoad,
                    format!(
                        "${name} was cut to {} estimated tokens (the budget left was {})",
                        result.estimated_tokens, result.token_limit
                    ),
                ))
            }
            _ => {}
        }
    }
    if !exhausted.is_empty() {
        warnings.push(Warning::new(
            WarningKind::BudgetExhausted,
            format!(
                "the per-turn budget ran out after {loaded} skill(s); not loaded: {}",
                exhausted
                    .iter()
                    .map(|name| format!("${name}"))
                    .collect::<Vec<_>>()
                    .join(", ")
            ),
        ));
    }
}

/// Runs a nagents simulation against a catalog the caller already discovered (benchmarks and the
/// app, which keeps one catalog per workspace).
pub async fn simulate_nagents(
    options: &SimulateOptions,
    holder: &dyn LiveCatalog,
) -> Result<Transcript, AgentError> {
    let mut warnings = Vec::new();
    // Run start: the catalog is refreshed before the message is read.
    holder.refresh().await?;
    for diagnostic in holder.diagnostics() {
        warnings.push(Warning::new(WarningKind::Diagnostic, diagnostic));
    }
    let snapshot = holder.skills();
    let documents: Vec<RouterDocument> = snapshot
        .values()
        .map(|skill| RouterDocument {
            name: skill.name.clone(),
            description: skill.description.clone(),
            triggers: Vec::new(),
        })
        .collect();
    let router = routed(&options.model, &documents, &options.message);
    let activation =
        nagents_activation::activate(holder, &options.message, options.token_limit).await?;
    activation_warnings(
        &activation.outcomes,
        activation.references.len(),
        &mut warnings,
    );
    let activation_messages: Vec<RequestMessage> = activation
        .messages
        .iter()
        .map(|content| RequestMessage::new("user", Origin::Activation, content.clone()))
        .collect();
    let budget = BudgetReport {
        token_limit: activation.token_limit,
        used: activation.used,
        loaded: activation
            .outcomes
            .iter()
            .filter_map(|outcome| match outcome {
                ReferenceOutcome::Loaded { name, .. } => Some(name.clone()),
                _ => None,
            })
            .collect(),
    };
    let tools = vec![ToolSpec {
        name: SKILL_TOOL.into(),
        description: SKILL_TOOL_DESCRIPTION.into(),
        parameters: nagents_activation::skill_tool_parameters(true).to_string(),
    }];
    let mut history = vec![RequestMessage::new(
        "user",
        Origin::User,
        options.message.clone(),
    )];
    let mut model = Model::new(options.model.clone());
    let chosen = router.as_ref().and_then(|report| report.chosen.clone());
    let mut rounds = Vec::new();
    for index in 0..options.max_rounds {
        holder.refresh().await?;
        let snapshot = holder.skills();
        let mut messages = Vec::with_capacity(history.len() + activation_messages.len() + 2);
        if let Some(prompt) = &options.system_prompt {
            // nagents skips an empty system prompt.
            if !prompt.is_empty() {
                messages.push(RequestMessage::new(
                    "system",
                    Origin::SystemPrompt,
                    prompt.clone(),
                ));
            }
        }
        messages.push(RequestMessage::new(
            "system",
            Origin::Catalog,
            render_skill_manifest(snapshot.values()),
        ));
        messages.extend(history.iter().cloned());
        messages.extend(activation_messages.iter().cloned());
        let action = model.act(SKILL_TOOL, "name", chosen.as_deref());
        let mut tool_results = Vec::new();
        if let ModelAction::ToolCalls { calls } = &action {
            let mut assistant = RequestMessage::new("assistant", Origin::Assistant, "");
            assistant.tool_calls = calls.clone();
            history.push(assistant);
            for call in calls {
                holder.refresh().await?;
                let (content, is_error) = if call.name == SKILL_TOOL {
                    let name = call.arguments.get("name").cloned().unwrap_or_default();
                    let result = holder.load(&name, options.token_limit).await;
                    (
                        nagents_activation::skill_tool_message(&result),
                        result.is_err(),
                    )
                } else {
                    (
                        format!(
                            "Error: Tool '{}' does not exist. Available tools: {SKILL_TOOL}",
                            call.name
                        ),
                        true,
                    )
                };
                holder.refresh().await?;
                record_tool_result(
                    call,
                    content,
                    is_error,
                    &mut warnings,
                    &mut history,
                    &mut tool_results,
                );
            }
        }
        if close_round(
            &mut history,
            &mut rounds,
            index,
            messages,
            &tools,
            action,
            tool_results,
        ) {
            break;
        }
    }
    let skills = holder.skills().keys().cloned().collect();
    Ok(finish(
        options,
        skills,
        rounds,
        router,
        Some(budget),
        warnings,
    ))
}

/// Runs a 10xGraph simulation against a registry the caller already discovered.
pub fn simulate_tenxgraph(options: &SimulateOptions, registry: &Registry) -> Transcript {
    let mut warnings: Vec<Warning> = registry
        .diagnostics
        .iter()
        .map(|d| {
            Warning::new(
                WarningKind::Diagnostic,
                format!("{}: {}: {}", d.level, d.path, d.message),
            )
        })
        .collect();
    if !explicit_skill_names(&options.message).is_empty() {
        warnings.push(Warning::new(
            WarningKind::ReferencesIgnored,
            "10xGraph has no $name activation; the references stay plain text",
        ));
    }
    let documents: Vec<RouterDocument> = registry
        .ordered()
        .iter()
        .map(|meta| RouterDocument {
            name: meta.name.clone(),
            description: meta.description.clone(),
            triggers: meta.triggers.clone(),
        })
        .collect();
    let session = options.session_skill.as_deref();
    let can_read_files = !registry.is_empty() && registry.has_bundled_files();
    let mut tools = Vec::new();
    if !registry.is_empty() {
        if session.is_none() {
            tools.push(ToolSpec {
                name: ACTIVATE_SKILL_TOOL.into(),
                description: tenxgraph::activate_skill_description(registry, false),
                parameters: tenxgraph::activate_skill_parameters(registry).to_string(),
            });
        }
        if can_read_files {
            tools.push(ToolSpec {
                name: READ_SKILL_RESOURCE_TOOL.into(),
                description: tenxgraph::READ_SKILL_RESOURCE_DESCRIPTION.into(),
                parameters: tenxgraph::read_skill_resource_parameters(registry).to_string(),
            });
        }
    }
    let router = if session.is_none() {
        routed(&options.model, &documents, &options.message)
    } else {
        None
    };
    let chosen = router.as_ref().and_then(|report| report.chosen.clone());
    let catalog = if session.is_none() {
        registry.catalog_prompt(can_read_files)
    } else {
        String::new()
    };
    let mut history = vec![RequestMessage::new(
        "user",
        Origin::User,
        options.message.clone(),
    )];
    let mut active: Vec<String> = Vec::new();
    let mut model = Model::new(options.model.clone());
    let mut rounds = Vec::new();
    for index in 0..options.max_rounds {
        let mut messages = Vec::new();
        if let Some(prompt) = &options.system_prompt {
            messages.push(RequestMessage::new(
                "system",
                Origin::SystemPrompt,
                prompt.clone(),
            ));
        }
        if let Some(name) = session {
            match registry.format_skill_content(name, can_read_files, false) {
                Some(content) => messages.push(RequestMessage::new(
                    "system",
                    Origin::SkillInstructions,
                    content,
                )),
                None if index == 0 => warnings.push(Warning::new(
                    WarningKind::SessionSkillMissing,
                    format!(
                        "session skill '{name}' was not found or is empty; nothing is injected"
                    ),
                )),
                None => {}
            }
        } else if !registry.is_empty() {
            if !catalog.is_empty() {
                messages.push(RequestMessage::new(
                    "system",
                    Origin::Catalog,
                    catalog.clone(),
                ));
            }
            // An activated skill whose instructions left the conversation is injected again.
            for name in &active {
                let marker = tenxgraph::skill_content_marker(name);
                if history.iter().any(|m| m.content.contains(&marker)) {
                    continue;
                }
                if let Some(content) = registry.format_skill_content(name, can_read_files, false) {
                    messages.push(RequestMessage::new(
                        "system",
                        Origin::SkillInstructions,
                        content,
                    ));
                }
            }
        }
        messages.extend(history.iter().cloned());
        let action = model.act(ACTIVATE_SKILL_TOOL, "skill_name", chosen.as_deref());
        let mut tool_results = Vec::new();
        if let ModelAction::ToolCalls { calls } = &action {
            let mut assistant = RequestMessage::new("assistant", Origin::Assistant, "");
            assistant.tool_calls = calls.clone();
            history.push(assistant);
            for call in calls {
                let argument = |key: &str| call.arguments.get(key).cloned().unwrap_or_default();
                let offered = tools.iter().any(|tool| tool.name == call.name);
                let output = match call.name.as_str() {
                    ACTIVATE_SKILL_TOOL if offered => {
                        let name = argument("skill_name");
                        let output = registry.activate_skill(
                            &name,
                            history.iter().map(|m| m.content.as_str()),
                            can_read_files,
                        );
                        if !output.is_error && !active.contains(&name) {
                            active.push(name);
                        }
                        output
                    }
                    READ_SKILL_RESOURCE_TOOL if offered => registry.read_skill_resource(
                        &argument("skill_name"),
                        &argument("path"),
                        options.max_resource_bytes,
                    ),
                    _ => tenxgraph::ToolOutput {
                        content: format!("Tool '{}' is not available to this agent", call.name),
                        is_error: true,
                    },
                };
                record_tool_result(
                    call,
                    output.content,
                    output.is_error,
                    &mut warnings,
                    &mut history,
                    &mut tool_results,
                );
            }
        }
        if close_round(
            &mut history,
            &mut rounds,
            index,
            messages,
            &tools,
            action,
            tool_results,
        ) {
            break;
        }
    }
    finish(options, registry.names(), rounds, router, None, warnings)
}

/// What the router reads about each skill, as the dialect shows it to a model: nagents shows name
/// and description; 10xGraph adds `metadata.triggers`.
pub async fn router_documents(
    roots: &[PathBuf],
    dialect: Dialect,
    directory: DirectoryOptions,
) -> Result<Vec<RouterDocument>, AgentError> {
    Ok(match dialect {
        Dialect::Nagents => DirectorySource::new(roots, directory)
            .discover()
            .await?
            .into_iter()
            .map(|skill| RouterDocument {
                name: skill.name,
                description: skill.description,
                triggers: Vec::new(),
            })
            .collect(),
        Dialect::Tenxgraph => Registry::discover(roots)
            .ordered()
            .into_iter()
            .map(|meta| RouterDocument {
                name: meta.name.clone(),
                description: meta.description.clone(),
                triggers: meta.triggers.clone(),
            })
            .collect(),
    })
}

/// Records what a tool returned: a warning when it failed, the tool message in the history that
/// later requests carry, and the result in the round's transcript.
fn record_tool_result(
    call: &ToolCall,
    content: String,
    is_error: bool,
    warnings: &mut Vec<Warning>,
    history: &mut Vec<RequestMessage>,
    tool_results: &mut Vec<ToolResult>,
) {
    if is_error {
        warnings.push(Warning::new(
            WarningKind::ToolError,
            format!("{}: {content}", call.name),
        ));
    }
    let mut message = RequestMessage::new("tool", Origin::ToolResult, content.clone());
    message.tool_call_id = Some(call.id.clone());
    history.push(message);
    tool_results.push(ToolResult {
        call_id: call.id.clone(),
        name: call.name.clone(),
        estimated_tokens: tokens(&content),
        content,
        is_error,
    });
}

/// Ends a round of the loop: the model's text answer joins the history, the round is recorded, and
/// the answer says whether the run is over (a text answer ends it; tool calls go on).
fn close_round(
    history: &mut Vec<RequestMessage>,
    rounds: &mut Vec<Round>,
    index: usize,
    messages: Vec<RequestMessage>,
    tools: &[ToolSpec],
    action: ModelAction,
    tool_results: Vec<ToolResult>,
) -> bool {
    let done = matches!(action, ModelAction::Text { .. });
    if let ModelAction::Text { text } = &action {
        history.push(RequestMessage::new(
            "assistant",
            Origin::Assistant,
            text.clone(),
        ));
    }
    rounds.push(Round {
        index: index as u32,
        estimated_tokens: messages.iter().map(|m| m.estimated_tokens).sum(),
        messages,
        tools: tools.to_vec(),
        action,
        tool_results,
    });
    done
}

#[cfg(test)]
mod tests {
    use super::*;

    fn fixtures() -> PathBuf {
        PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../tests/fixtures/activation/skills")
    }

    fn run(options: &SimulateOptions) -> Option<Transcript> {
        let runtime = tokio::runtime::Builder::new_current_thread().build().ok()?;
        runtime.block_on(simulate(options)).ok()
    }

    #[test]
    fn nagents_router_run_loads_through_the_skill_tool() {
        let mut options = SimulateOptions::new(vec![fixtures()], "pull the tables out of this PDF");
        options.model = MockModel::Router { threshold: 0.5 };
        options.system_prompt = Some("sys".into());
        let transcript = run(&options);
        let Some(transcript) = transcript else {
            panic!("the simulation failed");
        };
        assert_eq!(transcript.rounds.len(), 2);
        let first = &transcript.rounds[0];
        let origins: Vec<Origin> = first.messages.iter().map(|m| m.origin).collect();
        assert_eq!(
            origins,
            [Origin::SystemPrompt, Origin::Catalog, Origin::User]
        );
        assert_eq!(
            transcript.router.as_ref().and_then(|r| r.chosen.as_deref()),
            Some("alpha")
        );
        let result = &first.tool_results[0];
        assert!(
            result
                .content
                .starts_with("{\"name\":\"alpha\",\"location\":"),
            "{}",
            result.content
        );
        let last = &transcript.rounds[1].messages;
        assert_eq!(last.last().map(|m| m.origin), Some(Origin::ToolResult));
    }

    #[test]
    fn a_failed_tool_call_is_answered_recorded_and_warned_about_in_both_dialects() {
        let steps = script::parse_script(
            r#"[{"tool": "no_such_tool", "arguments": {}}, {"text": "done"}]"#,
        );
        let Ok(steps) = steps else {
            panic!("the script does not parse: {steps:?}");
        };
        for dialect in [Dialect::Nagents, Dialect::Tenxgraph] {
            let mut options = SimulateOptions::new(vec![fixtures()], "hello");
            options.dialect = dialect;
            options.model = MockModel::Script(steps.clone());
            let Some(transcript) = run(&options) else {
                panic!("the simulation failed");
            };
            let result = &transcript.rounds[0].tool_results[0];
            assert!(result.is_error, "{dialect:?}: {result:?}");
            assert_eq!(result.name, "no_such_tool");
            let answered = transcript.rounds[1]
                .messages
                .iter()
                .any(|m| m.origin == Origin::ToolResult && m.content == result.content);
            assert!(
                answered,
                "{dialect:?}: the next request lacks the tool's answer"
            );
            assert!(
                transcript
                    .warnings
                    .iter()
                    .any(|w| w.kind == WarningKind::ToolError),
                "{dialect:?}: {:?}",
                transcript.warnings
            );
        }
    }

    #[test]
    fn explicit_activation_follows_the_conversation_and_warns() {
        let mut options =
            SimulateOptions::new(vec![fixtures()], "$ghost then $delta-tools then $beta");
        options.token_limit = 50;
        let Some(transcript) = run(&options) else {
            panic!("the simulation failed");
        };
        let messages = &transcript.rounds[0].messages;
        assert_eq!(messages[0].origin, Origin::Catalog);
        assert_eq!(messages.last().map(|m| m.origin), Some(Origin::Activation));
        let kinds: Vec<&WarningKind> = transcript.warnings.iter().map(|w| &w.kind).collect();
        assert!(kinds.contains(&&WarningKind::UnknownReference));
        assert!(kinds.contains(&&WarningKind::TruncatedLoad));
        assert!(kinds.contains(&&WarningKind::BudgetExhausted));
        assert_eq!(transcript.budget.map(|b| b.used), Some(50));
    }
}
