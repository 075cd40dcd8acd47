// State of the previews panel: the catalog a client shows the model, the current skill's load, the activation
// playground and the trigger tests, all computed by the backend from the workspace with unsaved buffers laid over it.
import type {
  AppError,
  Backend,
  Buffer,
  CatalogDialect,
  CatalogPreview,
  Dialect,
  LoadPreview,
  PlaygroundModel,
  Skill,
  Transcript,
  TriggerReport,
} from "../backend";
import { ROUTER_THRESHOLD } from "../backend";
import { settle } from "../catalog";
import {
  RANGES,
  currentSkillPath,
  evalsPathFor,
  limitsFor,
  queriesFrom,
  rowsFromEvals,
  type CatalogSettings,
  type TriggerRow,
} from "./logic";
import { refresher } from "./refresh";
import { RealRunState } from "./realRun.svelte";
import { painted } from "../frames";

/** What the previews read from the rest of the window. */
export interface PreviewSource {
  readonly root: string | null;
  readonly skills: Skill[];
  readonly activePath: string | null;
  /** Changes whenever the text of any open buffer does. */
  readonly revision: number;
  /** When the key was pressed that made the last change (performance.now() time); null when no key did. */
  readonly inputAt: number | null;
  /** The unsaved buffers. */
  buffers(): Buffer[];
  /** The editor's text of an open file, or null when it is not open. */
  openText(path: string): string | null;
}

export type PreviewTab = "catalog" | "load" | "playground" | "triggers";

/** Names of the performance measures the speed benchmark reads. */
export const PREVIEW_TIMING = {
  catalogRefresh: "previews-catalog-refresh",
  catalogBackend: "previews-catalog-backend",
} as const;

/** Counts over the whole catalog: the preview's `entries` are only the rows the panel lists. */
export interface CatalogTotals {
  entries: number;
  included: number;
  shortened: string[];
}

export class CatalogPane {
  settings: CatalogSettings = $state({ dialect: "nagents", manifestTokens: RANGES.manifest_tokens.initial, contextWindow: RANGES.context_window.initial });
  preview: CatalogPreview | null = $state.raw(null);
  totals: CatalogTotals | null = $state.raw(null);
  error: AppError | null = $state.raw(null);

  constructor(dialect: CatalogDialect = "nagents") {
    this.settings.dialect = dialect;
  }
}

export class PlaygroundState {
  message = $state("");
  model: "explicit" | "router" | "script" = $state("explicit");
  scriptPath = $state("");
  dialect: Dialect = $state("nagents");
  systemPrompt = $state("");
  running = $state(false);
  transcript: Transcript | null = $state.raw(null);
  error: AppError | null = $state.raw(null);
}

export interface EvalsFile {
  /** The SKILL.md the table belongs to. */
  skillPath: string;
  /** The skill's name: `should_trigger: true` in the file means this one. */
  skillName?: string;
  path: string;
  /** The fingerprint the file had when read or last written; null when there is none yet. */
  fingerprint: string | null;
}

export class TriggerState {
  rows: TriggerRow[] = $state([{ query: "", expected: null }]);
  running = $state(false);
  report: TriggerReport | null = $state.raw(null);
  error: AppError | null = $state.raw(null);
  file: EvalsFile | null = $state.raw(null);
  /** The save was refused because the file changed (or appeared) on disk. */
  conflict: AppError | null = $state.raw(null);
  saved: string | null = $state(null);
  /** Why the existing evals.json could not be read into the table. */
  readProblem: string | null = $state(null);
}

export class PreviewsStore {
  tab: PreviewTab = $state("catalog");
  /** Shared by the load view and the playground: nagents' skill_token_limit. */
  tokenLimit: number = $state(RANGES.token_limit.initial);
  /** Shared by the playground's router model and the trigger tests: the score a skill needs to be picked. */
  routerThreshold: number = $state(ROUTER_THRESHOLD);
  readonly main = new CatalogPane("nagents");
  readonly other = new CatalogPane("claude-code");
  comparing = $state(false);
  load: LoadPreview | null = $state.raw(null);
  /** The exact text that was loaded, so the cut offset indexes the same string. */
  loadedText: string | null = $state.raw(null);
  loadPath: string | null = $state(null);
  loadError: AppError | null = $state.raw(null);
  readonly playground = new PlaygroundState();
  readonly triggers = new TriggerState();
  /** The trigger table's runs on a real client. */
  readonly real: RealRunState;

  readonly #backend: Backend;
  readonly #source: PreviewSource;
  readonly #catalog = refresher((since) => this.#refreshCatalogs(since));
  readonly #loader = refresher(() => this.#refreshLoad());

  constructor(backend: Backend, source: PreviewSource) {
    this.#backend = backend;
    this.#source = source;
    this.real = new RealRunState(backend);
  }

  get currentSkill(): string | null {
    return currentSkillPath(this.#source.activePath, this.#source.skills);
  }

  /** Skill names for `$` completion: the catalog's when it was sent whole, else the workspace's. */
  get skillNames(): string[] {
    const entries = this.main.preview?.entries;
    const whole = entries?.length && entries.length === this.main.totals?.entries;
    const names = whole ? entries.map((entry) => entry.name) : this.#source.skills.map((skill) => skill.name);
    return [...new Set(names)];
  }

  /** The buffers changed (typing: at the key event `inputAt`): refresh what is shown. */
  edited(inputAt?: number): void {
    if (this.tab === "catalog") this.#catalog.request(inputAt);
    if (this.tab === "load") this.#loader.request(inputAt);
  }

  /** A control or the tab changed: refresh what is shown. */
  settingsChanged(): void {
    if (this.tab === "catalog") this.#catalog.request();
    if (this.tab === "load") this.#loader.request();
  }

  stop(): void {
    this.#catalog.cancel();
    this.#loader.cancel();
    this.real.stop();
  }

  /** Settles once no refresh is pending (for tests). */
  async idle(): Promise<void> {
    await Promise.all([this.#catalog.idle(), this.#loader.idle()]);
  }

  async #refreshCatalogs(since: number): Promise<void> {
    const buffers = this.#source.buffers();
    const panes = this.comparing ? [this.main, this.other] : [this.main];
    const currentPath = this.currentSkill;
    const currentName = this.#source.skills.find((skill) => skill.location === currentPath)?.name ?? null;
    const started = performance.now();
    await Promise.all(
      panes.map(async (pane) => {
        const settings = { ...pane.settings };
        const answer = await settle(() =>
          this.#backend.catalogPreview(settings.dialect, limitsFor(settings), buffers, currentPath, currentName),
        );
        if (answer.status === "ok") {
          const page = answer.data;
          pane.preview = page.preview;
          pane.totals = { entries: page.entry_count, included: page.included_count, shortened: page.shortened };
          pane.error = null;
        } else {
          pane.error = answer.error;
        }
      }),
    );
    measure(PREVIEW_TIMING.catalogBackend, started, performance.now());
    // Timed to the paint of the frame that shows the new text.
    await painted();
    measure(PREVIEW_TIMING.catalogRefresh, since, performance.now());
  }

  async #refreshLoad(): Promise<void> {
    const path = this.currentSkill;
    if (!path) {
      this.load = null;
      this.loadedText = null;
      this.loadPath = null;
      this.loadError = null;
      return;
    }
    let text = this.#source.openText(path);
    if (text === null) {
      const read = await settle(() => this.#backend.readFile(path));
      if (read.status === "error") {
        this.loadError = read.error;
        this.load = null;
        return;
      }
      text = read.data.text;
    }
    const limit = this.tokenLimit;
    const answer = await settle(() => this.#backend.loadPreview(path, text, limit));
    if (answer.status === "error") {
      this.loadError = answer.error;
      this.load = null;
      return;
    }
    this.load = answer.data;
    this.loadedText = text;
    this.loadPath = path;
    this.loadError = null;
  }

  async runPlayground(): Promise<void> {
    const state = this.playground;
    if (state.model === "script" && !state.scriptPath.trim()) {
      state.error = { code: "invalid_input", message: "Choose the script file the mock model follows." };
      return;
    }
    const model: PlaygroundModel =
      state.model === "script"
        ? { script: this.#resolve(state.scriptPath.trim()) }
        : state.model === "router"
          ? { router: { threshold: this.routerThreshold } }
          : state.model;
    state.running = true;
    const answer = await settle(() =>
      this.#backend.simulate(
        state.message,
        state.dialect,
        model,
        this.tokenLimit,
        state.systemPrompt.trim() ? state.systemPrompt : null,
        this.#source.buffers(),
      ),
    );
    state.running = false;
    if (answer.status === "ok") {
      state.transcript = answer.data;
      state.error = null;
    } else {
      state.error = answer.error;
    }
  }

  /** Asks for the estimate of running the table on a real client, for the skill open in the editor. */
  async estimateReal(client: "claude-code" | "codex"): Promise<void> {
    await this.real.estimate(client, this.currentSkill, queriesFrom(this.triggers.rows));
  }

  async runTriggers(): Promise<void> {
    const state = this.triggers;
    const queries = queriesFrom(state.rows);
    if (queries.length === 0) {
      state.error = { code: "invalid_input", message: "Write at least one query." };
      return;
    }
    state.running = true;
    const answer = await settle(() => this.#backend.runTriggers(queries, this.#source.buffers(), this.routerThreshold));
    state.running = false;
    if (answer.status === "ok") {
      state.report = answer.data;
      state.error = null;
    } else {
      state.error = answer.error;
    }
  }

  /** Reads the current skill's evals/evals.json into the table (an absent file leaves an empty table to fill). */
  async openTriggers(force = false): Promise<void> {
    const skillPath = this.currentSkill;
    const state = this.triggers;
    if (!skillPath || (!force && state.file?.skillPath === skillPath)) return;
    const path = evalsPathFor(skillPath);
    const name = this.#source.skills.find((skill) => skill.location === skillPath)?.name ?? skillPath.split("/").slice(-2)[0];
    const read = await settle(() => this.#backend.readFile(path));
    state.conflict = null;
    state.saved = null;
    state.report = null;
    state.readProblem = null;
    if (read.status === "error") {
      state.file = { skillPath, skillName: name, path, fingerprint: null };
      if (read.error.code !== "not_found") state.readProblem = read.error.message;
      state.rows = [{ query: "", expected: null }];
      return;
    }
    state.file = { skillPath, skillName: name, path, fingerprint: read.data.fingerprint };
    try {
      const rows = rowsFromEvals(read.data.text, name);
      state.rows = rows.length ? rows : [{ query: "", expected: null }];
    } catch (problem) {
      state.readProblem = `${path} is not a list of trigger queries: ${(problem as Error).message}. Saving replaces it.`;
      state.rows = [{ query: "", expected: null }];
    }
  }

  /** Writes the table beside the current skill; never over a file changed since it was read unless `overwrite`. */
  async saveTriggers(overwrite = false): Promise<boolean> {
    const state = this.triggers;
    const file = state.file;
    if (!file) return false;
    const guard = overwrite
      ? ({ kind: "overwrite" } as const)
      : file.fingerprint
        ? ({ kind: "unchanged", fingerprint: file.fingerprint } as const)
        : ({ kind: "new" } as const);
    const answer = await settle(() => this.#backend.saveTriggerQueries(file.skillPath, queriesFrom(state.rows), guard));
    if (answer.status === "error") {
      if (answer.error.code === "changed_on_disk" || answer.error.code === "already_exists") state.conflict = answer.error;
      else state.error = answer.error;
      state.saved = null;
      return false;
    }
    state.file = { ...file, path: answer.data.path, fingerprint: answer.data.fingerprint };
    state.conflict = null;
    state.saved = answer.data.path;
    return true;
  }

  #resolve(path: string): string {
    const root = this.#source.root;
    if (path.startsWith("/") || /^[A-Za-z]:[\\/]/.test(path) || !root) return path;
    return `${root.replace(/[\\/]+$/, "")}/${path}`;
  }
}

function measure(name: string, start: number, end: number): void {
  try {
    performance.measure(name, { start, end });
  } catch {
    // Timings are for the benchmark only.
  }
}
