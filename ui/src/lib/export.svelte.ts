import type { AppError, Backend, Client, ExportChoice, ExportReport, Problem, Result, Target } from "./backend";
import { settle } from "./catalog";

export const TARGETS: { id: Target; label: string }[] = [
  { id: "skill-archive", label: ".skill archives (Claude upload)" },
  { id: "client-folder", label: "Client skill folder" },
  { id: "python-package", label: "Python package (nagents builtin skills)" },
];

export const CLIENTS: { id: Client; label: string }[] = [
  { id: "agents", label: ".agents/skills (cross-client)" },
  { id: "claude", label: ".claude/skills (Claude Code)" },
  { id: "codex", label: ".codex/skills (Codex)" },
  { id: "copilot", label: ".github/skills (GitHub Copilot)" },
];

/** How a refused export can go on, told by the error's code. */
export type Refusal =
  | { kind: "earlier-install" }
  | { kind: "foreign" }
  | { kind: "occupied" }
  | { kind: "other" };

export function refusalOf(error: AppError): Refusal {
  switch (error.code) {
    case "already_installed":
      return { kind: "earlier-install" };
    case "not_replaceable":
      return { kind: "foreign" };
    // A destination folder that is not empty: replacing it would delete whatever the author keeps there, so the
    // dialog never offers that; a new or empty folder is the way on.
    case "already_exists":
      return { kind: "occupied" };
    default:
      return { kind: "other" };
  }
}

/** True for a path the backend accepts as a destination: absolute on Unix or Windows. */
export function isAbsolutePath(path: string): boolean {
  return path.startsWith("/") || /^[A-Za-z]:[\\/]/.test(path) || path.startsWith("\\\\");
}

export type ExportPhase = "idle" | "picking" | "checking" | "exporting";

/** The export dialog: what the author chose, the check before writing, and what the export wrote. */
export class ExportStore {
  target: Target = $state("skill-archive");
  client: Client = $state("agents");
  packageName = $state("");
  packageVersion = $state("");
  destination = $state("");
  /** Every skill of the workspace, in catalog order. */
  available: string[] = $state([]);
  selected: string[] = $state([]);
  phase: ExportPhase = $state("idle");

  // Raw: reports are replaced whole.
  plan: ExportReport | null = $state.raw(null);
  result: ExportReport | null = $state.raw(null);
  error: AppError | null = $state.raw(null);
  /** The choice the plan was made for: any change afterwards makes the plan stale. */
  #plannedFor: string | null = $state(null);

  readonly trimmedDestination = $derived(this.destination.trim());
  readonly destinationProblem: string | null = $derived(
    this.trimmedDestination === ""
      ? "Choose a destination folder."
      : isAbsolutePath(this.trimmedDestination)
        ? null
        : "The destination must be an absolute path.",
  );
  readonly choice: ExportChoice = $derived({
    target: this.target,
    skills: this.selected.length === this.available.length ? null : this.available.filter((name) => this.selected.includes(name)),
    out: this.trimmedDestination,
    package_name: this.target === "python-package" && this.packageName.trim() ? this.packageName.trim() : null,
    package_version: this.target === "python-package" && this.packageVersion.trim() ? this.packageVersion.trim() : null,
    client: this.target === "client-folder" ? this.client : null,
    force: false,
  });
  readonly #choiceKey = $derived(JSON.stringify(this.choice));
  readonly canCheck = $derived(this.phase === "idle" && this.selected.length > 0 && this.destinationProblem === null);
  /** The plan for exactly what is chosen now, if one was made. */
  readonly currentPlan: ExportReport | null = $derived(this.#plannedFor === this.#choiceKey ? this.plan : null);
  readonly errors: Problem[] = $derived(this.currentPlan?.problems.filter((p) => p.level === "error") ?? []);
  readonly warnings: Problem[] = $derived(this.currentPlan?.problems.filter((p) => p.level === "warning") ?? []);
  readonly canExport = $derived(this.phase === "idle" && this.currentPlan !== null && !this.currentPlan.blocked);
  readonly refusal: Refusal | null = $derived(this.error ? refusalOf(this.error) : null);

  readonly #backend: Backend;

  constructor(backend: Backend) {
    this.#backend = backend;
  }

  /** Starts over on the workspace's skills, all selected; the destination and target are kept. */
  reset(skills: string[]): void {
    this.available = [...skills];
    this.selected = [...skills];
    this.plan = null;
    this.result = null;
    this.error = null;
    this.#plannedFor = null;
  }

  toggle(name: string, on: boolean): void {
    const others = this.selected.filter((selected) => selected !== name);
    this.selected = on ? [...others, name] : others;
  }

  selectAll(on: boolean): void {
    this.selected = on ? [...this.available] : [];
  }

  /** Asks for the destination with the folder dialog; a cancelled dialog keeps the typed one. */
  async pickDestination(): Promise<void> {
    if (this.phase !== "idle") return;
    this.phase = "picking";
    const picked = await settle(() => this.#backend.pickExportFolder());
    this.phase = "idle";
    if (picked.status === "error") {
      this.error = picked.error;
      return;
    }
    if (picked.data !== null) this.destination = picked.data;
  }

  /** Validates the chosen export and lists what it would write; writes nothing. */
  async check(): Promise<void> {
    if (!this.canCheck) return;
    const choice = this.choice;
    const key = this.#choiceKey;
    this.phase = "checking";
    this.result = null;
    this.error = null;
    const planned = await settle(() => this.#backend.exportPlan(choice));
    this.phase = "idle";
    if (planned.status === "error") {
      this.plan = null;
      this.#plannedFor = null;
      this.error = planned.error;
      return;
    }
    this.plan = planned.data;
    this.#plannedFor = key;
  }

  /** Writes the checked export; `force` replaces an earlier install, and only after the author asked for it. */
  async run(force = false): Promise<void> {
    if (!this.canExport) return;
    this.phase = "exporting";
    this.error = null;
    this.result = null;
    const written: Result<ExportReport> = await settle(() => this.#backend.exportRun({ ...this.choice, force }));
    this.phase = "idle";
    if (written.status === "error") {
      this.error = written.error;
      return;
    }
    if (written.data.blocked) {
      // The skills changed since the check: show the new verdict in place of the old one.
      this.plan = written.data;
      return;
    }
    this.result = written.data;
  }

  /** Runs again replacing the earlier install the last attempt was refused for. */
  replaceEarlierInstall(): Promise<void> {
    if (this.refusal?.kind !== "earlier-install") return Promise.resolve();
    return this.run(true);
  }
}
