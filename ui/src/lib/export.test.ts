import { describe, expect, it } from "vitest";
import { ExportStore, isAbsolutePath, refusalOf } from "./export.svelte";
import { failure, fakeBackend, ok } from "../test/fakeBackend";
import { earlierInstall, foreign, problem, report } from "../test/fakeExport";

function ready(store: ExportStore) {
  store.reset(["alpha", "beta"]);
  store.destination = "/tmp/out";
}

describe("ExportStore", () => {
  it("selects every skill and sends null for all", () => {
    const store = new ExportStore(fakeBackend());
    ready(store);
    expect(store.choice.skills).toBeNull();
    store.toggle("beta", false);
    expect(store.choice.skills).toEqual(["alpha"]);
    store.selectAll(false);
    expect(store.canCheck).toBe(false);
  });

  it("needs an absolute destination before checking", () => {
    const store = new ExportStore(fakeBackend());
    store.reset(["alpha"]);
    expect(store.canCheck).toBe(false);
    store.destination = "relative/out";
    expect(store.destinationProblem).toMatch(/absolute/);
    expect(store.canCheck).toBe(false);
    store.destination = "  /tmp/out ";
    expect(store.canCheck).toBe(true);
    expect(store.choice.out).toBe("/tmp/out");
  });

  it("a plan without errors allows the export, and any change makes it stale", async () => {
    const store = new ExportStore(fakeBackend({ exportPlan: (choice) => ok(report(choice, [problem("warning", "beta", "long")])) }));
    ready(store);
    expect(store.canExport).toBe(false);
    await store.check();
    expect(store.canExport).toBe(true);
    expect(store.warnings.map((w) => w.skill)).toEqual(["beta"]);
    store.target = "client-folder";
    expect(store.currentPlan).toBeNull();
    expect(store.canExport).toBe(false);
    expect(store.choice.client).toBe("agents");
  });

  it("errors in the plan block the export", async () => {
    const backend = fakeBackend({ exportPlan: (choice) => ok(report(choice, [problem("error", "alpha", "bad name")])) });
    const store = new ExportStore(backend);
    ready(store);
    await store.check();
    expect(store.currentPlan?.blocked).toBe(true);
    expect(store.errors.map((e) => [e.skill, e.message])).toEqual([["alpha", "bad name"]]);
    expect(store.canExport).toBe(false);
    await store.run();
    expect(backend.calls.some((call) => call.startsWith("exportRun"))).toBe(false);
  });

  it("offers force only for an earlier install, and retries with it", async () => {
    const backend = fakeBackend({
      exportPlan: (choice) => ok(report(choice)),
      exportRun: (choice) =>
        choice.force ? ok(report(choice, [], [{ path: "/tmp/out/.agents/skills/alpha", action: "replaced", files: 2, bytes: 300, artifacts: [], removed: [], kept: [] }])) : failure(earlierInstall),
    });
    const store = new ExportStore(backend);
    ready(store);
    store.target = "client-folder";
    await store.check();
    await store.run();
    expect(store.refusal?.kind).toBe("earlier-install");
    expect(store.result).toBeNull();
    await store.replaceEarlierInstall();
    expect(backend.calls.filter((call) => call.startsWith("exportRun"))).toEqual([
      "exportRun client-folder /tmp/out force=false",
      "exportRun client-folder /tmp/out force=true",
    ]);
    expect(store.error).toBeNull();
    expect(store.result?.written[0].action).toBe("replaced");
  });

  it("never forces over a foreign folder", async () => {
    const backend = fakeBackend({ exportPlan: (choice) => ok(report(choice)), exportRun: () => failure(foreign) });
    const store = new ExportStore(backend);
    ready(store);
    await store.check();
    await store.run();
    expect(store.refusal?.kind).toBe("foreign");
    await store.replaceEarlierInstall();
    expect(backend.calls.filter((call) => call.includes("force=true"))).toEqual([]);
  });

  it("keeps a typed destination when the folder dialog is cancelled, and takes a picked one", async () => {
    const store = new ExportStore(fakeBackend({ pickExport: ok(null) }));
    ready(store);
    await store.pickDestination();
    expect(store.destination).toBe("/tmp/out");
    const picking = new ExportStore(fakeBackend({ pickExport: ok("/home/me/project") }));
    await picking.pickDestination();
    expect(picking.destination).toBe("/home/me/project");
  });

  it("a run that comes back blocked shows the new verdict", async () => {
    const store = new ExportStore(
      fakeBackend({
        exportPlan: (choice) => ok(report(choice)),
        exportRun: (choice) => ok(report(choice, [problem("error", "alpha", "changed since the check")])),
      }),
    );
    ready(store);
    await store.check();
    await store.run();
    expect(store.result).toBeNull();
    expect(store.errors.map((e) => e.message)).toEqual(["changed since the check"]);
    expect(store.canExport).toBe(false);
  });
});

describe("refusalOf", () => {
  it("tells an earlier install from a foreign or occupied folder", () => {
    expect(refusalOf(earlierInstall).kind).toBe("earlier-install");
    expect(refusalOf(foreign).kind).toBe("foreign");
    expect(
      refusalOf({ code: "already_exists", message: "/tmp/out: already exists; choose another destination, or replace it explicitly (--force)" }).kind,
    ).toBe("occupied");
    expect(refusalOf({ code: "invalid_input", message: "the builtin skills cannot be exported from here" }).kind).toBe("other");
  });

  it("knows absolute paths", () => {
    expect(isAbsolutePath("/tmp")).toBe(true);
    expect(isAbsolutePath("C:\\Users")).toBe(true);
    expect(isAbsolutePath("tmp")).toBe(false);
  });
});
