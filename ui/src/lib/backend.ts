// The only module that talks to the desktop backend. Components receive a `Backend`, so tests hand them a fake.
import { commands, type AppError } from "./bindings.gen";

export type { AppError, CatalogReport, ErrorCode, Skill, WorkspaceView } from "./bindings.gen";

/** How every command answers: tauri-specta's result shape, with the app's error. */
export type Result<T> = { status: "ok"; data: T } | { status: "error"; error: AppError };

/** The backend commands the UI uses, typed by the generated bindings. */
export type Backend = Pick<
  typeof commands,
  "initialWorkspace" | "openWorkspace" | "builtinWorkspace" | "pickWorkspaceFolder"
>;

/** The real backend: typed Tauri commands. */
export const tauriBackend: Backend = commands;
