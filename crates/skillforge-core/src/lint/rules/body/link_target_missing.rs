use super::resolve_inside;
use crate::lint::{Applicability, Finding, SkillContext, TextEdit};

crate::declare_rule! {
    /// ## What it does
    /// Flags a relative link or image in the body whose file does not exist in the skill folder.
    ///
    /// ## Why it matters
    /// When the model follows the link (10xGraph's `read_skill_resource`, Claude Code's file reads), it gets
    /// an error instead of the instructions the author meant it to read.
    ///
    /// ## Example
    /// ```markdown
    /// See [the form guide](references/forms.md).
    /// ```
    /// with no `references/forms.md` next to SKILL.md.
    ///
    /// A `\` between folders (`references\guide.md`) is a separator on Windows only: on Linux and macOS
    /// the link names one file called `references\guide.md`, which is not there, whatever Windows shows.
    ///
    /// ## Fix
    /// Create the file, or correct the path (paths are relative to the skill folder). The app offers to
    /// create the missing file (empty, or with a heading for Markdown), never outside the skill folder
    /// and never over an existing file; `--fix` does not create files. For a `\` separator, writing `/`
    /// instead is offered (safe: every system reads `/`).
    RULE {
        name: "link-target-missing",
        group: "body",
        severity: Warning,
        profiles: [Spec, Nagents, Tenxgraph, ClaudeCode, ClaudeUpload, Codex, Copilot, Opencode, Gemini],
        fix: Safe,
        check: check,
    }
}

fn check(context: &SkillContext<'_>, findings: &mut Vec<Finding>) {
    // Long bodies link the same few files many times; ask the filesystem once per target, all targets
    // at once (the skill folder opened once).
    let mut wanted: Vec<std::path::PathBuf> = context
        .local_links()
        .iter()
        .filter(|link| !link.target.contains('\\'))
        .filter_map(|link| resolve_inside(&link.target).ok())
        .filter(|inside| !inside.as_os_str().is_empty())
        .collect();
    wanted.sort();
    wanted.dedup();
    let known: std::collections::HashMap<&std::path::Path, bool> = if wanted.is_empty() {
        std::collections::HashMap::new()
    } else {
        let paths: Vec<&std::path::Path> = wanted.iter().map(std::path::PathBuf::as_path).collect();
        let found = context.file.exist(context.files, &paths);
        paths.into_iter().zip(found).collect()
    };
    for link in context.local_links() {
        let Ok(inside) = resolve_inside(&link.target) else {
            continue;
        };
        if inside.as_os_str().is_empty() {
            continue;
        }
        if link.target.contains('\\') {
            let slashed = link.target.replace('\\', "/");
            let mut finding = Finding::new(
                link.range,
                format!(
                    "`{}` separates folders with `\\`, a separator on Windows only: on Linux and macOS it names \
                     a file called `{}`, which does not exist; write `{slashed}`",
                    link.target, link.target
                ),
            );
            let written = link.range.slice(context.source);
            if written.contains('\\') && written.starts_with(link.target.as_str()) {
                finding = finding.with_fix(
                    format!("Write `{slashed}`"),
                    Applicability::Safe,
                    vec![TextEdit {
                        range: link.range,
                        replacement: written.replace('\\', "/"),
                    }],
                );
            }
            findings.push(finding);
            continue;
        }
        if known.get(inside.as_path()) == Some(&false) {
            let finding = Finding::new(
                link.range,
                format!("`{}` does not exist in the skill folder", link.target),
            );
            // A link to a folder (`references/`) names no file to create.
            let finding = if link.target.ends_with('/') {
                finding
            } else {
                let relative = inside.to_string_lossy().into_owned();
                finding.with_created_file(format!("Create `{relative}`"), relative)
            };
            findings.push(finding);
        }
    }
}
