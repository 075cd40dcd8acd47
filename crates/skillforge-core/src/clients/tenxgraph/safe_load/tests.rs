//! Expected values below were printed by the real loader, 10xgraph 0.10.3 on PyYAML 6.0.4:
//!
//! ```text
//! .venv-peers/bin/python -c 'import sys; from tenxgraph.core.skills.loader import parse_frontmatter_yaml as p
//! fm, d = p(sys.argv[1]); print(repr(fm), [x.message for x in d])' "$YAML"
//! ```
//!
//! with `$YAML` the frontmatter text of each test (the lines between the `---` delimiters).

use super::{safe_load, LoadError};
use crate::clients::tenxgraph::pyyaml::PyValue;
use crate::clients::tenxgraph::{load, Loaded};

fn frontmatter(yaml: &str) -> String {
    format!("---\n{yaml}---\nBody\n")
}

fn reason(loaded: Loaded) -> String {
    loaded.into_result().err().unwrap_or_default()
}

fn string(text: &str) -> PyValue {
    PyValue::Str(text.to_string())
}

#[test]
fn a_flow_mapping_closed_at_column_zero_loads() {
    // {'name': 'flow-close', 'description': 'd', 'metadata': {'a': 'b'}} []
    let yaml = "name: flow-close\ndescription: d\nmetadata: {\"a\": \"b\",\n}\n";
    let loaded = load(&frontmatter(yaml));
    assert!(loaded.notes.is_empty(), "{:?}", loaded.notes);
    let skill = loaded.skill.expect("10xGraph loads it");
    assert_eq!(
        (skill.name.as_str(), skill.description.as_str()),
        ("flow-close", "d")
    );
    let value = safe_load(yaml)
        .expect("PyYAML loads it")
        .expect("a document");
    assert_eq!(
        value.get("metadata"),
        Some(&PyValue::Map(vec![(string("a"), string("b"))]))
    );
}

#[test]
fn a_sequence_as_a_flow_mapping_key_is_unhashable() {
    // None ['Invalid YAML in frontmatter: while constructing a mapping in "<unicode string>", line 3,
    // column 11: metadata: {"bins":["bc"],["touch"]} ^ found unhashable key in "<unicode string>",
    // line 3, column 26: metadata: {"bins":["bc"],["touch"]} ^']
    let yaml = "name: list-key\ndescription: d\nmetadata: {\"bins\":[\"bc\"],[\"touch\"]}\n";
    assert_eq!(
        reason(load(&frontmatter(yaml))),
        "Invalid YAML in frontmatter: while constructing a mapping in \"<unicode string>\", line 3, \
         column 11: metadata: {\"bins\":[\"bc\"],[\"touch\"]} ^ found unhashable key in \"<unicode \
         string>\", line 3, column 26: metadata: {\"bins\":[\"bc\"],[\"touch\"]} ^"
    );
}

#[test]
fn a_c1_control_character_is_refused_by_the_reader() {
    // None ['Invalid YAML in frontmatter: unacceptable character #x0080: special characters are not
    // allowed in "<unicode string>", position 23']
    let yaml = "name: c1\ndescription: d\u{80}\n";
    assert_eq!(
        reason(load(&frontmatter(yaml))),
        "Invalid YAML in frontmatter: unacceptable character #x0080: special characters are not \
         allowed in \"<unicode string>\", position 23"
    );
    // NEL (U+0085) is the one C1 character the reader allows, and PyYAML breaks lines at it:
    // {'name': 'nel', 'description': 'd e'} [] when quoted; unquoted, `e` starts a key on its own line:
    // None ['Invalid YAML in frontmatter: while scanning a simple key in "<unicode string>", line 3,
    // column 1: e ^ could not find expected ':' in "<unicode string>", line 4, column 1: ^']
    let quoted = load(&frontmatter("name: nel\ndescription: \"d\u{85}e\"\n"));
    assert_eq!(
        quoted.skill.map(|skill| skill.description),
        Some("d e".to_string())
    );
    assert_eq!(
        reason(load(&frontmatter("name: nel\ndescription: d\u{85}e\n"))),
        "Invalid YAML in frontmatter: while scanning a simple key in \"<unicode string>\", line 3, \
         column 1: e ^ could not find expected ':' in \"<unicode string>\", line 4, column 1: ^"
    );
}

#[test]
fn scanner_parser_and_constructor_errors_are_worded_as_pyyaml_words_them() {
    let cases = [
        // None ['Invalid YAML in frontmatter: while scanning for the next token found character '\t'
        // that cannot start any token in "<unicode string>", line 3, column 1: x: y ^']
        (
            "name: a\ndescription: d\n\tx: y\n",
            "while scanning for the next token found character '\\t' that cannot start any token in \
             \"<unicode string>\", line 3, column 1: x: y ^",
        ),
        // None ['Invalid YAML in frontmatter: could not determine a constructor for the tag
        // 'tag:yaml.org,2002:value' in "<unicode string>", line 2, column 14: description: = ^']
        (
            "name: a\ndescription: =\n",
            "could not determine a constructor for the tag 'tag:yaml.org,2002:value' in \"<unicode \
             string>\", line 2, column 14: description: = ^",
        ),
        // None ['Invalid YAML in frontmatter: could not determine a constructor for the tag '!custom'
        // in "<unicode string>", line 2, column 14: description: !custom d ^']
        (
            "name: a\ndescription: !custom d\n",
            "could not determine a constructor for the tag '!custom' in \"<unicode string>\", line 2, \
             column 14: description: !custom d ^",
        ),
        // None ['Invalid YAML in frontmatter: while parsing a flow sequence in "<unicode string>",
        // line 2, column 14: description: [a ^ expected ',' or ']', but got '<stream end>' in
        // "<unicode string>", line 3, column 1: ^']
        (
            "name: a\ndescription: [a\n",
            "while parsing a flow sequence in \"<unicode string>\", line 2, column 14: description: [a \
             ^ expected ',' or ']', but got '<stream end>' in \"<unicode string>\", line 3, column 1: ^",
        ),
    ];
    for (yaml, message) in cases {
        assert_eq!(
            reason(load(&frontmatter(yaml))),
            format!("Invalid YAML in frontmatter: {message}"),
            "{yaml:?}"
        );
    }
}

#[test]
fn merge_keys_and_the_non_specific_tag_resolve_as_in_pyyaml() {
    // {'description': 'merged', 'base': {'description': 'merged'}, 'name': 'a'} []
    let merged = safe_load("base: &b {description: merged}\n<<: *b\nname: a\n")
        .expect("loads")
        .expect("a document");
    assert_eq!(merged.get("description"), Some(&string("merged")));
    assert_eq!(merged.get("name"), Some(&string("a")));
    // {'name': 12, 'description': 'd'} []: `!` resolves the scalar as if it were plain.
    let tagged = safe_load("name: ! 12\ndescription: d\n")
        .expect("loads")
        .expect("a document");
    assert_eq!(tagged.get("name"), Some(&PyValue::Int(12)));
}

#[test]
fn exceptions_that_are_not_yaml_errors_are_crashes() {
    // datetime.date(2024, 13, 1) raises ValueError('month must be in 1..12'), which 10xGraph does not catch.
    assert_eq!(
        safe_load("name: a\ndescription: 2024-13-01\n"),
        Err(LoadError::Crash {
            kind: "ValueError",
            message: "month must be in 1..12".to_string()
        })
    );
}
