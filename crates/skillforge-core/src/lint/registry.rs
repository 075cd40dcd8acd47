//! The code table: every rule's `SF` code, in blocks of a hundred per group. Codes are never reused; a
//! retired rule keeps its line here, commented out, so its number stays taken.

use super::rules::{body, description, fields, frontmatter, name, suppression, workspace};
use super::Rule;

/// `(code, rule)`, grouped: 1xx frontmatter and YAML, 2xx name, 3xx description, 4xx other fields,
/// 5xx body, 6xx workspace, 9xx suppression comments.
pub static CODES: &[(&str, &Rule)] = &[
    ("SF101", &frontmatter::frontmatter_missing::RULE),
    ("SF102", &frontmatter::frontmatter_not_at_start::RULE),
    ("SF103", &frontmatter::frontmatter_unterminated::RULE),
    ("SF104", &frontmatter::frontmatter_not_mapping::RULE),
    ("SF105", &frontmatter::yaml_invalid::RULE),
    ("SF106", &frontmatter::plain_scalar_colon::RULE),
    ("SF107", &frontmatter::plain_scalar_comment::RULE),
    ("SF108", &frontmatter::flow_collection::RULE),
    ("SF109", &frontmatter::duplicate_key::RULE),
    ("SF110", &frontmatter::key_case_conflict::RULE),
    ("SF111", &frontmatter::crlf_line_endings::RULE),
    ("SF112", &frontmatter::byte_order_mark::RULE),
    ("SF113", &frontmatter::content_not_utf8::RULE),
    ("SF114", &frontmatter::cr_line_endings::RULE),
    ("SF115", &frontmatter::yaml_anchor_or_tag::RULE),
    ("SF116", &frontmatter::yaml_control_character::RULE),
    ("SF201", &name::name_missing::RULE),
    ("SF202", &name::name_too_long::RULE),
    ("SF203", &name::name_not_lowercase::RULE),
    ("SF204", &name::name_invalid_characters::RULE),
    ("SF205", &name::name_hyphen_misplaced::RULE),
    ("SF206", &name::name_directory_mismatch::RULE),
    ("SF207", &name::name_reserved_word::RULE),
    ("SF301", &description::description_missing::RULE),
    ("SF302", &description::description_too_long::RULE),
    ("SF303", &description::description_listing_truncated::RULE),
    ("SF304", &description::description_usage_cue_missing::RULE),
    ("SF305", &description::description_xml_tags::RULE),
    ("SF306", &description::description_block_scalar::RULE),
    ("SF307", &description::description_placeholder::RULE),
    ("SF401", &fields::compatibility_too_long::RULE),
    ("SF402", &fields::unknown_field::RULE),
    ("SF403", &fields::metadata_not_string_map::RULE),
    ("SF404", &fields::allowed_tools_list::RULE),
    ("SF405", &fields::user_invocable_misspelled::RULE),
    ("SF406", &fields::field_not_string::RULE),
    ("SF407", &fields::priority_not_integer::RULE),
    ("SF408", &fields::allowed_tools_unknown_tool::RULE),
    ("SF409", &fields::model_not_recognized::RULE),
    ("SF410", &fields::effort_invalid::RULE),
    ("SF411", &fields::context_not_fork::RULE),
    ("SF412", &fields::agent_without_fork::RULE),
    ("SF413", &fields::shell_unknown::RULE),
    ("SF414", &fields::hooks_invalid::RULE),
    ("SF415", &fields::invocation_flag_unrecognized::RULE),
    ("SF416", &fields::argument_placeholder_braced::RULE),
    ("SF417", &fields::argument_index_skipped::RULE),
    ("SF418", &fields::argument_hint_without_placeholder::RULE),
    ("SF419", &fields::compatibility_empty::RULE),
    ("SF501", &body::body_too_long::RULE),
    ("SF502", &body::body_too_many_tokens::RULE),
    ("SF503", &body::link_target_missing::RULE),
    ("SF504", &body::link_escapes_skill::RULE),
    ("SF601", &workspace::duplicate_skill_name::RULE),
    ("SF602", &workspace::nested_skill::RULE),
    ("SF603", &workspace::symlinked_skill::RULE),
    ("SF604", &workspace::skill_file_name_case::RULE),
    ("SF605", &workspace::lowercase_skill_file_ignored::RULE),
    ("SF606", &workspace::folder_name_refused::RULE),
    ("SF607", &workspace::client_refuses_skill::RULE),
    ("SF901", &suppression::unused_ignore_comment::RULE),
];

/// The code of a rule, by its name.
pub fn code_of(rule_name: &str) -> Option<&'static str> {
    CODES
        .iter()
        .find(|(_, rule)| rule.name == rule_name)
        .map(|(code, _)| *code)
}

/// A rule by code (`SF203`) or name (`name-not-lowercase`).
pub fn find(key: &str) -> Option<(&'static str, &'static Rule)> {
    CODES
        .iter()
        .find(|(code, rule)| code.eq_ignore_ascii_case(key) || rule.name == key)
        .map(|(code, rule)| (*code, *rule))
}

#[cfg(test)]
mod tests {
    use std::collections::HashSet;

    use super::*;

    #[test]
    fn codes_and_names_are_unique_and_grouped() {
        let mut codes = HashSet::new();
        let mut names = HashSet::new();
        let groups = [
            ("frontmatter", '1'),
            ("name", '2'),
            ("description", '3'),
            ("fields", '4'),
            ("body", '5'),
            ("workspace", '6'),
            ("suppression", '9'),
        ];
        for (code, rule) in CODES {
            assert!(codes.insert(*code), "duplicate code {code}");
            assert!(names.insert(rule.name), "duplicate rule name {}", rule.name);
            assert!(code.len() == 5 && code.starts_with("SF"), "bad code {code}");
            let block = groups
                .iter()
                .find(|(group, _)| *group == rule.group)
                .map(|(_, block)| *block);
            assert_eq!(
                code.chars().nth(2),
                block,
                "{code} is outside the block of group {}",
                rule.group
            );
            assert!(!rule.name.starts_with("no-") && !rule.name.starts_with("disallow-"));
            assert!(rule
                .name
                .bytes()
                .all(|byte| byte.is_ascii_lowercase() || byte.is_ascii_digit() || byte == b'-'));
            assert!(
                !rule.profiles.is_empty(),
                "{} belongs to no profile",
                rule.name
            );
        }
    }

    #[test]
    fn every_rule_is_documented() {
        for (code, rule) in CODES {
            for section in [
                "## What it does",
                "## Why it matters",
                "## Example",
                "## Fix",
            ] {
                assert!(
                    rule.docs.contains(section),
                    "{code} {} lacks `{section}`",
                    rule.name
                );
            }
        }
    }
}
