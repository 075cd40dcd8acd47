//! The router's `--threshold` in `skillforge simulate` and `skillforge triggers`: the real binary on
//! the activation fixtures.

mod common;

use std::path::{Path, PathBuf};

fn fixtures() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../tests/fixtures/activation")
}

fn run(args: &[&str]) -> (i32, String, String) {
    common::run(&fixtures(), args)
}

fn chosen(stdout: &str) -> serde_json::Value {
    let transcript: serde_json::Value = serde_json::from_str(stdout).unwrap_or_default();
    transcript["transcript"]["router"]["chosen"].clone()
}

#[test]
fn a_threshold_above_every_score_leaves_the_message_unrouted() {
    let message = "pull the tables out of this PDF";
    let base = [
        "simulate", "skills", "--model", "router", "--format", "json",
    ];
    let (code, stdout, stderr) = run(&[&base[..], &["--message", message]].concat());
    assert_eq!(code, 0, "{stderr}");
    assert_eq!(chosen(&stdout), "alpha");

    let (code, stdout, stderr) =
        run(&[&base[..], &["--message", message, "--threshold", "1000"]].concat());
    assert_eq!(code, 0, "{stderr}");
    assert_eq!(chosen(&stdout), serde_json::Value::Null);
}

#[test]
fn thresholds_the_router_cannot_use_are_usage_errors() {
    for bad in ["-1", "NaN", "inf", "half"] {
        let (code, stdout, stderr) = run(&[
            "triggers",
            "skills",
            "--queries",
            "queries.json",
            &format!("--threshold={bad}"),
        ]);
        assert_eq!(code, 2, "{bad}: {stdout}{stderr}");
        assert!(stderr.contains("--threshold"), "{bad}: {stderr}");
    }
}
