//! `--format sarif`: SARIF 2.1.0 with what GitHub code scanning uses (docs/lint-output.md): paths relative
//! to the repository root under the `%SRCROOT%` base, a `primaryLocationLineHash` per result computed as
//! GitHub's own uploader computes it, rule help and links to the rule's documentation.

use std::collections::HashMap;
use std::os::unix::ffi::OsStrExt as _;
use std::path::{Path, PathBuf};

use serde_json::{json, Value};
use sha2::{Digest as _, Sha256};
use skillforge_core::lint::context::SkillFile;
use skillforge_core::lint::registry::CODES;
use skillforge_core::lint::workspace::FileReport;
use skillforge_core::lint::{Diagnostic, Rule, Severity};

/// Where the project lives; `informationUri`, and the base of every rule's `helpUri`.
use skillforge_core::lint::docs::REPOSITORY;
/// The base id of the repository root, the name GitHub's documentation and CodeQL use.
pub const SOURCE_ROOT: &str = "%SRCROOT%";
/// GitHub rejects a run with more results than this.
const GITHUB_RESULTS_PER_RUN: usize = 25_000;
/// GitHub shows the first 1024 characters of a rule's short and full description.
const GITHUB_DESCRIPTION_CHARS: usize = 1024;

fn level(severity: Severity) -> &'static str {
    match severity {
        Severity::Error => "error",
        Severity::Warning => "warning",
        Severity::Info => "note",
    }
}

/// The link to a rule's section of docs/rules.md (headings `## SF203 name-not-lowercase`).
pub fn help_uri(code: &str, rule: &Rule) -> String {
    skillforge_core::lint::docs::rule_uri(code, rule)
}

/// The rule's documentation as docs/rules.md shows it: sections `## What it does`, `## Why it matters`, …
fn documentation(rule: &Rule) -> String {
    rule.docs
        .lines()
        .map(|line| line.strip_prefix(' ').unwrap_or(line))
        .collect::<Vec<_>>()
        .join("\n")
        .trim()
        .to_string()
}

/// The prose of one section of the documentation, its lines joined into one paragraph.
fn section(documentation: &str, heading: &str) -> String {
    documentation
        .lines()
        .skip_while(|line| line.trim() != format!("## {heading}"))
        .skip(1)
        .take_while(|line| !line.starts_with("## "))
        .map(str::trim)
        .filter(|line| !line.is_empty())
        .collect::<Vec<_>>()
        .join(" ")
}

/// At most `limit` characters, cut at a word with `…` when longer.
fn at_most(text: &str, limit: usize) -> String {
    if text.chars().count() <= limit {
        return text.to_string();
    }
    let cut: String = text.chars().take(limit - 1).collect();
    let cut = cut.rsplit_once(' ').map_or(cut.as_str(), |(head, _)| head);
    format!("{cut}…")
}

/// The first sentence of a paragraph.
fn first_sentence(paragraph: &str) -> &str {
    paragraph
        .find(". ")
        .map_or(paragraph, |end| &paragraph[..=end])
}

fn rule_descriptor(code: &str, rule: &Rule) -> Value {
    let documentation = documentation(rule);
    let what = section(&documentation, "What it does");
    let why = section(&documentation, "Why it matters");
    let short = if what.is_empty() {
        rule.name.to_string()
    } else {
        first_sentence(&what).to_string()
    };
    let full = [what.as_str(), why.as_str()]
        .iter()
        .filter(|part| !part.is_empty())
        .copied()
        .collect::<Vec<_>>()
        .join(" ");
    let full = if full.is_empty() { short.clone() } else { full };
    // Tags filter alerts on GitHub: the rule's group and the client profiles it speaks for (at most 9 of
    // GitHub's 20, within the 10 it shows).
    let mut tags = vec![rule.group.to_string()];
    tags.extend(
        rule.profiles
            .iter()
            .map(|profile| profile.as_str().to_string()),
    );
    json!({
        "id": code,
        "name": rule.name,
        "shortDescription": { "text": at_most(&short, GITHUB_DESCRIPTION_CHARS) },
        "fullDescription": { "text": at_most(&full, GITHUB_DESCRIPTION_CHARS) },
        "help": { "text": documentation, "markdown": documentation },
        "helpUri": help_uri(code, rule),
        "defaultConfiguration": { "level": level(rule.severity) },
        "properties": {
            "tags": tags,
            "problem.severity": match rule.severity {
                Severity::Error => "error",
                Severity::Warning => "warning",
                Severity::Info => "recommendation",
            },
            "profiles": rule.profiles,
            "fix": rule.fix.as_str(),
        },
    })
}

/// Percent-encodes one path name for a URI: unreserved characters stay, every other byte (UTF-8 of a
/// non-ASCII name, a space, `%`, `#`, `?`, …) becomes `%XX`.
fn encode_name(name: &[u8], out: &mut String) {
    for &byte in name {
        match byte {
            b'A'..=b'Z' | b'a'..=b'z' | b'0'..=b'9' | b'-' | b'.' | b'_' | b'~' => {
                out.push(byte as char)
            }
            other => out.push_str(&format!("%{other:02X}")),
        }
    }
}

/// A relative URI reference for a relative path: its names encoded, joined by `/`.
pub fn relative_uri(path: &Path) -> String {
    let mut out = String::new();
    for (index, component) in path.components().enumerate() {
        if index > 0 {
            out.push('/');
        }
        encode_name(component.as_os_str().as_bytes(), &mut out);
    }
    out
}

/// The `file://` URI of an absolute path; a folder's ends in `/`.
pub fn file_uri(path: &Path, folder: bool) -> String {
    let mut out = String::from("file://");
    for component in path.components().skip(1) {
        out.push('/');
        encode_name(component.as_os_str().as_bytes(), &mut out);
    }
    if folder || out.len() == "file://".len() {
        out.push('/');
    }
    out
}

/// Where a linted file really is: read below its boundary with every link resolved, which is what GitHub
/// can match against the repository (it cannot show a result reported at a symbolic link).
fn real_path(file: &SkillFile) -> PathBuf {
    match &file.origin {
        Some(origin) => origin
            .names
            .iter()
            .fold(origin.boundary.clone(), |path, name| path.join(name)),
        None => std::path::absolute(&file.path).unwrap_or_else(|_| file.path.clone()),
    }
}

/// The folder results are relative to: the repository that holds the (first) linted file, else the
/// current folder. `None` only when neither can be found.
fn source_root(paths: &[PathBuf]) -> Option<PathBuf> {
    paths
        .iter()
        .find_map(|path| {
            let folder = path.parent()?;
            skillforge_core::fs::roots::enclosing_repository(folder)
        })
        .or_else(|| std::env::current_dir().and_then(std::fs::canonicalize).ok())
}

/// GitHub's `primaryLocationLineHash` for every line of a text, in line order (the first is line 1), as
/// the `upload-sarif` action computes it (github/codeql-action `src/fingerprints.ts`): a rolling hash over
/// the 100 characters (UTF-16 units, spaces and tabs left out, line ends as `\n`) from each line's start,
/// and how many lines before had the same hash. Giving the same value it would compute keeps the action
/// from warning about an "inconsistent fingerprint", and keeps an alert matched when lines move.
pub fn line_hashes(text: &str) -> Vec<String> {
    const BLOCK: usize = 100;
    const MULTIPLIER: u64 = 37;
    const END: u64 = 65535;
    let first_multiplier = (0..BLOCK).fold(1u64, |product, _| product.wrapping_mul(MULTIPLIER));
    let mut window = [0u64; BLOCK];
    let mut line_at: [Option<usize>; BLOCK] = [None; BLOCK];
    let mut hash = 0u64;
    let mut index = 0;
    let mut line = 0usize;
    let mut line_start = true;
    let mut previous_cr = false;
    let mut seen: HashMap<u64, usize> = HashMap::new();
    let mut hashes: Vec<(usize, String)> = Vec::new();
    let mut emit = |hash: u64, line: usize, hashes: &mut Vec<(usize, String)>| {
        let count = seen.entry(hash).or_insert(0);
        *count += 1;
        hashes.push((line, format!("{hash:x}:{count}")));
    };
    let update = |current: u64, hash: &mut u64, index: &mut usize, window: &mut [u64; BLOCK]| {
        let leaving = window[*index];
        window[*index] = current;
        *hash = MULTIPLIER
            .wrapping_mul(*hash)
            .wrapping_add(current)
            .wrapping_sub(first_multiplier.wrapping_mul(leaving));
        *index = (*index + 1) % BLOCK;
    };
    let units = text.encode_utf16().map(u64::from).chain([END]);
    for mut current in units {
        if current == u64::from(b' ')
            || current == u64::from(b'\t')
            || (previous_cr && current == u64::from(b'\n'))
        {
            previous_cr = false;
            continue;
        }
        previous_cr = current == u64::from(b'\r');
        if previous_cr {
            current = u64::from(b'\n');
        }
        if let Some(done) = line_at[index].take() {
            emit(hash, done, &mut hashes);
        }
        if line_start {
            line_start = false;
            line += 1;
            line_at[index] = Some(line);
        }
        if current == u64::from(b'\n') {
            line_start = true;
        }
        update(current, &mut hash, &mut index, &mut window);
    }
    for _ in 0..BLOCK {
        if let Some(done) = line_at[index].take() {
            emit(hash, done, &mut hashes);
        }
        update(0, &mut hash, &mut index, &mut window);
    }
    hashes.sort_by_key(|(line, _)| *line);
    hashes.into_iter().map(|(_, hash)| hash).collect()
}

/// A line's text with its runs of white space made one space, so re-indenting does not change it.
fn normalized(text: &str) -> String {
    text.split_whitespace().collect::<Vec<_>>().join(" ")
}

/// Skillforge's own identity of a finding, independent of where it is: the rule, the text of its first line
/// and what it flags on that line, and how many findings before it in the file had all three the same.
fn finding_hash(
    source: &str,
    diagnostic: &Diagnostic,
    seen: &mut HashMap<String, usize>,
) -> String {
    let start = diagnostic.range.start().min(source.len());
    let line_start = source[..start].rfind(['\n', '\r']).map_or(0, |at| at + 1);
    let line_end = source[start..]
        .find(['\n', '\r'])
        .map_or(source.len(), |at| start + at);
    let flagged_end = diagnostic.range.end().clamp(start, line_end);
    let line = source.get(line_start..line_end).unwrap_or("");
    let flagged = source.get(start..flagged_end).unwrap_or("");
    let mut digest = Sha256::new();
    for part in [
        diagnostic.code.as_str(),
        &normalized(line),
        &normalized(flagged),
    ] {
        digest.update(part.as_bytes());
        digest.update([0]);
    }
    let hex: String = digest.finalize()[..8]
        .iter()
        .map(|byte| format!("{byte:02x}"))
        .collect();
    let count = seen.entry(hex.clone()).or_insert(0);
    *count += 1;
    format!("{hex}:{count}")
}

/// The SARIF log of a lint run; `files` are the linted files, in the order of `reports`.
pub fn report(reports: &[FileReport], files: &[SkillFile]) -> anyhow::Result<String> {
    let rules: Vec<Value> = CODES
        .iter()
        .map(|(code, rule)| rule_descriptor(code, rule))
        .collect();
    let real_paths: Vec<PathBuf> = files.iter().map(real_path).collect();
    let root = source_root(&real_paths);
    // A file under the root is given relative to it; another (a second repository) by its absolute URI.
    let location_of = |path: &Path| -> Value {
        match root
            .as_deref()
            .and_then(|root| path.strip_prefix(root).ok())
        {
            Some(relative) => json!({ "uri": relative_uri(relative), "uriBaseId": SOURCE_ROOT }),
            None => json!({ "uri": file_uri(path, false) }),
        }
    };
    let mut results = Vec::new();
    // One file linted twice (through a linked folder) is one file to GitHub: its results are given once.
    let mut given = std::collections::HashSet::new();
    for ((report, file), path) in reports.iter().zip(files).zip(&real_paths) {
        let artifact = location_of(path);
        let hashes = line_hashes(&file.source);
        let mut seen = HashMap::new();
        // GitHub tells alerts apart by rule and `primaryLocationLineHash` alone, so a rule's second finding
        // on one line gets Skillforge's own hash there instead (the uploader then warns about that one).
        let mut line_hashes_given = std::collections::HashSet::new();
        for diagnostic in &report.diagnostics {
            let start = diagnostic.span.start;
            let end = diagnostic.span.end;
            let key = (
                path.clone(),
                diagnostic.code.clone(),
                diagnostic.message.clone(),
                diagnostic.range,
            );
            if !given.insert(key) {
                continue;
            }
            let Some(rule_index) = CODES.iter().position(|(code, _)| *code == diagnostic.code)
            else {
                anyhow::bail!("{}: no rule has the code {}", report.path, diagnostic.code);
            };
            let finding = finding_hash(&file.source, diagnostic, &mut seen);
            let line_hash = hashes
                .get((start.line as usize).saturating_sub(1))
                .cloned()
                .unwrap_or_default();
            let line_hash =
                if line_hashes_given.insert((diagnostic.code.clone(), line_hash.clone())) {
                    line_hash
                } else {
                    finding.clone()
                };
            let mut result = json!({
                "ruleId": diagnostic.code,
                "ruleIndex": rule_index,
                "level": level(diagnostic.severity),
                "message": { "text": diagnostic.message },
                "locations": [{
                    "physicalLocation": {
                        "artifactLocation": artifact,
                        "region": {
                            "startLine": start.line,
                            "startColumn": start.column_utf16,
                            "endLine": end.line,
                            "endColumn": end.column_utf16,
                        }
                    }
                }],
                "partialFingerprints": {
                    "primaryLocationLineHash": line_hash,
                    "skillforgeFindingHash/v1": finding,
                },
                "properties": { "profiles": diagnostic.profiles },
            });
            // A fix that only creates a file (a missing link target) changes no text: SARIF has no replacement
            // to carry, and the description alone is in the message's place already.
            if let Some(fix) = diagnostic.fix.as_ref().filter(|fix| !fix.edits.is_empty()) {
                result["fixes"] = json!([{
                    "description": { "text": fix.title },
                    "artifactChanges": [{
                        "artifactLocation": artifact,
                        "replacements": fix.edits.iter().map(|edit| json!({
                            "deletedRegion": { "byteOffset": edit.range.start, "byteLength": edit.range.len() },
                            "insertedContent": { "text": edit.replacement },
                        })).collect::<Vec<_>>(),
                    }],
                }]);
            }
            results.push(result);
        }
    }
    if results.len() > GITHUB_RESULTS_PER_RUN {
        eprintln!(
            "warning: {} results; GitHub code scanning rejects a SARIF run with more than {GITHUB_RESULTS_PER_RUN}",
            results.len()
        );
    }
    let mut run = json!({
        "tool": {
            "driver": {
                "name": "skillforge",
                "version": env!("CARGO_PKG_VERSION"),
                "semanticVersion": env!("CARGO_PKG_VERSION"),
                "informationUri": REPOSITORY,
                "rules": rules,
            }
        },
        // Columns are UTF-16 code units, SARIF's default, stated so no reader has to guess.
        "columnKind": "utf16CodeUnits",
        "results": results,
    });
    if let Some(root) = &root {
        run["originalUriBaseIds"] = json!({
            SOURCE_ROOT: {
                "uri": file_uri(root, true),
                "description": { "text": "The repository that holds the linted files, else the folder skillforge ran in." },
            }
        });
    }
    let value = json!({
        "$schema": "https://json.schemastore.org/sarif-2.1.0.json",
        "version": "2.1.0",
        "runs": [run],
    });
    Ok(serde_json::to_string_pretty(&value)? + "\n")
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The expected hashes are those of github/codeql-action's own test (`src/fingerprints.test.ts`,
    /// test `hash`), computed by the action: a port that differs anywhere fails here.
    #[test]
    fn line_hashes_match_the_codeql_action() {
        let cases: &[(&str, &[&str])] = &[
            ("", &["c129715d7a2bc9a3:1"]),
            (
                " a\nb\n  \t\tc\n d",
                &[
                    "271789c17abda88f:1",
                    "54703d4cd895b18:1",
                    "180aee12dab6264:1",
                    "a23a3dc5e078b07b:1",
                ],
            ),
            (
                " hello; \t\nworld!!!\n\n\n  \t\tGreetings\n End",
                &[
                    "8b7cf3e952e7aeb2:1",
                    "b1ae1287ec4718d9:1",
                    "bff680108adb0fcc:1",
                    "c6805c5e1288b612:1",
                    "b86d3392aea1be30:1",
                    "e6ceba753e1a442:1",
                ],
            ),
        ];
        let ended: &[&str] = &[
            "e9496ae3ebfced30:1",
            "fb7c023a8b9ccb3f:1",
            "ce8ba1a563dcdaca:1",
            "e20e36e16fcb0cc8:1",
            "b3edc88f2938467e:1",
            "c8e28b0b4002a3a0:1",
            "c129715d7a2bc9a3:1",
        ];
        let endings = [
            " hello; \t\nworld!!!\n\n\n  \t\tGreetings\n End\n",
            " hello; \t\nworld!!!\r\r\r  \t\tGreetings\r End\r",
            " hello; \t\r\nworld!!!\r\n\r\n\r\n  \t\tGreetings\r\n End\r\n",
            " hello; \t\nworld!!!\r\n\n\r  \t\tGreetings\r End\r\n",
        ];
        let repeated = "Lorem ipsum dolor sit amet.\n".repeat(10);
        let repeated_hashes: &[&str] = &[
            "a7f2ff13bc495cf2:1",
            "a7f2ff13bc495cf2:2",
            "a7f2ff13bc495cf2:3",
            "a7f2ff13bc495cf2:4",
            "a7f2ff13bc495cf2:5",
            "a7f2ff13bc495cf2:6",
            "a7f2ff1481e87703:1",
            "a9cf91f7bbf1862b:1",
            "55ec222b86bcae53:1",
            "cc97dc7b1d7d8f7b:1",
            "c129715d7a2bc9a3:1",
        ];
        let all = cases
            .iter()
            .copied()
            .chain(endings.iter().map(|text| (*text, ended)))
            .chain([(repeated.as_str(), repeated_hashes)]);
        for (text, expected) in all {
            assert_eq!(line_hashes(text), *expected, "{text:?}");
        }
    }

    #[test]
    fn uris_encode_every_reserved_byte() {
        assert_eq!(
            relative_uri(Path::new("skills/Données utiles/a#b?c%d/SKILL.md")),
            "skills/Donn%C3%A9es%20utiles/a%23b%3Fc%25d/SKILL.md"
        );
        assert_eq!(file_uri(Path::new("/"), true), "file:///");
        assert_eq!(
            file_uri(Path::new("/home/me/my repo"), true),
            "file:///home/me/my%20repo/"
        );
    }
}
