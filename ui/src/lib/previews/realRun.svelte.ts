// The trigger table's runs on a real client (Claude Code, Codex): the estimate, the confirmation, the progress of
// the runs the backend makes, cancel, and the report.
import type {
  AppError,
  Backend,
  ClientPrograms,
  EvalQuery,
  EvalReport,
  Plan,
  QueryOutcome,
  RealClient,
  RealTriggerEvent,
  RunOutcome,
} from "../backend";
import { settle } from "../catalog";
import { progressText, realCell, settingsLines, settingsText, type RealCell } from "./realRun";

export type RealPhase = "idle" | "planning" | "confirm" | "starting" | "running" | "done";

type RealBackend = Pick<
  Backend,
  "planRealTriggers" | "startRealTriggers" | "cancelRealTriggers" | "clientPrograms" | "saveClientPrograms" | "onRealTriggerEvent"
>;

interface Pending {
  client: RealClient;
  skillPath: string;
  rows: EvalQuery[];
  runs: number;
  clientBin: string | null;
}

export const CLIENT_LABELS: Record<RealClient, string> = { "claude-code": "Claude Code", codex: "Codex" };

export class RealRunState {
  /** Runs per query. */
  runsPerQuery = $state(1);
  /** The client programs as the fields show them (blank: looked up on PATH). */
  programs: ClientPrograms = $state({ claude_bin: null, codex_bin: null, codex_config: [] });
  /** The Codex settings field's text: KEY=VALUE lines, kept as written until the backend accepts them. */
  codexSettings = $state("");
  programsProblem: string | null = $state(null);
  /** Why the last save of the programs was refused (a Codex setting that is not KEY=VALUE); null once saved. */
  programsRefused: AppError | null = $state.raw(null);
  phase: RealPhase = $state("idle");
  client: RealClient | null = $state(null);
  plan: Plan | null = $state.raw(null);
  /** The queries sent, in order: the events and the report index them. */
  sent: string[] = $state.raw([]);
  /** Each sent query's runs as they finish. */
  runs: RunOutcome[][] = $state.raw([]);
  progress: string | null = $state(null);
  cancelling = $state(false);
  report: EvalReport | null = $state.raw(null);
  error: AppError | null = $state.raw(null);

  readonly #backend: RealBackend;
  #pending: Pending | null = null;
  #unlisten: (() => void) | null = null;
  /** The save in progress: an estimate waits for it, so it runs with what the fields show. */
  #saving: Promise<void> | null = null;

  constructor(backend: RealBackend) {
    this.#backend = backend;
  }

  get busy(): boolean {
    return this.phase === "planning" || this.phase === "starting" || this.phase === "running";
  }

  async loadPrograms(): Promise<void> {
    const read = await settle(() => this.#backend.clientPrograms());
    if (read.status === "ok") {
      const { claude_bin, codex_bin, codex_config } = read.data.programs;
      this.programs = { claude_bin: claude_bin ?? null, codex_bin: codex_bin ?? null, codex_config: codex_config ?? [] };
      this.codexSettings = settingsText(codex_config);
      this.programsProblem = read.data.problem;
    } else this.programsProblem = read.error.message;
  }

  /** Saves the program fields and the Codex settings; a refused save keeps the fields as written. */
  savePrograms(): Promise<void> {
    const saving = this.#save();
    this.#saving = saving;
    return saving;
  }

  async #save(): Promise<void> {
    const chosen: ClientPrograms = { ...this.programs, codex_config: settingsLines(this.codexSettings) };
    const saved = await settle(() => this.#backend.saveClientPrograms(chosen));
    if (saved.status === "ok") {
      this.programsRefused = null;
      this.programsProblem = saved.data.problem;
      const kept = saved.data.programs.codex_config ?? [];
      // Only this field: the program fields show what is typed in them now.
      this.programs.codex_config = kept;
      // Only the settings as kept (trimmed, no blank lines) replace the text, and only if it was not edited since.
      if (settingsLines(this.codexSettings).join("\n") === (chosen.codex_config ?? []).join("\n")) {
        this.codexSettings = settingsText(kept);
      }
    } else {
      this.programsRefused = saved.error;
      this.programsProblem = saved.error.message;
    }
  }

  /** Asks the backend for the estimate of running `rows` on `client` for the skill at `skillPath`. */
  async estimate(client: RealClient, skillPath: string | null, rows: EvalQuery[]): Promise<void> {
    if (this.busy) return;
    this.error = null;
    if (!skillPath) {
      this.error = { code: "invalid_input", message: "Open the skill to test in the editor first." };
      return;
    }
    if (rows.length === 0) {
      this.error = { code: "invalid_input", message: "Write at least one query." };
      return;
    }
    const runs = Math.floor(Number(this.runsPerQuery));
    if (!Number.isFinite(runs) || runs < 1) {
      this.error = { code: "invalid_input", message: "Runs per query must be a whole number, at least 1." };
      return;
    }
    this.client = client;
    this.phase = "planning";
    // A save still under way (a field just left) holds what this estimate must run with.
    if (this.#saving) await this.#saving;
    if (client === "codex" && this.programsRefused) {
      this.error = this.programsRefused;
      this.phase = this.report ? "done" : "idle";
      return;
    }
    const program = client === "claude-code" ? this.programs.claude_bin : this.programs.codex_bin;
    const pending: Pending = { client, skillPath, rows, runs, clientBin: program?.trim() ? program.trim() : null };
    const answer = await settle(() =>
      this.#backend.planRealTriggers(pending.client, pending.skillPath, pending.rows, pending.runs, pending.clientBin),
    );
    if (answer.status === "error") {
      this.error = answer.error;
      this.phase = this.report ? "done" : "idle";
      return;
    }
    this.#pending = pending;
    this.plan = answer.data;
    this.phase = "confirm";
  }

  /** Drops the estimate without running anything. */
  back(): void {
    this.#pending = null;
    this.phase = this.report ? "done" : "idle";
    if (!this.report) this.plan = null;
  }

  /** Starts the runs the estimate was for. */
  async confirm(): Promise<void> {
    const pending = this.#pending;
    if (!pending || this.phase !== "confirm") return;
    this.phase = "starting";
    this.report = null;
    this.error = null;
    this.cancelling = false;
    this.sent = pending.rows.map((row) => row.query);
    this.runs = pending.rows.map(() => []);
    this.progress = null;
    // Listening before the start: the first run's event may come before the start's answer.
    this.#unlisten?.();
    this.#unlisten = await this.#backend.onRealTriggerEvent((event) => this.handle(event));
    const answer = await settle(() =>
      this.#backend.startRealTriggers(pending.client, pending.skillPath, pending.rows, pending.runs, pending.clientBin),
    );
    if (answer.status === "error") {
      this.#stopListening();
      this.error = answer.error;
      this.phase = "idle";
      return;
    }
    this.plan = answer.data;
    // The `done` event may have come first.
    if (this.phase === "starting") this.phase = "running";
  }

  async cancel(): Promise<void> {
    if (this.phase !== "running" && this.phase !== "starting") return;
    this.cancelling = true;
    await settle(() => this.#backend.cancelRealTriggers());
  }

  handle(event: RealTriggerEvent): void {
    switch (event.kind) {
      case "started":
        if (this.plan) this.progress = progressText(this.plan, event.number, event.query_index);
        break;
      case "finished": {
        const runs = this.runs.slice();
        runs[event.query_index] = [...(runs[event.query_index] ?? []), event.outcome];
        this.runs = runs;
        break;
      }
      case "done":
        this.report = event.report;
        this.plan = event.report.plan;
        this.runs = event.report.queries.map((query) => query.runs);
        this.progress = null;
        this.phase = "done";
        this.#stopListening();
        break;
      case "failed":
        this.error = event.error;
        this.progress = null;
        this.phase = "idle";
        this.#stopListening();
        break;
    }
  }

  /** The real client's runs of `query`, counted; null when it was not sent. */
  cellFor(query: string): RealCell | null {
    const index = this.sent.indexOf(query);
    if (index < 0 || !this.plan) return null;
    const outcome: QueryOutcome | null = this.report?.queries[index] ?? null;
    return realCell(this.runs[index] ?? [], this.plan.skill, this.plan.runs_per_query, outcome);
  }

  /** Stops listening and cancels the runs nobody will see (the panel is closing). */
  stop(): void {
    if (this.phase === "running" || this.phase === "starting") void settle(() => this.#backend.cancelRealTriggers());
    this.#stopListening();
  }

  #stopListening(): void {
    this.#unlisten?.();
    this.#unlisten = null;
  }
}
