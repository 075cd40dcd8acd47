//! Trigger analysis: which skill the router picks for each eval query, precision and recall per
//! skill, and the pairs of skills that compete for the same queries.
//!
//! Queries use the agentskills.io eval format: `[{"query": "...", "should_trigger": "name" | null}]`.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

use super::router::{RouterDocument, RouterIndex, SkillScore};

/// How many ranked skills a query's report keeps.
const RANKING_SHOWN: usize = 5;
/// A runner-up within this fraction of the winner's score competes with it.
const COMPETING_RATIO: f64 = 0.8;

/// One eval query.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
pub struct EvalQuery {
    pub query: String,
    #[serde(default)]
    pub should_trigger: Option<String>,
}

/// Why a queries file cannot be used.
#[derive(Debug, thiserror::Error)]
pub enum QueriesError {
    #[error(
        "expected a JSON list of {{\"query\": \"...\", \"should_trigger\": \"name\" or null}}: {0}"
    )]
    Json(#[from] serde_json::Error),
}

pub fn parse_queries(text: &str) -> Result<Vec<EvalQuery>, QueriesError> {
    Ok(serde_json::from_str(text)?)
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
pub struct QueryResult {
    pub query: String,
    pub expected: Option<String>,
    /// The best skill at or above the threshold, if any.
    pub predicted: Option<String>,
    pub correct: bool,
    /// The best-scoring skills, best first.
    pub ranking: Vec<SkillScore>,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
pub struct SkillMetrics {
    pub name: String,
    pub true_positives: u32,
    pub false_positives: u32,
    pub false_negatives: u32,
    /// `None` when the router never picked the skill.
    pub precision: Option<f64>,
    /// `None` when no query expects the skill.
    pub recall: Option<f64>,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
pub struct CompetingPair {
    pub first: String,
    pub second: String,
    /// Queries for which both skills scored at or above the threshold, close to each other.
    pub queries: Vec<String>,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
pub struct TriggerReport {
    pub threshold: f64,
    pub queries: Vec<QueryResult>,
    pub skills: Vec<SkillMetrics>,
    pub competing: Vec<CompetingPair>,
    /// Queries that expect a skill the catalog does not hold.
    pub unknown_expectations: Vec<String>,
}

impl TriggerReport {
    pub fn misrouted(&self) -> usize {
        self.queries.iter().filter(|query| !query.correct).count()
    }
}

fn ratio(numerator: u32, denominator: u32) -> Option<f64> {
    (denominator > 0)
        .then(|| (f64::from(numerator) / f64::from(denominator) * 10_000.0).round() / 10_000.0)
}

/// Ranks every query and summarises the results.
pub fn analyze(
    documents: &[RouterDocument],
    queries: &[EvalQuery],
    threshold: f64,
) -> TriggerReport {
    let index = RouterIndex::new(documents);
    let mut counts: BTreeMap<String, (u32, u32, u32)> = documents
        .iter()
        .map(|document| (document.name.clone(), (0, 0, 0)))
        .collect();
    let mut pairs: BTreeMap<(String, String), Vec<String>> = BTreeMap::new();
    let mut unknown = Vec::new();
    let mut results = Vec::with_capacity(queries.len());
    for query in queries {
        let ranking = index.rank(&query.query);
        let above: Vec<&SkillScore> = ranking
            .iter()
            .filter(|s| s.score >= threshold && s.score > 0.0)
            .collect();
        let predicted = above.first().map(|best| best.name.clone());
        if let (Some(best), Some(runner_up)) = (above.first(), above.get(1)) {
            if runner_up.score >= best.score * COMPETING_RATIO {
                let mut names = [best.name.clone(), runner_up.name.clone()];
                names.sort();
                let [first, second] = names;
                pairs
                    .entry((first, second))
                    .or_default()
                    .push(query.query.clone());
            }
        }
        if let Some(expected) = &query.should_trigger {
            if !counts.contains_key(expected) {
                unknown.push(query.query.clone());
            }
        }
        for (name, (true_positives, false_positives, false_negatives)) in counts.iter_mut() {
            let expected = query.should_trigger.as_deref() == Some(name.as_str());
            let picked = predicted.as_deref() == Some(name.as_str());
            match (expected, picked) {
                (true, true) => *true_positives += 1,
                (false, true) => *false_positives += 1,
                (true, false) => *false_negatives += 1,
                (false, false) => {}
            }
        }
        results.push(QueryResult {
            query: query.query.clone(),
            expected: query.should_trigger.clone(),
            correct: predicted == query.should_trigger,
            predicted,
            ranking: ranking.into_iter().take(RANKING_SHOWN).collect(),
        });
    }
    let skills = counts
        .into_iter()
        .map(
            |(name, (true_positives, false_positives, false_negatives))| SkillMetrics {
                name,
                true_positives,
                false_positives,
                false_negatives,
                precision: ratio(true_positives, true_positives + false_positives),
                recall: ratio(true_positives, true_positives + false_negatives),
            },
        )
        .collect();
    let mut competing: Vec<CompetingPair> = pairs
        .into_iter()
        .map(|((first, second), queries)| CompetingPair {
            first,
            second,
            queries,
        })
        .collect();
    competing.sort_by(|a, b| {
        b.queries
            .len()
            .cmp(&a.queries.len())
            .then_with(|| a.first.cmp(&b.first))
    });
    TriggerReport {
        threshold,
        queries: results,
        skills,
        competing,
        unknown_expectations: unknown,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn computes_precision_recall_and_competition() {
        let documents = vec![
            RouterDocument {
                name: "pdf".into(),
                description: "Extract text from PDF documents".into(),
                triggers: vec![],
            },
            RouterDocument {
                name: "docs".into(),
                description: "Extract text from Word documents".into(),
                triggers: vec![],
            },
        ];
        let queries = parse_queries(
            r#"[{"query":"extract text from this PDF","should_trigger":"pdf"},
                {"query":"extract text from documents","should_trigger":"docs"},
                {"query":"bake a cake","should_trigger":null}]"#,
        )
        .unwrap_or_default();
        let report = analyze(&documents, &queries, 0.1);
        assert!(report.queries[0].correct);
        assert!(report.queries[2].correct);
        assert_eq!(report.competing.len(), 1);
        let pdf = report
            .skills
            .iter()
            .find(|s| s.name == "pdf")
            .map(|s| (s.precision, s.recall));
        assert_eq!(pdf.map(|p| p.1), Some(Some(1.0)));
    }
}
