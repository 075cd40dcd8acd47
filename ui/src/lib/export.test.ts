import { describe, expect, it } from "vitest";
import { ExportStore, isAbsolutePath, refusalOf } from "./export.svelte";
import type { AppError, ExportChoice, Target } from "./backend";
import { fakeBackend, ok, type FakeBackendOptions } from "../test/fakeBackend";
import { engineExport, engineView, engineWorkspace } from "../test/engineAnswers";

// The fixture workspaces the engine exported (engine-questions.json): "export" is clean, "export-warning" has a
// broken link in beta, "export-error" that and an XML tag in alpha's description. Every report and refusal below is
// the engine's; the codes are asserted literally so that a changed engine answer fails here.
const EXPORTS = "/home/me/exports";
const PROJECT = "/home/me/project";

function exporter(workspace: string, options: FakeBackendOptions = {}) {
  const backend = fakeBackend({ files: { ...engineWorkspace(workspace).files }, ...options });
  const store = new ExportStore(backend);
  store.reset(engineView(workspace).report.skills.map((skill) => skill.name));
  store.destination = EXPORTS;
  return { backend, store };
}

function choice(target: Target, out: string, client: ExportChoice["client"] = null): ExportChoice {
  return { target, skills: null, out, package_name: null, package_version: null, client, force: false };
}

/** The engine's refusal of an export of a fixture workspace, into a destination set up as named. */
function refusal(workspace: string, call: "plan" | "run", exported: ExportChoice, destination: string | null): AppError {
  const answer = engineExport({ call, choice: exported, destination }, new Map(Object.entries(engineWorkspace(workspace).files)));
  if (answer.status === "ok") throw new Error("the engine exported it");
  return answer.error;
}

describe("ExportStore", () => {
  it("selects every skill and sends null for all", () => {
    const { store } = exporter("export");
    expect(store.available).toEqual(["alpha", "beta"]);
    expect(store.choice.skills).toBeNull();
    store.toggle("beta", false);
    expect(store.choice.skills).toEqual(["alpha"]);
    store.selectAll(false);
    expect(store.canCheck).toBe(false);
  });

  it("needs an absolute destination before checking", () => {
    const { store } = exporter("export");
    store.destination = "";
    expect(store.canCheck).toBe(false);
    store.destination = "relative/out";
    expect(store.destinationProblem).toMatch(/absolute/);
    expect(store.canCheck).toBe(false);
    store.destination = `  ${EXPORTS} `;
    expect(store.canCheck).toBe(true);
    expect(store.choice.out).toBe(EXPORTS);
  });

  it("a plan without errors allows the export, and any change makes it stale", async () => {
    const { store } = exporter("export-warning");
    expect(store.canExport).toBe(false);
    await store.check();
    expect(store.canExport).toBe(true);
    expect(store.warnings.map((warning) => [warning.skill, warning.code])).toEqual([["beta", "SF503"]]);
    expect(store.errors).toEqual([]);
    store.target = "client-folder";
    expect(store.currentPlan).toBeNull();
    expect(store.canExport).toBe(false);
    expect(store.choice.client).toBe("agents");
  });

  it("errors in the plan block the export", async () => {
    const { backend, store } = exporter("export-error");
    await store.check();
    expect(store.currentPlan?.blocked).toBe(true);
    expect(store.errors.map((error) => [error.skill, error.code])).toEqual([["alpha", "SF305"]]);
    expect(store.canExport).toBe(false);
    await store.run();
    expect(backend.calls.some((call) => call.startsWith("exportRun"))).toBe(false);
  });

  it("offers force only for an earlier install, and retries with it", async () => {
    const { backend, store } = exporter("export", { exportDestination: "earlier-install" });
    store.target = "client-folder";
    store.destination = PROJECT;
    await store.check();
    await store.run();
    expect(store.error?.code).toBe("already_installed");
    expect(store.refusal?.kind).toBe("earlier-install");
    expect(store.result).toBeNull();
    await store.replaceEarlierInstall();
    expect(backend.calls.filter((call) => call.startsWith("exportRun"))).toEqual([
      `exportRun client-folder ${PROJECT} force=false`,
      `exportRun client-folder ${PROJECT} force=true`,
    ]);
    expect(store.error).toBeNull();
    expect(store.result?.written.map((written) => [written.path, written.action])).toEqual([
      [`${PROJECT}/.agents/skills/alpha`, "replaced"],
      [`${PROJECT}/.agents/skills/beta`, "replaced"],
    ]);
  });

  it("never forces over a foreign folder", async () => {
    const { backend, store } = exporter("export", { exportDestination: "foreign" });
    store.target = "client-folder";
    store.destination = PROJECT;
    await store.check();
    await store.run();
    expect(store.error?.code).toBe("not_replaceable");
    expect(store.refusal?.kind).toBe("foreign");
    await store.replaceEarlierInstall();
    expect(backend.calls.filter((call) => call.includes("force=true"))).toEqual([]);
  });

  it("keeps a typed destination when the folder dialog is cancelled, and takes a picked one", async () => {
    const { store } = exporter("export", { pickExport: ok(null) });
    await store.pickDestination();
    expect(store.destination).toBe(EXPORTS);
    const picking = new ExportStore(fakeBackend({ pickExport: ok(PROJECT) }));
    await picking.pickDestination();
    expect(picking.destination).toBe(PROJECT);
  });

  it("a run that comes back blocked shows the new verdict", async () => {
    const { backend, store } = exporter("export-warning");
    await store.check();
    expect(store.canExport).toBe(true);
    // alpha gains an error after the check: the workspace is now the one the engine blocked.
    for (const [path, text] of Object.entries(engineWorkspace("export-error").files)) backend.files.set(path, text);
    await store.run();
    expect(store.result).toBeNull();
    expect(store.errors.map((error) => [error.skill, error.code])).toEqual([["alpha", "SF305"]]);
    expect(store.canExport).toBe(false);
  });
});

describe("refusalOf", () => {
  it("tells an earlier install from a foreign or occupied folder", () => {
    const agents = choice("client-folder", PROJECT, "agents");
    const archive = choice("skill-archive", EXPORTS);
    expect(refusalOf(refusal("export", "run", agents, "earlier-install")).kind).toBe("earlier-install");
    expect(refusalOf(refusal("export", "run", agents, "foreign")).kind).toBe("foreign");
    expect(refusalOf(refusal("export", "run", archive, "occupied")).kind).toBe("occupied");
    // The builtin skills are read-only: nothing to replace, nothing to offer.
    expect(refusalOf(refusal("builtin", "plan", archive, null)).kind).toBe("other");
  });

  it("knows absolute paths", () => {
    expect(isAbsolutePath("/tmp")).toBe(true);
    expect(isAbsolutePath("C:\\Users")).toBe(true);
    expect(isAbsolutePath("tmp")).toBe(false);
  });
});
