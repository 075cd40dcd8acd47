// A stand-in for the desktop backend: answers from fixed data and records what the UI asked for.
import type { AppError, Backend, Result, Skill, WorkspaceView } from "../lib/backend";

export function skill(name: string, description = `Describes ${name}.`, root = "/work/skills"): Skill {
  return { name, description, location: `${root}/${name}/SKILL.md` };
}

export function workspaceView(skills: Skill[], overrides: Partial<WorkspaceView> = {}): WorkspaceView {
  return {
    root: "/work/skills",
    label: "skills",
    read_only: false,
    report: { skills, diagnostics: [], error: null, duplicates: [], shadowed: [] },
    ...overrides,
  };
}

export const ok = <T>(data: T): Result<T> => ({ status: "ok", data });
export const failure = <T>(error: AppError): Result<T> => ({ status: "error", error });

type Answer<T> = Result<T> | Promise<Result<T>>;

export interface FakeBackendOptions {
  initial?: Answer<WorkspaceView>;
  builtin?: Answer<WorkspaceView>;
  open?: (path: string) => Answer<WorkspaceView>;
  pick?: Answer<string | null>;
}

export interface FakeBackend extends Backend {
  calls: string[];
}

export function fakeBackend(options: FakeBackendOptions = {}): FakeBackend {
  const calls: string[] = [];
  const missing = (what: string): Result<never> => ({
    status: "error",
    error: { code: "internal", message: `the fake backend has no answer for ${what}` },
  });
  return {
    calls,
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
    pickWorkspaceFolder: async () => {
      calls.push("pickWorkspaceFolder");
      return (await options.pick) ?? missing("pickWorkspaceFolder");
    },
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
