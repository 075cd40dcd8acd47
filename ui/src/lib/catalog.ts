// Pure helpers that turn what the backend reports into what the window says.
import type { AppError, ErrorCode, Result } from "./backend";

// Exhaustive on purpose: a new code from the backend fails svelte-check until it has a title here.
const ERROR_TITLES: Record<ErrorCode, string> = {
  not_found: "Folder not found",
  not_a_directory: "Not a folder",
  unreadable: "Folder cannot be read",
  outside_workspace: "Outside the workspace",
  not_editable: "File cannot be edited",
  changed_on_disk: "Changed on disk",
  already_exists: "Already exists",
  invalid_input: "Not accepted",
  already_installed: "Installed before",
  not_replaceable: "Never replaced",
  read_only: "Read-only",
  client_missing: "Client program not found",
  no_credentials: "No credentials",
  internal: "Something went wrong",
};

/** A short heading for an error; the message from the backend says what to do. */
export function errorTitle(code: ErrorCode): string {
  return ERROR_TITLES[code] ?? ERROR_TITLES.internal;
}

/** Shows a location relative to the workspace root when it lies inside it, otherwise unchanged. */
export function displayLocation(location: string, root: string | null): string {
  if (!root) return location;
  const prefix = root.endsWith("/") || root.endsWith("\\") ? root : `${root}/`;
  return location.startsWith(prefix) ? location.slice(prefix.length) : location;
}

/** The folder that holds a skill's folder: `/a/b` for `/a/b/pdf/SKILL.md`. */
export function folderHoldingSkill(skillFile: string): string {
  const parentOf = (path: string) => path.slice(0, Math.max(path.lastIndexOf("/"), path.lastIndexOf("\\")));
  const holder = parentOf(parentOf(skillFile));
  return holder === "" ? skillFile.slice(0, 1) : holder;
}

export function countLabel(count: number, noun: string): string {
  return `${count} ${noun}${count === 1 ? "" : "s"}`;
}

/**
 * Runs a backend call and turns a rejected promise (a broken IPC channel, a bug) into an ordinary error
 * result, so the window always has something to show.
 */
export async function settle<T>(call: () => Promise<Result<T>>): Promise<Result<T>> {
  try {
    return await call();
  } catch (thrown) {
    const message = thrown instanceof Error ? thrown.message : String(thrown);
    return { status: "error", error: { code: "internal", message: `The backend did not answer: ${message}` } };
  }
}
