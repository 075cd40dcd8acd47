import type { AppError, Backend, RecentList, Result, RootView, Skill, WorkspaceNotice, WorkspaceView } from "./backend";
import { settle } from "./catalog";
import { insideRoot } from "./tree";

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
  /** A folder that could not be added or closed; the workspace stays as it was. */
  problem: AppError | null = $state(null);
  /** The folders opened lately, most recent first. */
  recent: RecentList = $state.raw({ folders: [], problem: null });

  /** Every SKILL.md under the opened folders, whatever any client makes of it. */
  readonly skills: Skill[] = $derived(this.view?.skills ?? []);
  /** The skills nagents' discovery lists (what an export reads), a subset of `skills`. */
  readonly catalogSkills: Skill[] = $derived(this.view?.report.skills ?? []);
  /** The opened folders, each a top-level group of the tree; none for the builtin skills. */
  readonly roots: RootView[] = $derived(this.view?.roots ?? []);
  readonly selected: Skill | null = $derived(
    this.skills.find((skill) => skill.location === this.selectedLocation) ?? null,
  );
  /** What clients make of the folders beside the lint findings: shown grouped in the problems list. */
  readonly notices: WorkspaceNotice[] = $derived(this.view?.notices ?? []);

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

  /** Asks for a folder and adds it to the open ones; a cancelled dialog leaves everything as it was. */
  async addFolder(): Promise<void> {
    const picked = await settle(() => this.#backend.pickWorkspaceFolder());
    if (picked.status === "error") {
      this.problem = picked.error;
      return;
    }
    if (picked.data === null) return;
    await this.addPath(picked.data);
  }

  /** Adds a folder to the workspace (in place of the builtin skills when those are shown). */
  addPath(path: string): Promise<void> {
    if (!this.view || this.view.roots.length === 0) return this.openPath(path);
    return this.#change(() => this.#backend.addWorkspaceRoot(path));
  }

  /** Closes one opened folder (unsaved edits in it were settled by the caller); the last one gives way to the builtin skills. */
  closeRoot(path: string): Promise<void> {
    return this.#change(() => this.#backend.removeWorkspaceRoot(path));
  }

  /** Reads the recent folders again (a folder may have vanished since). */
  async refreshRecent(): Promise<void> {
    const listed = await settle(() => this.#backend.recentWorkspaces());
    this.recent = listed.status === "ok" ? listed.data : { folders: this.recent.folders, problem: listed.error.message };
  }

  /** Removes a folder from the recent list; the folder itself is not touched. */
  async forgetRecent(path: string): Promise<void> {
    const listed = await settle(() => this.#backend.forgetRecentWorkspace(path));
    if (listed.status === "ok") this.recent = listed.data;
    else this.recent = { folders: this.recent.folders, problem: listed.error.message };
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
      // The error screen offers the recent folders instead.
      await this.refreshRecent();
      return;
    }
    this.#show(result.data);
    // The benchmark measures from here to the painted tree (see WorkspaceTree).
    performance.mark?.(TREE_TIMING.viewArrived);
    await this.refreshRecent();
  }

  /** Adds or closes a folder: on failure the workspace stays and the reason is shown beside it. */
  async #change(call: () => Promise<Result<WorkspaceView>>): Promise<void> {
    const ticket = ++this.#ticket;
    this.status = "loading";
    this.problem = null;
    const result = await settle(call);
    if (ticket !== this.#ticket) return;
    if (result.status === "error") {
      this.problem = result.error;
      this.status = this.view ? "ready" : "error";
      return;
    }
    this.#show(result.data);
    await this.refreshRecent();
  }

  #show(view: WorkspaceView): void {
    const stillThere = view.skills.some((skill) => skill.location === this.selectedLocation);
    if (!stillThere) this.selectedLocation = null;
    this.view = view;
    this.error = null;
    this.problem = null;
    this.status = "ready";
  }

  #fail(error: AppError): void {
    this.view = null;
    this.error = error;
    this.selectedLocation = null;
    this.status = "error";
  }
}

/** What tells one workspace from another: its folders, in order, or the builtin skills' label. */
export function workspaceKey(view: WorkspaceView): string {
  return view.roots.length > 0 ? view.roots.map((root) => root.path).join("\n") : `builtin:${view.label}`;
}

/** Whether an open file belongs to `view`: inside one of its folders, or a builtin file while those are shown. */
export function belongsTo(path: string, view: WorkspaceView): boolean {
  if (view.roots.length === 0) return path.startsWith("package:");
  return view.roots.some((root) => insideRoot(path, root.path));
}
