//! The other files a user hands the CLI, in ordinary `cargo test`: every input kept under
//! tests/fixtures/fuzz/<target>/ from the cargo-fuzz targets parse_config, parse_queries and
//! parse_script is replayed with the same checks, each within a time bound.

use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use skillforge_core::agent::script::{parse_script, ScriptError};
use skillforge_core::agent::triggers::{parse_queries, QueriesError};
use skillforge_core::lint::config::{Config, ConfigError};

/// The fuzz targets time out at ten seconds; a debug build gets the same.
const TIME_LIMIT: Duration = Duration::from_secs(10);

fn kept(target: &str) -> Vec<(PathBuf, Vec<u8>)> {
    let folder = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/fixtures/fuzz")
        .join(target);
    let mut found: Vec<(PathBuf, Vec<u8>)> = std::fs::read_dir(&folder)
        .into_iter()
        .flatten()
        .flatten()
        .map(|entry| entry.path())
        .filter(|path| path.is_file())
        .map(|path| {
            let bytes = std::fs::read(&path).unwrap_or_default();
            (path, bytes)
        })
        .collect();
    found.sort();
    found
}

fn within_the_time_limit(path: &Path, check: impl FnOnce()) {
    let started = Instant::now();
    check();
    assert!(
        started.elapsed() < TIME_LIMIT,
        "{} took {:?}",
        path.display(),
        started.elapsed()
    );
}

fn check_json_position(line: usize, column: usize, text: &str) {
    let lines: Vec<&str> = text.split('\n').collect();
    assert!((1..=lines.len()).contains(&line), "line {line}");
    assert!(column <= lines[line - 1].len() + 1, "column {column}");
}

/// As the parse_config target: the text up to a NUL byte, then one path per line.
#[test]
fn kept_configurations_parse_and_match_in_bounded_time() {
    for (path, bytes) in kept("parse_config") {
        within_the_time_limit(&path, || {
            let (text, rest) = match bytes.iter().position(|&byte| byte == 0) {
                Some(at) => (&bytes[..at], &bytes[at + 1..]),
                None => (&bytes[..], &[][..]),
            };
            let text = String::from_utf8_lossy(text);
            match Config::parse(&text, Path::new("/fuzz/skillforge.toml")) {
                Ok(config) => {
                    for line in String::from_utf8_lossy(rest).split('\n') {
                        config.is_ignored(&Path::new("/fuzz").join(line));
                    }
                }
                Err(ConfigError::Invalid { line, .. }) => {
                    assert!((1..=text.matches('\n').count() + 1).contains(&line));
                }
                Err(error) => panic!("{}: {error}", path.display()),
            }
        });
    }
}

#[test]
fn kept_queries_parse_in_bounded_time() {
    for (path, bytes) in kept("parse_queries") {
        within_the_time_limit(&path, || {
            let text = String::from_utf8_lossy(&bytes);
            match parse_queries(&text) {
                Ok(queries) => {
                    let written = serde_json::to_string(&queries).unwrap_or_default();
                    assert_eq!(parse_queries(&written).ok(), Some(queries));
                }
                Err(QueriesError::Json(error)) => {
                    check_json_position(error.line(), error.column(), &text)
                }
            }
        });
    }
}

#[test]
fn kept_scripts_parse_in_bounded_time() {
    for (path, bytes) in kept("parse_script") {
        within_the_time_limit(&path, || {
            let text = String::from_utf8_lossy(&bytes);
            match parse_script(&text) {
                Ok(_) => {}
                Err(ScriptError::Json(error)) => {
                    check_json_position(error.line(), error.column(), &text)
                }
                Err(ScriptError::Shape { step } | ScriptError::Argument { step, .. }) => {
                    let items = serde_json::from_str::<Vec<serde_json::Value>>(&text)
                        .map(|items| items.len());
                    assert!(items.is_ok_and(|count| (1..=count).contains(&step)));
                }
            }
        });
    }
}
