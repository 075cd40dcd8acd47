//! One exit-code table for every command, run on the real binary: 0 clean, 1 findings at error level
//! or input a client refuses (a duplicate name nagents fails the whole catalog for), 2 usage or I/O
//! failure.

mod common;

use std::path::Path;

const CLEAN: i32 = 0;
const FINDINGS: i32 = 1;
const FAILURE: i32 = 2;

fn skill(root: &Path, folder: &str, name: &str, description: &str) {
    let dir = root.join(folder);
    if let Err(error) = std::fs::create_dir_all(&dir) {
        panic!("{}: {error}", dir.display());
    }
    let text = format!("---\nname: {name}\ndescription: {description}\n---\n# Steps\n");
    if let Err(error) = std::fs::write(dir.join("SKILL.md"), text) {
        panic!("{}: {error}", dir.display());
    }
}

/// `clean/`: two skills every client accepts. `duplicate/`: two skills of the same name in folders
/// of that name, which nagents refuses as a whole catalog.
fn workspace() -> tempfile::TempDir {
    let temp = match tempfile::tempdir() {
        Ok(temp) => temp,
        Err(error) => panic!("temporary directory: {error}"),
    };
    let pdf = "Extract text from PDF files. Use when the user mentions PDFs.";
    let sql = "Write and fix SQL queries. Use when the user mentions SQL or databases.";
    skill(&temp.path().join("clean"), "pdf-tools", "pdf-tools", pdf);
    skill(&temp.path().join("clean"), "sql-tools", "sql-tools", sql);
    skill(
        &temp.path().join("duplicate"),
        "pdf-tools",
        "pdf-tools",
        pdf,
    );
    skill(
        &temp.path().join("duplicate"),
        "copy/pdf-tools",
        "pdf-tools",
        pdf,
    );
    let queries =
        r#"[{"query": "extract the text of this PDF file", "should_trigger": "pdf-tools"}]"#;
    let misrouted =
        r#"[{"query": "extract the text of this PDF file", "should_trigger": "sql-tools"}]"#;
    for (name, text) in [("queries.json", queries), ("misrouted.json", misrouted)] {
        if let Err(error) = std::fs::write(temp.path().join(name), text) {
            panic!("{name}: {error}");
        }
    }
    temp
}

/// Runs each command line in `dir` and checks its exit code, saying which line failed.
fn expect(dir: &Path, cases: &[(i32, &[&str])]) {
    for (expected, args) in cases {
        let (code, stdout, stderr) = common::run(dir, args);
        assert_eq!(
            code,
            *expected,
            "skillforge {}\n{stdout}{stderr}",
            args.join(" ")
        );
    }
}

#[test]
fn catalog() {
    let temp = workspace();
    expect(
        temp.path(),
        &[
            (CLEAN, &["catalog", "clean"]),
            (FINDINGS, &["catalog", "duplicate"]),
            (FINDINGS, &["catalog", "duplicate", "--format", "json"]),
            (FAILURE, &["catalog", "missing"]),
            (FAILURE, &["catalog", "clean", "--max-depth", "-1"]),
        ],
    );
}

#[test]
fn manifest() {
    let temp = workspace();
    expect(
        temp.path(),
        &[
            (CLEAN, &["manifest", "clean"]),
            (FINDINGS, &["manifest", "duplicate"]),
            (FAILURE, &["manifest", "missing"]),
            (FAILURE, &["manifest", "clean", "--max-entries", "0"]),
        ],
    );
}

#[test]
fn load() {
    let temp = workspace();
    expect(
        temp.path(),
        &[
            (CLEAN, &["load", "clean", "--name", "pdf-tools"]),
            (FINDINGS, &["load", "duplicate", "--name", "pdf-tools"]),
            (FINDINGS, &["load", "clean", "--name", "unknown-skill"]),
            (FAILURE, &["load", "missing", "--name", "pdf-tools"]),
            (
                FAILURE,
                &["load", "clean", "--name", "pdf-tools", "--token-limit", "0"],
            ),
        ],
    );
}

#[test]
fn listing_for_each_dialect() {
    let temp = workspace();
    for dialect in [
        "nagents",
        "10xgraph",
        "skills-ref",
        "claude-code",
        "codex",
        "opencode",
    ] {
        // Only nagents refuses a catalog with a duplicate name; the others list or shadow it.
        let duplicate = if dialect == "nagents" {
            FINDINGS
        } else {
            CLEAN
        };
        expect(
            temp.path(),
            &[
                (CLEAN, &["listing", "clean", "--dialect", dialect]),
                (CLEAN, &["listing", "clean", "--dialect", dialect, "--json"]),
                (duplicate, &["listing", "duplicate", "--dialect", dialect]),
                (
                    duplicate,
                    &["listing", "duplicate", "--dialect", dialect, "--json"],
                ),
                (FAILURE, &["listing", "missing", "--dialect", dialect]),
            ],
        );
    }
    expect(
        temp.path(),
        &[(FAILURE, &["listing", "clean", "--dialect", "nope"])],
    );
}

/// `listing --project`: the client's own discovery from the project folder, with HOME and CODEX_HOME
/// pointing at an empty folder so nothing of the machine's own skills takes part.
#[test]
fn listing_of_a_project() {
    let temp = workspace();
    let root = temp.path();
    let pdf = "Extract text from PDF files. Use when the user mentions PDFs.";
    skill(
        &root.join("good/.agents/skills"),
        "pdf-tools",
        "pdf-tools",
        pdf,
    );
    skill(
        &root.join("good/.claude/skills"),
        "pdf-tools",
        "pdf-tools",
        pdf,
    );
    // Codex drops a skill whose description is missing, and says so: exit 1.
    let bad = root.join("bad/.agents/skills/no-description");
    if let Err(error) = std::fs::create_dir_all(&bad)
        .and_then(|()| std::fs::write(bad.join("SKILL.md"), "---\nname: x\n---\nBody\n"))
    {
        panic!("{}: {error}", bad.display());
    }
    // Copilot CLI drops a skill whose YAML does not parse (it loads the one without a description).
    let colon = root.join("bad/.agents/skills/colon");
    if let Err(error) = std::fs::create_dir_all(&colon).and_then(|()| {
        std::fs::write(
            colon.join("SKILL.md"),
            "---\nname: colon\ndescription: Use when: asked\n---\nBody\n",
        )
    }) {
        panic!("{}: {error}", colon.display());
    }
    let home = root.join("home");
    if let Err(error) = std::fs::create_dir_all(&home) {
        panic!("{}: {error}", home.display());
    }
    let run = |args: &[&str]| {
        let output = std::process::Command::new(env!("CARGO_BIN_EXE_skillforge"))
            .current_dir(root)
            .env("HOME", &home)
            .env("CODEX_HOME", &home)
            .args(args)
            .output();
        match output {
            Ok(output) => (
                output.status.code().unwrap_or(-1),
                String::from_utf8_lossy(&output.stdout).into_owned(),
                String::from_utf8_lossy(&output.stderr).into_owned(),
            ),
            Err(error) => panic!("cannot run skillforge: {error}"),
        }
    };
    let cases: &[(i32, &[&str])] = &[
        (
            CLEAN,
            &["listing", "--dialect", "codex", "--project", "good"],
        ),
        (
            FINDINGS,
            &["listing", "--dialect", "codex", "--project", "bad"],
        ),
        (
            CLEAN,
            &["listing", "--dialect", "claude-code", "--project", "good"],
        ),
        // Claude Code reads every skill it finds: nothing here is refused.
        (
            CLEAN,
            &["listing", "--dialect", "claude-code", "--project", "bad"],
        ),
        (
            FAILURE,
            &["listing", "--dialect", "codex", "--project", "missing"],
        ),
        (
            FAILURE,
            &[
                "listing",
                "--dialect",
                "claude-code",
                "--project",
                "missing",
            ],
        ),
        (
            FAILURE,
            &[
                "listing",
                "--dialect",
                "claude-code",
                "--project",
                "good",
                "--budget",
                "0",
            ],
        ),
        (
            FAILURE,
            &[
                "listing",
                "--dialect",
                "claude-code",
                "--project",
                "good",
                "--json",
            ],
        ),
        // OpenCode loads a skill without a description (unlisted): nothing is dropped.
        (
            CLEAN,
            &["listing", "--dialect", "opencode", "--project", "good"],
        ),
        (
            CLEAN,
            &["listing", "--dialect", "opencode", "--project", "bad"],
        ),
        (
            FAILURE,
            &["listing", "--dialect", "opencode", "--project", "missing"],
        ),
        (
            FAILURE,
            &[
                "listing",
                "--dialect",
                "opencode",
                "--project",
                "good",
                "--context-window",
                "1000",
            ],
        ),
        (
            CLEAN,
            &["listing", "--dialect", "gemini", "--project", "good"],
        ),
        // Gemini drops a skill without a description; skillforge names it: exit 1.
        (
            FINDINGS,
            &["listing", "--dialect", "gemini", "--project", "bad"],
        ),
        (
            FAILURE,
            &["listing", "--dialect", "gemini", "--project", "missing"],
        ),
        (
            FAILURE,
            &[
                "listing",
                "--dialect",
                "gemini",
                "--project",
                "good",
                "--json",
            ],
        ),
        (
            FAILURE,
            &["listing", "--dialect", "nagents", "--project", "good"],
        ),
        (
            CLEAN,
            &["listing", "--dialect", "copilot", "--project", "good"],
        ),
        (
            FINDINGS,
            &["listing", "--dialect", "copilot", "--project", "bad"],
        ),
        (
            FAILURE,
            &["listing", "--dialect", "copilot", "--project", "missing"],
        ),
        (
            FAILURE,
            &[
                "listing",
                "--dialect",
                "copilot",
                "--project",
                "good",
                "--budget",
                "5",
            ],
        ),
        (
            CLEAN,
            &[
                "listing",
                "good/.agents/skills",
                "--dialect",
                "copilot",
                "--skill-char-budget",
                "10",
            ],
        ),
        (
            FAILURE,
            &["listing", "good", "--dialect", "codex", "--project", "good"],
        ),
    ];
    for (expected, args) in cases {
        let (code, stdout, stderr) = run(args);
        assert_eq!(
            code,
            *expected,
            "skillforge {}\n{stdout}{stderr}",
            args.join(" ")
        );
    }
    // Gemini's section lists the project's skill; with its built-in skills first when asked.
    let (_, stdout, _) = run(&["listing", "--dialect", "gemini", "--project", "good"]);
    assert!(
        stdout.starts_with("# Available Agent Skills\n")
            && stdout.contains("    <name>pdf-tools</name>\n")
            && stdout.ends_with("</available_skills>"),
        "{stdout}"
    );
    let (_, stdout, _) = run(&[
        "listing",
        "--dialect",
        "gemini",
        "--project",
        "good",
        "--with-client-skills",
        "--client-bundle",
        "/opt/gemini/bundle",
    ]);
    assert!(
        stdout.contains(
            "  <skill>\n    <name>skill-creator</name>\n    <description>Guide for creating effective skills."
        ) && stdout.contains("<location>/opt/gemini/bundle/builtin/skill-creator/SKILL.md</location>"),
        "{stdout}"
    );
    let (_, _, stderr) = run(&["listing", "--dialect", "gemini", "--project", "bad"]);
    assert!(
        stderr.contains("no-description/SKILL.md: Gemini CLI finds no `description`"),
        "{stderr}"
    );
    // The dropped skill is named with Codex's message; the listed one is in the block.
    let (_, _, stderr) = run(&["listing", "--dialect", "codex", "--project", "bad"]);
    assert!(
        stderr.contains("no-description/SKILL.md: missing field `description`"),
        "{stderr}"
    );
    let (_, _, stderr) = run(&["listing", "--dialect", "copilot", "--project", "bad"]);
    assert!(
        stderr.contains("colon/SKILL.md: failed to parse YAML frontmatter: mapping values are not allowed in this context at line 2 column 22"),
        "{stderr}"
    );
    let (_, stdout, _) = run(&["listing", "--dialect", "copilot", "--project", "good"]);
    assert!(
        stdout.starts_with("<skill>\n<available_skills>\n<skill>\n  <name>pdf-tools</name>"),
        "{stdout}"
    );
    let (_, stdout, _) = run(&["listing", "--dialect", "codex", "--project", "good"]);
    assert!(
        stdout.contains("- pdf-tools: Extract text from PDF files."),
        "{stdout}"
    );
    // OpenCode: one entry for the name both folders declare (which one is the client's race), the
    // client's own entry with --with-client-skills, and the unlisted skill's name nowhere in the section.
    let (_, stdout, stderr) = run(&["listing", "--dialect", "opencode", "--project", "good"]);
    assert_eq!(
        stdout.matches("<name>pdf-tools</name>").count(),
        1,
        "{stdout}"
    );
    assert!(!stdout.contains("customize-opencode"), "{stdout}");
    assert!(
        stderr.contains("2 skills are named \"pdf-tools\""),
        "{stderr}"
    );
    let (_, stdout, _) = run(&[
        "listing",
        "--dialect",
        "opencode",
        "--project",
        "good",
        "--with-client-skills",
    ]);
    assert!(
        stdout.contains("<name>customize-opencode</name>"),
        "{stdout}"
    );
    // OpenCode's sanitizer repairs the `: ` value, and a skill without a description loads unlisted.
    let (_, stdout, _) = run(&["listing", "--dialect", "opencode", "--project", "bad"]);
    assert!(
        stdout.contains("<name>colon</name>") && !stdout.contains("<name>x</name>"),
        "{stdout}"
    );
    // A folder with no skill anywhere: the client's own sentence in place of the block.
    let (_, stdout, _) = run(&["listing", "--dialect", "opencode", "--project", "home"]);
    assert!(
        stdout.ends_with("\nNo skills are currently available."),
        "{stdout}"
    );
}

#[test]
fn simulate() {
    let temp = workspace();
    expect(
        temp.path(),
        &[
            (CLEAN, &["simulate", "clean", "--message", "use $pdf-tools"]),
            (
                FINDINGS,
                &["simulate", "duplicate", "--message", "use $pdf-tools"],
            ),
            (
                FINDINGS,
                &[
                    "simulate",
                    "duplicate",
                    "--message",
                    "hi",
                    "--refresh",
                    "once",
                    "--timings",
                ],
            ),
            (
                CLEAN,
                &[
                    "simulate",
                    "duplicate",
                    "--message",
                    "hi",
                    "--dialect",
                    "10xgraph",
                ],
            ),
            (FAILURE, &["simulate", "missing", "--message", "hi"]),
            (
                FAILURE,
                &["simulate", "clean", "--message", "hi", "--model", "nope"],
            ),
        ],
    );
}

#[test]
fn triggers() {
    let temp = workspace();
    expect(
        temp.path(),
        &[
            (CLEAN, &["triggers", "clean", "--queries", "queries.json"]),
            (
                FINDINGS,
                &["triggers", "clean", "--queries", "misrouted.json"],
            ),
            (
                FINDINGS,
                &["triggers", "duplicate", "--queries", "queries.json"],
            ),
            (FAILURE, &["triggers", "clean", "--queries", "missing.json"]),
            (
                FAILURE,
                &["triggers", "missing", "--queries", "queries.json"],
            ),
        ],
    );
}

#[test]
fn lint() {
    let temp = workspace();
    expect(
        temp.path(),
        &[
            (CLEAN, &["lint", "clean", "--no-config"]),
            (FINDINGS, &["lint", "duplicate", "--no-config"]),
            (FAILURE, &["lint", "missing", "--no-config"]),
            (FAILURE, &["lint", "clean", "--profile", "nope"]),
        ],
    );
}

#[test]
fn export() {
    let temp = workspace();
    expect(
        temp.path(),
        &[
            (
                CLEAN,
                &["export", "clean", "--to", "skill-archive", "--out", "out"],
            ),
            (
                FINDINGS,
                &[
                    "export",
                    "duplicate",
                    "--to",
                    "skill-archive",
                    "--out",
                    "blocked",
                ],
            ),
            (
                FAILURE,
                &["export", "missing", "--to", "skill-archive", "--out", "out"],
            ),
            (
                FAILURE,
                &["export", "clean", "--to", "nowhere", "--out", "out"],
            ),
        ],
    );
}

#[test]
fn schema() {
    let temp = workspace();
    expect(
        temp.path(),
        &[(CLEAN, &["schema"]), (FAILURE, &["schema", "--nope"])],
    );
}

#[test]
fn help_and_version_are_clean_and_no_command_is_usage() {
    let temp = workspace();
    expect(
        temp.path(),
        &[
            (CLEAN, &["--help"]),
            (CLEAN, &["--version"]),
            (CLEAN, &["lint", "--help"]),
            (FAILURE, &[]),
            (FAILURE, &["nope"]),
        ],
    );
}
