import { describe, expect, it } from "vitest";
import { WorkspaceStore } from "./workspace.svelte";
import { deferred, failure, fakeBackend, ok, skill, workspaceView } from "../test/fakeBackend";
import type { AppError, Result, WorkspaceView } from "./backend";

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
    const error: AppError = { code: "not_found", message: "/nope: no such folder" };
    const store = new WorkspaceStore(
      fakeBackend({ initial: ok(workspaceView([skill("alpha")])), open: () => failure(error) }),
    );
    await store.loadInitial();
    await store.openPath("/nope");
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
});
