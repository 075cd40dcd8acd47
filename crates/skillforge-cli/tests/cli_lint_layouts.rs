//! `skillforge lint .` from the root of repositories laid out as public skill repositories are: the
//! skills in the folders clients read them from (`.claude/skills`, `.agents/skills`, `.github/skills`,
//! `.codex/skills`, `.opencode/skill`), in hidden collection folders (`skills/.curated`), in plugin
//! marketplaces — every one is linted; dependency, build and ignored folders are not, unless asked.

mod common;

use std::collections::BTreeSet;
use std::path::Path;

fn temporary() -> tempfile::TempDir {
    match tempfile::tempdir() {
        Ok(directory) => directory,
        Err(error) => panic!("temporary directory: {error}"),
    }
}

fn write(root: &Path, relative: &str, text: &str) {
    let path = root.join(relative);
    if let Some(parent) = path.parent() {
        if let Err(error) = std::fs::create_dir_all(parent) {
            panic!("{}: {error}", parent.display());
        }
    }
    if let Err(error) = std::fs::write(&path, text) {
        panic!("{}: {error}", path.display());
    }
}

/// A skill in `folder`, named after it unless `name` says otherwise.
fn skill(root: &Path, folder: &str, name: Option<&str>) {
    let name = name.unwrap_or_else(|| folder.rsplit('/').next().unwrap_or(folder));
    write(
        root,
        &format!("{folder}/SKILL.md"),
        &format!(
            "---\nname: {name}\ndescription: Tidy {name} files. Use when the user mentions {name}.\n---\n# Steps\n"
        ),
    );
}

/// A repository: a `.git` folder as `git init` leaves it (enough for the search's rules).
fn repository(root: &Path) {
    write(root, ".git/HEAD", "ref: refs/heads/main\n");
    write(
        root,
        ".git/info/exclude",
        "# git ls-files --others --exclude-from=.git/info/exclude\n",
    );
}

/// The SKILL.md files `lint` read, as the JSON report names them, and the exit code.
fn linted(root: &Path, extra: &[&str]) -> (i32, BTreeSet<String>, String) {
    let mut args = vec!["lint", ".", "--no-config", "--format", "json"];
    args.extend_from_slice(extra);
    let (code, stdout, stderr) = common::run(root, &args);
    let report: serde_json::Value = match serde_json::from_str(&stdout) {
        Ok(report) => report,
        Err(error) => panic!("{error}: {stdout}{stderr}"),
    };
    let files = report["files"]
        .as_array()
        .map(|files| {
            files
                .iter()
                .filter_map(|file| file["path"].as_str())
                .map(|path| path.trim_start_matches("./").to_string())
                .collect()
        })
        .unwrap_or_default();
    (code, files, stderr)
}

fn set(paths: &[&str]) -> BTreeSet<String> {
    paths.iter().map(|path| (*path).to_string()).collect()
}

#[test]
fn a_project_s_client_skill_folders_are_all_linted() {
    let temp = temporary();
    let root = temp.path();
    repository(root);
    write(root, "README.md", "# A project\n");
    write(root, ".claude/settings.json", "{}\n");
    write(root, ".claude/commands/review.md", "Review the diff.\n");
    write(root, ".github/workflows/ci.yml", "on: push\n");
    write(root, ".github/copilot-instructions.md", "Be brief.\n");
    write(root, ".codex/config.toml", "model = \"o3\"\n");
    for folder in [
        ".claude/skills/pdf",
        ".claude/skills/xlsx",
        ".agents/skills/release-notes",
        ".github/skills/triage",
        ".codex/skills/migrate",
        ".opencode/skill/deploy",
        ".gemini/skills/summarize",
        ".cursor/skills/refactor",
    ] {
        skill(root, folder, None);
    }
    let (code, files, stderr) = linted(root, &[]);
    assert_eq!(code, 0, "{stderr}");
    assert_eq!(
        files,
        set(&[
            ".agents/skills/release-notes/SKILL.md",
            ".claude/skills/pdf/SKILL.md",
            ".claude/skills/xlsx/SKILL.md",
            ".codex/skills/migrate/SKILL.md",
            ".cursor/skills/refactor/SKILL.md",
            ".gemini/skills/summarize/SKILL.md",
            ".github/skills/triage/SKILL.md",
            ".opencode/skill/deploy/SKILL.md",
        ])
    );
}

#[test]
fn openai_s_layout_with_hidden_collections_is_linted() {
    // github.com/openai/skills: skills/.system, skills/.curated, skills/.experimental.
    let temp = temporary();
    let root = temp.path();
    repository(root);
    write(root, "README.md", "# Skills\n");
    write(root, ".github/workflows/validate.yml", "on: pull_request\n");
    for folder in [
        "skills/.system/skill-creator",
        "skills/.system/skill-installer",
        "skills/.curated/gh-fix-ci",
        "skills/.curated/notion-knowledge-capture",
        "skills/.experimental/create-plan",
    ] {
        skill(root, folder, None);
    }
    write(
        root,
        "skills/.curated/gh-fix-ci/scripts/inspect.py",
        "print('ci')\n",
    );
    let (code, files, stderr) = linted(root, &[]);
    assert_eq!(code, 0, "{stderr}");
    assert_eq!(
        files,
        set(&[
            "skills/.curated/gh-fix-ci/SKILL.md",
            "skills/.curated/notion-knowledge-capture/SKILL.md",
            "skills/.experimental/create-plan/SKILL.md",
            "skills/.system/skill-creator/SKILL.md",
            "skills/.system/skill-installer/SKILL.md",
        ])
    );
}

#[test]
fn anthropic_s_layout_and_a_plugin_marketplace_are_linted() {
    // github.com/anthropics/skills: skills/<name>, a template, a marketplace manifest; plugin
    // marketplaces: plugins/<plugin>/skills/<name> beside .claude-plugin/plugin.json.
    let temp = temporary();
    let root = temp.path();
    repository(root);
    write(
        root,
        ".claude-plugin/marketplace.json",
        "{\"plugins\": []}\n",
    );
    write(
        root,
        "plugins/docs/.claude-plugin/plugin.json",
        "{\"name\": \"docs\"}\n",
    );
    for folder in [
        "skills/pdf",
        "skills/docx",
        "template",
        "plugins/docs/skills/changelog",
        "plugins/ops/skills/oncall",
    ] {
        skill(root, folder, None);
    }
    let (code, files, stderr) = linted(root, &[]);
    assert_eq!(code, 0, "{stderr}");
    assert_eq!(
        files,
        set(&[
            "plugins/docs/skills/changelog/SKILL.md",
            "plugins/ops/skills/oncall/SKILL.md",
            "skills/docx/SKILL.md",
            "skills/pdf/SKILL.md",
            "template/SKILL.md",
        ])
    );
}

/// A repository with skills of its own and copies of skills in every kind of folder a linter passes over.
fn noisy_repository(root: &Path) {
    repository(root);
    skill(root, "skills/tidy", None);
    skill(root, ".claude/skills/review", None);
    // Dependencies, environments and builds.
    skill(root, "node_modules/some-package/skills/tidy", None);
    skill(
        root,
        ".venv/lib/python3.11/site-packages/pkg/skills/tidy",
        None,
    );
    skill(root, "target/debug/tidy", None);
    skill(root, "dist/tidy", None);
    write(
        root,
        "cache-here/CACHEDIR.TAG",
        "Signature: 8a477f597d28d172789f06886806bc55\n",
    );
    skill(root, "cache-here/tidy", None);
    // Ignore files: the repository's, a folder's own, git's exclude, with a pattern taken back.
    write(
        root,
        ".gitignore",
        "/generated/*\n!/generated/keep/\n*.bak/\n",
    );
    skill(root, "generated/tidy", None);
    skill(root, "generated/keep", None);
    skill(root, "skills/old.bak", None);
    write(root, "skills/.ignore", "scratch/\n");
    skill(root, "skills/scratch", None);
    write(root, ".git/info/exclude", "local-only/\n");
    skill(root, "local-only/tidy", None);
    // Never a skill place, whatever the options say.
    skill(root, ".git/hooks/tidy", None);
    // A hidden folder whose skill sits two levels down: only `--hidden` looks that far.
    skill(root, ".idea/notes/tidy", None);
}

#[test]
fn dependency_build_and_ignored_folders_are_passed_over_unless_asked() {
    let temp = temporary();
    let root = temp.path();
    noisy_repository(root);
    let own = [
        ".claude/skills/review/SKILL.md",
        "generated/keep/SKILL.md",
        "skills/tidy/SKILL.md",
    ];
    let (code, files, stderr) = linted(root, &[]);
    assert_eq!(code, 0, "{stderr}");
    assert_eq!(files, set(&own));

    let ignored = [
        "cache-here/tidy/SKILL.md",
        "dist/tidy/SKILL.md",
        "generated/tidy/SKILL.md",
        "local-only/tidy/SKILL.md",
        "node_modules/some-package/skills/tidy/SKILL.md",
        "skills/old.bak/SKILL.md",
        "skills/scratch/SKILL.md",
        "target/debug/tidy/SKILL.md",
    ];
    let (_, files, stderr) = linted(root, &["--no-ignore"]);
    let expected: BTreeSet<String> = own.iter().chain(&ignored).map(|p| p.to_string()).collect();
    assert_eq!(files, expected, "{stderr}");

    let (_, files, stderr) = linted(root, &["--hidden"]);
    let expected: BTreeSet<String> = own
        .iter()
        .chain(&[".idea/notes/tidy/SKILL.md"])
        .map(|p| p.to_string())
        .collect();
    assert_eq!(files, expected, "{stderr}");

    let (_, files, stderr) = linted(root, &["--hidden", "--no-ignore"]);
    let expected: BTreeSet<String> = own
        .iter()
        .chain(&ignored)
        .chain(&[
            ".idea/notes/tidy/SKILL.md",
            ".venv/lib/python3.11/site-packages/pkg/skills/tidy/SKILL.md",
        ])
        .map(|p| p.to_string())
        .collect();
    assert_eq!(files, expected, "{stderr}");
}

#[test]
fn ignore_files_above_a_linted_folder_apply_and_a_nested_repository_starts_afresh() {
    let temp = temporary();
    let root = temp.path();
    repository(root);
    write(root, ".gitignore", "drafts/\n");
    skill(root, "skills/tidy", None);
    skill(root, "skills/drafts/wip", None);
    // A repository inside: the enclosing one's patterns stop at its root, its own apply.
    repository(&root.join("vendor/tools"));
    write(root, "vendor/tools/.gitignore", "private/\n");
    skill(root, "vendor/tools/drafts/shared", None);
    skill(root, "vendor/tools/private/secret", None);

    let (code, stdout, stderr) =
        common::run(root, &["lint", "skills", "--no-config", "--format", "json"]);
    assert_eq!(code, 0, "{stderr}");
    assert!(stdout.contains("skills/tidy/SKILL.md"), "{stdout}");
    assert!(!stdout.contains("drafts/wip"), "{stdout}");

    let (_, files, stderr) = linted(root, &[]);
    assert_eq!(
        files,
        set(&[
            "skills/tidy/SKILL.md",
            "vendor/tools/drafts/shared/SKILL.md"
        ]),
        "{stderr}"
    );
}

#[test]
fn a_path_named_on_the_command_line_is_linted_even_if_ignored() {
    let temp = temporary();
    let root = temp.path();
    repository(root);
    write(root, ".gitignore", "generated/\n");
    skill(root, "generated/tidy", None);
    let (code, stdout, stderr) = common::run(
        root,
        &["lint", "generated/tidy", "--no-config", "--format", "json"],
    );
    assert_eq!(code, 0, "{stderr}");
    assert!(stdout.contains("generated/tidy/SKILL.md"), "{stdout}");
}

#[test]
fn finding_nothing_names_what_was_passed_over() {
    let temp = temporary();
    let root = temp.path();
    skill(root, "node_modules/pkg/skills/tidy", None);
    skill(root, ".idea/notes/tidy", None);
    let (code, stdout, stderr) = common::run(root, &["lint", ".", "--no-config"]);
    assert_eq!(code, 2, "{stdout}{stderr}");
    assert_eq!(
        stderr,
        "error: .: no SKILL.md found; passed over: 1 folder left out by ignore files or as dependency \
         or build folders (--no-ignore searches them), 1 folder hidden (--hidden searches them)\n"
    );
}

#[test]
fn a_duplicate_name_in_a_hidden_collection_fails_nagents_catalog() {
    let temp = temporary();
    let root = temp.path();
    skill(root, "skills/.curated/one", Some("same"));
    skill(root, "skills/two", Some("same"));
    let (code, stdout, stderr) = common::run(
        root,
        &[
            "lint",
            ".",
            "--no-config",
            "--profile",
            "nagents",
            "--format",
            "json",
        ],
    );
    assert_eq!(code, 1, "{stdout}{stderr}");
    let report: serde_json::Value = match serde_json::from_str(&stdout) {
        Ok(report) => report,
        Err(error) => panic!("{error}: {stdout}"),
    };
    let outcomes: Vec<&str> = report["files"]
        .as_array()
        .into_iter()
        .flatten()
        .flat_map(|file| file["verdicts"].as_array().into_iter().flatten())
        .filter_map(|verdict| {
            verdict["outcome"]
                .as_str()
                .or(verdict["outcome"]["kind"].as_str())
        })
        .collect();
    assert_eq!(outcomes.len(), 2, "{stdout}");
    assert!(
        outcomes.iter().all(|outcome| *outcome == "fails-catalog"),
        "{outcomes:?}"
    );
}

#[test]
fn links_into_folders_the_search_passes_over_are_still_checked_on_disk() {
    // The walk's listing answers for the folders it entered; a hidden, dependency or ignored folder
    // inside a skill is asked of the filesystem, so its files are not reported missing.
    let temp = temporary();
    let root = temp.path();
    repository(root);
    write(root, ".gitignore", "generated/\n");
    write(
        root,
        "skills/tidy/SKILL.md",
        "---\nname: tidy\ndescription: Tidy files. Use when the user mentions tidy.\n---\n\
         Read [the guide](references/guide.md), [notes](.private/notes.md), [the vendored readme](node_modules/pkg/README.md),\n\
         [the output](generated/out.md) and [the gone one](references/gone.md).\n",
    );
    write(root, "skills/tidy/references/guide.md", "guide\n");
    write(root, "skills/tidy/.private/notes.md", "notes\n");
    write(root, "skills/tidy/node_modules/pkg/README.md", "readme\n");
    write(root, "skills/tidy/generated/out.md", "out\n");
    let (_, stdout, stderr) = common::run(
        root,
        &[
            "lint",
            ".",
            "--no-config",
            "--profile",
            "spec",
            "--format",
            "json",
        ],
    );
    let report: serde_json::Value = match serde_json::from_str(&stdout) {
        Ok(report) => report,
        Err(error) => panic!("{error}: {stdout}{stderr}"),
    };
    let missing: Vec<&str> = report["files"][0]["diagnostics"]
        .as_array()
        .into_iter()
        .flatten()
        .filter(|diagnostic| diagnostic["rule"] == "link-target-missing")
        .filter_map(|diagnostic| diagnostic["message"].as_str())
        .collect();
    assert_eq!(
        missing,
        ["`references/gone.md` does not exist in the skill folder"],
        "{stdout}"
    );
}
