// The only module that talks to the desktop backend. Components receive a `Backend`, so tests hand them a fake.
import { invoke } from "@tauri-apps/api/core";
import { getCurrentWindow } from "@tauri-apps/api/window";
import { commands, events, type AppError, type WorkspaceEvent } from "./bindings.gen";

export type {
  AppError,
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
} from "./bindings.gen";

/** How every command answers: tauri-specta's result shape, with the app's error. */
export type Result<T> = { status: "ok"; data: T } | { status: "error"; error: AppError };

// The lint commands are being added to the backend; until they appear in the generated bindings their types are
// declared here, exactly as announced, and called by name below. Replace with the generated ones when they land.
export type ProfileId = "spec" | "nagents" | "10xgraph" | "claude-code" | "claude-upload" | "codex" | "copilot" | "opencode";
export type Severity = "info" | "warning" | "error";
export type FixApplicability = "safe" | "unsafe" | "display-only";
export interface TextEdit {
  from: number;
  to: number;
  insert: string;
}
export interface EditorFix {
  title: string;
  applicability: FixApplicability;
  edits: TextEdit[];
}
export interface EditorDiagnostic {
  code: string;
  rule: string;
  severity: Severity;
  message: string;
  /** UTF-16 offsets into the exact text that was linted. */
  from: number;
  to: number;
  line: number;
  column: number;
  fix: EditorFix | null;
}
export type Verdict = { profile: ProfileId } & (
  | { outcome: "loads"; name: string; description: string }
  | { outcome: "skipped"; reason: string }
  | { outcome: "fails-catalog"; reason: string }
);
export interface BufferLint {
  diagnostics: EditorDiagnostic[];
  verdicts: Verdict[];
}
export interface FileLint {
  path: string;
  errors: number;
  warnings: number;
  infos: number;
  diagnostics: EditorDiagnostic[];
}
export interface WorkspaceLint {
  files: FileLint[];
}
export interface RuleDocumentation {
  html: string;
}

export const PROFILES: ProfileId[] = ["spec", "nagents", "10xgraph", "claude-code", "claude-upload", "codex", "copilot", "opencode"];

type Commands = typeof commands;

/** The backend the UI uses: the generated commands plus the lint commands and the two subscriptions. */
export interface Backend
  extends Pick<
    Commands,
    | "initialWorkspace"
    | "openWorkspace"
    | "builtinWorkspace"
    | "pickWorkspaceFolder"
    | "readFile"
    | "saveFile"
    | "renderPreview"
    | "openExternal"
  > {
  lintBuffer(path: string, text: string, profiles: ProfileId[]): Promise<Result<BufferLint>>;
  lintWorkspace(profiles: ProfileId[]): Promise<Result<WorkspaceLint>>;
  ruleDocumentation(rule: string): Promise<Result<RuleDocumentation>>;
  createSkill(parent: string, name: string, withScripts: boolean, withReferences: boolean): Promise<Result<string>>;
  /** Calls `listener` for every workspace event; resolves to a function that stops listening. */
  onWorkspaceEvent(listener: (event: WorkspaceEvent) => void): Promise<() => void>;
  /**
   * Asks `mayClose` before the window closes; resolves to a function that stops asking. Resolves to null where
   * the window cannot be held open.
   */
  onCloseRequested(mayClose: () => Promise<boolean>): Promise<(() => void) | null>;
}

async function call<T>(command: string, args: Record<string, unknown>): Promise<Result<T>> {
  try {
    return { status: "ok", data: await invoke<T>(command, args) };
  } catch (error) {
    if (error instanceof Error) throw error;
    return { status: "error", error: error as AppError };
  }
}

// Holding the window open needs the `core:window:allow-destroy` permission (the UI must destroy the window
// itself once the author agrees); without it a held window could never close, so the guard stays off until granted.
const WINDOW_CLOSE_GUARD = false;

/** The real backend: typed Tauri commands. */
export const tauriBackend: Backend = {
  initialWorkspace: commands.initialWorkspace,
  openWorkspace: commands.openWorkspace,
  builtinWorkspace: commands.builtinWorkspace,
  pickWorkspaceFolder: commands.pickWorkspaceFolder,
  readFile: commands.readFile,
  saveFile: commands.saveFile,
  renderPreview: commands.renderPreview,
  openExternal: commands.openExternal,
  lintBuffer: (path, text, profiles) => call("lint_buffer", { path, text, profiles }),
  lintWorkspace: (profiles) => call("lint_workspace", { profiles }),
  ruleDocumentation: (rule) => call("rule_documentation", { rule }),
  createSkill: (parent, name, withScripts, withReferences) =>
    call("create_skill", { parent, name, withScripts, withReferences }),
  onWorkspaceEvent: (listener) => events.workspaceEvent.listen((event) => listener(event.payload)),
  onCloseRequested: async (mayClose) => {
    if (!WINDOW_CLOSE_GUARD) return null;
    return getCurrentWindow().onCloseRequested(async (event) => {
      if (!(await mayClose())) event.preventDefault();
    });
  },
};
