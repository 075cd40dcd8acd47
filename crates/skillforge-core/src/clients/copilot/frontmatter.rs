//! What GitHub Copilot CLI 1.0.102 reads from a `SKILL.md`: the frontmatter block, the strict YAML
//! parse (no repair, no retry), the name and description rules, the typed fields, and the message
//! `copilot skill list` prints for a file it drops.
//!
//! Every rule rests on the probes run against the real binary (docs/clients-observed.md, "GitHub
//! Copilot CLI 1.0.102"); the probe id is named beside each rule. The client parses with serde_yaml 0.9
//! (libyaml) into a generic value and types the fields itself, so the same crate is used here: its
//! acceptance and its messages (`mapping values are not allowed in this context at line 2 column 22`)
//! are the client's own, positions included.

use serde_yaml::Value;

/// Longest name, in characters (`name-65` is refused, 64 loads).
pub const MAX_NAME_CHARS: usize = 64;
/// Longest description, in UTF-16 code units (`é`×1,024 loads, `é`×1,025 and `😀`×513 do not).
pub const MAX_DESCRIPTION_UTF16: usize = 1024;
/// How many body lines make a missing description (`body` probes: 3 of 40 lines).
const BODY_LINES: usize = 3;

/// Why Copilot drops a `SKILL.md`, worded as `copilot skill list` reports it after `PATH: `.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum Drop {
    /// No `---` line at the start, or none closing it (`no-frontmatter`, `unclosed`, `cr-only`,
    /// `leading-blank`, `indented-delim`, `dots-close`).
    #[error("missing or malformed YAML frontmatter")]
    MissingFrontmatter,
    /// serde_yaml's own message, positions counted from the first line after `---`.
    #[error("failed to parse YAML frontmatter: {0}")]
    Yaml(String),
    /// `name:` null, a number, a list (`name-number`, `empty-name`).
    #[error("Skill name must be a string")]
    NameNotString,
    /// `name: ""` (`quoted-empty-name`).
    #[error("Skill name must not be empty")]
    NameEmpty,
    /// `-lead`, `_under`, `a/b`, `café-skill`, `日本語`, a tab.
    #[error("Skill name must start with an ASCII letter or number and contain only ASCII letters (a-z, A-Z), numbers, hyphens, underscores, dots, colons, and spaces")]
    NameCharacters,
    /// `name-65`.
    #[error("Skill name must be at most {MAX_NAME_CHARS} characters")]
    NameTooLong,
    /// No `name` and a folder name that is not a valid one (`ü-nofield`).
    #[error("could not derive a valid skill name from the folder path")]
    FolderName,
    /// null, `~`, a number, a boolean, a list, a map (`desc-null`, `desc-number`, `desc-list`, …).
    #[error("Skill description must be a string")]
    DescriptionNotString,
    /// Over [`MAX_DESCRIPTION_UTF16`] UTF-16 units (`desc-1025`, `units2`).
    #[error("Skill description must be at most {MAX_DESCRIPTION_UTF16} characters")]
    DescriptionTooLong,
    /// `argument-hint: [file]` (`claude-fields`).
    #[error("argument-hint must be a string")]
    ArgumentHint,
    /// `disable-model-invocation: "true"` (`disable-model-str`).
    #[error("disable-model-invocation must be a boolean")]
    DisableModelInvocation,
    /// A list holding something other than text (the binary's own wording; not triggered by a probe).
    #[error("allowed-tools must contain only strings")]
    AllowedToolsItems,
    /// Neither text nor a list (the binary's own wording; not triggered by a probe).
    #[error("allowed-tools must be a string or array of strings")]
    AllowedTools,
}

/// A `SKILL.md` Copilot loads.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Parsed {
    /// Trimmed, runs of spaces turned into one `-` (`Bad Name_X` → `Bad-Name_X`).
    pub name: String,
    /// As YAML gives it (not trimmed: `"   "` stays), or the body's first lines when absent.
    pub description: String,
    /// False with `disable-model-invocation: true`: loaded, listed by `skill list`, but not in the
    /// model's listing (`disable-model`).
    pub model_invocable: bool,
}

/// The verdict on a `SKILL.md`'s bytes; `folder` is the name of the folder holding it. Invalid UTF-8
/// is read with U+FFFD in place of each bad sequence (`latin1`: `caf\xe9` → `caf�`).
pub fn parse_skill(bytes: &[u8], folder: &str) -> Result<Parsed, Drop> {
    parse_text(&crate::text::decode_lossy(bytes), folder)
}

/// The frontmatter text (without its last line break) and the body after its closing line. The file (a BOM dropped: `bom`) must
/// start with a line that is `---` once trailing white space is trimmed (`--- ` loads:
/// `delims-spaces`; `  ---` does not: `indented-delim`); the next such line closes it (`...` does
/// not: `dots-close`). Lines end at `\n` (a lone `\r` ends none: `cr-only`); a file may end right after
/// the closing `---` (`no-trailing-newline`).
pub fn split(contents: &str) -> Option<(&str, &str)> {
    let text = contents.strip_prefix('\u{feff}').unwrap_or(contents);
    let mut lines = text.split_inclusive('\n');
    let first = lines.next()?;
    if first.trim_end() != "---" {
        return None;
    }
    let start = first.len();
    let mut at = start;
    for line in lines {
        if line.trim_end() == "---" {
            // The YAML ends before the last line's break: a `|` scalar closing the block keeps no final
            // newline (`literal` → `literal line1\nliteral line2`), while `|+` keeps the breaks of the
            // blank lines inside it (`literal-keep` → `kept\n\n`).
            let yaml = &text[start..at];
            let yaml = yaml.strip_suffix('\n').unwrap_or(yaml);
            let yaml = yaml.strip_suffix('\r').unwrap_or(yaml);
            return Some((yaml, &text[at + line.len()..]));
        }
        at += line.len();
    }
    None
}

/// [`parse_skill`] on text already decoded.
pub fn parse_text(contents: &str, folder: &str) -> Result<Parsed, Drop> {
    let (frontmatter, body) = split(contents).ok_or(Drop::MissingFrontmatter)?;
    if flow_depth(frontmatter) > MAX_FLOW_DEPTH {
        return Err(Drop::Yaml(FLOW_TOO_DEEP.to_string()));
    }
    let value: Value =
        serde_yaml::from_str(frontmatter).map_err(|error| Drop::Yaml(error.to_string()))?;
    let empty = serde_yaml::Mapping::new();
    // Anything but a mapping is no fields at all: an empty frontmatter (`empty-frontmatter`), a list or
    // a lone scalar (`fm-list`, `fm-scalar` of the fidelity suite) load with the folder's name.
    let fields = match &value {
        Value::Mapping(fields) => fields,
        _ => &empty,
    };
    // A value under a tag the schema does not know reads as the value itself (`!custom text` → `text`).
    let field = |key: &str| fields.get(key).map(untagged);
    let name = match field("name") {
        None => folder_name(folder)?,
        Some(Value::String(name)) => valid_name(name)?,
        Some(_) => return Err(Drop::NameNotString),
    };
    let description = match field("description") {
        None => description_from_body(body),
        Some(Value::String(description)) => {
            // Only a written description is held to the limit; one taken from the body is cut instead
            // (`body-astral`: 600 emoji, 1,200 units, load as 512).
            if description.encode_utf16().count() > MAX_DESCRIPTION_UTF16 {
                return Err(Drop::DescriptionTooLong);
            }
            description.clone()
        }
        Some(_) => return Err(Drop::DescriptionNotString),
    };
    match field("argument-hint") {
        None | Some(Value::Null | Value::String(_)) => {}
        Some(_) => return Err(Drop::ArgumentHint),
    }
    // Written but null is not a boolean (`dmi-null`), nor a string or list (`tools-null`).
    let model_invocable = match field("disable-model-invocation") {
        None => true,
        Some(Value::Bool(disabled)) => !disabled,
        Some(_) => return Err(Drop::DisableModelInvocation),
    };
    match field("allowed-tools") {
        None | Some(Value::String(_)) => {}
        Some(Value::Sequence(tools)) => {
            if !tools.iter().all(|tool| matches!(tool, Value::String(_))) {
                return Err(Drop::AllowedToolsItems);
            }
        }
        Some(_) => return Err(Drop::AllowedTools),
    }
    Ok(Parsed {
        name,
        description,
        model_invocable,
    })
}

/// Flow nesting beyond which the parse is not attempted. libyaml revisits every open flow level for each
/// token, so `[` repeated 100,000 times takes minutes; serde_yaml refuses anything deeper than 128 levels
/// anyway, so such a skill is dropped either way (only the message differs: a listed deviation).
const MAX_FLOW_DEPTH: usize = 1024;
const FLOW_TOO_DEEP: &str = "recursion limit exceeded";

/// The deepest nesting of `[` and `{`, quotes not considered (a bound, not a parse).
fn flow_depth(text: &str) -> usize {
    let mut depth: usize = 0;
    let mut deepest = 0;
    for byte in text.bytes() {
        match byte {
            b'[' | b'{' => {
                depth += 1;
                deepest = deepest.max(depth);
            }
            b']' | b'}' => depth = depth.saturating_sub(1),
            _ => {}
        }
    }
    deepest
}

fn untagged(value: &Value) -> &Value {
    match value {
        Value::Tagged(tagged) => untagged(&tagged.value),
        value => value,
    }
}

/// Trimmed, each run of spaces one `-` (`" lead"` → `lead`, `"a  b"` → `a-b`, `A B C` → `A-B-C`).
pub fn normalise_name(name: &str) -> String {
    name.trim()
        .split(' ')
        .filter(|part| !part.is_empty())
        .collect::<Vec<_>>()
        .join("-")
}

/// A frontmatter name, normalised and checked (`names`, `name-65`, `probe-name-*`). The length counts
/// the name as written, trimmed, before its spaces become hyphens (`name-64-spaces`: 66 characters with
/// a run of 3 spaces is refused).
fn valid_name(name: &str) -> Result<String, Drop> {
    let normalised = normalise_name(name);
    if normalised.is_empty() {
        return Err(Drop::NameEmpty);
    }
    let written = name.trim().chars().count();
    let mut chars = normalised.chars();
    let first_ok = chars.next().is_some_and(|c| c.is_ascii_alphanumeric());
    let rest_ok = chars.all(|c| c.is_ascii_alphanumeric() || matches!(c, '-' | '_' | '.' | ':'));
    if !first_ok || !rest_ok {
        return Err(Drop::NameCharacters);
    }
    if written > MAX_NAME_CHARS {
        return Err(Drop::NameTooLong);
    }
    Ok(normalised)
}

/// The name of a skill without `name`: its folder's, under the same rules (`Upper Folder` →
/// `Upper-Folder`), or one message for any folder name that fails them (`ü-nofield`).
fn folder_name(folder: &str) -> Result<String, Drop> {
    valid_name(folder).map_err(|_| Drop::FolderName)
}

/// The description of a skill without `description`: the first three non-blank body lines that are not
/// headings, each trimmed, joined with a space, cut to 1,024 UTF-16 units (`body` probes,
/// `desc-very-long-body`); `""` when there are none (`b-heading-only`, `nobody`).
pub fn description_from_body(body: &str) -> String {
    let joined = body
        .lines()
        .map(str::trim)
        .filter(|line| !line.is_empty() && !line.starts_with('#'))
        .take(BODY_LINES)
        .collect::<Vec<_>>()
        .join(" ");
    // Cut to whole characters within the limit, counted in UTF-16 units (`body-astral`: 600 emoji
    // become 512); whether a character split by the limit is dropped is not observed.
    let mut units = 0;
    let end = joined
        .char_indices()
        .find(|(_, c)| {
            units += c.len_utf16();
            units > MAX_DESCRIPTION_UTF16
        })
        .map_or(joined.len(), |(at, _)| at);
    joined[..end].to_string()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn verdict(text: &str) -> Result<Parsed, Drop> {
        parse_text(text, "folder")
    }

    #[test]
    fn the_block_opens_at_the_first_line_and_closes_at_the_next_dash_line() {
        assert_eq!(split("---\na: b\n---\nbody"), Some(("a: b", "body")));
        assert_eq!(split("\u{feff}--- \r\na: b\r\n---"), Some(("a: b", "")));
        assert_eq!(split("---\n---\n"), Some(("", "")));
        assert_eq!(split("  ---\na: b\n---\n"), None);
        assert_eq!(split("\n---\na: b\n---\n"), None);
        assert_eq!(split("---\ra: b\r---\r"), None);
        assert_eq!(split("---\na: b\n...\n"), None);
    }

    #[test]
    fn yaml_errors_carry_libyaml_messages() {
        assert_eq!(
            verdict("---\nname: x\ndescription: Use when: foo\n---\n"),
            Err(Drop::Yaml(
                "mapping values are not allowed in this context at line 2 column 22".into()
            ))
        );
        assert_eq!(
            verdict("---\nname: x\ndescription: a\ndescription: b\n---\n"),
            Err(Drop::Yaml(
                "duplicate entry with key \"description\"".into()
            ))
        );
    }

    #[test]
    fn names_are_normalised_then_checked() {
        let name = |value: &str| {
            verdict(&format!("---\nname: {value}\ndescription: d\n---\n")).map(|p| p.name)
        };
        assert_eq!(name("Bad Name_X"), Ok("Bad-Name_X".into()));
        assert_eq!(name("\" lead\""), Ok("lead".into()));
        assert_eq!(name("a:b"), Ok("a:b".into()));
        assert_eq!(name("\"\""), Err(Drop::NameEmpty));
        assert_eq!(name("-lead"), Err(Drop::NameCharacters));
        assert_eq!(name("café"), Err(Drop::NameCharacters));
        assert_eq!(name("42"), Err(Drop::NameNotString));
        assert_eq!(name(&"n".repeat(64)), Ok("n".repeat(64)));
        assert_eq!(name(&"n".repeat(65)), Err(Drop::NameTooLong));
        assert_eq!(
            parse_text("---\ndescription: d\n---\n", "Upper Folder").map(|p| p.name),
            Ok("Upper-Folder".into())
        );
        assert_eq!(
            parse_text("---\ndescription: d\n---\n", "ü-dir"),
            Err(Drop::FolderName)
        );
    }

    #[test]
    fn descriptions_are_strings_within_1024_utf16_units() {
        let description = |value: &str| {
            verdict(&format!("---\nname: x\ndescription: {value}\n---\n")).map(|p| p.description)
        };
        assert_eq!(description("yes"), Ok("yes".into()));
        assert_eq!(description("!!str 123"), Ok("123".into()));
        assert_eq!(description("'   '"), Ok("   ".into()));
        assert_eq!(description("1.50"), Err(Drop::DescriptionNotString));
        assert_eq!(description(""), Err(Drop::DescriptionNotString));
        assert_eq!(description(&"é".repeat(1024)), Ok("é".repeat(1024)));
        assert_eq!(
            description(&"😀".repeat(513)),
            Err(Drop::DescriptionTooLong)
        );
        assert_eq!(description("!custom text"), Ok("text".into()));
        assert_eq!(
            verdict("---\n- a\n---\nFrom the body.\n").map(|p| (p.name, p.description)),
            Ok(("folder".into(), "From the body.".into()))
        );
        assert_eq!(
            verdict(&format!("---\nname: x\n---\n{}\n", "😀".repeat(600))).map(|p| p.description),
            Ok("😀".repeat(512))
        );
        assert_eq!(
            verdict("---\nname: x\n---\n# Title\n\n  First.  \n- two\n\nthree\nfour\n")
                .map(|p| p.description),
            Ok("First. - two three".into())
        );
    }

    #[test]
    fn deep_flow_nesting_is_refused_without_parsing() {
        let deep = format!("---\nname: x\ndescription: {}\n---\n", "[".repeat(100_000));
        assert_eq!(verdict(&deep), Err(Drop::Yaml(FLOW_TOO_DEEP.into())));
        assert_eq!(flow_depth("a: [b, {c: [d]}]\ne: [f]"), 3);
    }

    #[test]
    fn typed_fields() {
        let with = |line: &str| verdict(&format!("---\nname: x\ndescription: d\n{line}\n---\n"));
        assert_eq!(with("argument-hint: [file]"), Err(Drop::ArgumentHint));
        assert!(with("argument-hint: \"[file]\"").is_ok());
        assert_eq!(
            with("disable-model-invocation: \"true\""),
            Err(Drop::DisableModelInvocation)
        );
        assert_eq!(
            with("disable-model-invocation: true").map(|p| p.model_invocable),
            Ok(false)
        );
        assert!(with("allowed-tools: [Read, Grep]").is_ok());
        assert_eq!(with("allowed-tools:"), Err(Drop::AllowedTools));
        assert_eq!(
            with("disable-model-invocation:"),
            Err(Drop::DisableModelInvocation)
        );
        assert!(with("argument-hint:").is_ok());
        assert_eq!(with("allowed-tools: [1]"), Err(Drop::AllowedToolsItems));
        assert_eq!(with("allowed-tools: {a: b}"), Err(Drop::AllowedTools));
    }
}
