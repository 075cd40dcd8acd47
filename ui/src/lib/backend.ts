// The only module that talks to the desktop backend. Components receive a `Backend`, so tests hand them a fake.
import { getCurrentWindow } from "@tauri-apps/api/window";
import { commands, events, type AppError, type ProfileId, type RealTriggerEvent, type WorkspaceEvent } from "./bindings.gen";

export type {
  AppError,
  Applicability,
  BufferAnswer,
  BufferLint,
  BufferReply,
  EditorDiagnostic,
  EditorEdit,
  EditorFix,
  FileLint,
  ProfileId,
  Severity,
  Verdict,
  WorkspaceLint,
  CatalogReport,
  ErrorCode,
  Fingerprint,
  LinkStatus,
  Preview,
  SaveGuard,
  Skill,
  TextFile,
  WorkspaceEvent,
  WorkspaceView,
  WorkspaceNotice,
  RecentFolder,
  RecentList,
  StoredPreferences,
  ThemeChoice,
  UiPreferences,
  RootView,
  Buffer,
  CatalogBudget,
  CatalogDialect,
  CatalogEntry,
  CatalogPage,
  CatalogLimits,
  CatalogPreview,
  Dialect,
  EvalQuery,
  LoadPreview,
  PlaygroundModel,
  QueryResult,
  RequestMessage,
  Round,
  SavedEvals,
  SkillMetrics,
  SkillScore,
  Transcript,
  TriggerReport,
  Client,
  ExportChoice,
  ExportedSkillSummary,
  ExportReport,
  Problem,
  Target,
  Written,
  ResourceEntry,
  ResourceKind,
  SkillFiles,
  SearchFile,
  SearchMatch,
  SearchQuery,
  SearchResults,
  ClientPrograms,
  EvalReport,
  Expect,
  FiredCount,
  Plan,
  QueryOutcome,
  RealClient,
  RealTriggerEvent,
  RunOutcome,
  RunResult,
  Stop,
  StoredClientPrograms,
} from "./bindings.gen";

/** How every command answers: tauri-specta's result shape, with the app's error. */
export type Result<T> = { status: "ok"; data: T } | { status: "error"; error: AppError };

import { PROFILE_IDS } from "./bindings.gen";

/** The router's default minimum score (the engine's, so the app starts where the CLI does). */
export { DIALECT_VERSIONS, PROFILE_STATUS, PROFILE_TITLES, ROUTER_THRESHOLD } from "./bindings.gen";

/** Every profile, in the engine's order. */
export const PROFILES: ProfileId[] = [...PROFILE_IDS];

type Commands = typeof commands;

/** The backend the UI uses: the generated commands plus two subscriptions. */
export interface Backend
  extends Pick<
    Commands,
    | "initialWorkspace"
    | "openWorkspace"
    | "addWorkspaceRoot"
    | "removeWorkspaceRoot"
    | "recentWorkspaces"
    | "forgetRecentWorkspace"
    | "builtinWorkspace"
    | "pickWorkspaceFolder"
    | "duplicateBuiltinSkill"
    | "readFile"
    | "saveFile"
    | "renderPreview"
    | "openExternal"
    | "refreshWorkspace"
    | "lintBuffer"
    | "openBuffer"
    | "editBuffer"
    | "closeBuffer"
    | "lintWorkspace"
    | "ruleDocumentation"
    | "createSkill"
    | "catalogPreview"
    | "loadPreview"
    | "simulate"
    | "runTriggers"
    | "saveTriggerQueries"
    | "pickExportFolder"
    | "exportPlan"
    | "exportRun"
    | "uiPreferences"
    | "saveUiPreferences"
    | "skillFiles"
    | "createSkillFile"
    | "renameSkillFile"
    | "deleteSkillFile"
    | "createLinkTarget"
    | "renameSkill"
    | "searchWorkspace"
    | "planRealTriggers"
    | "startRealTriggers"
    | "cancelRealTriggers"
    | "clientPrograms"
    | "saveClientPrograms"
  > {
  /** Calls `listener` for every workspace event; resolves to a function that stops listening. */
  onWorkspaceEvent(listener: (event: WorkspaceEvent) => void): Promise<() => void>;
  /** Calls `listener` for every event of a run on a real client; resolves to a function that stops listening. */
  onRealTriggerEvent(listener: (event: RealTriggerEvent) => void): Promise<() => void>;
  /**
   * Asks `mayClose` before the window closes; resolves to a function that stops asking. Resolves to null where
   * the window cannot be held open.
   */
  onCloseRequested(mayClose: () => Promise<boolean>): Promise<(() => void) | null>;
}

/** The real backend: typed Tauri commands. */
export const tauriBackend: Backend = {
  initialWorkspace: commands.initialWorkspace,
  openWorkspace: commands.openWorkspace,
  addWorkspaceRoot: commands.addWorkspaceRoot,
  removeWorkspaceRoot: commands.removeWorkspaceRoot,
  recentWorkspaces: commands.recentWorkspaces,
  forgetRecentWorkspace: commands.forgetRecentWorkspace,
  builtinWorkspace: commands.builtinWorkspace,
  pickWorkspaceFolder: commands.pickWorkspaceFolder,
  duplicateBuiltinSkill: commands.duplicateBuiltinSkill,
  readFile: commands.readFile,
  saveFile: commands.saveFile,
  renderPreview: commands.renderPreview,
  openExternal: commands.openExternal,
  refreshWorkspace: commands.refreshWorkspace,
  lintBuffer: commands.lintBuffer,
  openBuffer: commands.openBuffer,
  editBuffer: commands.editBuffer,
  closeBuffer: commands.closeBuffer,
  lintWorkspace: commands.lintWorkspace,
  ruleDocumentation: commands.ruleDocumentation,
  createSkill: commands.createSkill,
  catalogPreview: commands.catalogPreview,
  loadPreview: commands.loadPreview,
  simulate: commands.simulate,
  runTriggers: commands.runTriggers,
  saveTriggerQueries: commands.saveTriggerQueries,
  pickExportFolder: commands.pickExportFolder,
  exportPlan: commands.exportPlan,
  exportRun: commands.exportRun,
  uiPreferences: commands.uiPreferences,
  saveUiPreferences: commands.saveUiPreferences,
  skillFiles: commands.skillFiles,
  createSkillFile: commands.createSkillFile,
  renameSkillFile: commands.renameSkillFile,
  deleteSkillFile: commands.deleteSkillFile,
  createLinkTarget: commands.createLinkTarget,
  renameSkill: commands.renameSkill,
  searchWorkspace: commands.searchWorkspace,
  planRealTriggers: commands.planRealTriggers,
  startRealTriggers: commands.startRealTriggers,
  cancelRealTriggers: commands.cancelRealTriggers,
  clientPrograms: commands.clientPrograms,
  saveClientPrograms: commands.saveClientPrograms,
  onRealTriggerEvent: (listener) => events.realTriggerEvent.listen((event) => listener(event.payload)),
  onWorkspaceEvent: (listener) => events.workspaceEvent.listen((event) => listener(event.payload)),
  // Tauri destroys the window after the handler unless it prevents that; the capability grants
  // `core:window:allow-destroy` for exactly this.
  onCloseRequested: async (mayClose) => {
    return getCurrentWindow().onCloseRequested(async (event) => {
      if (!(await mayClose())) event.preventDefault();
    });
  },
};
