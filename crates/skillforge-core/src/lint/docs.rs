//! Generates `docs/rules.md` and `docs/profiles.md` from the rules' doc comments and the profile table;
//! tests fail when the committed files are stale.

use std::fmt::Write as _;

use super::profile::PROFILES;
use super::registry::CODES;
use super::verification::Verification;

/// Where the project lives (the workspace's `repository`).
pub const REPOSITORY: &str = env!("CARGO_PKG_REPOSITORY");
/// The generated rule documentation in the repository; each rule is a heading in it.
const RULES_DOC: &str = "blob/main/docs/rules.md";

/// The link to a rule's section of docs/rules.md (headings `## SF203 name-not-lowercase`).
pub fn rule_uri(code: &str, rule: &super::Rule) -> String {
    format!(
        "{REPOSITORY}/{RULES_DOC}#{}-{}",
        code.to_ascii_lowercase(),
        rule.name
    )
}

/// The text of `docs/rules.md`.
pub fn rules_markdown() -> String {
    let mut out = String::new();
    out.push_str("# Lint rules\n\n");
    out.push_str("Generated from the rule sources (`SKILLFORGE_UPDATE_DOCS=1 cargo test -p skillforge-core --test lint_docs`); do not edit.\n\n");
    out.push_str("A fix is offered only where applying it alone leaves a frontmatter that still parses and adds no finding (by code and message) under the selected profiles: a quick fix never creates the next error. A rename that would make `name` differ from its folder, for instance, is not offered.\n\n");
    out.push_str("| Code | Rule | Default severity | Profiles | Fix |\n|---|---|---|---|---|\n");
    for (code, rule) in CODES {
        let profiles: Vec<&str> = rule
            .profiles
            .iter()
            .map(|profile| profile.as_str())
            .collect();
        let anchor = format!("{}-{}", code.to_lowercase(), rule.name);
        let _ = writeln!(
            out,
            "| {code} | [`{name}`](#{anchor}) | {severity} | {profiles} | {fix} |",
            name = rule.name,
            severity = rule.severity.as_str(),
            profiles = profiles.join(", "),
            fix = rule.fix.as_str(),
        );
    }
    for (code, rule) in CODES {
        let _ = write!(out, "\n## {code} {}\n\n", rule.name);
        for line in rule.docs.lines() {
            // Doc comments carry one leading space after `///`; rule sections become level-3 headings.
            let line = line.strip_prefix(' ').unwrap_or(line);
            if let Some(heading) = line.strip_prefix("## ") {
                let _ = writeln!(out, "### {heading}");
            } else {
                let _ = writeln!(out, "{line}");
            }
        }
    }
    out
}

/// The text of `docs/profiles.md`; `minimum_cases` gives the number of cases a fidelity suite commits
/// to (its `MIN_CASES`), by its path from the repository root.
pub fn profiles_markdown(minimum_cases: &dyn Fn(&str) -> Option<u32>) -> String {
    let mut out = String::new();
    out.push_str("# Client profiles\n\n");
    out.push_str("Generated from `crates/skillforge-core/src/lint/profile.rs` and the rule table; do not edit.\n\n");
    out.push_str(
        "Each profile selects the rules that speak for one client, with severities and limits, and yields a\n\
         verdict per skill: it loads (under a name and description), it is skipped (and why), or it makes the\n\
         client's whole catalog fail. Select profiles with `--profile` or `profiles = [...]` in\n\
         `skillforge.toml`; by default all are used.\n",
    );
    out.push_str(
        "\nWhat each profile rests on. A verified profile's verdicts are compared with the pinned client itself\n\
         in `make test`; an unverified one says so wherever it is shown (`lint --help`, the text and GitHub\n\
         reports, the app), since no real client checks it.\n\n\
         | Profile | Client | How it is verified | Fidelity cases |\n\
         |---|---|---|---|\n",
    );
    for profile in &PROFILES {
        let id = profile.id;
        match id.verification() {
            Verification::Verified {
                client,
                method,
                suites,
            } => {
                let counts: Vec<String> = suites
                    .iter()
                    .map(|suite| {
                        let name = suite.rsplit('/').next().unwrap_or(suite);
                        match minimum_cases(suite) {
                            Some(cases) => format!("at least {cases} (`{name}`)"),
                            None => format!("unknown (`{name}`)"),
                        }
                    })
                    .collect();
                let _ = writeln!(
                    out,
                    "| `{id}` | {client} | {method} | {} |",
                    counts.join("; ")
                );
            }
            Verification::Unverified { basis } => {
                let _ = writeln!(
                    out,
                    "| `{id}` | none run | **unverified**, {basis}: the verdict follows the profile's error-level findings | none |"
                );
            }
        }
    }
    out.push_str(
        "\nFor `claude-code` and `codex` a skill is judged where it sits: below a `.claude/skills` (or `.agents/skills`,\n\
         `.codex/skills`) in its path as the client reads that folder, elsewhere as if its folder were installed in one.\n\
         For `opencode` a skill is judged as the client reads any `SKILL.md` below its skill folders, at any depth; one\n\
         in a hidden folder below `.opencode/skills` (or `.opencode/skill`) is skipped, as the client skips it.\n\
         Severities are per profile: a finding that is an error for one client and a warning for another is reported\n\
         once for each, so a client's verdict and the exit code rest on that client's severity alone.\n",
    );
    for profile in &PROFILES {
        let _ = write!(
            out,
            "\n## `{}` — {}\n\n{}\n\n",
            profile.id.as_str(),
            profile.title,
            profile.summary
        );
        let _ = write!(out, "Status: {}.\n\n", profile.id.verification().label());
        out.push_str("Facts this profile rests on:\n\n");
        for fact in profile.facts {
            let _ = writeln!(out, "- {fact}");
        }
        let limits = profile.limits;
        let mut shown = Vec::new();
        for (label, value) in [
            ("name", limits.name_chars),
            ("description", limits.description_chars),
            ("compatibility", limits.compatibility_chars),
            ("body lines", limits.body_lines),
            ("body tokens", limits.body_tokens),
            ("listing entry", limits.listing_chars),
        ] {
            if let Some(value) = value {
                shown.push(format!("{label} {value}"));
            }
        }
        if !shown.is_empty() {
            let _ = write!(out, "\nLimits: {}.\n", shown.join(", "));
        }
        let _ = write!(
            out,
            "\nKnown top-level fields: {}.\n",
            profile
                .known_fields
                .iter()
                .map(|field| format!("`{field}`"))
                .collect::<Vec<_>>()
                .join(", ")
        );
        out.push_str("\nRules:\n\n");
        for (code, rule) in CODES
            .iter()
            .filter(|(_, rule)| rule.profiles.contains(&profile.id))
        {
            let severity = profile.severity_of(rule.name, rule.severity);
            let _ = writeln!(out, "- {code} `{}` ({})", rule.name, severity.as_str());
        }
    }
    out.push_str(DEVIATIONS);
    out
}

/// Where the `spec` profile knowingly disagrees with skills-ref 0.1.1, and why.
pub const DEVIATIONS: &str = "
## Where `spec` deviates from skills-ref 0.1.1

The `spec` profile follows the specification at agentskills.io. skills-ref is its executable reference and
agrees on every fidelity fixture except these, where skills-ref contradicts the specification:

- **Unicode letters in names.** skills-ref accepts any letter after NFKC normalisation (`café`); the
  specification allows `a-z`, `0-9` and `-` only. Reported by `name-invalid-characters`.
- **Nested, typed or scalar `metadata`.** strictyaml reads `priority: 5` as the string 5, skills-ref
  converts nested values with `str()` and never checks that `metadata` is a mapping, so all of these pass;
  the specification defines a string-to-string map, and YAML clients read `5` as a number. Reported by
  `metadata-not-string-map`.
- **`allowed-tools` as a list.** skills-ref does not check the field's type; the specification defines a
  space-delimited string. Reported by `allowed-tools-list`.
- **`---` inside a value.** skills-ref splits the file at the first three `---` characters anywhere, so
  `description: a---b` truncates the YAML; the specification delimits frontmatter by lines.
";
