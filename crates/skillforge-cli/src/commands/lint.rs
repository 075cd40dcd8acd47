//! `skillforge lint PATH...`: findings per client profile, in text, JSON, SARIF or GitHub annotations;
//! `--fix` rewrites files in place with the safe fixes (and the unsafe ones with `--unsafe-fixes`).

use std::io::Write;
use std::path::PathBuf;

use annotate_snippets::{AnnotationKind, Level, Renderer, Snippet};
use anyhow::Context as _;
use clap::ValueEnum;
use serde_json::Value;
use skillforge_core::clients::tenxgraph;
use skillforge_core::frontmatter::yaml::lines::{lone_carriage_returns, SourceLines};
use skillforge_core::lint::config::Config;
use skillforge_core::lint::context::{RealFiles, SkillFile};
use skillforge_core::lint::fix::{fix_until_stable, write_fixed};
use skillforge_core::lint::search::Search;
use skillforge_core::lint::verdict::Outcome;
use skillforge_core::lint::workspace::{
    collect_with, lint_file, lint_files, tenxgraph_loaded, FileReport, LintOptions,
};
use skillforge_core::lint::{Diagnostic, ProfileId, Severity, Summary};

use crate::exit::Exit;

mod sarif;

#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum Format {
    /// Source excerpts with carets and a summary line.
    Text,
    /// The stable JSON report described in docs/lint-output.md.
    Json,
    /// SARIF 2.1.0, for code-scanning dashboards.
    Sarif,
    /// GitHub Actions workflow commands (`::error file=…`).
    Github,
}

/// A profile on the command line: every [`ProfileId`], each shown in `--help` with what it is verified
/// against, or that it is unverified.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ProfileArg(ProfileId);

impl ValueEnum for ProfileArg {
    fn value_variants<'a>() -> &'a [Self] {
        static VARIANTS: std::sync::LazyLock<Vec<ProfileArg>> =
            std::sync::LazyLock::new(|| ProfileId::ALL.into_iter().map(ProfileArg).collect());
        &VARIANTS
    }

    fn to_possible_value(&self) -> Option<clap::builder::PossibleValue> {
        let id = self.0;
        let verification = id.verification();
        let help = if verification.is_verified() {
            verification.label()
        } else {
            format!("{}; {}", id.profile().title, verification.label())
        };
        Some(clap::builder::PossibleValue::new(id.as_str()).help(help))
    }
}

impl From<ProfileArg> for ProfileId {
    fn from(profile: ProfileArg) -> Self {
        profile.0
    }
}

#[derive(Debug, clap::Args)]
pub struct Args {
    /// SKILL.md files or folders to search for them.
    #[arg(value_name = "PATH", required = true)]
    paths: Vec<PathBuf>,
    /// Client profiles to check against (repeatable). Default: `profiles` in skillforge.toml, else all.
    #[arg(long = "profile", value_enum, value_name = "PROFILE")]
    profiles: Vec<ProfileArg>,
    /// How to print the findings.
    #[arg(long, value_enum, default_value = "text")]
    format: Format,
    /// Apply safe fixes in place, then report what is left.
    #[arg(long)]
    fix: bool,
    /// With --fix, also apply fixes that change what a client reads.
    #[arg(long, requires = "fix")]
    unsafe_fixes: bool,
    /// Also search hidden folders that hold no skill folder directly (client folders such as `.claude`
    /// and `.agents`, and hidden folders with skills in them, are always searched).
    #[arg(long)]
    hidden: bool,
    /// Also search what `.gitignore`, `.ignore` and `.git/info/exclude` leave out, and dependency and
    /// build folders (`node_modules`, `.venv`, `target`, `dist`, …).
    #[arg(long)]
    no_ignore: bool,
    /// Ignore any skillforge.toml.
    #[arg(long, conflicts_with = "config")]
    no_config: bool,
    /// Read the configuration from FILE instead of looking for skillforge.toml (from the first PATH up
    /// to the repository that holds it, never above).
    #[arg(long, value_name = "FILE")]
    config: Option<PathBuf>,
}

pub fn run(args: Args) -> anyhow::Result<Exit> {
    let config = if args.no_config {
        Config::default()
    } else if let Some(file) = &args.config {
        Config::load(file)?
    } else {
        let start = args
            .paths
            .first()
            .cloned()
            .unwrap_or_else(|| PathBuf::from("."));
        Config::discover(&start)?.unwrap_or_default()
    };
    let profiles: Vec<ProfileId> = if !args.profiles.is_empty() {
        let mut chosen: Vec<ProfileId> =
            args.profiles.iter().copied().map(ProfileId::from).collect();
        chosen.sort();
        chosen.dedup();
        chosen
    } else if !config.profiles.is_empty() {
        config.profiles.clone()
    } else {
        ProfileId::ALL.to_vec()
    };
    let options = LintOptions { profiles, config };
    let search = Search {
        hidden: args.hidden,
        no_ignore: args.no_ignore,
    };
    let collected = collect_with(&args.paths, &options.config, &search)?;
    // Said on stderr so every output format stays valid; the run still lints everything else.
    for skipped in &collected.skipped {
        eprintln!("error: {}: {}; not linted", skipped.path, skipped.reason);
    }
    for note in &collected.notes {
        eprintln!("note: {note}");
    }

    let mut files = collected.files;
    // A fix that could not be written leaves its file as it was; the run goes on and exits 2.
    let mut not_written = 0;

    let mut fixed_files = 0;
    let mut fixes_applied = 0;
    if args.fix {
        // Two linked skills may be one file: it is fixed once.
        let mut fixed_identities = std::collections::HashSet::new();
        for file in &mut files {
            let identity = file
                .origin
                .as_ref()
                .map(|origin| (origin.identity.device, origin.identity.inode));
            if identity.is_some_and(|identity| fixed_identities.contains(&identity)) {
                continue;
            }
            // Replacing undecodable bytes would destroy what the author wrote; such files are only reported.
            if file.invalid_utf8_at.is_some() {
                continue;
            }
            let result = fix_until_stable(file, &options, &RealFiles, args.unsafe_fixes);
            if !result.converged {
                anyhow::bail!(
                    "{}: fixes did not settle; the file was left unchanged",
                    file.display_path
                );
            }
            if result.applied > 0 && result.text != file.source {
                if let Err(error) = write_fixed(file, &result.text) {
                    eprintln!("error: {error}");
                    not_written += 1;
                    continue;
                }
                file.source = result.text;
                fixed_identities.extend(identity);
                fixed_files += 1;
                fixes_applied += result.applied;
            }
        }
    }

    let fixed = args.fix.then_some((fixes_applied, fixed_files));
    let mut out = std::io::BufWriter::new(std::io::stdout().lock());
    let (summary, refused) = match args.format {
        Format::Sarif => {
            let reports = lint_files(&files, &options);
            out.write_all(sarif::report(&reports, &files)?.as_bytes())
                .context("writing the report")?;
            (Summary::of(&reports), refuses(&reports))
        }
        format => {
            let mut json = match format {
                Format::Json => {
                    let mut catalogs = serde_json::Map::new();
                    if options.profiles.contains(&ProfileId::Tenxgraph) {
                        catalogs.insert(
                            "10xgraph".into(),
                            tenxgraph::catalog(&tenxgraph_loaded(&files, &RealFiles)).into(),
                        );
                    }
                    Some(JsonReport::start(&mut out, catalogs)?)
                }
                _ => None,
            };
            // Linted and written a batch at a time, each batch written while the next ones are linted:
            // the reports of a large tree are never all held.
            let mut summary = Summary::default();
            let mut refused = false;
            skillforge_core::parallel::each_part(
                &files,
                REPORT_BATCH,
                |file| lint_file(file, &options, &RealFiles),
                |batch, reports| -> anyhow::Result<()> {
                    summary.add(&Summary::of(&reports));
                    refused |= refuses(&reports);
                    match &mut json {
                        Some(json) => json.files(&mut out, &reports)?,
                        None if format == Format::Github => github(&mut out, &reports)?,
                        None => text(&mut out, &reports, batch)?,
                    }
                    Ok(())
                },
            )?;
            let unverified = unverified_note(&options.profiles);
            match json {
                Some(json) => json.finish(&mut out, &options.profiles, &summary)?,
                None if format == Format::Text => {
                    if let Some(note) = &unverified {
                        writeln!(out, "{note}")?;
                    }
                    text_summary(&mut out, &summary, fixed)?
                }
                None => {
                    if let Some(note) = &unverified {
                        writeln!(out, "::notice title=Unverified profiles::{note}")?;
                    }
                }
            }
            (summary, refused)
        }
    };
    out.flush().context("writing the report")?;
    // The process ends with this command: the files read (a large tree's every SKILL.md and its parses)
    // are left to the exit instead of being freed one by one.
    std::mem::forget(files);
    Ok(if !collected.skipped.is_empty() || not_written > 0 {
        Exit::Failure
    } else {
        Exit::findings_if(summary.errors > 0 || refused)
    })
}

fn level(severity: Severity) -> Level<'static> {
    match severity {
        Severity::Error => Level::ERROR,
        Severity::Warning => Level::WARNING,
        Severity::Info => Level::INFO,
    }
}

/// Human output: one annotated excerpt per finding, the profiles it concerns, the fix, then the skills a
/// client will not load, and a summary line.
fn text(out: &mut impl Write, reports: &[FileReport], files: &[SkillFile]) -> std::io::Result<()> {
    let renderer = Renderer::plain();
    for (report, file) in reports.iter().zip(files) {
        let source = file.source.as_str();
        let lines = SourceLines::new(source);
        for diagnostic in &report.diagnostics {
            let (excerpt, line_start, span) = excerpt(source, &lines, diagnostic);
            let profiles: Vec<&str> = diagnostic
                .profiles
                .iter()
                .map(|profile| profile.as_str())
                .collect();
            let mut group = level(diagnostic.severity)
                .primary_title(diagnostic.message.as_str())
                .id(diagnostic.code.as_str())
                .element(
                    Snippet::source(excerpt)
                        .line_start(line_start)
                        .path(report.path.as_str())
                        .annotation(
                            AnnotationKind::Primary
                                .span(span)
                                .label(diagnostic.rule.as_str()),
                        ),
                );
            let clients = format!("applies to: {}", profiles.join(", "));
            group = group.element(Level::NOTE.message(clients));
            let help = diagnostic.fix.as_ref().map(|fix| {
                let how = match fix.applicability {
                    skillforge_core::lint::Applicability::Safe => "fixable with --fix",
                    skillforge_core::lint::Applicability::Unsafe => {
                        "fixable with --fix --unsafe-fixes"
                    }
                    skillforge_core::lint::Applicability::DisplayOnly => "suggestion",
                };
                format!("{} ({how})", fix.title)
            });
            if let Some(help) = &help {
                group = group.element(Level::HELP.message(help.as_str()));
            }
            write!(out, "{}\n\n", renderer.render(&[group]))?;
        }
        for verdict in &report.verdicts {
            match &verdict.outcome {
                Outcome::Loads { .. } => {}
                Outcome::Skipped { reason } if verdict.profile == ProfileId::Spec => {
                    writeln!(
                        out,
                        "{}: invalid per the specification: {reason}",
                        report.path
                    )?;
                }
                Outcome::Skipped { reason } => {
                    writeln!(
                        out,
                        "{}: {} skips this skill: {reason}",
                        report.path, verdict.profile
                    )?;
                }
                Outcome::Unlisted { reason, .. } => {
                    writeln!(
                        out,
                        "{}: {} loads this skill but does not list it to the model: {reason}",
                        report.path, verdict.profile
                    )?;
                }
                Outcome::FailsCatalog { reason } => writeln!(
                    out,
                    "{}: {} loads no skill at all because of this one: {reason}",
                    report.path, verdict.profile
                )?,
            }
        }
    }
    Ok(())
}

/// The text report's last lines.
/// Names the selected profiles that no real client checks, so their verdicts are not read as predictions.
fn unverified_note(profiles: &[ProfileId]) -> Option<String> {
    let unverified: Vec<&str> = profiles
        .iter()
        .filter(|id| !id.verification().is_verified())
        .map(|id| id.as_str())
        .collect();
    (!unverified.is_empty()).then(|| {
        format!(
            "Unverified profiles (no real client checks their verdicts; see docs/profiles.md): {}.",
            unverified.join(", ")
        )
    })
}

fn text_summary(
    out: &mut impl Write,
    summary: &Summary,
    fixed: Option<(usize, usize)>,
) -> std::io::Result<()> {
    if let Some((applied, files)) = fixed {
        writeln!(out, "Applied {applied} fixes in {files} files.")?;
    }
    writeln!(
        out,
        "{} errors, {} warnings, {} infos in {} files; {} fixable with --fix, {} more with --unsafe-fixes.",
        summary.errors, summary.warnings, summary.infos, summary.files, summary.fixable, summary.unsafe_fixable
    )
}

/// The most of a file one excerpt shows.
const EXCERPT_BYTES: usize = 2048;

fn floor_char_boundary(text: &str, mut at: usize) -> usize {
    at = at.min(text.len());
    while !text.is_char_boundary(at) {
        at -= 1;
    }
    at
}

/// The lines of a finding (at most eight), with the finding's range relative to them. A lone `\r` ends a
/// line in the file, so it is shown as a line break (one byte for one, so the range still fits).
fn excerpt<'a>(
    source: &'a str,
    lines: &SourceLines,
    diagnostic: &Diagnostic,
) -> (std::borrow::Cow<'a, str>, usize, std::ops::Range<usize>) {
    let first = lines.line_of(diagnostic.range.start());
    let last = lines
        .line_of(diagnostic.range.end())
        .clamp(first, first + 7);
    let mut first = first;
    let mut start = lines.line_start(first).unwrap_or(0);
    let mut end = lines.line_range(source, last).end().max(start);
    // A very long line (a minified file, thousands of links on one line) is shown as a window around
    // the finding, so each excerpt costs the same however long its line: output stays linear.
    if end - start > EXCERPT_BYTES {
        let around = EXCERPT_BYTES / 2;
        let window_start = floor_char_boundary(
            source,
            diagnostic.range.start().saturating_sub(around).max(start),
        );
        let window_end = floor_char_boundary(
            source,
            diagnostic
                .range
                .end()
                .min(diagnostic.range.start() + around)
                .saturating_add(around)
                .min(end),
        );
        first = lines.line_of(window_start);
        start = window_start;
        end = window_end.max(start);
    }
    let text = source.get(start..end).unwrap_or("");
    let span_start = diagnostic
        .range
        .start()
        .saturating_sub(start)
        .min(text.len());
    let span_end = diagnostic
        .range
        .end()
        .saturating_sub(start)
        .clamp(span_start, text.len());
    let text = if last > first && lone_carriage_returns(text).next().is_some() {
        let mut bytes = text.as_bytes().to_vec();
        for at in lone_carriage_returns(text) {
            bytes[at] = b'\n';
        }
        std::borrow::Cow::Owned(String::from_utf8(bytes).unwrap_or_else(|_| text.to_string()))
    } else {
        std::borrow::Cow::Borrowed(text)
    };
    (text, first + 1, span_start..span_end)
}

/// Schema version of the JSON report; bumped only on incompatible changes (see docs/lint-output.md).
const JSON_VERSION: u32 = 1;

/// How many files are linted and reported at a time.
const REPORT_BATCH: usize = 64;

/// Whether a checked client refuses a skill of these reports, or the whole catalog because of one, even
/// where no rule explains it: exit 1.
fn refuses(reports: &[FileReport]) -> bool {
    reports.iter().any(|report| {
        report.verdicts.iter().any(|verdict| {
            matches!(
                verdict.outcome,
                Outcome::Skipped { .. } | Outcome::FailsCatalog { .. }
            )
        })
    })
}

/// The JSON report written as it goes: byte for byte what `serde_json::to_string_pretty` gives for the
/// whole report (keys in order, two-space indents), one file at a time.
struct JsonReport {
    files: usize,
}

impl JsonReport {
    fn start(
        out: &mut impl Write,
        catalogs: serde_json::Map<String, Value>,
    ) -> anyhow::Result<Self> {
        let catalogs = serde_json::to_string_pretty(&Value::Object(catalogs))?;
        write!(
            out,
            "{{\n  \"catalogs\": {},\n  \"files\": [",
            indented(&catalogs, 2)
        )?;
        Ok(JsonReport { files: 0 })
    }

    fn files(&mut self, out: &mut impl Write, reports: &[FileReport]) -> anyhow::Result<()> {
        for report in reports {
            let separator = if self.files == 0 { "" } else { "," };
            write!(out, "{separator}\n    ")?;
            // Through a `Value`, as before: its keys come out sorted.
            serde::Serialize::serialize(
                &serde_json::to_value(report)?,
                &mut serde_json::Serializer::with_formatter(&mut *out, Indented::by(4)),
            )?;
            self.files += 1;
        }
        Ok(())
    }

    fn finish(
        self,
        out: &mut impl Write,
        profiles: &[ProfileId],
        summary: &Summary,
    ) -> anyhow::Result<()> {
        let close = if self.files == 0 { "]" } else { "\n  ]" };
        let checked = profiles;
        let profiles = serde_json::to_string_pretty(&serde_json::to_value(checked)?)?;
        let summary = serde_json::to_string_pretty(&serde_json::to_value(summary)?)?;
        // The checked profiles no real client verifies, so a consumer can tell predictions from guesses.
        let unverified: Vec<ProfileId> = checked
            .iter()
            .copied()
            .filter(|id| !id.verification().is_verified())
            .collect();
        let unverified = serde_json::to_string_pretty(&serde_json::to_value(unverified)?)?;
        writeln!(
            out,
            "{close},\n  \"profiles\": {},\n  \"summary\": {},\n  \"unverified_profiles\": {},\n  \"version\": {JSON_VERSION}\n}}",
            indented(&profiles, 2),
            indented(&summary, 2),
            indented(&unverified, 2)
        )?;
        Ok(())
    }
}

/// `serde_json`'s pretty formatter (two-space indents) with every line after the first moved right by
/// a number of spaces: what [`indented`] makes of its output, written straight to the report.
struct Indented {
    by: usize,
    level: usize,
    has_value: bool,
}

impl Indented {
    fn by(by: usize) -> Self {
        Indented {
            by,
            level: 0,
            has_value: false,
        }
    }

    fn line<W: ?Sized + Write>(&self, out: &mut W, lead: &[u8]) -> std::io::Result<()> {
        const SPACES: &[u8; 64] =
            b"                                                                ";
        out.write_all(lead)?;
        let mut left = self.by + 2 * self.level;
        while left > 0 {
            let now = left.min(SPACES.len());
            out.write_all(&SPACES[..now])?;
            left -= now;
        }
        Ok(())
    }
}

impl serde_json::ser::Formatter for Indented {
    fn begin_array<W: ?Sized + Write>(&mut self, out: &mut W) -> std::io::Result<()> {
        self.level += 1;
        self.has_value = false;
        out.write_all(b"[")
    }

    fn end_array<W: ?Sized + Write>(&mut self, out: &mut W) -> std::io::Result<()> {
        self.level -= 1;
        if self.has_value {
            self.line(out, b"\n")?;
        }
        out.write_all(b"]")
    }

    fn begin_array_value<W: ?Sized + Write>(
        &mut self,
        out: &mut W,
        first: bool,
    ) -> std::io::Result<()> {
        self.line(out, if first { b"\n" } else { b",\n" })
    }

    fn end_array_value<W: ?Sized + Write>(&mut self, _out: &mut W) -> std::io::Result<()> {
        self.has_value = true;
        Ok(())
    }

    fn begin_object<W: ?Sized + Write>(&mut self, out: &mut W) -> std::io::Result<()> {
        self.level += 1;
        self.has_value = false;
        out.write_all(b"{")
    }

    fn end_object<W: ?Sized + Write>(&mut self, out: &mut W) -> std::io::Result<()> {
        self.level -= 1;
        if self.has_value {
            self.line(out, b"\n")?;
        }
        out.write_all(b"}")
    }

    fn begin_object_key<W: ?Sized + Write>(
        &mut self,
        out: &mut W,
        first: bool,
    ) -> std::io::Result<()> {
        self.line(out, if first { b"\n" } else { b",\n" })
    }

    fn begin_object_value<W: ?Sized + Write>(&mut self, out: &mut W) -> std::io::Result<()> {
        out.write_all(b": ")
    }

    fn end_object_value<W: ?Sized + Write>(&mut self, _out: &mut W) -> std::io::Result<()> {
        self.has_value = true;
        Ok(())
    }
}

/// Pretty JSON moved right by `by` spaces after its first line (JSON strings hold no raw line breaks).
fn indented(text: &str, by: usize) -> String {
    let pad = " ".repeat(by);
    text.replace('\n', &format!("\n{pad}"))
}

/// GitHub workflow commands; values escaped as the Actions toolkit does.
fn github(out: &mut impl Write, reports: &[FileReport]) -> std::io::Result<()> {
    let escape_data = |text: &str| {
        text.replace('%', "%25")
            .replace('\r', "%0D")
            .replace('\n', "%0A")
    };
    let escape_property = |text: &str| escape_data(text).replace(':', "%3A").replace(',', "%2C");
    for report in reports {
        for diagnostic in &report.diagnostics {
            let command = match diagnostic.severity {
                Severity::Error => "error",
                Severity::Warning => "warning",
                Severity::Info => "notice",
            };
            let start = diagnostic.span.start;
            let end = diagnostic.span.end;
            writeln!(
                out,
                "::{command} file={},line={},col={},endLine={},endColumn={},title={}::{}",
                escape_property(&report.path),
                start.line,
                start.column,
                end.line,
                end.column,
                escape_property(&diagnostic.code),
                escape_data(&format!("{} ({})", diagnostic.message, diagnostic.rule)),
            )?;
        }
    }
    Ok(())
}
