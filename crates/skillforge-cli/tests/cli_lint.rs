//! `skillforge lint` end to end: the real binary on the rule fixtures, full output compared with snapshots.

mod common;

use std::path::{Path, PathBuf};

fn fixtures() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../skillforge-core/tests/fixtures/lint")
}

/// Runs the binary in `dir`; returns exit code and stdout, with stderr appended when not empty.
fn run(dir: &Path, args: &[&str]) -> (i32, String) {
    let (code, mut text, stderr) = common::run(dir, args);
    if !stderr.is_empty() {
        text.push_str("--- stderr\n");
        text.push_str(&stderr);
    }
    (code, text)
}

fn snapshot(name: &str, dir: &Path, args: &[&str]) -> i32 {
    let (code, output) = run(dir, args);
    let mut settings = insta::Settings::clone_current();
    settings.set_prepend_module_to_snapshot(false);
    settings.set_snapshot_suffix("");
    settings.bind(|| {
        insta::assert_snapshot!(
            name,
            format!("$ skillforge {}\nexit {code}\n{output}", args.join(" "))
        )
    });
    code
}

#[test]
fn text_output_with_excerpts_and_summary() {
    let dir = fixtures();
    let code = snapshot(
        "cli-text",
        &dir,
        &[
            "lint",
            "plain-scalar-colon",
            "description-block-scalar",
            "unknown-field",
            "--no-config",
        ],
    );
    assert_eq!(code, 1);
}

#[test]
fn clean_skill_exits_zero() {
    let temp = tempfile::tempdir().unwrap_or_else(|error| panic!("{error}"));
    let skill = temp.path().join("pdf-tools");
    std::fs::create_dir_all(&skill).unwrap_or_else(|error| panic!("{error}"));
    std::fs::write(
        skill.join("SKILL.md"),
        "---\nname: pdf-tools\ndescription: Extract text from PDF files. Use when the user mentions PDFs.\n---\n# Steps\n",
    )
    .unwrap_or_else(|error| panic!("{error}"));
    let code = snapshot(
        "cli-clean",
        temp.path(),
        &["lint", "pdf-tools", "--no-config"],
    );
    assert_eq!(code, 0);
}

#[test]
fn warnings_only_exit_zero_and_usage_errors_exit_two() {
    let dir = fixtures();
    let (code, _) = run(
        &dir,
        &["lint", "body-too-long", "--profile", "spec", "--no-config"],
    );
    assert_eq!(code, 0);
    let (code, _) = run(&dir, &["lint", "does-not-exist"]);
    assert_eq!(code, 2);
    let (code, _) = run(&dir, &["lint", "body-too-long", "--profile", "nope"]);
    assert_eq!(code, 2);
    let (code, _) = run(&dir, &["lint", "body-too-long", "--unsafe-fixes"]);
    assert_eq!(code, 2);
}

#[test]
fn json_output_is_stable() {
    let dir = fixtures();
    snapshot(
        "cli-json",
        &dir,
        &[
            "lint",
            "name-directory-mismatch",
            "--format",
            "json",
            "--profile",
            "spec",
            "--no-config",
        ],
    );
}

#[test]
fn json_names_the_unverified_profiles_it_checked() {
    let (_, stdout, _) = common::run(
        &fixtures(),
        &[
            "lint",
            "name-directory-mismatch",
            "--format",
            "json",
            "--profile",
            "claude-upload",
            "--profile",
            "codex",
            "--no-config",
        ],
    );
    let report: serde_json::Value = match serde_json::from_str(&stdout) {
        Ok(report) => report,
        Err(error) => panic!("not JSON ({error}): {stdout}"),
    };
    assert_eq!(
        report["unverified_profiles"],
        serde_json::json!(["claude-upload"])
    );
}

#[test]
fn github_output() {
    let dir = fixtures();
    snapshot(
        "cli-github",
        &dir,
        &[
            "lint",
            "plain-scalar-colon",
            "priority-not-integer",
            "--format",
            "github",
            "--no-config",
        ],
    );
}

#[test]
fn sarif_output_validates_against_the_schema() {
    let dir = fixtures();
    let (_, output) = run(&dir, &["lint", ".", "--format", "sarif", "--no-config"]);
    let log: serde_json::Value =
        serde_json::from_str(&output).unwrap_or_else(|error| panic!("not JSON: {error}\n{output}"));
    let schema_text = std::fs::read_to_string(
        Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/schemas/sarif-2.1.0-rtm.5.json"),
    )
    .unwrap_or_else(|error| panic!("{error}"));
    // The schema's `language` pattern ends in an unescaped `]`, legal in ECMAScript but refused by Rust
    // regex engines; escaping it keeps the pattern's meaning.
    let schema_text = schema_text.replace("-[a-zA-Z]{2}]?$", r"-[a-zA-Z]{2}\\]?$");
    let schema: serde_json::Value =
        serde_json::from_str(&schema_text).unwrap_or_else(|error| panic!("{error}"));
    let validator =
        jsonschema::draft4::new(&schema).unwrap_or_else(|error| panic!("bad schema: {error}"));
    let errors: Vec<String> = validator
        .iter_errors(&log)
        .map(|error| format!("{error} at {}", error.instance_path()))
        .collect();
    assert!(
        errors.is_empty(),
        "SARIF output violates the schema:\n{}",
        errors.join("\n")
    );
    let results = log["runs"][0]["results"].as_array().map_or(0, Vec::len);
    assert!(
        results > 40,
        "expected findings from every fixture, got {results}"
    );
    let small = run(
        &dir,
        &[
            "lint",
            "name-not-lowercase",
            "--format",
            "sarif",
            "--profile",
            "spec",
            "--no-config",
        ],
    )
    .1;
    let mut settings = insta::Settings::clone_current();
    settings.set_prepend_module_to_snapshot(false);
    // The rule table is long and covered by docs/rules.md; the snapshot keeps the results.
    let mut small: serde_json::Value = serde_json::from_str(&small).unwrap_or_default();
    small["runs"][0]["tool"]["driver"]["rules"] = serde_json::Value::String("(omitted)".into());
    // The repository root is where this checkout happens to be.
    small["runs"][0]["originalUriBaseIds"]["%SRCROOT%"]["uri"] =
        serde_json::Value::String("file:///(checkout)/".into());
    settings.bind(|| insta::assert_json_snapshot!("cli-sarif", small));
}

fn copy_tree(from: &Path, to: &Path) {
    std::fs::create_dir_all(to).unwrap_or_else(|error| panic!("{error}"));
    for entry in std::fs::read_dir(from)
        .unwrap_or_else(|error| panic!("{error}"))
        .flatten()
    {
        let target = to.join(entry.file_name());
        if entry.path().is_dir() {
            copy_tree(&entry.path(), &target);
        } else {
            std::fs::copy(entry.path(), &target).unwrap_or_else(|error| panic!("{error}"));
        }
    }
}

#[test]
fn fix_rewrites_in_place_keeps_permissions_and_converges() {
    use std::os::unix::fs::PermissionsExt as _;
    let temp = tempfile::tempdir().unwrap_or_else(|error| panic!("{error}"));
    for case in [
        "plain-scalar-colon",
        "description-block-scalar",
        "crlf-line-endings",
        "byte-order-mark",
        "metadata-not-string-map",
    ] {
        copy_tree(&fixtures().join(case), &temp.path().join(case));
    }
    let colon = temp.path().join("plain-scalar-colon/pdf-tools/SKILL.md");
    std::fs::set_permissions(&colon, std::fs::Permissions::from_mode(0o640))
        .unwrap_or_else(|error| panic!("{error}"));
    let code = snapshot(
        "cli-fix",
        temp.path(),
        &[
            "lint",
            ".",
            "--fix",
            "--no-config",
            "--profile",
            "spec",
            "--profile",
            "nagents",
            "--profile",
            "claude-upload",
        ],
    );
    assert_eq!(
        code, 1,
        "metadata lists cannot be fixed automatically, so an error remains"
    );
    let mode = std::fs::metadata(&colon)
        .map(|metadata| metadata.permissions().mode() & 0o777)
        .unwrap_or(0);
    assert_eq!(mode, 0o640);
    let fixed = std::fs::read_to_string(&colon).unwrap_or_default();
    assert!(fixed
        .contains("description: \"Extract text from PDFs. Use when: the user mentions PDFs.\""));
    // A second run has nothing left to fix.
    let (_, again) = run(
        temp.path(),
        &[
            "lint",
            ".",
            "--fix",
            "--no-config",
            "--profile",
            "spec",
            "--profile",
            "nagents",
            "--profile",
            "claude-upload",
        ],
    );
    assert!(again.contains("Applied 0 fixes"), "{again}");
    let leftovers: Vec<_> = walk(temp.path())
        .into_iter()
        .filter(|path| path.to_string_lossy().ends_with(".tmp"))
        .collect();
    assert!(leftovers.is_empty(), "temporary files left: {leftovers:?}");
}

fn walk(dir: &Path) -> Vec<PathBuf> {
    let mut found = Vec::new();
    for entry in std::fs::read_dir(dir).into_iter().flatten().flatten() {
        let path = entry.path();
        if path.is_dir() {
            found.extend(walk(&path));
        } else {
            found.push(path);
        }
    }
    found
}

#[test]
fn config_selects_profiles_and_rules_and_reports_unknown_keys() {
    let temp = tempfile::tempdir().unwrap_or_else(|error| panic!("{error}"));
    copy_tree(
        &fixtures().join("name-not-lowercase/PDF-Tools"),
        &temp.path().join("skills/PDF-Tools"),
    );
    // The configuration sits at the repository's root, above the linted folder.
    std::fs::create_dir(temp.path().join(".git")).unwrap_or_else(|error| panic!("{error}"));
    std::fs::write(
        temp.path().join("skillforge.toml"),
        "profiles = [\"spec\"]\n[rules]\nSF206 = \"off\"\nname-not-lowercase = \"warning\"\n",
    )
    .unwrap_or_else(|error| panic!("{error}"));
    let code = snapshot("cli-config", temp.path(), &["lint", "skills"]);
    assert_eq!(code, 0);
    std::fs::write(
        temp.path().join("skillforge.toml"),
        "profiles = [\"spec\"]\n\n[rulez]\n",
    )
    .unwrap_or_else(|error| panic!("{error}"));
    let (code, output) = run(temp.path(), &["lint", "skills"]);
    assert_eq!(code, 2);
    assert!(output.contains("skillforge.toml:3:"), "{output}");
}

#[test]
fn schema_command_prints_the_committed_schema() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
    let (code, output) = run(&root, &["schema"]);
    assert_eq!(code, 0);
    let committed = std::fs::read_to_string(root.join("schemas/skill-frontmatter.schema.json"))
        .unwrap_or_default();
    assert_eq!(
        output, committed,
        "`skillforge schema` differs from schemas/skill-frontmatter.schema.json"
    );
}
