//! Any text as the queries file of `skillforge triggers --queries`, then the trigger analysis over a
//! small fixed catalog. Parsing must neither panic nor hang, an error must point at a line and column
//! inside the text, queries that parse must parse the same after being written out again, and the
//! analysis must report every query once with scores that are numbers.
#![no_main]

mod common;

use common::check_position;
use libfuzzer_sys::fuzz_target;
use skillforge_core::agent::evals::render_trigger_evals;
use skillforge_core::agent::router::{RouterDocument, DEFAULT_THRESHOLD};
use skillforge_core::agent::triggers::{analyze, parse_queries, QueriesError};

fn documents() -> Vec<RouterDocument> {
    vec![
        RouterDocument {
            name: "pdf-tools".into(),
            description: "Extract text and tables from PDF files. Use when the user mentions PDFs."
                .into(),
            triggers: vec!["pdf".into(), "form".into()],
        },
        RouterDocument {
            name: "sql".into(),
            description: "Write and review SQL queries.".into(),
            triggers: vec![],
        },
    ]
}

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    let queries = match parse_queries(text) {
        Ok(queries) => queries,
        Err(QueriesError::Json(error)) => {
            check_position(error.line(), error.column(), text);
            return;
        }
    };
    let written = serde_json::to_string(&queries).unwrap_or_default();
    match parse_queries(&written) {
        Ok(again) => assert_eq!(queries, again),
        Err(error) => panic!("{written:?} does not parse again: {error}"),
    }
    let saved = render_trigger_evals("pdf-tools", &queries);
    assert!(
        serde_json::from_str::<serde_json::Value>(&saved).is_ok(),
        "{saved:?}"
    );

    let report = analyze(&documents(), &queries, DEFAULT_THRESHOLD);
    assert_eq!(report.queries.len(), queries.len());
    for result in &report.queries {
        assert!(
            result.ranking.iter().all(|score| score.score.is_finite()),
            "{result:?}"
        );
        assert_eq!(result.correct, result.predicted == result.expected);
    }
    for skill in &report.skills {
        for ratio in [skill.precision, skill.recall].into_iter().flatten() {
            assert!((0.0..=1.0).contains(&ratio), "{skill:?}");
        }
    }
});
