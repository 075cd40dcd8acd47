//! The engine's answers to the questions the UI tests ask, so the UI's fake backend answers only what
//! the real app would.
//!
//! `ui/src/test/engine-questions.json` names small workspaces (their files, by the paths the UI tests
//! use) and, for each, the requests the tests make: buffers to lint (each also rendered for the
//! preview), loads, catalog pages, playground runs, trigger tables, exports, and the views and
//! refusals of opening folders. This test writes each workspace into a scratch folder, asks the engine
//! the way the commands do (`Workspace` and the same engine calls; `load_preview`,
//! `rule_documentation` and the export request are the commands' own) and writes the answers, with the
//! questions, to `ui/src/test/engine-answers.gen.json`. `make test` fails when that changes the
//! committed file.
//!
//! The scratch folder stands in for the tests' root (`/work/skills`) and its path is as long as that
//! root, so a byte count or offset over a text that names a location (a catalog) is the one the
//! engine gives at the tests' path once the folder's path is written back as the tests' root.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use serde::Deserialize;
use serde_json::{json, Value};
use skillforge_core::agent::playground;
use skillforge_core::agent::triggers::EvalQuery;
use skillforge_core::agent::{Dialect, MockModel, SimulateOptions};
use skillforge_core::builtin;
use skillforge_core::catalog::session::Buffer;
use skillforge_core::clients::listing::{CatalogDialect, CatalogLimits};
use skillforge_core::fs::SaveGuard;
use skillforge_core::lint::ProfileId;
use skillforge_core::scaffold::ScaffoldOptions;
use skillforge_core::workspace::{Source, Workspace};

use crate::commands::{self, PlaygroundModel};
use crate::error::AppError;
use crate::export::{self, ExportChoice};

const QUESTIONS: &str = concat!(
    env!("CARGO_MANIFEST_DIR"),
    "/../ui/src/test/engine-questions.json"
);
const ANSWERS: &str = concat!(
    env!("CARGO_MANIFEST_DIR"),
    "/../ui/src/test/engine-answers.gen.json"
);

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct Questions {
    workspaces: Vec<WorkspaceQuestions>,
}

/// One workspace of the UI tests and what they ask about it. Every path is as the UI tests write it.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct WorkspaceQuestions {
    name: String,
    roots: Vec<String>,
    /// The workspace's files on disk, by path. No roots stand for the builtin skills: their files are
    /// named by location with no text (null), and the answers hold the embedded text.
    files: BTreeMap<String, Option<String>>,
    /// Each kind of request, as the UI sends it; echoed as it is, for the fake to match against.
    #[serde(default)]
    lint: Vec<Value>,
    #[serde(default)]
    load: Vec<Value>,
    #[serde(default)]
    catalog: Vec<Value>,
    #[serde(default)]
    simulate: Vec<Value>,
    #[serde(default)]
    triggers: Vec<Value>,
    /// Answered last: creating a skill changes the workspace the other questions are about.
    #[serde(default)]
    create: Vec<Value>,
    /// `save_trigger_queries`: the evals.json the engine writes (also answered last).
    #[serde(default)]
    save_triggers: Vec<Value>,
    /// `export_plan` / `export_run` of the workspace as it is, each into its destination as named in
    /// `destinations` (or, with none, a fresh empty folder).
    #[serde(default)]
    export: Vec<ExportQuestion>,
    /// What is at an export's destination before it runs, by a name the tests use.
    #[serde(default)]
    destinations: BTreeMap<String, DestinationSetup>,
    /// Other folders of the workspace's roots opened on their own (a workspace after closing a folder):
    /// their views. The workspace itself is always answered as `view`.
    #[serde(default)]
    views: Vec<Vec<String>>,
    /// Paths opened as a folder that the engine refuses (missing, a file, …): its errors.
    #[serde(default)]
    open_errors: Vec<String>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct ExportQuestion {
    /// `plan` or `run`.
    call: ExportCall,
    /// The dialog's choice, as the UI sends it.
    choice: Value,
    /// A name from `destinations`, or none for a destination with nothing in it.
    #[serde(default)]
    destination: Option<String>,
}

#[derive(Deserialize, serde::Serialize, Clone, Copy)]
#[serde(rename_all = "lowercase")]
enum ExportCall {
    Plan,
    Run,
}

/// A destination as an export finds it.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct DestinationSetup {
    /// Files someone put there, by path.
    #[serde(default)]
    files: BTreeMap<String, String>,
    /// An export run there before, from the workspace holding these files (the skills as they were).
    #[serde(default)]
    earlier: Option<EarlierExport>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct EarlierExport {
    files: BTreeMap<String, String>,
    choice: Value,
}

/// A question in the shape the engine takes.
fn typed<T: serde::de::DeserializeOwned>(workspace: &str, question: &Value) -> T {
    serde_json::from_value(question.clone())
        .unwrap_or_else(|error| panic!("workspace {workspace}: {error} in the question {question}"))
}

/// `lint_buffer` / `open_buffer` / `edit_buffer` of `text` at `path`, and that file's entry of
/// `lint_workspace` when the file holds `text`.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct LintQuestion {
    path: String,
    text: String,
    profiles: Vec<ProfileId>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct LoadQuestion {
    path: String,
    text: String,
    token_limit: u32,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct CatalogQuestion {
    dialect: CatalogDialect,
    limits: CatalogLimits,
    buffers: Vec<Buffer>,
    current_path: Option<String>,
    current_name: Option<String>,
    /// How many entries the page lists (the command's is 300).
    rows: usize,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct SimulateQuestion {
    message: String,
    dialect: Dialect,
    model: PlaygroundModel,
    token_limit: u32,
    system_prompt: Option<String>,
    buffers: Vec<Buffer>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct CreateQuestion {
    parent: String,
    name: String,
    with_scripts: bool,
    with_references: bool,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct SaveTriggersQuestion {
    skill_path: String,
    queries: Vec<EvalQuery>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct TriggersQuestion {
    queries: Vec<EvalQuery>,
    buffers: Vec<Buffer>,
    threshold: Option<f64>,
}

/// The tests' roots and the scratch folders standing in for them.
struct Places {
    /// (tests' root, scratch folder), longest tests' root first.
    pairs: Vec<(String, String)>,
    /// Whether every scratch folder's path is exactly as long as its tests' root.
    same_lengths: bool,
    _scratch: Vec<tempfile::TempDir>,
}

impl Places {
    fn new(roots: &[String]) -> Places {
        let base = std::env::temp_dir()
            .canonicalize()
            .expect("the temporary folder");
        let base_len = base.display().to_string().len();
        let mut pairs = Vec::new();
        let mut scratch = Vec::new();
        let mut same_lengths = true;
        for root in roots {
            // "<temp>/" and random characters make a path as long as the tests' root, when it fits.
            let random = root.len().saturating_sub(base_len + 1);
            let dir = if random >= 4 {
                tempfile::Builder::new()
                    .prefix("")
                    .rand_bytes(random)
                    .tempdir_in(&base)
            } else {
                same_lengths = false;
                tempfile::tempdir_in(&base)
            }
            .expect("a scratch folder");
            let real = dir.path().display().to_string();
            same_lengths &= real.len() == root.len();
            pairs.push((root.clone(), real));
            scratch.push(dir);
        }
        pairs.sort_by_key(|(root, _)| std::cmp::Reverse(root.len()));
        Places {
            pairs,
            same_lengths,
            _scratch: scratch,
        }
    }

    /// Where a path of the tests lies in the scratch folders (a builtin skill's location stays as it is).
    fn real(&self, path: &str) -> String {
        if path.starts_with(builtin::LOCATION_PREFIX) {
            return path.to_string();
        }
        for (root, real) in &self.pairs {
            if let Some(rest) = path.strip_prefix(root.as_str()) {
                if rest.is_empty() || rest.starts_with('/') {
                    return format!("{real}{rest}");
                }
            }
        }
        panic!("{path}: not under any root of its workspace");
    }

    fn real_buffers(&self, buffers: &[Buffer]) -> Vec<Buffer> {
        buffers
            .iter()
            .map(|buffer| Buffer {
                path: self.real(&buffer.path),
                text: buffer.text.clone(),
            })
            .collect()
    }

    /// An answer as the tests see it: every scratch folder named by the tests' root it stands for.
    fn virtual_answer(&self, answer: impl serde::Serialize) -> Value {
        let mut value = serde_json::to_value(answer).expect("answers serialize");
        self.rewrite(&mut value);
        value
    }

    fn rewrite(&self, value: &mut Value) {
        match value {
            Value::String(text) => *text = self.rewrite_text(text),
            Value::Array(items) => items.iter_mut().for_each(|item| self.rewrite(item)),
            Value::Object(fields) => {
                *fields = std::mem::take(fields)
                    .into_iter()
                    .map(|(key, mut field)| {
                        self.rewrite(&mut field);
                        (self.rewrite_text(&key), field)
                    })
                    .collect();
            }
            _ => {}
        }
    }

    fn rewrite_text(&self, text: &str) -> String {
        let mut text = text.to_string();
        for (root, real) in &self.pairs {
            if text.contains(real.as_str()) {
                text = text.replace(real.as_str(), root);
            }
        }
        // A folder's label is its name alone (views join them): the scratch folder's random name
        // stands for the root's name. Whole paths are rewritten first, so only labels are left.
        for (root, real) in &self.pairs {
            let (Some(root_name), Some(real_name)) =
                (Path::new(root).file_name(), Path::new(real).file_name())
            else {
                continue;
            };
            let (root_name, real_name) = (root_name.to_string_lossy(), real_name.to_string_lossy());
            if text.contains(real_name.as_ref()) {
                text = text.replace(real_name.as_ref(), &root_name);
            }
        }
        text
    }
}

/// Every file below `folder` with its text, in path order.
fn files_under(folder: &Path) -> Vec<(PathBuf, String)> {
    let mut files = Vec::new();
    let mut pending = vec![folder.to_path_buf()];
    while let Some(dir) = pending.pop() {
        for entry in std::fs::read_dir(&dir).expect("read a created folder") {
            let path = entry.expect("a folder entry").path();
            if path.is_dir() {
                pending.push(path);
            } else {
                let text = std::fs::read_to_string(&path).expect("a created file is text");
                files.push((path, text));
            }
        }
    }
    files.sort();
    files
}

/// Writes `files` (paths of the tests) into the scratch folders.
fn write_files(places: &Places, files: &BTreeMap<String, String>) {
    for (path, text) in files {
        let real = PathBuf::from(places.real(path));
        std::fs::create_dir_all(real.parent().expect("a file has a folder")).expect("mkdir");
        std::fs::write(&real, text).expect("write a fixture file");
    }
}

/// Empties a scratch folder, leaving the folder itself.
fn empty_folder(folder: &Path) {
    for entry in std::fs::read_dir(folder).expect("read a scratch folder") {
        let path = entry.expect("a folder entry").path();
        if path.is_dir() {
            std::fs::remove_dir_all(&path).expect("remove a scratch folder");
        } else {
            std::fs::remove_file(&path).expect("remove a scratch file");
        }
    }
}

/// An answer in the shape the UI's `Result` has: `{status: "ok", data}` or `{status: "error", error}`.
fn result_answer<T: serde::Serialize>(places: &Places, result: Result<T, AppError>) -> Value {
    match result {
        Ok(data) => json!({ "status": "ok", "data": places.virtual_answer(data) }),
        Err(error) => json!({ "status": "error", "error": places.virtual_answer(error) }),
    }
}

fn block_on<F: std::future::Future>(future: F) -> F::Output {
    tauri::async_runtime::block_on(future)
}

fn answer_workspace(questions: WorkspaceQuestions, rules: &mut BTreeMap<String, Value>) -> Value {
    // Export destinations get scratch folders of their own, outside the roots.
    let mut folders = questions.roots.clone();
    for question in &questions.export {
        let out = question.choice["out"].as_str().unwrap_or_else(|| {
            panic!("workspace {}: an export choice without out", questions.name)
        });
        if !folders.iter().any(|folder| folder == out) {
            folders.push(out.to_string());
        }
    }
    let places = Places::new(&folders);
    let mut files = BTreeMap::new();
    for (path, text) in &questions.files {
        let text = match (questions.roots.is_empty(), text) {
            (true, None) => builtin::file_text(path)
                .unwrap_or_else(|| panic!("{path}: not a builtin file"))
                .to_string(),
            (false, Some(text)) => text.clone(),
            _ => panic!("{path}: give the text of a file on disk, and no text for a builtin file"),
        };
        files.insert(path.clone(), text.clone());
        if questions.roots.is_empty() {
            continue;
        }
        let real = PathBuf::from(places.real(path));
        std::fs::create_dir_all(real.parent().expect("a file has a folder")).expect("mkdir");
        std::fs::write(&real, text).expect("write a fixture file");
    }
    let roots: Vec<PathBuf> = questions
        .roots
        .iter()
        .map(|root| PathBuf::from(places.real(root)))
        .collect();
    // No roots: the builtin skills, as the app shows them before a folder is opened.
    let source = if roots.is_empty() {
        Source::Builtin
    } else {
        Source::Folders(roots.clone())
    };
    let (workspace, report) = Workspace::open(source).expect("the fixture workspace opens");
    // What opening the workspace answers (open_workspace, initial_workspace, builtin_workspace).
    let view = places.virtual_answer(workspace.view(report));
    let views: Vec<Value> = questions
        .views
        .iter()
        .map(|subset| {
            let real = subset
                .iter()
                .map(|root| PathBuf::from(places.real(root)))
                .collect();
            let (opened, report) =
                Workspace::open(Source::from_paths(real)).expect("the folders open");
            json!({ "question": subset, "answer": places.virtual_answer(opened.view(report)) })
        })
        .collect();
    let open_errors: Vec<Value> = questions
        .open_errors
        .iter()
        .map(|path| {
            let source = Source::Folders(vec![PathBuf::from(places.real(path))]);
            let error = match Workspace::open(source) {
                Ok(_) => panic!("{path}: opens, so it has no error to record"),
                Err(error) => AppError::from(error),
            };
            json!({ "question": path, "answer": places.virtual_answer(error) })
        })
        .collect();
    let session = workspace.lint_session().expect("the lint session");

    let lint: Vec<Value> = questions
        .lint
        .iter()
        .map(|raw| {
            let question: LintQuestion = typed(&questions.name, raw);
            let real = PathBuf::from(places.real(&question.path));
            let buffer = session.lint_buffer(&real, &question.text, &question.profiles);
            for diagnostic in &buffer.diagnostics {
                if !rules.contains_key(&diagnostic.rule) {
                    let documentation =
                        block_on(commands::rule_documentation(diagnostic.rule.clone()))
                            .expect("every rule the engine reports is documented");
                    rules.insert(
                        diagnostic.rule.clone(),
                        places.virtual_answer(documentation),
                    );
                }
            }
            let file = if workspace.is_builtin() {
                // The builtin skills are read-only: only their embedded text is linted with them.
                let embedded = builtin::file_text(&question.path) == Some(question.text.as_str());
                workspace
                    .lint_all(&question.profiles)
                    .expect("the builtin skills lint")
                    .files
                    .into_iter()
                    .find(|file| embedded && file.path == question.path)
            } else {
                let overlay =
                    std::collections::HashMap::from([(real.clone(), question.text.clone())]);
                session
                    .lint_workspace(&overlay, &question.profiles)
                    .files
                    .into_iter()
                    .find(|file| Path::new(&file.path) == real)
            };
            // The preview pane renders the same texts the editor lints.
            let preview = workspace
                .render_preview(&places.real(&question.path), &question.text)
                .map_err(AppError::from);
            json!({
                "question": raw,
                "buffer": places.virtual_answer(buffer),
                "file": file.map(|file| places.virtual_answer(file)),
                "preview": result_answer(&places, preview),
            })
        })
        .collect();

    let load: Vec<Value> = questions
        .load
        .iter()
        .map(|raw| {
            let question: LoadQuestion = typed(&questions.name, raw);
            let answer = block_on(commands::load_preview(
                places.real(&question.path),
                question.text.clone(),
                question.token_limit,
            ))
            .map_err(|error| error.message)
            .expect("the load preview");
            json!({ "question": raw, "answer": places.virtual_answer(answer) })
        })
        .collect();

    assert!(
        questions.catalog.is_empty() && questions.simulate.is_empty() || places.same_lengths,
        "workspace {}: catalogs name locations, so its scratch folders must be as long as its roots; \
         use longer roots or a shorter TMPDIR",
        questions.name
    );
    let catalog: Vec<Value> = questions
        .catalog
        .iter()
        .map(|raw| {
            let question: CatalogQuestion = typed(&questions.name, raw);
            let page = workspace
                .catalog()
                .preview(
                    question.dialect,
                    &question.limits,
                    &places.real_buffers(&question.buffers),
                )
                .page(
                    question.rows,
                    question
                        .current_path
                        .as_deref()
                        .map(|path| places.real(path))
                        .as_deref(),
                    question.current_name.as_deref(),
                );
            json!({ "question": raw, "answer": places.virtual_answer(page) })
        })
        .collect();

    let simulate: Vec<Value> = questions
        .simulate
        .iter()
        .map(|raw| {
            let question: SimulateQuestion = typed(&questions.name, raw);
            let model = match question.model {
                PlaygroundModel::Explicit => MockModel::Explicit,
                PlaygroundModel::Router { threshold } => MockModel::Router {
                    threshold: commands::router_threshold(threshold).expect("a usable threshold"),
                },
                PlaygroundModel::Script(_) => panic!("the UI tests run no scripts"),
            };
            let mut options = SimulateOptions::new(roots.clone(), question.message.clone());
            options.dialect = question.dialect;
            options.model = model;
            options.token_limit = question.token_limit;
            options.system_prompt = question.system_prompt.clone();
            let transcript = block_on(playground::simulate_overlaid(
                &options,
                &workspace.catalog(),
                &places.real_buffers(&question.buffers),
            ))
            .expect("the simulation");
            json!({ "question": raw, "answer": places.virtual_answer(transcript) })
        })
        .collect();

    let triggers: Vec<Value> = questions
        .triggers
        .iter()
        .map(|raw| {
            let question: TriggersQuestion = typed(&questions.name, raw);
            let threshold =
                commands::router_threshold(question.threshold).expect("a usable threshold");
            let report = playground::run_triggers(
                &workspace.catalog(),
                &question.queries,
                &places.real_buffers(&question.buffers),
                threshold,
            );
            json!({ "question": raw, "answer": places.virtual_answer(report) })
        })
        .collect();

    assert!(
        questions.export.is_empty() || places.same_lengths,
        "workspace {}: install stamps name the skills' folders, so its scratch folders must be as long \
         as its roots and destinations; use longer paths or a shorter TMPDIR",
        questions.name
    );
    let on_disk: BTreeMap<String, String> = if questions.roots.is_empty() {
        BTreeMap::new()
    } else {
        files.clone()
    };
    let root_folders: Vec<String> = questions
        .roots
        .iter()
        .map(|root| places.real(root))
        .collect();
    // The roots holding `roots_files`, as the workspace's files were when an export ran.
    let put_roots = |roots_files: &BTreeMap<String, String>| {
        for real in &root_folders {
            empty_folder(Path::new(real));
        }
        write_files(&places, roots_files);
    };
    let export_of = |call: ExportCall, choice: &Value| -> Result<_, AppError> {
        let mut choice: ExportChoice = typed(&questions.name, choice);
        choice.out = places.real(&choice.out);
        let request = export::request(workspace.export_roots()?, choice)?;
        Ok(match call {
            ExportCall::Plan => skillforge_core::bundle::plan(&request)?,
            ExportCall::Run => skillforge_core::bundle::export(&request)?,
        })
    };
    let export: Vec<Value> = questions
        .export
        .iter()
        .map(|question| {
            // Every question starts from empty destinations and the workspace as it is.
            for (_, real) in &places.pairs {
                empty_folder(Path::new(real));
            }
            write_files(&places, &on_disk);
            if let Some(name) = &question.destination {
                let setup = questions.destinations.get(name).unwrap_or_else(|| {
                    panic!("workspace {}: no destination {name}", questions.name)
                });
                if let Some(earlier) = &setup.earlier {
                    put_roots(&earlier.files);
                    export_of(ExportCall::Run, &earlier.choice).expect("the earlier export");
                    put_roots(&on_disk);
                }
                write_files(&places, &setup.files);
            }
            let answer = export_of(question.call, &question.choice);
            json!({
                "question": {
                    "call": question.call,
                    "choice": question.choice,
                    "destination": question.destination,
                },
                "answer": result_answer(&places, answer),
            })
        })
        .collect();
    if !questions.export.is_empty() {
        put_roots(&on_disk);
    }

    let create: Vec<Value> = questions
        .create
        .iter()
        .map(|raw| {
            let question: CreateQuestion = typed(&questions.name, raw);
            let options = ScaffoldOptions {
                scripts: question.with_scripts,
                references: question.with_references,
            };
            let created = workspace
                .create_skill(
                    Path::new(&places.real(&question.parent)),
                    &question.name,
                    options,
                )
                .expect("the skill is created");
            let folder = created.parent().expect("a SKILL.md has a folder");
            let files = files_under(folder)
                .into_iter()
                .map(|(path, text)| (path.display().to_string(), text))
                .collect::<BTreeMap<_, _>>();
            json!({
                "question": raw,
                "answer": places.virtual_answer(json!({
                    "path": created.display().to_string(),
                    "files": files,
                })),
            })
        })
        .collect();

    let save_triggers: Vec<Value> = questions
        .save_triggers
        .iter()
        .map(|raw| {
            let question: SaveTriggersQuestion = typed(&questions.name, raw);
            let saved = workspace
                .save_trigger_queries(
                    Path::new(&places.real(&question.skill_path)),
                    &question.queries,
                    &SaveGuard::Overwrite,
                )
                .expect("the queries are saved");
            let text = std::fs::read_to_string(&saved.path).expect("read the saved queries");
            json!({
                "question": raw,
                "answer": places.virtual_answer(json!({ "path": saved.path, "text": text })),
            })
        })
        .collect();

    json!({
        "name": questions.name,
        "roots": questions.roots,
        "files": files,
        "lint": lint,
        "load": load,
        "catalog": catalog,
        "simulate": simulate,
        "triggers": triggers,
        "create": create,
        "save_triggers": save_triggers,
        "export": export,
        "view": view,
        "views": views,
        "open_errors": open_errors,
    })
}

/// Regenerates `ui/src/test/engine-answers.gen.json`; `make test` fails when this changes the
/// committed file.
#[test]
fn export_engine_answers() {
    let questions: Questions = serde_json::from_str(
        &std::fs::read_to_string(QUESTIONS).expect("the UI tests' engine questions"),
    )
    .expect("engine-questions.json is well formed");
    let mut rules = BTreeMap::new();
    let workspaces: Vec<Value> = questions
        .workspaces
        .into_iter()
        .map(|workspace| answer_workspace(workspace, &mut rules))
        .collect();
    let answers = json!({
        "generated_by": "the export_engine_answers test (src-tauri/src/engine_answers.rs); do not edit",
        "workspaces": workspaces,
        "rules": rules,
    });
    let mut text = serde_json::to_string_pretty(&answers).expect("answers serialize");
    text.push('\n');
    std::fs::write(ANSWERS, text).expect("write engine-answers.gen.json");
}
