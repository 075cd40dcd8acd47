//! `skillforge lint --format sarif` as GitHub code scanning takes it: every property GitHub documents for an
//! upload ("SARIF support for code scanning"), checked with GitHub's limits; paths relative to the
//! repository root (found by `git` itself where git is the judge) for absolute, `..`, linked, out-of-repo and
//! non-ASCII inputs; and fingerprints that survive lines inserted above and tell findings apart.

mod common;

use std::collections::{HashMap, HashSet};
use std::os::unix::ffi::OsStrExt as _;
use std::path::{Path, PathBuf};

use serde_json::Value;

fn fixtures() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../skillforge-core/tests/fixtures/lint")
}

fn sarif(dir: &Path, args: &[&str]) -> Value {
    let mut all = vec!["lint", "--format", "sarif", "--no-config"];
    all.extend_from_slice(args);
    let (code, stdout, stderr) = common::run(dir, &all);
    assert!(code == 0 || code == 1, "exit {code}: {stderr}");
    serde_json::from_str(&stdout).unwrap_or_else(|error| panic!("not JSON: {error}\n{stdout}"))
}

fn text<'a>(value: &'a Value, pointer: &str) -> &'a str {
    value.pointer(pointer).and_then(Value::as_str).unwrap_or("")
}

/// `%XX` sequences back to bytes.
fn percent_decode(text: &str) -> Vec<u8> {
    let bytes = text.as_bytes();
    let mut out = Vec::new();
    let mut at = 0;
    while at < bytes.len() {
        let hex = bytes
            .get(at + 1..at + 3)
            .and_then(|hex| std::str::from_utf8(hex).ok())
            .and_then(|hex| u8::from_str_radix(hex, 16).ok());
        match (bytes[at], hex) {
            (b'%', Some(byte)) => {
                out.push(byte);
                at += 3;
            }
            (byte, _) => {
                out.push(byte);
                at += 1;
            }
        }
    }
    out
}

fn file_uri_path(uri: &str) -> Option<PathBuf> {
    let path = uri.strip_prefix("file://")?;
    Some(PathBuf::from(std::ffi::OsStr::from_bytes(&percent_decode(
        path,
    ))))
}

/// The file a result's primary location names, resolved as GitHub's uploader resolves it.
fn resolved(run: &Value, result: &Value) -> PathBuf {
    let artifact = &result["locations"][0]["physicalLocation"]["artifactLocation"];
    let uri = text(artifact, "/uri");
    match artifact["uriBaseId"].as_str() {
        Some(base) => {
            let root = file_uri_path(text(run, &format!("/originalUriBaseIds/{base}/uri")))
                .unwrap_or_default();
            root.join(std::ffi::OsStr::from_bytes(&percent_decode(uri)))
        }
        None => file_uri_path(uri).unwrap_or_default(),
    }
}

fn is_semantic_version(version: &str) -> bool {
    let core = version.split(['-', '+']).next().unwrap_or("");
    let parts: Vec<&str> = core.split('.').collect();
    parts.len() == 3
        && parts.iter().all(|part| {
            !part.is_empty()
                && part.bytes().all(|byte| byte.is_ascii_digit())
                && (part.len() == 1 || !part.starts_with('0'))
        })
}

fn is_line_hash(hash: &str) -> bool {
    hash.split_once(':').is_some_and(|(hex, count)| {
        (1..=16).contains(&hex.len())
            && hex.bytes().all(|byte| byte.is_ascii_hexdigit())
            && count.parse::<u64>().is_ok_and(|count| count >= 1)
    })
}

/// Every way `log` falls short of what GitHub documents for an upload, one line each.
fn github_violations(log: &Value) -> Vec<String> {
    let mut problems = Vec::new();
    let mut check = |ok: bool, what: String| {
        if !ok {
            problems.push(what);
        }
    };
    check(
        !text(log, "/$schema").is_empty(),
        "$schema is required".into(),
    );
    check(
        text(log, "/version") == "2.1.0",
        "version must be 2.1.0".into(),
    );
    let runs = log["runs"].as_array().cloned().unwrap_or_default();
    check(
        (1..=20).contains(&runs.len()),
        format!("{} runs; GitHub takes 1 to 20", runs.len()),
    );
    for run in &runs {
        let driver = &run["tool"]["driver"];
        check(
            !text(driver, "/name").is_empty(),
            "tool.driver.name is required".into(),
        );
        check(
            is_semantic_version(text(driver, "/semanticVersion")),
            format!(
                "semanticVersion {:?} is not SemVer 2.0",
                driver["semanticVersion"]
            ),
        );
        let rules = driver["rules"].as_array().cloned().unwrap_or_default();
        check(
            !rules.is_empty() && rules.len() <= 25_000,
            format!("{} rules; GitHub takes at most 25 000", rules.len()),
        );
        let mut ids = HashSet::new();
        for rule in &rules {
            let id = text(rule, "/id");
            check(
                !id.is_empty() && ids.insert(id.to_string()),
                format!("rule id {id:?} empty or repeated"),
            );
            check(
                text(rule, "/name").chars().count() <= 255,
                format!("{id}: name over 255 characters"),
            );
            for field in ["shortDescription", "fullDescription"] {
                let description = text(rule, &format!("/{field}/text"));
                check(
                    !description.is_empty() && description.chars().count() <= 1024,
                    format!("{id}: {field}.text must be 1 to 1024 characters"),
                );
            }
            check(
                !text(rule, "/help/text").is_empty(),
                format!("{id}: help.text is required"),
            );
            check(
                !text(rule, "/help/markdown").is_empty(),
                format!("{id}: help.markdown is missing"),
            );
            check(
                ["note", "warning", "error"].contains(&text(rule, "/defaultConfiguration/level")),
                format!("{id}: defaultConfiguration.level must be note, warning or error"),
            );
            check(
                ["error", "warning", "recommendation"]
                    .contains(&text(rule, "/properties/problem.severity")),
                format!(
                    "{id}: properties.problem.severity must be error, warning or recommendation"
                ),
            );
            let tags = rule["properties"]["tags"]
                .as_array()
                .cloned()
                .unwrap_or_default();
            check(
                !tags.is_empty() && tags.len() <= 10 && tags.iter().all(Value::is_string),
                format!("{id}: {} tags; GitHub shows 10 of at most 20", tags.len()),
            );
        }
        let results = run["results"].as_array().cloned().unwrap_or_default();
        check(
            results.len() <= 25_000,
            format!("{} results; GitHub rejects more than 25 000", results.len()),
        );
        for (index, result) in results.iter().enumerate() {
            let id = text(result, "/ruleId");
            let at = format!("result {index} ({id})");
            check(ids.contains(id), format!("{at}: ruleId names no rule"));
            let by_index = result["ruleIndex"]
                .as_u64()
                .and_then(|rule_index| rules.get(rule_index as usize))
                .map(|rule| text(rule, "/id"));
            check(
                by_index == Some(id),
                format!("{at}: ruleIndex points at {by_index:?}"),
            );
            check(
                !text(result, "/message/text").is_empty(),
                format!("{at}: message.text is required"),
            );
            let locations = result["locations"].as_array().cloned().unwrap_or_default();
            check(
                (1..=10).contains(&locations.len()),
                format!("{at}: {} locations; GitHub wants 1 to 10", locations.len()),
            );
            let physical = &result["locations"][0]["physicalLocation"];
            let uri = text(physical, "/artifactLocation/uri");
            match physical["artifactLocation"]["uriBaseId"].as_str() {
                Some(base) => {
                    check(
                        run["originalUriBaseIds"][base]["uri"].is_string(),
                        format!("{at}: uriBaseId {base} is not in originalUriBaseIds"),
                    );
                    check(
                        !uri.is_empty()
                            && !uri.contains(':')
                            && !uri.starts_with('/')
                            && !uri.contains('\\')
                            && !uri.split('/').any(|name| name == ".." || name == "."),
                        format!("{at}: {uri:?} is not a plain path relative to the repository"),
                    );
                }
                None => check(
                    uri.starts_with("file:///"),
                    format!("{at}: {uri:?} is neither relative to a base nor an absolute file URI"),
                ),
            }
            check(
                !uri.bytes().any(|byte| byte == b' ' || !byte.is_ascii()),
                format!("{at}: {uri:?} is not percent-encoded"),
            );
            let region = &physical["region"];
            let number = |name: &str| region[name].as_u64().unwrap_or(0);
            let (start_line, start_column) = (number("startLine"), number("startColumn"));
            let (end_line, end_column) = (number("endLine"), number("endColumn"));
            check(
                start_line >= 1,
                format!("{at}: startLine must be at least 1"),
            );
            check(
                start_column >= 1,
                format!("{at}: startColumn must be at least 1"),
            );
            check(
                end_line > start_line || end_line == start_line && end_column >= start_column,
                format!("{at}: region ends before it starts"),
            );
            check(
                end_column >= 1,
                format!("{at}: endColumn must be at least 1"),
            );
            let hash = text(result, "/partialFingerprints/primaryLocationLineHash");
            check(
                is_line_hash(hash),
                format!("{at}: primaryLocationLineHash {hash:?} is not `hex:count`"),
            );
        }
        for (base, value) in run["originalUriBaseIds"]
            .as_object()
            .cloned()
            .unwrap_or_default()
        {
            let uri = text(&value, "/uri");
            check(
                uri.starts_with("file:///") && uri.ends_with('/'),
                format!(
                    "originalUriBaseIds.{base}.uri {uri:?} is not an absolute file URI ending in /"
                ),
            );
        }
    }
    problems
}

fn assert_meets_github(log: &Value) {
    let problems = github_violations(log);
    assert!(
        problems.is_empty(),
        "not what GitHub takes:\n{}",
        problems.join("\n")
    );
}

/// The repository root as git itself names it.
fn git_toplevel(dir: &Path) -> PathBuf {
    let output = std::process::Command::new("git")
        .args(["rev-parse", "--show-toplevel"])
        .current_dir(dir)
        .output()
        .unwrap_or_else(|error| panic!("git: {error}"));
    assert!(
        output.status.success(),
        "git rev-parse failed in {}",
        dir.display()
    );
    let top = String::from_utf8_lossy(&output.stdout).trim().to_string();
    std::fs::canonicalize(top).unwrap_or_else(|error| panic!("{error}"))
}

fn heading_anchors(markdown: &str) -> HashSet<String> {
    markdown
        .lines()
        .filter_map(|line| line.strip_prefix("## "))
        .map(|heading| {
            heading
                .to_lowercase()
                .chars()
                .filter(|c| c.is_alphanumeric() || *c == ' ' || *c == '-' || *c == '_')
                .map(|c| if c == ' ' { '-' } else { c })
                .collect()
        })
        .collect()
}

#[test]
fn the_whole_fixture_corpus_is_an_upload_github_takes() {
    let dir = fixtures();
    let log = sarif(&dir, &["."]);
    assert_meets_github(&log);
    let run = &log["runs"][0];
    let results = run["results"].as_array().cloned().unwrap_or_default();
    assert!(
        results.len() > 40,
        "expected findings from every fixture, got {}",
        results.len()
    );
    // The base is the repository git finds for the fixtures, and every result names a real file there.
    let root = file_uri_path(text(run, "/originalUriBaseIds/%SRCROOT%/uri")).unwrap_or_default();
    assert_eq!(root, git_toplevel(&dir));
    for result in &results {
        let file = resolved(run, result);
        assert!(file.is_file(), "{} does not exist", file.display());
        assert!(
            file.starts_with(dir.canonicalize().unwrap_or_default()),
            "{}",
            file.display()
        );
    }
    // Every rule links to its heading in docs/rules.md, under the one repository address.
    let information = text(run, "/tool/driver/informationUri");
    assert!(
        information.starts_with("https://"),
        "informationUri {information:?}"
    );
    let rules_md =
        std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join("../../docs/rules.md"))
            .unwrap_or_default();
    let anchors = heading_anchors(&rules_md);
    for rule in run["tool"]["driver"]["rules"]
        .as_array()
        .cloned()
        .unwrap_or_default()
    {
        let help = text(&rule, "/helpUri");
        let Some(anchor) = help.strip_prefix(&format!("{information}/blob/main/docs/rules.md#"))
        else {
            panic!("helpUri {help:?} is not under {information}/blob/main/docs/rules.md");
        };
        assert!(
            anchors.contains(anchor),
            "docs/rules.md has no heading #{anchor}"
        );
    }
    assert_eq!(
        text(run, "/tool/driver/semanticVersion"),
        env!("CARGO_PKG_VERSION")
    );
    // Findings are told apart: by rule and line hash (what GitHub matches on) within a file, and by
    // Skillforge's own hash.
    let mut github_keys = HashSet::new();
    let mut own_keys = HashSet::new();
    for result in &results {
        let uri = text(result, "/locations/0/physicalLocation/artifactLocation/uri").to_string();
        let rule = text(result, "/ruleId").to_string();
        let line = text(result, "/partialFingerprints/primaryLocationLineHash").to_string();
        let own = text(result, "/partialFingerprints/skillforgeFindingHash~1v1").to_string();
        assert!(is_line_hash(&own), "{own:?}");
        assert!(
            github_keys.insert((uri.clone(), rule.clone(), line)),
            "{result:#}"
        );
        assert!(own_keys.insert((uri, rule, own)), "{result:#}");
    }
}

fn write(path: &Path, text: &str) {
    if let Some(parent) = path.parent() {
        std::fs::create_dir_all(parent).unwrap_or_else(|error| panic!("{error}"));
    }
    std::fs::write(path, text).unwrap_or_else(|error| panic!("{error}"));
}

/// A repository (a `.git` folder) with a skill whose name is wrong and a link that goes nowhere.
fn repository(top: &Path, folder: &str) -> PathBuf {
    let repo = top.join("repo");
    std::fs::create_dir_all(repo.join(".git")).unwrap_or_else(|error| panic!("{error}"));
    write(
        &repo.join("skills").join(folder).join("SKILL.md"),
        "---\nname: Pdf Tools\ndescription: Extract text from PDF files. Use when the user mentions PDFs.\n---\n# Steps\n\nSee [the guide](missing.md).\n",
    );
    std::fs::canonicalize(repo).unwrap_or_else(|error| panic!("{error}"))
}

/// Each result's (resolved file, rule, message) with its region's first line and both fingerprints.
fn findings(log: &Value) -> HashMap<(PathBuf, String, String), (u64, String, String)> {
    let run = &log["runs"][0];
    let mut out = HashMap::new();
    for result in run["results"].as_array().cloned().unwrap_or_default() {
        let key = (
            resolved(run, &result),
            text(&result, "/ruleId").to_string(),
            text(&result, "/message/text").to_string(),
        );
        let value = (
            result["locations"][0]["physicalLocation"]["region"]["startLine"]
                .as_u64()
                .unwrap_or(0),
            text(&result, "/partialFingerprints/primaryLocationLineHash").to_string(),
            text(&result, "/partialFingerprints/skillforgeFindingHash~1v1").to_string(),
        );
        assert!(
            out.insert(key, value).is_none(),
            "two results alike: {result:#}"
        );
    }
    out
}

fn uris(log: &Value) -> HashSet<(String, Option<String>)> {
    log["runs"][0]["results"]
        .as_array()
        .cloned()
        .unwrap_or_default()
        .iter()
        .map(|result| {
            let artifact = &result["locations"][0]["physicalLocation"]["artifactLocation"];
            (
                text(artifact, "/uri").to_string(),
                artifact["uriBaseId"].as_str().map(str::to_string),
            )
        })
        .collect()
}

fn base(log: &Value) -> String {
    text(&log["runs"][0], "/originalUriBaseIds/%SRCROOT%/uri").to_string()
}

fn root_uri(path: &Path) -> String {
    format!("file://{}/", path.display())
}

#[test]
fn fingerprints_stay_when_lines_are_inserted_above_and_differ_between_findings() {
    let temp = tempfile::tempdir().unwrap_or_else(|error| panic!("{error}"));
    let repo = repository(temp.path(), "pdf-tools");
    let skill = repo.join("skills/pdf-tools/SKILL.md");
    let before_log = sarif(&repo, &["skills"]);
    assert_meets_github(&before_log);
    let before = findings(&before_log);
    assert!(before.len() >= 3, "{before:#?}");
    let original = std::fs::read_to_string(&skill).unwrap_or_default();
    // A comment line at the top of the frontmatter: every finding is one line lower, nothing else changes.
    write(
        &skill,
        &original.replacen("---\n", "---\n# owner: docs team\n", 1),
    );
    let after = findings(&sarif(&repo, &["skills"]));
    assert_eq!(
        before.keys().collect::<HashSet<_>>(),
        after.keys().collect::<HashSet<_>>(),
        "the same findings"
    );
    for (key, (line, line_hash, own)) in &before {
        let (moved_to, line_hash_after, own_after) = &after[key];
        assert_eq!(*moved_to, line + 1, "{key:?} moved");
        assert_eq!(
            line_hash, line_hash_after,
            "{key:?}: primaryLocationLineHash changed"
        );
        assert_eq!(own, own_after, "{key:?}: skillforgeFindingHash changed");
    }
    // Two paragraphs just above the link: the link's finding is four lines lower with the same
    // fingerprints. (GitHub's line hash reads 100 characters on from a line, so findings just above an
    // edit may change theirs; Skillforge's own hash reads only the finding's line.)
    write(
        &skill,
        &original.replace(
            "See [the guide]",
            "Open the file.\n\nRead every page.\n\nSee [the guide]",
        ),
    );
    let after = findings(&sarif(&repo, &["skills"]));
    let mut link_findings = 0;
    for (key, (line, line_hash, own)) in &before {
        let (moved_to, line_hash_after, own_after) = &after[key];
        assert_eq!(own, own_after, "{key:?}: skillforgeFindingHash changed");
        if *line >= 7 {
            link_findings += 1;
            assert_eq!(*moved_to, line + 4, "{key:?} moved");
            assert_eq!(
                line_hash, line_hash_after,
                "{key:?}: primaryLocationLineHash changed"
            );
        }
    }
    assert!(
        link_findings > 0,
        "no finding on the link line: {before:#?}"
    );
    // Different findings, different fingerprints (findings on one line differ by rule).
    let (mut line_hashes, mut own_hashes) = (HashSet::new(), HashSet::new());
    for ((_, rule, _), (_, line_hash, own)) in &after {
        assert!(
            line_hashes.insert((rule.clone(), line_hash.clone())),
            "{rule} {line_hash}"
        );
        assert!(
            own_hashes.insert((rule.clone(), own.clone())),
            "{rule} {own}"
        );
    }
}

#[test]
fn paths_are_relative_to_the_repository_however_they_are_given() {
    let temp = tempfile::tempdir().unwrap_or_else(|error| panic!("{error}"));
    let repo = repository(temp.path(), "pdf-tools");
    let expected: HashSet<(String, Option<String>)> = [(
        "skills/pdf-tools/SKILL.md".to_string(),
        Some("%SRCROOT%".to_string()),
    )]
    .into();

    // An absolute path, run from outside the repository.
    let elsewhere = temp.path().join("elsewhere");
    std::fs::create_dir_all(&elsewhere).unwrap_or_else(|error| panic!("{error}"));
    let absolute = repo.join("skills");
    let log = sarif(&elsewhere, &[absolute.to_str().unwrap_or_default()]);
    assert_meets_github(&log);
    assert_eq!(uris(&log), expected, "absolute input");
    assert_eq!(base(&log), root_uri(&repo));

    // A `..` path from a folder inside it.
    let inside = repo.join("docs");
    std::fs::create_dir_all(&inside).unwrap_or_else(|error| panic!("{error}"));
    let log = sarif(&inside, &["../skills"]);
    assert_meets_github(&log);
    assert_eq!(uris(&log), expected, "`..` input");
    assert_eq!(base(&log), root_uri(&repo));

    // A linked folder: reported where the file really is, which is what GitHub can show.
    std::os::unix::fs::symlink("../skills/pdf-tools", repo.join("docs/alias"))
        .unwrap_or_else(|error| panic!("{error}"));
    let log = sarif(&repo, &["docs/alias"]);
    assert_meets_github(&log);
    assert_eq!(uris(&log), expected, "linked input");
    // The same file reached twice (directly and through the link) is reported once.
    let once = sarif(&repo, &["skills", "docs/alias"]);
    let direct = sarif(&repo, &["skills"]);
    assert_eq!(
        findings(&once).keys().collect::<HashSet<_>>(),
        findings(&direct).keys().collect::<HashSet<_>>(),
        "one file linted through two paths"
    );
}

#[test]
fn outside_any_repository_paths_are_relative_to_the_current_folder() {
    let temp = tempfile::tempdir().unwrap_or_else(|error| panic!("{error}"));
    let plain = temp.path().join("plain");
    write(
        &plain.join("skills/Pdf Tools/SKILL.md"),
        "---\nname: Pdf Tools\ndescription: Extract text from PDF files. Use when the user mentions PDFs.\n---\n# Steps\n",
    );
    let plain = std::fs::canonicalize(&plain).unwrap_or_else(|error| panic!("{error}"));
    let log = sarif(&plain, &["skills"]);
    assert_meets_github(&log);
    assert_eq!(base(&log), root_uri(&plain));
    assert_eq!(
        uris(&log),
        [(
            "skills/Pdf%20Tools/SKILL.md".to_string(),
            Some("%SRCROOT%".to_string())
        )]
        .into()
    );
    // Run from another folder, a file outside the current one is named by its absolute URI.
    let other = temp.path().join("other");
    std::fs::create_dir_all(&other).unwrap_or_else(|error| panic!("{error}"));
    let log = sarif(&other, &[plain.join("skills").to_str().unwrap_or_default()]);
    assert_meets_github(&log);
    let run = &log["runs"][0];
    for result in run["results"].as_array().cloned().unwrap_or_default() {
        assert_eq!(
            resolved(run, &result),
            plain.join("skills/Pdf Tools/SKILL.md")
        );
        assert!(
            result["locations"][0]["physicalLocation"]["artifactLocation"]["uriBaseId"].is_null()
        );
    }
}

#[test]
fn names_with_spaces_and_non_ascii_letters_are_percent_encoded() {
    let temp = tempfile::tempdir().unwrap_or_else(|error| panic!("{error}"));
    let repo = repository(temp.path(), "Données utiles #1");
    let log = sarif(&repo, &["skills"]);
    assert_meets_github(&log);
    assert_eq!(
        uris(&log),
        [(
            "skills/Donn%C3%A9es%20utiles%20%231/SKILL.md".to_string(),
            Some("%SRCROOT%".to_string())
        )]
        .into()
    );
    let run = &log["runs"][0];
    for result in run["results"].as_array().cloned().unwrap_or_default() {
        assert_eq!(
            resolved(run, &result),
            repo.join("skills/Données utiles #1/SKILL.md")
        );
    }
}
