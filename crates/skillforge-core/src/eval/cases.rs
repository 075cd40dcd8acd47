//! The queries of a trigger eval, read from the files authors already have, written back in either
//! layout, and split into a train and a test half.
//!
//! Three layouts are read, each as a JSON document:
//! - a list of `{"query", "should_trigger": true | false}` — skill-creator's trigger eval set and the
//!   agentskills.io `evals/evals.json` beside a skill (`true` means "this skill"); Skillforge adds an
//!   `"expected_skill"` field to a `false` row that should trigger another skill;
//! - a list of `{"query", "should_trigger": "name" | null}` — Skillforge's workspace trigger table, which
//!   names the skill a query should trigger across the workspace;
//! - an object `{"skill_name", "evals": [{"prompt", …}]}` — skill-creator's task evals: every prompt is a
//!   request the skill is for, so each should trigger it (`should_trigger` may say otherwise per row).

use serde::{Deserialize, Serialize};
use serde_json::Value;

use crate::agent::evals::EXPECTED_SKILL_FIELD;

/// What a query should do, seen from the skill under test.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
#[serde(tag = "kind", content = "skill", rename_all = "kebab-case")]
pub enum Expect {
    /// Trigger the skill under test.
    This,
    /// Trigger this other skill instead.
    Other(String),
    /// Trigger no skill at all.
    Nothing,
    /// Not trigger the skill under test; the file does not say whether another skill should.
    NotThis,
}

impl Expect {
    pub fn wants_this(&self) -> bool {
        matches!(self, Expect::This)
    }

    /// Whether a run in which `fired` was the skill used (none when `None`) is what this expectation
    /// asks of the skill under test `this`.
    pub fn passed_by(&self, this: &str, fired: Option<&str>) -> bool {
        match self {
            Expect::This => fired == Some(this),
            Expect::Other(_) | Expect::Nothing | Expect::NotThis => fired != Some(this),
        }
    }

    /// The skill the query should trigger, when the file says which.
    pub fn expected_skill<'a>(&'a self, this: &'a str) -> Option<&'a str> {
        match self {
            Expect::This => Some(this),
            Expect::Other(other) => Some(other),
            Expect::Nothing | Expect::NotThis => None,
        }
    }
}

/// One query of the eval.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
pub struct Case {
    pub query: String,
    pub expect: Expect,
}

/// The layouts queries are written in.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
#[serde(rename_all = "kebab-case")]
pub enum Layout {
    /// `[{"query", "should_trigger": bool}]` with `expected_skill` on rows for another skill
    /// (`evals/evals.json` beside a skill).
    EvalsJson,
    /// `[{"query", "should_trigger": bool}]` and nothing else (skill-creator's trigger eval set).
    SkillCreator,
    /// `[{"query", "should_trigger": "name" | null}]` (the workspace trigger table).
    Workspace,
}

/// Why a queries file cannot be used: what is wrong, and where in the document.
#[derive(Debug, thiserror::Error, PartialEq, Eq)]
pub enum CasesError {
    #[error("not JSON: {0}")]
    Json(String),
    #[error("expected a list of {{\"query\", \"should_trigger\"}} objects, or {{\"skill_name\", \"evals\": [...]}}")]
    Shape,
    #[error("entry {index}: {problem}")]
    Entry { index: usize, problem: String },
    #[error("no queries")]
    Empty,
    #[error("the file is for the skill `{file}`, not `{skill}`")]
    OtherSkill { file: String, skill: String },
}

fn entry_error(index: usize, problem: impl Into<String>) -> CasesError {
    CasesError::Entry {
        index,
        problem: problem.into(),
    }
}

/// Reads the queries for the skill named `skill` from a document in any of the three layouts.
pub fn parse_cases(text: &str, skill: &str) -> Result<Vec<Case>, CasesError> {
    let document: Value =
        serde_json::from_str(text).map_err(|error| CasesError::Json(error.to_string()))?;
    let cases = match &document {
        Value::Array(entries) => entries
            .iter()
            .enumerate()
            .map(|(index, entry)| list_entry(index, entry, skill))
            .collect::<Result<Vec<_>, _>>()?,
        Value::Object(object) => task_evals(object, skill)?,
        _ => return Err(CasesError::Shape),
    };
    if cases.is_empty() {
        return Err(CasesError::Empty);
    }
    Ok(cases)
}

fn query_of(
    index: usize,
    object: &serde_json::Map<String, Value>,
    keys: &[&str],
) -> Result<String, CasesError> {
    let Some(value) = keys.iter().find_map(|key| object.get(*key)) else {
        return Err(entry_error(index, format!("has no `{}`", keys[0])));
    };
    match value {
        Value::String(query) if !query.trim().is_empty() => Ok(query.clone()),
        Value::String(_) => Err(entry_error(index, format!("`{}` is empty", keys[0]))),
        _ => Err(entry_error(index, format!("`{}` is not a string", keys[0]))),
    }
}

fn list_entry(index: usize, entry: &Value, skill: &str) -> Result<Case, CasesError> {
    let Value::Object(object) = entry else {
        return Err(entry_error(index, "is not an object"));
    };
    let query = query_of(index, object, &["query"])?;
    let expected_skill = match object.get(EXPECTED_SKILL_FIELD) {
        None | Some(Value::Null) => None,
        Some(Value::String(name)) if !name.trim().is_empty() => Some(name.trim().to_string()),
        Some(_) => {
            return Err(entry_error(
                index,
                format!("`{EXPECTED_SKILL_FIELD}` is not a skill name"),
            ))
        }
    };
    let expect = match object.get("should_trigger") {
        Some(Value::Bool(true)) => Expect::This,
        Some(Value::Bool(false)) => match expected_skill {
            Some(other) if other == skill => {
                return Err(entry_error(
                    index,
                    format!("says `should_trigger: false` and `{EXPECTED_SKILL_FIELD}: {other}`, the skill under test"),
                ))
            }
            Some(other) => Expect::Other(other),
            None => Expect::NotThis,
        },
        Some(Value::String(name)) if name.trim() == skill => Expect::This,
        Some(Value::String(name)) if !name.trim().is_empty() => Expect::Other(name.trim().to_string()),
        Some(Value::Null) => Expect::Nothing,
        None => return Err(entry_error(index, "has no `should_trigger`")),
        Some(_) => {
            return Err(entry_error(
                index,
                "`should_trigger` must be true, false, a skill name or null",
            ))
        }
    };
    Ok(Case { query, expect })
}

fn task_evals(
    object: &serde_json::Map<String, Value>,
    skill: &str,
) -> Result<Vec<Case>, CasesError> {
    let Some(Value::Array(evals)) = object.get("evals") else {
        return Err(CasesError::Shape);
    };
    if let Some(Value::String(file_skill)) = object.get("skill_name") {
        if !file_skill.trim().is_empty() && file_skill.trim() != skill {
            return Err(CasesError::OtherSkill {
                file: file_skill.trim().to_string(),
                skill: skill.to_string(),
            });
        }
    }
    evals
        .iter()
        .enumerate()
        .map(|(index, entry)| {
            let Value::Object(entry_object) = entry else {
                return Err(entry_error(index, "is not an object"));
            };
            if entry_object.contains_key("query") {
                return list_entry(index, entry, skill);
            }
            let query = query_of(index, entry_object, &["prompt"])?;
            let expect = match entry_object.get("should_trigger") {
                None | Some(Value::Bool(true)) => Expect::This,
                Some(Value::Bool(false)) => Expect::NotThis,
                Some(_) => {
                    return Err(entry_error(index, "`should_trigger` must be true or false"))
                }
            };
            Ok(Case { query, expect })
        })
        .collect()
}

/// The queries as a document in `layout`, for the skill under test `skill`, ended by a newline.
///
/// A row the layout cannot say exactly is written as closely as it can: skill-creator's layout has no
/// way to name another skill (the row says `false`), and the workspace table none to say "not this
/// one, maybe another" (the row says `null`).
pub fn render_cases(cases: &[Case], skill: &str, layout: Layout) -> String {
    #[derive(Serialize)]
    struct Row<'a, T: Serialize> {
        query: &'a str,
        should_trigger: T,
    }
    let text = match layout {
        // The same writer as the workspace's trigger table uses beside a skill.
        Layout::EvalsJson => {
            return crate::agent::evals::render_trigger_evals(skill, &as_queries(cases, skill))
        }
        Layout::SkillCreator => serde_json::to_string_pretty(
            &cases
                .iter()
                .map(|case| Row {
                    query: &case.query,
                    should_trigger: case.expect.wants_this(),
                })
                .collect::<Vec<_>>(),
        ),
        Layout::Workspace => serde_json::to_string_pretty(
            &cases
                .iter()
                .map(|case| Row {
                    query: &case.query,
                    should_trigger: case.expect.expected_skill(skill),
                })
                .collect::<Vec<_>>(),
        ),
    };
    // Strings, booleans and nulls always serialize.
    let mut text = text.unwrap_or_else(|_| "[]".into());
    text.push('\n');
    text
}

/// The cases as the workspace trigger table holds them: each query with the skill it should trigger.
pub fn as_queries(cases: &[Case], skill: &str) -> Vec<crate::agent::triggers::EvalQuery> {
    cases
        .iter()
        .map(|case| crate::agent::triggers::EvalQuery {
            query: case.query.clone(),
            should_trigger: case.expect.expected_skill(skill).map(str::to_string),
        })
        .collect()
}

/// The workspace trigger table's rows as cases for the skill under test `skill`: a row naming `skill`
/// should trigger it, a row naming another skill should trigger that one, a row naming none should
/// trigger no skill. The reverse of [`as_queries`]; rows with a blank query are left out.
pub fn from_queries(queries: &[crate::agent::triggers::EvalQuery], skill: &str) -> Vec<Case> {
    queries
        .iter()
        .filter(|row| !row.query.trim().is_empty())
        .map(|row| Case {
            query: row.query.clone(),
            expect: match row.should_trigger.as_deref().map(str::trim) {
                Some(name) if name == skill => Expect::This,
                Some(name) if !name.is_empty() => Expect::Other(name.to_string()),
                _ => Expect::Nothing,
            },
        })
        .collect()
}

/// Which half of a split a query belongs to.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
#[serde(rename_all = "kebab-case")]
pub enum Half {
    Train,
    Test,
}

/// A train:test proportion, such as `60:40`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Split {
    pub train: u32,
    pub test: u32,
}

impl std::str::FromStr for Split {
    type Err = String;

    fn from_str(text: &str) -> Result<Split, String> {
        let problem =
            || format!("`{text}`: expected TRAIN:TEST as two whole numbers, such as 60:40");
        let (train, test) = text.split_once(':').ok_or_else(problem)?;
        let train: u32 = train.trim().parse().map_err(|_| problem())?;
        let test: u32 = test.trim().parse().map_err(|_| problem())?;
        if train == 0 || test == 0 {
            return Err(format!("`{text}`: both halves must be more than 0"));
        }
        Ok(Split { train, test })
    }
}

/// splitmix64: a small generator whose sequence is the same on every machine, for a seeded split.
struct SplitMix64(u64);

impl SplitMix64 {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    /// A number below `bound` (> 0), without modulo bias.
    fn below(&mut self, bound: u64) -> u64 {
        let zone = u64::MAX - u64::MAX % bound;
        loop {
            let value = self.next();
            if value < zone {
                return value % bound;
            }
        }
    }
}

/// Which half each case falls in: the queries that should trigger the skill and the others are shuffled
/// apart with `seed` and cut in the proportion `split`, so both halves hold both kinds (each half gets
/// at least one of a kind that has two or more). The same cases, split and seed give the same halves.
pub fn split_cases(cases: &[Case], split: Split, seed: u64) -> Vec<Half> {
    let mut halves = vec![Half::Test; cases.len()];
    let mut random = SplitMix64(seed);
    for wanted in [true, false] {
        let mut members: Vec<usize> = (0..cases.len())
            .filter(|&index| cases[index].expect.wants_this() == wanted)
            .collect();
        for last in (1..members.len()).rev() {
            let other = random.below(last as u64 + 1) as usize;
            members.swap(last, other);
        }
        let total = u64::from(split.train) + u64::from(split.test);
        let mut train =
            ((members.len() as u64 * u64::from(split.train) + total / 2) / total) as usize;
        if members.len() >= 2 {
            train = train.clamp(1, members.len() - 1);
        }
        for &index in &members[..train.min(members.len())] {
            halves[index] = Half::Train;
        }
    }
    halves
}

#[cfg(test)]
mod tests {
    use super::*;

    fn case(query: &str, expect: Expect) -> Case {
        Case {
            query: query.into(),
            expect,
        }
    }

    #[test]
    fn table_rows_become_cases_and_back() {
        let row = |query: &str, expected: Option<&str>| crate::agent::triggers::EvalQuery {
            query: query.into(),
            should_trigger: expected.map(str::to_string),
        };
        let rows = [
            row("fill the form", Some("pdf")),
            row("count rows", Some(" sql ")),
            row("hello", None),
            row("   ", Some("pdf")),
            row("empty name", Some("")),
        ];
        let cases = from_queries(&rows, "pdf");
        assert_eq!(
            cases,
            [
                case("fill the form", Expect::This),
                case("count rows", Expect::Other("sql".into())),
                case("hello", Expect::Nothing),
                case("empty name", Expect::Nothing),
            ]
        );
        let back = as_queries(&cases, "pdf");
        assert_eq!(
            back.iter()
                .map(|query| query.should_trigger.as_deref())
                .collect::<Vec<_>>(),
            [Some("pdf"), Some("sql"), None, None]
        );
    }

    #[test]
    fn reads_each_layout() {
        let evals = r#"[{"query": "fill the form", "should_trigger": true},
            {"query": "bake", "should_trigger": false},
            {"query": "sql please", "should_trigger": false, "expected_skill": "sql"}]"#;
        assert_eq!(
            parse_cases(evals, "pdf"),
            Ok(vec![
                case("fill the form", Expect::This),
                case("bake", Expect::NotThis),
                case("sql please", Expect::Other("sql".into())),
            ])
        );
        let table = r#"[{"query": "a", "should_trigger": "pdf"}, {"query": "b", "should_trigger": null},
            {"query": "c", "should_trigger": "sql"}]"#;
        assert_eq!(
            parse_cases(table, "pdf"),
            Ok(vec![
                case("a", Expect::This),
                case("b", Expect::Nothing),
                case("c", Expect::Other("sql".into())),
            ])
        );
        let tasks = r#"{"skill_name": "pdf", "evals": [{"id": 1, "prompt": "merge these", "expected_output": "x"},
            {"prompt": "cook", "should_trigger": false}]}"#;
        assert_eq!(
            parse_cases(tasks, "pdf"),
            Ok(vec![
                case("merge these", Expect::This),
                case("cook", Expect::NotThis)
            ])
        );
    }

    #[test]
    fn says_what_is_wrong_and_where() {
        assert!(matches!(parse_cases("{", "pdf"), Err(CasesError::Json(_))));
        assert_eq!(parse_cases("3", "pdf"), Err(CasesError::Shape));
        assert_eq!(parse_cases("[]", "pdf"), Err(CasesError::Empty));
        assert_eq!(
            parse_cases(
                r#"[{"query": "a", "should_trigger": true}, {"should_trigger": true}]"#,
                "pdf"
            )
            .map_err(|error| error.to_string()),
            Err("entry 1: has no `query`".to_string())
        );
        assert_eq!(
            parse_cases(r#"[{"query": " ", "should_trigger": true}]"#, "pdf")
                .map_err(|e| e.to_string()),
            Err("entry 0: `query` is empty".to_string())
        );
        assert_eq!(
            parse_cases(r#"[{"query": "a", "should_trigger": 1}]"#, "pdf")
                .map_err(|e| e.to_string()),
            Err("entry 0: `should_trigger` must be true, false, a skill name or null".to_string())
        );
        assert_eq!(
            parse_cases(
                r#"{"skill_name": "sql", "evals": [{"prompt": "a"}]}"#,
                "pdf"
            ),
            Err(CasesError::OtherSkill {
                file: "sql".into(),
                skill: "pdf".into()
            })
        );
    }

    #[test]
    fn each_layout_reads_back_what_it_wrote() {
        let cases = vec![
            case("fill", Expect::This),
            case("sql", Expect::Other("sql".into())),
            case("cook", Expect::Nothing),
        ];
        let evals = render_cases(&cases, "pdf", Layout::EvalsJson);
        // The agentskills.io file keeps the other skill; "nothing" becomes "not this one".
        assert_eq!(
            parse_cases(&evals, "pdf"),
            Ok(vec![
                case("fill", Expect::This),
                case("sql", Expect::Other("sql".into())),
                case("cook", Expect::NotThis),
            ])
        );
        let creator = render_cases(&cases, "pdf", Layout::SkillCreator);
        assert!(!creator.contains("expected_skill"));
        assert_eq!(
            parse_cases(&creator, "pdf")
                .map(|read| read.into_iter().map(|c| c.expect).collect::<Vec<_>>()),
            Ok(vec![Expect::This, Expect::NotThis, Expect::NotThis])
        );
        let table = render_cases(&cases, "pdf", Layout::Workspace);
        assert_eq!(parse_cases(&table, "pdf"), Ok(cases.clone()));
    }

    #[test]
    fn splits_the_same_way_every_time_with_both_kinds_in_each_half() {
        let cases: Vec<Case> = (0..20)
            .map(|index| {
                let expect = if index % 4 == 0 {
                    Expect::This
                } else {
                    Expect::NotThis
                };
                case(&format!("q{index}"), expect)
            })
            .collect();
        let split = "60:40"
            .parse::<Split>()
            .unwrap_or(Split { train: 1, test: 1 });
        let halves = split_cases(&cases, split, 7);
        assert_eq!(halves, split_cases(&cases, split, 7));
        assert_ne!(halves, split_cases(&cases, split, 8));
        let train: Vec<&Case> = cases
            .iter()
            .zip(&halves)
            .filter(|(_, half)| **half == Half::Train)
            .map(|(case, _)| case)
            .collect();
        assert_eq!(train.len(), 12);
        assert_eq!(
            train.iter().filter(|case| case.expect.wants_this()).count(),
            3
        );
        // Two of a kind are never both in one half.
        let two = vec![case("a", Expect::This), case("b", Expect::This)];
        let halves = split_cases(
            &two,
            Split {
                train: 90,
                test: 10,
            },
            0,
        );
        assert!(halves.contains(&Half::Train) && halves.contains(&Half::Test));
        assert!("60".parse::<Split>().is_err());
        assert!("0:1".parse::<Split>().is_err());
    }
}
