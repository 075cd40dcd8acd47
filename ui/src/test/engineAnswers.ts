// The engine's own answers to the requests the UI tests make, written by the export_engine_answers test
// (src-tauri/src/engine_answers.rs) from ui/src/test/engine-questions.json. The fake backend answers lint,
// rendered previews, catalog previews, playground runs, trigger tables, exports and workspace views only from
// here: it has no linter, renderer, catalog or exporter of its own, so it cannot show a code, a fix, a verdict,
// a link's status, a refusal or a count the real app would not.
import type {
  AppError,
  Buffer,
  BufferLint,
  CatalogDialect,
  CatalogLimits,
  CatalogPage,
  Dialect,
  EvalQuery,
  ExportChoice,
  ExportReport,
  FileLint,
  LoadPreview,
  PlaygroundModel,
  Preview,
  ProfileId,
  Result,
  Transcript,
  TriggerReport,
  WorkspaceView,
} from "../lib/backend";
import generated from "./engine-answers.gen.json?raw";

interface Answered<Q, A> {
  question: Q;
  answer: A;
}

export interface LintQuestion {
  path: string;
  text: string;
  profiles: ProfileId[];
}

export interface LoadQuestion {
  path: string;
  text: string;
  token_limit: number;
}

export interface CatalogQuestion {
  dialect: CatalogDialect;
  limits: CatalogLimits;
  buffers: Buffer[];
  current_path: string | null;
  current_name: string | null;
  rows: number;
}

export interface SimulateQuestion {
  message: string;
  dialect: Dialect;
  model: PlaygroundModel;
  token_limit: number;
  system_prompt: string | null;
  buffers: Buffer[];
}

export interface TriggersQuestion {
  queries: EvalQuery[];
  buffers: Buffer[];
  threshold: number | null;
}

export interface CreateQuestion {
  parent: string;
  name: string;
  with_scripts: boolean;
  with_references: boolean;
}

/** export_plan / export_run of `choice`, with the destination as the named setup of engine-questions.json
 * leaves it (null: nothing there). */
export interface ExportQuestion {
  call: "plan" | "run";
  choice: ExportChoice;
  destination: string | null;
}

export interface SaveTriggersQuestion {
  skill_path: string;
  queries: EvalQuery[];
}

export interface EngineWorkspace {
  name: string;
  roots: string[];
  /** The workspace's files on disk when the engine answered, by path. */
  files: Record<string, string>;
  /** `buffer`: lint_buffer of the text; `file`: lint_workspace's entry for the file holding it (null when the
   * path is no SKILL.md of the workspace); `preview`: render_preview of the same text, links checked against the
   * workspace's files. */
  lint: { question: LintQuestion; buffer: BufferLint; file: FileLint | null; preview: Result<Preview> }[];
  load: Answered<LoadQuestion, LoadPreview>[];
  catalog: Answered<CatalogQuestion, CatalogPage>[];
  simulate: Answered<SimulateQuestion, Transcript>[];
  triggers: Answered<TriggersQuestion, TriggerReport>[];
  /** create_skill: the new SKILL.md's path and every file the engine wrote. */
  create: Answered<CreateQuestion, { path: string; files: Record<string, string> }>[];
  /** save_trigger_queries: the evals.json the engine writes. */
  save_triggers: Answered<SaveTriggersQuestion, { path: string; text: string }>[];
  /** export_plan / export_run: the report, or the refusal. */
  export: Answered<ExportQuestion, Result<ExportReport>>[];
  /** What opening the workspace answers. */
  view: WorkspaceView;
  /** The views of some of its roots opened on their own, by those roots. */
  views: Answered<string[], WorkspaceView>[];
  /** Opening each of these paths as a folder: the engine's refusal. */
  open_errors: Answered<string, AppError>[];
}

interface EngineAnswers {
  workspaces: EngineWorkspace[];
  /** rule_documentation for every rule the answers report, by rule name. */
  rules: Record<string, Preview>;
}

const answers = JSON.parse(generated) as EngineAnswers;

/** One fixture workspace of the engine's answers, by name. */
export function engineWorkspace(name: string): EngineWorkspace {
  const found = answers.workspaces.find((workspace) => workspace.name === name);
  if (!found) throw new Error(`engine-answers.gen.json has no workspace "${name}"`);
  return found;
}

/** Requests the fake could not answer in the current test; the setup file fails a test that left any. */
export const misses: string[] = [];

/** The same JSON for equal values, whatever the order of their keys (an absent field and `undefined` agree). */
function canonical(value: unknown): string {
  return JSON.stringify(value, (_key, inner: unknown) =>
    inner && typeof inner === "object" && !Array.isArray(inner)
      ? Object.fromEntries(Object.entries(inner).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)))
      : inner,
  );
}

function missing(kind: string, question: unknown, files?: Map<string, string>): never {
  const where = files ? ` in a workspace with exactly the files ${canonical(Object.fromEntries(files))}` : "";
  const message =
    `the engine answered no ${kind} question ${canonical(question)}${where}: add it to ` +
    "ui/src/test/engine-questions.json and run `cargo test -p skillforge-app export_engine_answers`";
  misses.push(message);
  throw new Error(message);
}

/** The workspaces whose files on disk were exactly `files`. */
function workspacesWith(files: Map<string, string>): EngineWorkspace[] {
  const wanted = canonical(Object.fromEntries(files));
  return answers.workspaces.filter((workspace) => canonical(workspace.files) === wanted);
}

function lintAnswer(question: LintQuestion) {
  const key = canonical(question);
  for (const workspace of answers.workspaces) {
    const found = workspace.lint.find((entry) => canonical(entry.question) === key);
    if (found) return found;
  }
  return missing("lint", question);
}

/** What lint_buffer (and open_buffer / edit_buffer) answer for `text` at `path`. */
export function engineLint(question: LintQuestion): BufferLint {
  return structuredClone(lintAnswer(question).buffer);
}

/** lint_workspace's entry for the SKILL.md at `path` holding `text`. */
export function engineFileLint(question: LintQuestion): FileLint {
  const file = lintAnswer(question).file;
  return file ? structuredClone(file) : missing("workspace lint (the path is no SKILL.md of the workspace)", question);
}

function answerIn<Q, A>(kind: keyof EngineWorkspace, question: Q, files?: Map<string, string>): A {
  const key = canonical(question);
  const workspaces = files ? workspacesWith(files) : answers.workspaces;
  for (const workspace of workspaces) {
    const found = (workspace[kind] as Answered<Q, A>[]).find((entry) => canonical(entry.question) === key);
    if (found) return structuredClone(found.answer);
  }
  return missing(kind, question, files);
}

/** load_preview's answer; it reads only the text and the path. */
export const engineLoad = (question: LoadQuestion) => answerIn<LoadQuestion, LoadPreview>("load", question);

/** catalog_preview's page, for a workspace holding exactly `files`. */
export const engineCatalog = (question: CatalogQuestion, files: Map<string, string>) =>
  answerIn<CatalogQuestion, CatalogPage>("catalog", question, files);

/** The playground's transcript, for a workspace holding exactly `files`. */
export const engineSimulate = (question: SimulateQuestion, files: Map<string, string>) =>
  answerIn<SimulateQuestion, Transcript>("simulate", question, files);

/** run_triggers' report, for a workspace holding exactly `files`. */
export const engineTriggers = (question: TriggersQuestion, files: Map<string, string>) =>
  answerIn<TriggersQuestion, TriggerReport>("triggers", question, files);

/** create_skill's new files (it writes nothing else). */
export const engineCreate = (question: CreateQuestion) =>
  answerIn<CreateQuestion, { path: string; files: Record<string, string> }>("create", question);

/** The evals.json save_trigger_queries writes for these queries. */
export const engineSavedTriggers = (question: SaveTriggersQuestion) =>
  answerIn<SaveTriggersQuestion, { path: string; text: string }>("save_triggers", question);

/** rule_documentation's answer for a rule the engine reported in these answers. */
export function engineRuleDocumentation(rule: string): Preview {
  const found = answers.rules[rule];
  return found ? structuredClone(found) : missing("rule documentation", { rule });
}

/** render_preview's answer for `text` at `path`: the engine renders every text the answers lint. Its links are
 * checked against the files of the workspace that text was recorded in. */
export function enginePreview(question: { path: string; text: string }): Result<Preview> {
  for (const workspace of answers.workspaces) {
    const found = workspace.lint.find((entry) => entry.question.path === question.path && entry.question.text === question.text);
    if (found) return structuredClone(found.preview);
  }
  return missing("lint (every linted text is also rendered for the preview)", question);
}

/** export_plan / export_run's answer, for a workspace holding exactly `files`. */
export const engineExport = (question: ExportQuestion, files: Map<string, string>) =>
  answerIn<ExportQuestion, Result<ExportReport>>("export", question, files);

/** What opening a fixture workspace answers; with `roots`, the view of just those of its roots. */
export function engineView(name: string, roots?: string[]): WorkspaceView {
  const workspace = engineWorkspace(name);
  if (!roots) return structuredClone(workspace.view);
  const found = workspace.views.find((entry) => canonical(entry.question) === canonical(roots));
  return found ? structuredClone(found.answer) : missing("views", { workspace: name, roots });
}

/** The engine's refusal to open `path` as a folder. */
export function engineOpenError(path: string): AppError {
  for (const workspace of answers.workspaces) {
    const found = workspace.open_errors.find((entry) => entry.question === path);
    if (found) return structuredClone(found.answer);
  }
  return missing("open_errors", { path });
}
