//! `skillforge listing --dialect D ROOT...`: the catalog text a client shows a model, exactly, with
//! the budget settings an author can change.
//!
//! `skillforge listing --dialect claude-code --project DIR`: the block the real client started in DIR
//! sends, found as it finds skills (HOME honoured), from the client's own model
//! ([`skillforge_core::clients::claude_code`]).
//!
//! `skillforge listing --dialect codex --project DIR`: discovers as the client started in DIR would
//! (its roots, `HOME`, `CODEX_HOME`, `/etc/codex/skills`) and prints exactly the block it sends the
//! model, nothing else (nothing at all when it lists no skill). The skills it drops are named on
//! stderr with the client's message, and the run then exits 1.
//!
//! `skillforge listing --dialect copilot --project DIR`: discovers as GitHub Copilot CLI started in DIR
//! would (`.github/skills`, `.agents/skills`, `.claude/skills` of DIR and its ancestors up to the git
//! root, then `~/.copilot/skills` and `~/.agents/skills`) and prints exactly the `<skill>` section of
//! its system message (nothing when it lists no skill); `SKILL_CHAR_BUDGET` is honoured as the client
//! honours it. The skills it drops are named on stderr with `copilot skill list`'s message, and the run
//! then exits 1.
//! `skillforge listing --dialect gemini --project DIR`: the `# Available Agent Skills` section Gemini
//! CLI started in DIR puts in its system instruction (`GEMINI_CLI_HOME`, else `HOME`, honoured),
//! nothing else (nothing at all when it lists no skill). `--with-client-skills` puts the client's two
//! built-in skills first, located under `--client-bundle` (the installed `bundle` folder).
//! `skillforge listing --dialect opencode --project DIR`: discovers as OpenCode started in DIR would
//! (its roots up to the git root; HOME, XDG_CONFIG_HOME, OPENCODE_CONFIG_DIR and its switches
//! honoured) and prints exactly the skills section it ends its system prompt with; its own
//! `customize-opencode` is printed with `--with-client-skills`. The skills it drops are named on stderr
//! (the client itself says nothing), and the run then exits 1.

use std::io::Write;
use std::path::PathBuf;

use skillforge_core::catalog::session::CatalogSession;
use skillforge_core::clients::listing::{CatalogDialect, CatalogLimits};
use skillforge_core::workspace::Workspace;

use crate::exit::Exit;

#[derive(Debug, clap::Args)]
pub struct Args {
    /// Folders holding skills.
    #[arg(required_unless_present = "project", conflicts_with = "project")]
    roots: Vec<PathBuf>,
    /// Discover as the client started in this folder would (its roots; HOME, CODEX_HOME for codex and
    /// GEMINI_CLI_HOME for gemini honoured) and print exactly its listing block (claude-code, codex,
    /// copilot, gemini, opencode).
    #[arg(long, value_name = "DIR")]
    project: Option<PathBuf>,
    /// With --project: the listing budget in characters, as SLASH_COMMAND_TOOL_CHAR_BUDGET sets it
    /// (Claude Code's default is 30000).
    #[arg(long, requires = "project", value_parser = clap::value_parser!(u64).range(1..))]
    budget: Option<u64>,
    /// With --project: also print the client's own entries (its bundled skills and commands), which
    /// follow the project's and the user's (for gemini: its two built-in skills, which come first).
    #[arg(long, requires = "project")]
    with_client_skills: bool,
    /// Copilot's listing budget in UTF-16 units, as SKILL_CHAR_BUDGET sets it (default 15000).
    #[arg(long, value_parser = clap::value_parser!(u32).range(1..))]
    skill_char_budget: Option<u32>,
    /// With --project --dialect gemini --with-client-skills: the client's installed `bundle` folder, under
    /// which its built-in skills are located (default: a global npm install's).
    #[arg(long, value_name = "DIR", requires = "with_client_skills")]
    client_bundle: Option<PathBuf>,
    /// Which client: nagents, 10xgraph, skills-ref, claude-code, codex, copilot, gemini or opencode.
    #[arg(long, default_value = "nagents", value_parser = parse_dialect)]
    dialect: CatalogDialect,
    /// nagents' manifest cap in estimated tokens (nagents uses 10000).
    #[arg(long, value_parser = clap::value_parser!(u32).range(1..))]
    manifest_tokens: Option<u32>,
    /// The model's context window in tokens (Claude Code and Codex budgets follow from it).
    #[arg(long, value_parser = clap::value_parser!(u32).range(1..))]
    context_window: Option<u32>,
    /// Print the whole preview (entries, budget, omitted skills) as JSON instead of the text.
    #[arg(long)]
    json: bool,
}

fn parse_dialect(text: &str) -> Result<CatalogDialect, String> {
    CatalogDialect::from_id(text).ok_or_else(|| {
        format!("unknown dialect {text:?}; use nagents, 10xgraph, skills-ref, claude-code, codex, copilot, gemini or opencode")
    })
}

pub fn run(args: Args) -> anyhow::Result<Exit> {
    if let Some(project) = &args.project {
        return run_project(&args, project);
    }
    let workspace = Workspace::folders(&args.roots)?;
    let session = workspace.catalog();
    let limits = CatalogLimits {
        manifest_tokens: args.manifest_tokens,
        context_window: args.context_window,
        skill_char_budget: args.skill_char_budget,
    };
    let preview = session.preview(args.dialect, &limits, &[]);
    // What could not be read is said with its own path, and the run fails: the listing may lack skills
    // those folders and files hold. (nagents and 10xGraph report what they meet in their own words.)
    let unreadable = if CatalogSession::reads_documents(args.dialect) {
        session.unreadable()
    } else {
        &[]
    };
    let mut out = std::io::stdout().lock();
    if args.json {
        let mut value = serde_json::to_value(&preview)?;
        if let Some(object) = value.as_object_mut() {
            object.insert("unreadable".to_string(), serde_json::to_value(unreadable)?);
        }
        serde_json::to_writer_pretty(&mut out, &value)?;
        out.write_all(b"\n")?;
        for problem in unreadable {
            eprintln!("error: {problem}");
        }
    } else {
        // Byte for byte what the model sees: no trailing newline is added.
        out.write_all(preview.text.as_bytes())?;
        for problem in &preview.problems {
            eprintln!("{problem}");
        }
    }
    out.flush()?;
    if !unreadable.is_empty() {
        return Ok(Exit::Failure);
    }
    // Only nagents refuses a catalog as a whole (a duplicate name); the other clients skip the
    // skills they cannot read, which the problems above name.
    let refused = matches!(args.dialect, CatalogDialect::Nagents)
        && session.nagents_view(&[]).error.is_some();
    Ok(Exit::findings_if(refused))
}

/// `--project DIR`: the client's own discovery and block, from its model in `skillforge_core::clients`.
fn run_project(args: &Args, project: &std::path::Path) -> anyhow::Result<Exit> {
    match args.dialect {
        CatalogDialect::ClaudeCode => run_claude_code_project(args, project),
        CatalogDialect::Codex => run_codex_project(args, project),
        CatalogDialect::Copilot => run_copilot_project(args, project),
        CatalogDialect::Gemini => run_gemini_project(args, project),
        CatalogDialect::Opencode => run_opencode_project(args, project),
        _ => {
            eprintln!(
                "error: --project is modelled for --dialect claude-code, codex, copilot, gemini and opencode only"
            );
            Ok(Exit::Failure)
        }
    }
}

/// `--project DIR` for Claude Code: its own discovery and block, nothing else on stdout.
fn run_claude_code_project(args: &Args, project: &std::path::Path) -> anyhow::Result<Exit> {
    use skillforge_core::clients::claude_code;
    if args.json
        || args.manifest_tokens.is_some()
        || args.context_window.is_some()
        || args.skill_char_budget.is_some()
    {
        eprintln!("error: --project takes --budget and --with-client-skills, not --json, --manifest-tokens or --context-window");
        return Ok(Exit::Failure);
    }
    if !project.is_dir() {
        eprintln!("error: {}: not a folder", project.display());
        return Ok(Exit::Failure);
    }
    let home = std::env::var_os("HOME").map(PathBuf::from);
    let budget = args.budget.map_or(claude_code::DEFAULT_BUDGET, |budget| {
        usize::try_from(budget).unwrap_or(usize::MAX)
    });
    let (text, discovery) =
        claude_code::listing_text(project, home.as_deref(), budget, args.with_client_skills);
    let mut out = std::io::stdout().lock();
    out.write_all(text.as_bytes())?;
    out.flush()?;
    for problem in &discovery.problems {
        eprintln!("error: {problem}");
    }
    Ok(if discovery.problems.is_empty() {
        Exit::Clean
    } else {
        Exit::Failure
    })
}

/// `--project DIR` for Codex: its own discovery and block, nothing else on stdout.
fn run_codex_project(args: &Args, project: &std::path::Path) -> anyhow::Result<Exit> {
    use skillforge_core::clients::codex;
    if args.json
        || args.manifest_tokens.is_some()
        || args.budget.is_some()
        || args.skill_char_budget.is_some()
        || args.with_client_skills
    {
        anyhow::bail!("--project --dialect codex takes --context-window only");
    }
    if !project.is_dir() {
        anyhow::bail!("{}: not a folder", project.display());
    }
    let discovered = codex::discover(project, &codex::Environment::from_process())
        .map_err(|error| anyhow::anyhow!("{}: {error}", project.display()))?;
    let budget = codex::budget(args.context_window.map(u64::from));
    let mut out = std::io::stdout().lock();
    if let Some(block) = codex::listing(&discovered, budget) {
        // Byte for byte what the model sees: no trailing newline is added.
        out.write_all(block.as_bytes())?;
    }
    out.flush()?;
    for dropped in &discovered.dropped {
        eprintln!(
            "codex {} skips {}: {}",
            codex::VERSION,
            dropped.path.display(),
            dropped.reason
        );
    }
    Ok(Exit::findings_if(!discovered.dropped.is_empty()))
}

/// `--project DIR` for Gemini CLI: its own discovery and section, nothing else on stdout. What it
/// drops is named on stderr (the client itself says nothing), and the run then exits 1.
fn run_gemini_project(args: &Args, project: &std::path::Path) -> anyhow::Result<Exit> {
    use skillforge_core::clients::gemini;
    if args.json
        || args.manifest_tokens.is_some()
        || args.budget.is_some()
        || args.context_window.is_some()
    {
        anyhow::bail!(
            "--project --dialect gemini takes --with-client-skills and --client-bundle only"
        );
    }
    if !project.is_dir() {
        anyhow::bail!("{}: not a folder", project.display());
    }
    let bundle = args.with_client_skills.then(|| {
        args.client_bundle
            .clone()
            .unwrap_or_else(|| PathBuf::from(gemini::builtin::DEFAULT_BUNDLE))
    });
    let home = gemini::home_from_process();
    let discovered = gemini::discover(project, home.as_deref(), bundle.as_deref());
    let mut out = std::io::stdout().lock();
    // Byte for byte what the model sees: no trailing newline is added.
    out.write_all(gemini::listing(&discovered.skills).as_bytes())?;
    out.flush()?;
    for dropped in &discovered.dropped {
        eprintln!(
            "gemini {} drops {}: {}",
            gemini::VERSION,
            dropped.path.display(),
            dropped.reason
        );
    }
    for problem in &discovered.problems {
        eprintln!("error: {problem}");
    }
    // What the client itself prints on stderr when a skill takes another's place.
    for conflict in &discovered.conflicts {
        eprintln!("note: {conflict}");
    }
    Ok(Exit::findings_if(
        !discovered.dropped.is_empty() || !discovered.problems.is_empty(),
    ))
}

/// `--project DIR` for OpenCode: its own discovery and section, nothing else on stdout.
fn run_opencode_project(args: &Args, project: &std::path::Path) -> anyhow::Result<Exit> {
    use skillforge_core::clients::opencode;
    if args.json
        || args.manifest_tokens.is_some()
        || args.budget.is_some()
        || args.context_window.is_some()
    {
        anyhow::bail!(
            "--project --dialect opencode takes --with-client-skills only (OpenCode has no budget)"
        );
    }
    if !project.is_dir() {
        anyhow::bail!("{}: not a folder", project.display());
    }
    let discovered = opencode::discover(project, &opencode::Environment::from_process())
        .map_err(|error| anyhow::anyhow!("{}: {error}", project.display()))?;
    let skills: Vec<opencode::discovery::Loaded> = discovered
        .skills
        .iter()
        .filter(|skill| args.with_client_skills || skill.location != opencode::builtin::LOCATION)
        .cloned()
        .collect();
    let mut out = std::io::stdout().lock();
    // Byte for byte what the model sees: no trailing newline is added.
    out.write_all(opencode::listing_text(&skills).as_bytes())?;
    out.flush()?;
    let mut dropped = false;
    for found in &discovered.found {
        if let opencode::FileVerdict::Dropped(reason) = &found.verdict {
            dropped = true;
            eprintln!(
                "opencode {} skips {}: {reason}",
                opencode::VERSION,
                found.path.display()
            );
        }
    }
    for skill in discovered
        .skills
        .iter()
        .filter(|skill| !skill.rivals.is_empty())
    {
        eprintln!(
            "opencode {}: {} skills are named {:?} ({} shown; the client keeps any one of them, a different one \
             from run to run): {}",
            opencode::VERSION,
            skill.rivals.len() + 1,
            skill.name,
            skill.location,
            skill.rivals.join(", ")
        );
    }
    for problem in &discovered.problems {
        eprintln!("error: {problem}");
    }
    Ok(Exit::findings_if(
        dropped || !discovered.problems.is_empty(),
    ))
}

/// `--project DIR` for GitHub Copilot CLI: its own discovery and section, nothing else on stdout.
fn run_copilot_project(args: &Args, project: &std::path::Path) -> anyhow::Result<Exit> {
    use skillforge_core::clients::copilot;
    if args.json
        || args.manifest_tokens.is_some()
        || args.context_window.is_some()
        || args.budget.is_some()
    {
        anyhow::bail!(
            "--project --dialect copilot takes --skill-char-budget and --with-client-skills only"
        );
    }
    if !project.is_dir() {
        anyhow::bail!("{}: not a folder", project.display());
    }
    let home = std::env::var_os("HOME")
        .filter(|home| !home.is_empty())
        .map(PathBuf::from);
    let mut discovered = copilot::discover(project, home.as_deref())
        .map_err(|error| anyhow::anyhow!("{}: {error}", project.display()))?;
    if args.with_client_skills {
        discovered = discovered.with_builtins();
    }
    // As the client: the flag, else SKILL_CHAR_BUDGET when it is a positive integer, else 15,000.
    let budget = match args.skill_char_budget {
        Some(budget) => usize::try_from(budget).unwrap_or(usize::MAX),
        None => copilot::budget_from(std::env::var(copilot::BUDGET_VARIABLE).ok().as_deref()),
    };
    let mut out = std::io::stdout().lock();
    if let Some(section) = copilot::section(&discovered, budget) {
        // Byte for byte what the model sees: no trailing newline is added.
        out.write_all(section.text.as_bytes())?;
    }
    out.flush()?;
    for dropped in &discovered.dropped {
        eprintln!(
            "copilot {} skips {}: {}",
            copilot::VERSION,
            dropped.path.display(),
            dropped.reason
        );
    }
    Ok(Exit::findings_if(!discovered.dropped.is_empty()))
}
