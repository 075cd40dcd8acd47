//! Any text as a `skillforge.toml`, then paths checked against its `ignore` globs. Parsing must neither
//! panic nor hang, an error must name the file and a line inside the text, and a configuration that
//! parses must parse the same after the TOML is written back out.
//!
//! Input: the configuration text, then optionally a NUL byte and one path per line (relative to the
//! configuration's folder).
#![no_main]

use std::path::{Path, PathBuf};

use libfuzzer_sys::fuzz_target;
use skillforge_core::lint::config::{Config, ConfigError};
use skillforge_core::lint::registry::CODES;

const LABEL: &str = "/fuzz/skillforge.toml";
/// Enough paths to exercise the matcher; more only slow each run.
const MOST_PATHS: usize = 16;

fn paths(data: &[u8]) -> Vec<PathBuf> {
    let root = Path::new("/fuzz");
    let listed: Vec<PathBuf> = String::from_utf8_lossy(data)
        .split('\n')
        .take(MOST_PATHS)
        .map(|path| root.join(path))
        .collect();
    if listed.is_empty() {
        [
            "skills/a/SKILL.md",
            "vendor/x/y/SKILL.md",
            "draft-1/SKILL.md",
        ]
        .iter()
        .map(|path| root.join(path))
        .collect()
    } else {
        listed
    }
}

fn check_error(error: &ConfigError, text: &str) {
    match error {
        ConfigError::Invalid { path, line, .. } => {
            assert_eq!(path, LABEL);
            let lines = text.matches('\n').count() + 1;
            assert!(
                (1..=lines).contains(line),
                "line {line} of {lines}: {error}"
            );
        }
        ConfigError::Read(_) | ConfigError::Outside { .. } | ConfigError::NotAConfig { .. } => {
            panic!("parsing text reported a file error: {error}")
        }
    }
}

/// What a configuration decides, for comparing two of them.
fn decisions(config: &Config, paths: &[PathBuf]) -> (Vec<String>, Vec<String>, Vec<bool>) {
    let profiles = config
        .profiles
        .iter()
        .map(|id| id.as_str().to_string())
        .collect();
    let rules = CODES
        .iter()
        .map(|(code, _)| format!("{code}={:?}", config.rule_setting(code, "")))
        .collect();
    let ignored = paths.iter().map(|path| config.is_ignored(path)).collect();
    (profiles, rules, ignored)
}

fuzz_target!(|data: &[u8]| {
    let (text, rest) = match data.iter().position(|&byte| byte == 0) {
        Some(at) => (&data[..at], &data[at + 1..]),
        None => (data, &[][..]),
    };
    let Ok(text) = std::str::from_utf8(text) else {
        return;
    };
    let paths = paths(rest);
    let config = match Config::parse(text, Path::new(LABEL)) {
        Ok(config) => config,
        Err(error) => {
            check_error(&error, text);
            return;
        }
    };
    assert_eq!(config.root.as_deref(), Some(Path::new("/fuzz")));
    let first = decisions(&config, &paths);

    // Round trip: the same document written out by the TOML library must configure the same.
    let Ok(table) = text.parse::<toml::Table>() else {
        panic!("the configuration parsed but is not a TOML table: {text:?}");
    };
    let Ok(written) = toml::to_string(&table) else {
        return;
    };
    match Config::parse(&written, Path::new(LABEL)) {
        Ok(again) => assert_eq!(first, decisions(&again, &paths), "{written:?}"),
        Err(error) => {
            panic!("{text:?} parsed, but written back as {written:?} it does not: {error}")
        }
    }
});
