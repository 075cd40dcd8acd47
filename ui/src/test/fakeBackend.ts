// A stand-in for the desktop backend: an in-memory file system, the engine's recorded answers (engineAnswers.ts)
// for everything the engine decides, and a record of what the UI asked for.
import type {
  AppError,
  Backend,
  RecentList,
  Result,
  SaveGuard,
  UiPreferences,
  ClientPrograms,
  Plan,
  RealTriggerEvent,
  Skill,
  WorkspaceEvent,
  WorkspaceView,
} from "../lib/backend";
import {
  engineCatalog,
  engineCreate,
  engineExport,
  engineFileLint,
  engineLint,
  engineLoad,
  enginePreview,
  engineRuleDocumentation,
  engineSavedTriggers,
  engineSimulate,
  engineTriggers,
} from "./engineAnswers";

// Hand-made skills and views, for the tests of the workspace store and the tree, which only pass a view through
// or shape it: nothing the engine decides is asserted from them. A test that shows what opening a folder gives
// uses the engine's own view (`engineView`).
export function skill(name: string, description = `Describes ${name}.`, root = "/work/skills"): Skill {
  return { name, description, location: `${root}/${name}/SKILL.md` };
}

export function workspaceView(skills: Skill[], overrides: Partial<WorkspaceView> = {}): WorkspaceView {
  const view: Omit<WorkspaceView, "roots"> = {
    root: "/work/skills",
    label: "skills",
    read_only: false,
    skills,
    notices: [],
    report: { skills, diagnostics: [], error: null, duplicates: [], shadowed: [] },
    ...overrides,
  };
  // One root group per opened folder, as the backend answers; none for the builtin skills.
  const roots = overrides.roots ?? (view.root ? [{ path: view.root, label: view.label }] : []);
  return { ...view, roots };
}

/** A view of several opened folders, each holding the named skills. */
export function rootsView(folders: Record<string, string[]>): WorkspaceView {
  const roots = Object.keys(folders).map((path) => ({ path, label: path.slice(path.lastIndexOf("/") + 1) }));
  const skills = Object.entries(folders).flatMap(([path, names]) => names.map((name) => skill(name, undefined, path)));
  return workspaceView(skills, { root: roots[0]?.path ?? null, roots, label: roots.map((root) => root.label).join(", ") });
}

export const ok = <T>(data: T): Result<T> => ({ status: "ok", data });
export const failure = <T>(error: AppError): Result<T> => ({ status: "error", error });

type Answer<T> = Result<T> | Promise<Result<T>>;

export interface FakeBackendOptions {
  /** The window's remembered settings (the defaults unless given). */
  preferences?: UiPreferences;
  initial?: Answer<WorkspaceView>;
  builtin?: Answer<WorkspaceView>;
  open?: (path: string) => Answer<WorkspaceView>;
  /** "Add folder…": the workspace with the folder added. */
  add?: (path: string) => Answer<WorkspaceView>;
  /** Closing a folder of the workspace. */
  remove?: (path: string) => Answer<WorkspaceView>;
  /** The recent folders the backend remembers (forgetting one removes it here). */
  recent?: RecentList;
  /** How many catalog entries a preview page lists (the backend's is 300); the engine's answers must have been
   * recorded for this count. */
  previewRows?: number;
  pick?: Answer<string | null>;
  /** What "Duplicate into a folder…" answers: the copied SKILL.md, or null for a cancelled dialog. */
  duplicate?: (location: string) => Answer<string | null>;
  refresh?: () => Answer<WorkspaceView>;
  /** The export destination the folder dialog answers with. */
  pickExport?: Answer<string | null>;
  /** What is at the export destination before the export, as a named setup of engine-questions.json
   * (`destinations`); none for a destination with nothing in it. Exports are answered by the engine's recorded
   * answers for the workspace holding exactly `files`. */
  exportDestination?: string;
  /** The files the fake reads and writes, by absolute path. */
  files?: Record<string, string>;
  /** What an estimate or a start of a run on a real client answers (the runs themselves are events the test
   * sends with `emitRealTrigger`). */
  realPlan?: Answer<Plan>;
  /** What saving the client programs answers instead of keeping them (the backend refuses a Codex setting that
   * is not KEY=VALUE). */
  saveProgramsRefusal?: AppError;
}

export interface FakeBackend extends Backend {
  calls: string[];
  files: Map<string, string>;
  /** The editor's buffers as the backend holds them, by id; a test may change one behind the editor's back. */
  buffers: Map<number, { path: string; text: string; version: number }>;
  /** Sends a workspace event to the UI, as the watcher would. */
  emit(event: WorkspaceEvent): void;
  /** Sends an event of a run on a real client to the UI. */
  emitRealTrigger(event: RealTriggerEvent): void;
}

/** A text's fingerprint computed as the engine's `Fingerprint::of` does: the SHA-256 of its UTF-8 bytes, in lowercase
 * hex. The UI treats it as opaque; the fake only needs it to change exactly when the text does. */
export async function fingerprintOf(text: string): Promise<string> {
  const digest = await crypto.subtle.digest("SHA-256", new TextEncoder().encode(text));
  return [...new Uint8Array(digest)].map((byte) => byte.toString(16).padStart(2, "0")).join("");
}

export function fakeBackend(options: FakeBackendOptions = {}): FakeBackend {
  const calls: string[] = [];
  const files = new Map(Object.entries(options.files ?? {}));
  const buffers = new Map<number, { path: string; text: string; version: number }>();
  let nextBuffer = 0;
  const listeners = new Set<(event: WorkspaceEvent) => void>();
  const realListeners = new Set<(event: RealTriggerEvent) => void>();
  let programs: ClientPrograms = { claude_bin: null, codex_bin: null, codex_config: [] };
  let recent: RecentList = options.recent ?? { folders: [], problem: null };
  let preferences: UiPreferences = options.preferences ?? { theme: "system", welcome_dismissed: false };
  const missing = (what: string): Result<never> => ({
    status: "error",
    error: { code: "internal", message: `the fake backend has no answer for ${what}` },
  });
  const notFound = (path: string): Result<never> => failure({ code: "not_found", message: `${path}: no such file` });
  return {
    calls,
    files,
    buffers,
    emit: (event) => listeners.forEach((listener) => listener(event)),
    emitRealTrigger: (event) => realListeners.forEach((listener) => listener(event)),
    initialWorkspace: async () => {
      calls.push("initialWorkspace");
      return (await options.initial) ?? missing("initialWorkspace");
    },
    builtinWorkspace: async () => {
      calls.push("builtinWorkspace");
      return (await options.builtin) ?? missing("builtinWorkspace");
    },
    openWorkspace: async (path: string) => {
      calls.push(`openWorkspace ${path}`);
      return options.open ? await options.open(path) : missing("openWorkspace");
    },
    addWorkspaceRoot: async (path: string) => {
      calls.push(`addWorkspaceRoot ${path}`);
      return options.add ? await options.add(path) : missing("addWorkspaceRoot");
    },
    removeWorkspaceRoot: async (path: string) => {
      calls.push(`removeWorkspaceRoot ${path}`);
      return options.remove ? await options.remove(path) : missing("removeWorkspaceRoot");
    },
    // Reading the list changes nothing, so it is not recorded in `calls`.
    recentWorkspaces: async () => ok(recent),
    uiPreferences: async () => ok({ preferences: preferences, problem: null }),
    saveUiPreferences: async (chosen: UiPreferences) => {
      preferences = chosen;
      return ok({ preferences, problem: null });
    },
    forgetRecentWorkspace: async (path: string) => {
      calls.push(`forgetRecentWorkspace ${path}`);
      recent = { ...recent, folders: recent.folders.filter((folder) => folder.path !== path) };
      return ok(recent);
    },
    pickWorkspaceFolder: async () => {
      calls.push("pickWorkspaceFolder");
      return (await options.pick) ?? missing("pickWorkspaceFolder");
    },
    duplicateBuiltinSkill: async (location: string) => {
      calls.push(`duplicateBuiltinSkill ${location}`);
      return options.duplicate ? await options.duplicate(location) : missing("duplicateBuiltinSkill");
    },
    refreshWorkspace: async () => {
      calls.push("refreshWorkspace");
      return options.refresh ? await options.refresh() : missing("refreshWorkspace");
    },
    readFile: async (path: string) => {
      calls.push(`readFile ${path}`);
      const text = files.get(path);
      return text === undefined ? notFound(path) : ok({ text, fingerprint: await fingerprintOf(text) });
    },
    saveFile: async (path: string, text: string, guard: SaveGuard) => {
      calls.push(`saveFile ${path} ${guard.kind}`);
      const current = files.get(path);
      if (guard.kind === "new" && current !== undefined) {
        return failure({ code: "already_exists", message: `${path} already exists` });
      }
      if (guard.kind === "unchanged" && (current === undefined || (await fingerprintOf(current)) !== guard.fingerprint)) {
        return failure({ code: "changed_on_disk", message: `${path} changed on disk` });
      }
      // Digest first: the file changes and the answer goes back in one step, as a save does.
      const fingerprint = await fingerprintOf(text);
      files.set(path, text);
      return ok(fingerprint);
    },
    renderPreview: async (path: string, text: string) => {
      calls.push(`renderPreview ${path}`);
      return enginePreview({ path, text });
    },
    openExternal: async (url: string) => {
      calls.push(`openExternal ${url}`);
      return ok(null);
    },
    lintBuffer: async (path, text, profiles) => {
      calls.push(`lintBuffer ${path} ${profiles.join(",")}`);
      return ok(engineLint({ path, text, profiles }));
    },
    openBuffer: async (path, text, profiles) => {
      calls.push(`openBuffer ${path} ${profiles.join(",")}`);
      for (const [id, held] of buffers) if (held.path === path) buffers.delete(id);
      const id = ++nextBuffer;
      buffers.set(id, { path, text, version: 0 });
      return ok({ id, answer: { kind: "linted", version: 0, lint: engineLint({ path, text, profiles }) }, backend_ms: 0 });
    },
    editBuffer: async (id, version, changes, profiles) => {
      calls.push(`editBuffer ${id} ${version} ${profiles.join(",")}`);
      const held = buffers.get(id);
      if (!held || held.version !== version) {
        const message = held ? `the buffer is at version ${held.version}, not ${version}` : `no open buffer ${id}`;
        return ok({ id, answer: { kind: "resend", message }, backend_ms: 0 });
      }
      let text = held.text;
      for (const change of [...changes].reverse()) text = text.slice(0, change.from) + change.insert + text.slice(change.to);
      held.text = text;
      held.version++;
      return ok({ id, answer: { kind: "linted", version: held.version, lint: engineLint({ path: held.path, text, profiles }) }, backend_ms: 0 });
    },
    closeBuffer: async (id) => {
      calls.push(`closeBuffer ${id}`);
      buffers.delete(id);
      return ok(null);
    },
    lintWorkspace: async (profiles) => {
      calls.push(`lintWorkspace ${profiles.join(",")}`);
      // The engine lints every SKILL.md under the roots; each file's entry is the engine's for its text.
      const skills = [...files.keys()].filter((path) => path.endsWith("/SKILL.md")).sort();
      return ok({ files: skills.map((path) => engineFileLint({ path, text: files.get(path)!, profiles })) });
    },
    ruleDocumentation: async (rule) => {
      calls.push(`ruleDocumentation ${rule}`);
      return ok(engineRuleDocumentation(rule));
    },
    createSkill: async (parent, name, withScripts, withReferences) => {
      calls.push(`createSkill ${parent} ${name} ${withScripts} ${withReferences}`);
      const created = engineCreate({ parent, name, with_scripts: withScripts, with_references: withReferences });
      if (files.has(created.path)) return failure({ code: "already_exists", message: `${created.path} already exists` });
      for (const [path, text] of Object.entries(created.files)) files.set(path, text);
      return ok(created.path);
    },
    catalogPreview: async (dialect, limits, buffers, currentPath, currentName) => {
      calls.push(`catalogPreview ${dialect}`);
      const question = { dialect, limits, buffers, current_path: currentPath, current_name: currentName, rows: options.previewRows ?? 300 };
      return ok(engineCatalog(question, files));
    },
    loadPreview: async (path, text, tokenLimit) => {
      calls.push(`loadPreview ${path} ${tokenLimit}`);
      return ok(engineLoad({ path, text, token_limit: tokenLimit }));
    },
    simulate: async (message, dialect, model, tokenLimit, systemPrompt, buffers) => {
      calls.push(`simulate ${dialect} ${JSON.stringify(model)}`);
      const question = { message, dialect, model, token_limit: tokenLimit, system_prompt: systemPrompt, buffers };
      return ok(engineSimulate(question, files));
    },
    runTriggers: async (queries, buffers, threshold) => {
      calls.push(`runTriggers ${queries.length} ${threshold}`);
      return ok(engineTriggers({ queries, buffers, threshold }, files));
    },
    saveTriggerQueries: async (skillPath, queries, guard) => {
      calls.push(`saveTriggerQueries ${skillPath} ${guard.kind}`);
      const { path, text } = engineSavedTriggers({ skill_path: skillPath, queries });
      const current = files.get(path);
      if (guard.kind === "new" && current !== undefined) {
        return failure({ code: "already_exists", message: `${path} already exists` });
      }
      if (guard.kind === "unchanged" && (current === undefined || (await fingerprintOf(current)) !== guard.fingerprint)) {
        return failure({ code: "changed_on_disk", message: `${path} changed on disk` });
      }
      const fingerprint = await fingerprintOf(text);
      files.set(path, text);
      return ok({ path, fingerprint });
    },
    pickExportFolder: async () => {
      calls.push("pickExportFolder");
      return (await options.pickExport) ?? missing("pickExportFolder");
    },
    exportPlan: async (choice) => {
      calls.push(`exportPlan ${choice.target} ${choice.out} force=${choice.force}`);
      return engineExport({ call: "plan", choice, destination: options.exportDestination ?? null }, files);
    },
    exportRun: async (choice) => {
      calls.push(`exportRun ${choice.target} ${choice.out} force=${choice.force}`);
      return engineExport({ call: "run", choice, destination: options.exportDestination ?? null }, files);
    },
    // The skill's files and search are the engine's (resources.rs, search.rs, tested there); the UI tests only
    // see that they are asked for.
    skillFiles: async (skillPath) => {
      calls.push(`skillFiles ${skillPath}`);
      const folder = skillPath.slice(0, skillPath.lastIndexOf("/"));
      return ok({ folder, entries: [], truncated: false, problems: [] });
    },
    createSkillFile: async (skillPath, relative, folder) => {
      calls.push(`createSkillFile ${skillPath} ${relative} ${folder}`);
      return missing("createSkillFile");
    },
    renameSkillFile: async (skillPath, from, toRelative) => {
      calls.push(`renameSkillFile ${skillPath} ${from} ${toRelative}`);
      return missing("renameSkillFile");
    },
    deleteSkillFile: async (skillPath, path) => {
      calls.push(`deleteSkillFile ${skillPath} ${path}`);
      return missing("deleteSkillFile");
    },
    createLinkTarget: async (skillPath, target) => {
      calls.push(`createLinkTarget ${skillPath} ${target}`);
      return missing("createLinkTarget");
    },
    renameSkill: async (skillPath, newName) => {
      calls.push(`renameSkill ${skillPath} ${newName}`);
      return missing("renameSkill");
    },
    searchWorkspace: async (query) => {
      calls.push(`searchWorkspace ${query.text}`);
      return missing("searchWorkspace");
    },
    planRealTriggers: async (client, skillPath, rows, runs, clientBin) => {
      calls.push(`planRealTriggers ${client} ${skillPath} ${rows.length} ${runs} ${clientBin}`);
      return (await options.realPlan) ?? missing("planRealTriggers");
    },
    startRealTriggers: async (client, skillPath, rows, runs, clientBin) => {
      calls.push(`startRealTriggers ${client} ${skillPath} ${rows.length} ${runs} ${clientBin}`);
      return (await options.realPlan) ?? missing("startRealTriggers");
    },
    cancelRealTriggers: async () => {
      calls.push("cancelRealTriggers");
      return ok(true);
    },
    clientPrograms: async () => ok({ programs, problem: null }),
    saveClientPrograms: async (chosen) => {
      calls.push(`saveClientPrograms ${chosen.claude_bin ?? ""} ${chosen.codex_bin ?? ""} ${JSON.stringify(chosen.codex_config ?? [])}`);
      if (options.saveProgramsRefusal) return failure(options.saveProgramsRefusal);
      // Kept as the backend keeps them: each line trimmed, blank ones dropped.
      const codexConfig = (chosen.codex_config ?? []).map((line) => line.trim()).filter(Boolean);
      programs = { ...chosen, codex_config: codexConfig };
      return ok({ programs, problem: null });
    },
    onRealTriggerEvent: async (listener) => {
      realListeners.add(listener);
      return () => realListeners.delete(listener);
    },
    onWorkspaceEvent: async (listener) => {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    onCloseRequested: async () => null,
  };
}

/** A promise the test resolves when it chooses, to look at the window while the backend is still busy. */
export function deferred<T>(): { promise: Promise<T>; resolve: (value: T) => void } {
  let resolve!: (value: T) => void;
  const promise = new Promise<T>((settle) => {
    resolve = settle;
  });
  return { promise, resolve };
}
