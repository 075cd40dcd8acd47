//! The clients, one folder each: everything one client does with skills (where it looks, how it
//! parses and what it drops, its verdict, its catalog text, its tools), over the generic layers
//! (`text`, `fs`, `frontmatter::yaml`, `python`). Nothing here imports the linter or the workspace.
//!
//! Every client lists its skills through one small trait, [`listing::Client`]; the dispatch over the
//! dialects is [`crate::catalog::listing`].
//!
//! - [`nagents`]: nagents 0.25.2;
//! - [`tenxgraph`]: 10xGraph 0.10.3;
//! - [`skills_ref`]: skills-ref 0.1.1, the specification's reference library;
//! - [`claude_code`], [`codex`]: Claude Code 2.1.332 and Codex 0.171.0, modelled from the real binaries
//!   (their discovery for `listing --project`, the same model over given folders for the ROOTS form and
//!   the app, and the per-file verdicts of `lint`), all checked against the binaries;
//! - [`copilot`]: GitHub Copilot CLI 1.0.102, modelled from the real binary the same way;
//! - [`gemini`]: Gemini CLI 0.61.0, modelled the same way from the real client (js-yaml with its line
//!   fallback, no budget);
//! - [`opencode`]: OpenCode 1.18.33, modelled from the real binary the same way.

pub mod claude_code;
pub mod codex;
pub mod copilot;
pub mod gemini;
pub mod listing;
pub mod nagents;
pub mod opencode;
pub mod skills_ref;
pub mod stream;
pub mod tenxgraph;

/// The folders between a client's skills folder in `path` (the last place its components `roots`
/// appear, e.g. `.claude/skills`) and the SKILL.md at its end; `None` when the path holds none, so the
/// skill is judged as if its folder were installed in one. The path is made absolute as written, links
/// not resolved: a linked skill folder counts where its link is.
pub(crate) fn below_root(
    path: &std::path::Path,
    roots: &[&[&str]],
) -> Option<Vec<std::ffi::OsString>> {
    let absolute = std::path::absolute(path).unwrap_or_else(|_| path.to_path_buf());
    let names: Vec<&std::ffi::OsStr> = absolute
        .components()
        .filter_map(|component| match component {
            std::path::Component::Normal(name) => Some(name),
            _ => None,
        })
        .collect();
    let folders = names.len().checked_sub(1)?;
    let end = roots
        .iter()
        .filter_map(|root| {
            (root.len()..=folders).rev().find(|end| {
                names[end - root.len()..*end]
                    .iter()
                    .zip(root.iter())
                    .all(|(a, b)| a == b)
            })
        })
        .max()?;
    Some(
        names[end..folders]
            .iter()
            .map(|name| name.to_os_string())
            .collect(),
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_folders_below_the_last_client_root_in_a_path() {
        let claude: &[&[&str]] = &[&[".claude", "skills"]];
        let below = |path: &str| {
            below_root(std::path::Path::new(path), claude).map(|folders| {
                folders
                    .iter()
                    .map(|name| name.to_string_lossy().into_owned())
                    .collect::<Vec<_>>()
            })
        };
        assert_eq!(
            below("/r/.claude/skills/a/SKILL.md"),
            Some(vec!["a".to_string()])
        );
        assert_eq!(below("/r/.claude/skills/SKILL.md"), Some(vec![]));
        assert_eq!(
            below("/r/.claude/skills/a/.claude/skills/b/c/SKILL.md"),
            Some(vec!["b".to_string(), "c".to_string()])
        );
        assert_eq!(below("/r/skills/a/SKILL.md"), None);
        assert_eq!(below("/r/.claude/a/SKILL.md"), None);
    }
}
