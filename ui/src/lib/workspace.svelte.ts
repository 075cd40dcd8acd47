import type { AppError, Backend, Result, Skill, WorkspaceView } from "./backend";
import { catalogNotices, settle } from "./catalog";

export type WorkspaceStatus = "loading" | "ready" | "error";

export const TREE_TIMING = { viewArrived: "workspace-view-arrived", treeReady: "tree-ready" } as const;

/** The open workspace, its scan state and the selected skill. */
export class WorkspaceStore {
  status: WorkspaceStatus = $state("loading");
  // Raw: a view is replaced whole, never edited, and thousands of skills need no deep proxies.
  view: WorkspaceView | null = $state.raw(null);
  error: AppError | null = $state(null);
  /** Locations are unique where names may not be, so the selection is kept by location. */
  selectedLocation: string | null = $state(null);

  readonly skills: Skill[] = $derived(this.view?.report.skills ?? []);
  readonly selected: Skill | null = $derived(
    this.skills.find((skill) => skill.location === this.selectedLocation) ?? null,
  );
  readonly notices = $derived(this.view ? catalogNotices(this.view.report) : []);

  readonly #backend: Backend;
  // Each load takes a ticket; an answer for an older ticket arrives too late and is dropped.
  #ticket = 0;

  constructor(backend: Backend) {
    this.#backend = backend;
  }

  loadInitial(): Promise<void> {
    return this.#load(() => this.#backend.initialWorkspace());
  }

  openBuiltin(): Promise<void> {
    return this.#load(() => this.#backend.builtinWorkspace());
  }

  openPath(path: string): Promise<void> {
    return this.#load(() => this.#backend.openWorkspace(path));
  }

  /** Asks for a folder and opens it; a cancelled dialog leaves everything as it was. */
  async openFolder(): Promise<void> {
    const picked = await settle(() => this.#backend.pickWorkspaceFolder());
    if (picked.status === "error") {
      this.#ticket++;
      this.#fail(picked.error);
      return;
    }
    if (picked.data === null) return;
    await this.openPath(picked.data);
  }

  /** Scans the open folder again without blanking the window (after the watcher saw changes). */
  async rescan(): Promise<void> {
    if (!this.view?.root || this.status !== "ready") return;
    const ticket = ++this.#ticket;
    const result = await settle(() => this.#backend.refreshWorkspace());
    if (ticket !== this.#ticket || result.status === "error") return;
    this.view = result.data;
  }

  select(location: string): void {
    this.selectedLocation = location;
  }

  async #load(call: () => Promise<Result<WorkspaceView>>): Promise<void> {
    const ticket = ++this.#ticket;
    this.status = "loading";
    const result = await settle(call);
    if (ticket !== this.#ticket) return;
    if (result.status === "error") {
      this.#fail(result.error);
      return;
    }
    const stillThere = result.data.report.skills.some((skill) => skill.location === this.selectedLocation);
    if (!stillThere) this.selectedLocation = null;
    this.view = result.data;
    this.error = null;
    this.status = "ready";
    // The benchmark measures from here to the painted tree (see WorkspaceTree).
    performance.mark?.(TREE_TIMING.viewArrived);
  }

  #fail(error: AppError): void {
    this.view = null;
    this.error = error;
    this.selectedLocation = null;
    this.status = "error";
  }
}
