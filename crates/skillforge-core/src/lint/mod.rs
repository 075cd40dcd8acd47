//! The linter: diagnostics with codes and fixes, one file per rule, client profiles and verdicts.
//!
//! A lint run takes the files of a workspace, builds one [`SkillContext`] per SKILL.md (layout, YAML tree,
//! line index, facts about the folder and its neighbours) and runs every rule that a selected profile
//! uses. Findings are data: nothing here fails because a skill is broken.

pub mod config;
pub mod context;
pub mod docs;
pub mod fix;
pub mod listing;
pub mod profile;
pub mod registry;
pub mod rules;
pub mod search;
pub mod verdict;
pub mod verification;
pub mod workspace;

use serde::{Deserialize, Serialize};

use crate::text::{Span, TextRange};

pub use context::SkillContext;
pub use profile::ProfileId;

/// How serious a finding is. Ordered so that `max` picks the most serious.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
#[serde(rename_all = "lowercase")]
pub enum Severity {
    /// Advice; the skill works everywhere.
    Info,
    /// The skill works but a client shows or treats it differently than the author likely expects.
    Warning,
    /// A client refuses, skips or misreads the skill.
    Error,
}

impl Severity {
    pub fn as_str(self) -> &'static str {
        match self {
            Severity::Info => "info",
            Severity::Warning => "warning",
            Severity::Error => "error",
        }
    }
}

/// Whether a fix may be applied without the author looking at it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
#[serde(rename_all = "kebab-case")]
pub enum Applicability {
    /// Keeps the meaning of the file exactly (quoting, line endings); `--fix` applies it.
    Safe,
    /// Changes what a client reads (renames, moves keys); only with `--unsafe-fixes`.
    Unsafe,
    /// A suggestion to show; never applied automatically.
    DisplayOnly,
}

/// One replacement of a byte range of the whole SKILL.md.
#[derive(Debug, Clone, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
pub struct TextEdit {
    pub range: TextRange,
    pub replacement: String,
}

/// A way to resolve a diagnostic: edits applied together, or not at all.
#[derive(Debug, Clone, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
pub struct Fix {
    /// What the fix does, as a short imperative sentence.
    pub title: String,
    pub edits: Vec<TextEdit>,
    pub applicability: Applicability,
    /// A file to create, relative to the skill folder (a missing link target): the app creates it through
    /// the guarded writer, refusing a path outside the skill or one that exists. Never done by `--fix`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub creates: Option<String>,
}

/// One finding in one file.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
pub struct Diagnostic {
    /// `SF` and a number, stable forever.
    pub code: String,
    /// The kebab-case rule name, named after what it flags.
    pub rule: String,
    pub severity: Severity,
    pub message: String,
    /// Byte range in the whole file.
    pub range: TextRange,
    /// The same range as lines and columns in UTF-8 characters and UTF-16 units.
    pub span: Span,
    /// The selected profiles for which this finding holds.
    pub profiles: Vec<ProfileId>,
    pub fix: Option<Fix>,
}

/// What a rule reports before the runner adds code, severity and positions.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Finding {
    pub range: TextRange,
    pub message: String,
    pub fix: Option<Fix>,
    /// Restricts the finding to these profiles (for rules whose verdict differs per client).
    pub only_profiles: Option<Vec<ProfileId>>,
    /// The severity of this finding, where it differs from the rule's (a case its clients refuse,
    /// of a rule that is otherwise a warning); a rule setting in the configuration still wins.
    pub severity: Option<Severity>,
}

impl Finding {
    pub fn new(range: TextRange, message: impl Into<String>) -> Self {
        Self {
            range,
            message: message.into(),
            fix: None,
            only_profiles: None,
            severity: None,
        }
    }

    pub fn with_fix(
        mut self,
        title: impl Into<String>,
        applicability: Applicability,
        edits: Vec<TextEdit>,
    ) -> Self {
        self.fix = Some(Fix {
            title: title.into(),
            edits,
            applicability,
            creates: None,
        });
        self
    }

    /// Offers to create the file `relative` (to the skill folder): shown, never applied by `--fix`.
    pub fn with_created_file(mut self, title: impl Into<String>, relative: String) -> Self {
        self.fix = Some(Fix {
            title: title.into(),
            edits: Vec::new(),
            applicability: Applicability::DisplayOnly,
            creates: Some(relative),
        });
        self
    }

    pub fn for_profiles(mut self, profiles: Vec<ProfileId>) -> Self {
        self.only_profiles = Some(profiles);
        self
    }

    pub fn with_severity(mut self, severity: Severity) -> Self {
        self.severity = Some(severity);
        self
    }
}

/// Which fixes a rule can offer, for the documentation and `--fix`'s summary.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
#[serde(rename_all = "kebab-case")]
pub enum FixAvailability {
    None,
    Safe,
    Unsafe,
    DisplayOnly,
}

impl FixAvailability {
    pub fn as_str(self) -> &'static str {
        match self {
            FixAvailability::None => "none",
            FixAvailability::Safe => "safe",
            FixAvailability::Unsafe => "unsafe",
            FixAvailability::DisplayOnly => "display-only",
        }
    }
}

/// A rule's metadata and check. Codes are not here: they live in [`registry::CODES`].
pub struct Rule {
    pub name: &'static str,
    pub group: &'static str,
    pub severity: Severity,
    /// The profiles whose clients this rule speaks for.
    pub profiles: &'static [ProfileId],
    pub fix: FixAvailability,
    /// The user documentation, from the rule's doc comment.
    pub docs: &'static str,
    pub check: fn(&SkillContext<'_>, &mut Vec<Finding>),
}

impl std::fmt::Debug for Rule {
    fn fmt(&self, formatter: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        formatter
            .debug_struct("Rule")
            .field("name", &self.name)
            .finish_non_exhaustive()
    }
}

/// Declares a rule: the doc comment becomes its documentation, so the docs cannot drift from the code.
#[macro_export]
#[doc(hidden)]
macro_rules! declare_rule {
    (
        $(#[doc = $doc:literal])*
        RULE {
            name: $name:literal,
            group: $group:literal,
            severity: $severity:ident,
            profiles: [$($profile:ident),* $(,)?],
            fix: $fix:ident,
            check: $check:path $(,)?
        }
    ) => {
        $(#[doc = $doc])*
        pub static RULE: $crate::lint::Rule = $crate::lint::Rule {
            name: $name,
            group: $group,
            severity: $crate::lint::Severity::$severity,
            profiles: &[$($crate::lint::ProfileId::$profile),*],
            fix: $crate::lint::FixAvailability::$fix,
            docs: concat!($($doc, "\n"),*),
            check: $check,
        };
    };
}

/// Totals over a set of reports, for summaries and exit codes.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
pub struct Summary {
    pub files: usize,
    pub errors: usize,
    pub warnings: usize,
    pub infos: usize,
    /// Findings whose fix `--fix` would apply.
    pub fixable: usize,
    /// Findings whose fix needs `--unsafe-fixes`.
    pub unsafe_fixable: usize,
}

impl Summary {
    /// Adds another set's totals to these.
    pub fn add(&mut self, other: &Summary) {
        self.files += other.files;
        self.errors += other.errors;
        self.warnings += other.warnings;
        self.infos += other.infos;
        self.fixable += other.fixable;
        self.unsafe_fixable += other.unsafe_fixable;
    }

    pub fn of(reports: &[workspace::FileReport]) -> Summary {
        let mut summary = Summary {
            files: reports.len(),
            ..Summary::default()
        };
        for diagnostic in reports.iter().flat_map(|report| &report.diagnostics) {
            match diagnostic.severity {
                Severity::Error => summary.errors += 1,
                Severity::Warning => summary.warnings += 1,
                Severity::Info => summary.infos += 1,
            }
            match diagnostic.fix.as_ref().map(|fix| fix.applicability) {
                Some(Applicability::Safe) => summary.fixable += 1,
                Some(Applicability::Unsafe) => summary.unsafe_fixable += 1,
                _ => {}
            }
        }
        summary
    }
}
