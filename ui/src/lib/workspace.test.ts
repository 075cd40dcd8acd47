import { describe, expect, it } from "vitest";
import { WorkspaceStore, belongsTo, workspaceKey } from "./workspace.svelte";
import { deferred, failure, fakeBackend, ok, rootsView, skill, workspaceView } from "../test/fakeBackend";
import type { AppError, Result, WorkspaceView } from "./backend";
import { engineOpenError } from "../test/engineAnswers";

describe("WorkspaceStore", () => {
  it("starts loading and becomes ready with the initial workspace", async () => {
    const store = new WorkspaceStore(fakeBackend({ initial: ok(workspaceView([skill("alpha")])) }));
    expect(store.status).toBe("loading");
    await store.loadInitial();
    expect(store.status).toBe("ready");
    expect(store.skills.map((s) => s.name)).toEqual(["alpha"]);
  });

  it("keeps the selection by location while the skill is still there", async () => {
    const alpha = skill("alpha");
    const store = new WorkspaceStore(
      fakeBackend({ initial: ok(workspaceView([alpha, skill("beta")])), open: () => ok(workspaceView([alpha])) }),
    );
    await store.loadInitial();
    store.select(alpha.location);
    expect(store.selected?.name).toBe("alpha");
    await store.openPath("/work/skills");
    expect(store.selected?.name).toBe("alpha");
  });

  it("drops the selection when the skill is gone", async () => {
    const store = new WorkspaceStore(
      fakeBackend({ initial: ok(workspaceView([skill("alpha")])), builtin: ok(workspaceView([skill("other", "", "/b")])) }),
    );
    await store.loadInitial();
    store.select(store.skills[0].location);
    await store.openBuiltin();
    expect(store.selected).toBeNull();
  });

  it("shows an error instead of the previous workspace", async () => {
    const error: AppError = engineOpenError("/work/places/missing");
    const store = new WorkspaceStore(
      fakeBackend({ initial: ok(workspaceView([skill("alpha")])), open: () => failure(error) }),
    );
    await store.loadInitial();
    await store.openPath("/work/places/missing");
    expect(store.status).toBe("error");
    expect(store.error).toEqual(error);
    expect(store.view).toBeNull();
  });

  it("opens the picked folder and ignores a cancelled dialog", async () => {
    const backend = fakeBackend({
      initial: ok(workspaceView([])),
      pick: ok("/picked"),
      open: (path) => ok(workspaceView([skill("picked")], { root: path, label: "picked" })),
    });
    const store = new WorkspaceStore(backend);
    await store.loadInitial();
    await store.openFolder();
    expect(backend.calls).toEqual(["initialWorkspace", "pickWorkspaceFolder", "openWorkspace /picked"]);
    expect(store.view?.label).toBe("picked");

    const cancelled = fakeBackend({ initial: ok(workspaceView([skill("kept")])), pick: ok(null) });
    const unchanged = new WorkspaceStore(cancelled);
    await unchanged.loadInitial();
    await unchanged.openFolder();
    expect(cancelled.calls).toEqual(["initialWorkspace", "pickWorkspaceFolder"]);
    expect(unchanged.skills.map((s) => s.name)).toEqual(["kept"]);
  });

  it("lets the latest request win when answers arrive out of order", async () => {
    const slow = deferred<Result<WorkspaceView>>();
    const store = new WorkspaceStore(
      fakeBackend({ initial: slow.promise, builtin: ok(workspaceView([skill("builtin")], { label: "Builtin skills" })) }),
    );
    const first = store.loadInitial();
    await store.openBuiltin();
    slow.resolve(ok(workspaceView([skill("stale")])));
    await first;
    expect(store.view?.label).toBe("Builtin skills");
  });

  it("reports a backend that throws as an internal error", async () => {
    const backend = fakeBackend();
    backend.initialWorkspace = () => Promise.reject(new Error("ipc gone"));
    const store = new WorkspaceStore(backend);
    await store.loadInitial();
    expect(store.status).toBe("error");
    expect(store.error?.code).toBe("internal");
  });

  it("adds a folder beside the open one and closes it again", async () => {
    const backend = fakeBackend({
      initial: ok(rootsView({ "/work/a": ["alpha"] })),
      pick: ok("/work/b"),
      add: () => ok(rootsView({ "/work/a": ["alpha"], "/work/b": ["beta"] })),
      remove: () => ok(rootsView({ "/work/b": ["beta"] })),
    });
    const store = new WorkspaceStore(backend);
    await store.loadInitial();
    await store.addFolder();
    expect(store.roots.map((root) => root.label)).toEqual(["a", "b"]);
    expect(store.skills.map((s) => s.name)).toEqual(["alpha", "beta"]);
    await store.closeRoot("/work/a");
    expect(store.roots.map((root) => root.path)).toEqual(["/work/b"]);
    expect(backend.calls).toEqual([
      "initialWorkspace",
      "pickWorkspaceFolder",
      "addWorkspaceRoot /work/b",
      "removeWorkspaceRoot /work/a",
    ]);
  });

  it("keeps the open folders and says why when a folder cannot be added", async () => {
    const refused: AppError = { code: "invalid_input", message: "/work/a/x: already open as part of /work/a" };
    const store = new WorkspaceStore(
      fakeBackend({ initial: ok(rootsView({ "/work/a": ["alpha"] })), add: () => failure(refused) }),
    );
    await store.loadInitial();
    await store.addPath("/work/a/x");
    expect(store.status).toBe("ready");
    expect(store.problem).toEqual(refused);
    expect(store.skills.map((s) => s.name)).toEqual(["alpha"]);
  });

  it("opens the folder instead of adding it while the builtin skills are shown", async () => {
    const backend = fakeBackend({
      initial: ok(workspaceView([skill("builtin", "", "package:skillforge/skills")], { root: null, read_only: true })),
      open: (path) => ok(rootsView({ [path]: ["mine"] })),
    });
    const store = new WorkspaceStore(backend);
    await store.loadInitial();
    expect(store.roots).toEqual([]);
    await store.addPath("/work/mine");
    expect(backend.calls).toEqual(["initialWorkspace", "openWorkspace /work/mine"]);
    expect(store.roots.map((root) => root.path)).toEqual(["/work/mine"]);
  });

  it("shows the recent folders after a load, even a failed one, and forgets one on request", async () => {
    const recent = {
      folders: [
        { path: "/work/a", label: "a", missing: false },
        { path: "/gone", label: "gone", missing: true },
      ],
      problem: null,
    };
    const backend = fakeBackend({ initial: failure(engineOpenError("/work/places/missing")), recent });
    const store = new WorkspaceStore(backend);
    await store.loadInitial();
    expect(store.status).toBe("error");
    expect(store.recent.folders.map((folder) => [folder.label, folder.missing])).toEqual([
      ["a", false],
      ["gone", true],
    ]);
    await store.forgetRecent("/gone");
    expect(store.recent.folders.map((folder) => folder.path)).toEqual(["/work/a"]);
    expect(backend.calls).toContain("forgetRecentWorkspace /gone");
  });

  it("tells workspaces apart by their folders and knows which files belong to one", () => {
    const two = rootsView({ "/work/a": [], "/work/b": [] });
    const builtin = workspaceView([], { root: null, label: "Builtin skills", read_only: true });
    expect(workspaceKey(two)).not.toBe(workspaceKey(rootsView({ "/work/a": [] })));
    expect(workspaceKey(builtin)).toBe("builtin:Builtin skills");
    expect(belongsTo("/work/b/x/SKILL.md", two)).toBe(true);
    expect(belongsTo("/work/bc/x/SKILL.md", two)).toBe(false);
    expect(belongsTo("package:skillforge/skills/x/SKILL.md", builtin)).toBe(true);
    expect(belongsTo("/work/a/x/SKILL.md", builtin)).toBe(false);
  });
});
