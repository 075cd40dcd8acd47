//! Any text as the model script of `skillforge simulate --model script:FILE`, then a 10xGraph
//! simulation that follows it against one in-memory skill. Parsing must neither panic nor hang, a JSON
//! error must point at a line and column inside the text, a step error must name a step the script
//! has, and the simulation must stop within its round limit.
#![no_main]

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

mod common;

use common::check_position;
use libfuzzer_sys::fuzz_target;
use skillforge_core::clients::tenxgraph::registry::{Registry, ScannedDir};
use skillforge_core::agent::script::{parse_script, ScriptError};
use skillforge_core::agent::{simulate_tenxgraph, Dialect, MockModel, SimulateOptions};

/// A folder that does not exist: resource reads find nothing, so runs are reproducible.
const SKILL_DIR: &str = "/nonexistent-fuzz-root/pdf-tools";
const SKILL: &str = "---\nname: pdf-tools\ndescription: Extract text from PDF files. Use when PDFs come up.\n---\n# PDF tools\n\nSee [forms](forms.md).\n";

fn registry() -> Registry {
    let dir = Path::new(SKILL_DIR);
    let scanned = [ScannedDir::from_text(dir, SKILL)];
    let texts = BTreeMap::from([(PathBuf::from(SKILL_DIR), SKILL.to_string())]);
    Registry::from_scan(&scanned, texts)
}

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    let steps = match parse_script(text) {
        Ok(steps) => steps,
        Err(ScriptError::Json(error)) => {
            check_position(error.line(), error.column(), text);
            return;
        }
        Err(ScriptError::Shape { step } | ScriptError::Argument { step, .. }) => {
            // The text is a JSON list (it got past the JSON error), so the step must be one of its items.
            let items =
                serde_json::from_str::<Vec<serde_json::Value>>(text).map(|items| items.len());
            assert!(
                items.is_ok_and(|count| (1..=count).contains(&step)),
                "step {step}"
            );
            return;
        }
    };
    let count = serde_json::from_str::<Vec<serde_json::Value>>(text).map(|items| items.len());
    assert_eq!(count.ok(), Some(steps.len()));

    let mut options = SimulateOptions::new(
        vec![PathBuf::from("/nonexistent-fuzz-root")],
        "fill this PDF form",
    );
    options.dialect = Dialect::Tenxgraph;
    options.max_rounds = 8;
    options.model = MockModel::Script(steps);
    let transcript = simulate_tenxgraph(&options, &registry());
    assert!(
        transcript.rounds.len() <= options.max_rounds,
        "{} rounds",
        transcript.rounds.len()
    );
});
