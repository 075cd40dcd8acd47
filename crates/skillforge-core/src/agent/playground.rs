//! The activation playground: simulations and trigger tests over a workspace with the editor's
//! unsaved buffers laid over it, so an author sees the effect of an edit before saving.

use std::sync::Arc;

use super::router::RouterDocument;
use super::triggers::{self, EvalQuery, TriggerReport};
use super::{
    simulate_nagents, simulate_tenxgraph, AgentError, Dialect, SimulateOptions, Transcript,
};
use crate::catalog::session::{Buffer, CatalogSession};
use crate::clients::nagents::budget::validate_skill_token_limit;
use crate::clients::nagents::discovery::{
    BuiltinSource, CatalogHolder, DirectorySource, OverlaySource, SkillSource,
};

/// Runs a simulation on `session`'s workspace with `buffers` in place of their files.
///
/// nagents rediscovers at every boundary it refreshes at, through the same overlay a saved edit
/// would go through; 10xGraph discovers once per run, as it does.
pub async fn simulate_overlaid(
    options: &SimulateOptions,
    session: &CatalogSession,
    buffers: &[Buffer],
) -> Result<Transcript, AgentError> {
    validate_skill_token_limit(i64::from(options.token_limit))?;
    match options.dialect {
        // Builtin skills are read-only: no unsaved text to lay over them.
        Dialect::Nagents if session.is_builtin() => {
            let source: Arc<dyn SkillSource> = Arc::new(BuiltinSource::default());
            simulate_nagents(options, &CatalogHolder::new(source)).await
        }
        Dialect::Nagents => {
            let overlay = OverlaySource::new(Arc::new(DirectorySource::new(
                &options.roots,
                options.directory,
            )));
            for buffer in buffers {
                overlay.set(buffer.path.clone(), buffer.text.clone());
            }
            let source: Arc<dyn SkillSource> = Arc::new(overlay);
            simulate_nagents(options, &CatalogHolder::new(source)).await
        }
        Dialect::Tenxgraph => Ok(simulate_tenxgraph(options, &session.registry(buffers))),
    }
}

/// Ranks every query against what nagents shows the model about each skill (name and
/// description), with `buffers` in place of their files; a skill is picked at `threshold` or above.
pub fn run_triggers(
    session: &CatalogSession,
    queries: &[EvalQuery],
    buffers: &[Buffer],
    threshold: f64,
) -> TriggerReport {
    let documents: Vec<RouterDocument> = session
        .nagents_view(buffers)
        .skills
        .into_iter()
        .map(|skill| RouterDocument {
            name: skill.name,
            description: skill.description,
            triggers: Vec::new(),
        })
        .collect();
    triggers::analyze(&documents, queries, threshold)
}

#[cfg(test)]
mod tests {
    use super::super::router::DEFAULT_THRESHOLD;
    use super::*;
    use std::path::PathBuf;

    fn fixtures() -> PathBuf {
        PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../tests/fixtures/activation/skills")
    }

    #[test]
    fn the_builtin_session_activates_builtin_skills() {
        let session = CatalogSession::builtin();
        let Some(name) = session
            .nagents_view(&[])
            .skills
            .first()
            .map(|s| s.name.clone())
        else {
            panic!("no builtin skills")
        };
        let Ok(runtime) = tokio::runtime::Builder::new_current_thread().build() else {
            return;
        };
        let options = SimulateOptions::new(Vec::new(), format!("use ${name}"));
        let transcript = runtime.block_on(simulate_overlaid(&options, &session, &[]));
        let Ok(transcript) = transcript else {
            panic!("simulation failed: {transcript:?}")
        };
        assert_eq!(
            transcript.budget.map(|budget| budget.loaded),
            Some(vec![name])
        );
        let location = crate::builtin::LOCATION_PREFIX;
        let activation = transcript.rounds[0]
            .messages
            .iter()
            .any(|message| message.content.contains(location));
        assert!(activation, "{:?}", transcript.rounds[0].messages);
    }

    #[test]
    fn unsaved_descriptions_change_routing() {
        let roots = vec![fixtures()];
        let session = CatalogSession::open(&roots);
        let query = [EvalQuery {
            query: "bake sourdough bread".into(),
            should_trigger: Some("alpha".into()),
        }];
        let before = run_triggers(&session, &query, &[], DEFAULT_THRESHOLD);
        assert!(!before.queries[0].correct);
        // Buffers carry the paths discovery reports (roots made absolute, `..` collapsed).
        let path = crate::clients::nagents::discovery::directory::absolute_root(&fixtures())
            .join("alpha/SKILL.md");
        let text = std::fs::read_to_string(&path).unwrap_or_default();
        let edited = text.replacen("description:", "description: Bake sourdough bread.", 1);
        let buffers = [Buffer {
            path: path.display().to_string(),
            text: edited,
        }];
        let after = run_triggers(&session, &query, &buffers, DEFAULT_THRESHOLD);
        assert_eq!(after.queries[0].predicted.as_deref(), Some("alpha"));
        // A threshold above alpha's score leaves the query unrouted.
        let score = after.queries[0]
            .ranking
            .iter()
            .find(|score| score.name == "alpha")
            .map_or(0.0, |score| score.score);
        assert!(score > DEFAULT_THRESHOLD);
        let strict = run_triggers(&session, &query, &buffers, score + 0.01);
        assert_eq!(strict.queries[0].predicted, None);
        assert_eq!(strict.threshold, score + 0.01);

        let runtime = tokio::runtime::Builder::new_current_thread().build();
        let Ok(runtime) = runtime else { return };
        let mut options = SimulateOptions::new(roots, "bake sourdough bread");
        options.model = super::super::MockModel::Router {
            threshold: DEFAULT_THRESHOLD,
        };
        let transcript = runtime.block_on(simulate_overlaid(&options, &session, &buffers));
        let chosen = transcript
            .ok()
            .and_then(|t| t.router)
            .and_then(|router| router.chosen);
        assert_eq!(chosen.as_deref(), Some("alpha"));
    }
}
