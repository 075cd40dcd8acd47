//! Generated files must match their sources: docs/rules.md (rule doc comments), docs/profiles.md (the
//! profile table) and schemas/skill-frontmatter.schema.json (the frontmatter types). Regenerate with
//! `SKILLFORGE_UPDATE_DOCS=1 cargo test -p skillforge-core --test lint_docs`.

use std::path::Path;

use skillforge_core::frontmatter::schema::frontmatter_schema_json;
use skillforge_core::lint::docs::{profiles_markdown, rules_markdown};

fn check_file(relative: &str, expected: &str) {
    let path = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../..")
        .join(relative);
    if std::env::var_os("SKILLFORGE_UPDATE_DOCS").is_some() {
        if let Err(error) = std::fs::write(&path, expected) {
            panic!("cannot write {}: {error}", path.display());
        }
        return;
    }
    let committed = std::fs::read_to_string(&path).unwrap_or_default();
    assert!(
        committed == expected,
        "{relative} is stale; regenerate it with `SKILLFORGE_UPDATE_DOCS=1 cargo test -p skillforge-core --test lint_docs`"
    );
}

#[test]
fn rules_doc_is_current() {
    check_file("docs/rules.md", &rules_markdown());
}

#[test]
fn profiles_doc_is_current() {
    let repo = Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
    // The case counts docs/profiles.md quotes are the minimums the fidelity suites commit to.
    let minimum_cases = |suite: &str| -> Option<u32> {
        let source = std::fs::read_to_string(repo.join(suite)).ok()?;
        source.lines().find_map(|line| {
            line.strip_prefix("MIN_CASES = ")
                .and_then(|count| count.trim().parse().ok())
        })
    };
    check_file("docs/profiles.md", &profiles_markdown(&minimum_cases));
}

#[test]
fn frontmatter_schema_is_current() {
    check_file(
        "schemas/skill-frontmatter.schema.json",
        &frontmatter_schema_json(),
    );
}
