// The only module that talks to the desktop backend. Components receive a `Backend`, so tests hand them a fake.
import {
  commands,
  type AppError,
  type CatalogReport_Serialize,
  type WorkspaceView_Serialize,
} from "./bindings.gen";

export type { AppError, ErrorCode, Skill } from "./bindings.gen";

/** What the backend sends (the `_Deserialize` variants describe what it would accept). */
export type WorkspaceView = WorkspaceView_Serialize;
export type CatalogReport = CatalogReport_Serialize;

/** How every command answers: tauri-specta's result shape, with the app's error. */
export type Result<T> = { status: "ok"; data: T } | { status: "error"; error: AppError };

/** The backend commands the UI uses, typed by the generated bindings. */
export type Backend = Pick<
  typeof commands,
  "initialWorkspace" | "openWorkspace" | "builtinWorkspace" | "pickWorkspaceFolder"
>;

/** The real backend: typed Tauri commands. */
export const tauriBackend: Backend = commands;
