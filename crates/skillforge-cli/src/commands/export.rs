//! `skillforge export ROOT... --to TARGET --out DIR`: skills packaged for where they are used, after
//! validation under the target client's profile.

use std::io::Write;
use std::path::PathBuf;

use clap::ValueEnum;
use skillforge_core::bundle::{
    self, Client, ExportReport, ExportRequest, LinkPolicy, ProblemLevel, Target, WriteAction,
};

use super::catalog::Format;
use crate::exit::Exit;

#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
enum TargetArg {
    /// A Python project with the skills as package resources and a nagents skill source, plus its wheel.
    PythonPackage,
    /// One `.skill` archive per skill, for upload to Claude (validated under claude-upload).
    SkillArchive,
    /// Skill folders installed under OUT/.claude/skills, .codex/skills, .agents/skills or .github/skills.
    ClientFolder,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
enum ClientArg {
    Claude,
    Codex,
    Agents,
    Copilot,
}

#[derive(Debug, clap::Args)]
pub struct Args {
    /// Folders to search for skills, as for `catalog`.
    #[arg(value_name = "ROOT", required = true)]
    roots: Vec<PathBuf>,
    /// What to produce.
    #[arg(long = "to", value_enum)]
    target: TargetArg,
    /// Export only these skills (comma-separated names); default: every skill found.
    #[arg(long, value_delimiter = ',')]
    skills: Option<Vec<String>>,
    /// Destination: the project folder (python-package), the folder of archives (skill-archive), or the
    /// project or home folder whose client skills folder receives the skills (client-folder).
    #[arg(long, value_name = "DIR")]
    out: PathBuf,
    /// Python distribution name; the import name is it in lowercase with `-` and `.` as `_`.
    #[arg(long, value_name = "NAME")]
    package_name: Option<String>,
    /// Python package version.
    #[arg(long, value_name = "VERSION")]
    package_version: Option<String>,
    /// The client whose skill folder receives a client-folder export.
    #[arg(long, value_enum)]
    client: Option<ClientArg>,
    /// Replace an earlier export at the destination: only the files it wrote are deleted (and listed);
    /// anything else is kept. Never replaces a folder that no export wrote.
    #[arg(long)]
    force: bool,
    /// Copy a symbolic link to a file inside the same skill as that file, instead of refusing it.
    #[arg(long)]
    follow_links_inside: bool,
    /// Output format.
    #[arg(long, value_enum, default_value_t = Format::Text)]
    format: Format,
}

pub fn run(args: Args) -> anyhow::Result<Exit> {
    let request = ExportRequest {
        roots: args.roots,
        target: match args.target {
            TargetArg::PythonPackage => Target::PythonPackage,
            TargetArg::SkillArchive => Target::SkillArchive,
            TargetArg::ClientFolder => Target::ClientFolder,
        },
        skills: args.skills,
        out: args.out,
        package_name: args.package_name,
        package_version: args.package_version,
        client: args.client.map(|client| match client {
            ClientArg::Claude => Client::Claude,
            ClientArg::Codex => Client::Codex,
            ClientArg::Agents => Client::Agents,
            ClientArg::Copilot => Client::Copilot,
        }),
        force: args.force,
        links: if args.follow_links_inside {
            LinkPolicy::FollowInside
        } else {
            LinkPolicy::Refuse
        },
    };
    let report = bundle::export(&request)?;
    let mut out = std::io::stdout().lock();
    match args.format {
        Format::Json => {
            serde_json::to_writer_pretty(&mut out, &report)?;
            writeln!(out)?;
        }
        Format::Text => write_text(&mut out, &report)?,
    }
    out.flush()?;
    Ok(Exit::findings_if(report.blocked))
}

fn write_text(out: &mut impl Write, report: &ExportReport) -> std::io::Result<()> {
    let profiles: Vec<&str> = report
        .profiles
        .iter()
        .map(|profile| profile.as_str())
        .collect();
    for problem in &report.problems {
        let level = match problem.level {
            ProblemLevel::Error => "error",
            ProblemLevel::Warning => "warning",
        };
        let mut place = problem.path.clone();
        if let Some(line) = problem.line {
            place.push_str(&format!(":{line}"));
        }
        let code = problem
            .code
            .as_ref()
            .map(|code| format!("{code} "))
            .unwrap_or_default();
        if place.is_empty() {
            writeln!(out, "{level}: {code}{}", problem.message)?;
        } else {
            writeln!(out, "{level}: {place}: {code}{}", problem.message)?;
        }
    }
    writeln!(
        out,
        "validated {} skill(s) under {}: {} error(s), {} warning(s)",
        report.skills.len(),
        profiles.join(", "),
        report.errors(),
        report.warnings()
    )?;
    if report.blocked {
        writeln!(
            out,
            "export blocked ({}): fix the errors above; nothing was written",
            report.target.as_str()
        )?;
        return Ok(());
    }
    for written in &report.written {
        let action = match written.action {
            WriteAction::Created => "created",
            WriteAction::Replaced => "replaced",
        };
        writeln!(
            out,
            "{action} {} ({} file(s), {} bytes)",
            written.path, written.files, written.bytes
        )?;
        for artifact in &written.artifacts {
            writeln!(out, "  {artifact}")?;
        }
        if !written.removed.is_empty() {
            writeln!(
                out,
                "  deleted from the earlier export: {}",
                written.removed.join(", ")
            )?;
        }
        if !written.kept.is_empty() {
            writeln!(
                out,
                "  kept (no export wrote it): {}",
                written.kept.join(", ")
            )?;
        }
    }
    for skill in &report.skills {
        writeln!(
            out,
            "  skill {} from {} ({} file(s), {} bytes)",
            skill.name, skill.source, skill.files, skill.bytes
        )?;
    }
    Ok(())
}
