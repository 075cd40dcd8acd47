import { cleanup, fireEvent, render, screen, waitFor, within } from "@testing-library/svelte";
import { afterEach, describe, expect, it } from "vitest";
import App from "./App.svelte";
import type { AppError, Result, WorkspaceView } from "./lib/backend";
import { deferred, failure, fakeBackend, ok, skill, workspaceView } from "./test/fakeBackend";
import { engineWorkspace } from "./test/engineAnswers";

afterEach(cleanup);

const skills = [
  skill("changelog", "Writes changelog entries."),
  skill("commit-message", "Drafts commit messages."),
  skill("sql-review", "Reviews SQL for <script>alert(1)</script> & friends."),
];

describe("App", () => {
  it("shows a loading state while the workspace is scanned", async () => {
    const pending = deferred<Result<WorkspaceView>>();
    render(App, { backend: fakeBackend({ initial: pending.promise }) });
    expect(await screen.findByTestId("workspace-loading")).toBeTruthy();
    pending.resolve(ok(workspaceView(skills)));
    await screen.findAllByTestId("skill-item");
    expect(screen.queryByTestId("workspace-loading")).toBeNull();
  });

  it("lists every skill with its name, description and location", async () => {
    render(App, { backend: fakeBackend({ initial: ok(workspaceView(skills)) }) });
    const items = await screen.findAllByTestId("skill-item");
    expect(items.map((item) => item.dataset.skillName)).toEqual(["changelog", "commit-message", "sql-review"]);
    const first = within(items[0]);
    expect(first.getByTestId("skill-name").textContent).toBe("changelog");
    expect(first.getByTestId("skill-description").textContent).toBe("Writes changelog entries.");
    expect(first.getByTestId("skill-location").textContent).toBe("changelog/SKILL.md");
    expect(screen.getByTestId("workspace-label").textContent?.trim()).toBe("skills");
    expect(screen.getByTestId("status-skills").textContent).toBe("3 skills");
    expect(screen.getByTestId("skill-count").textContent).toBe("3 skills");
  });

  it("renders skill text as text, never as markup", async () => {
    render(App, { backend: fakeBackend({ initial: ok(workspaceView(skills)) }) });
    const items = await screen.findAllByTestId("skill-item");
    const description = within(items[2]).getByTestId("skill-description");
    expect(description.textContent).toBe("Reviews SQL for <script>alert(1)</script> & friends.");
    expect(document.querySelector("script")).toBeNull();
  });

  it("opens the clicked skill in the editor", async () => {
    const backend = fakeBackend({
      initial: ok(workspaceView(skills)),
      files: { "/work/skills/commit-message/SKILL.md": "---\nname: commit-message\n---\nBody\n" },
    });
    render(App, { backend });
    expect(await screen.findByTestId("editor-empty")).toBeTruthy();
    const items = await screen.findAllByTestId("skill-item");
    await fireEvent.click(items[1]);
    expect((await screen.findByTestId("editor-path")).textContent).toBe("commit-message/SKILL.md");
    await waitFor(() => expect(document.querySelector(".cm-content")?.textContent).toContain("name: commit-message"));
    await waitFor(() => expect(items[1].getAttribute("aria-current")).toBe("true"));
    expect(items[0].getAttribute("aria-current")).toBeNull();
  });

  it.each([
    ["not_found", "Folder not found", "/work/missing: no such folder; check the path or create it"],
    ["not_a_directory", "Not a folder", "/work/notes.txt: is a file, not a folder"],
    ["unreadable", "Folder cannot be read", "/work/locked: cannot be read (permission denied)"],
  ] as const)("shows a %s error with its message", async (code, title, message) => {
    render(App, { backend: fakeBackend({ initial: failure({ code, message }) }) });
    const error = await screen.findByTestId("workspace-error");
    expect(error.textContent).toBe(message);
    expect(screen.getByRole("alert").textContent).toContain(title);
    expect(screen.queryAllByTestId("skill-item")).toEqual([]);
    // The way out stays available.
    expect(screen.getByTestId("open-folder")).toBeTruthy();
    expect(screen.getByTestId("open-builtin")).toBeTruthy();
  });

  it("recovers from an error by opening the builtin skills", async () => {
    const backend = fakeBackend({
      initial: failure({ code: "not_found", message: "/gone: no such folder" }),
      builtin: ok(workspaceView([skill("builtin-one")], { root: null, label: "Builtin skills", read_only: true })),
    });
    render(App, { backend });
    await screen.findByTestId("workspace-error");
    await fireEvent.click(screen.getByTestId("open-builtin"));
    const items = await screen.findAllByTestId("skill-item");
    expect(items.map((item) => item.dataset.skillName)).toEqual(["builtin-one"]);
    expect(screen.queryByTestId("workspace-error")).toBeNull();
    expect(screen.getByText("read-only")).toBeTruthy();
  });

  describe("duplicating a builtin skill", () => {
    // A real builtin skill, with the text the engine embeds, and the fixture's copy of it.
    const location = "package:skillforge/skills/writing-skill-descriptions/SKILL.md";
    const copied = "/home/me/skills/writing-skill-descriptions/SKILL.md";
    const builtinView = workspaceView([skill("writing-skill-descriptions", "Ships with the app.", "package:skillforge/skills")], {
      root: null,
      label: "Builtin skills",
      read_only: true,
    });

    async function openBuiltinSkill(duplicate: (location: string) => Result<string | null>) {
      const backend = fakeBackend({
        initial: ok(builtinView),
        open: (path) => ok(workspaceView([skill("writing-skill-descriptions", "Ships with the app.", path)], { root: path, label: "skills" })),
        duplicate,
        files: { ...engineWorkspace("builtin").files, ...engineWorkspace("copied").files },
      });
      render(App, { backend });
      await fireEvent.click((await screen.findAllByTestId("skill-item"))[0]);
      await screen.findByTestId("editor-read-only");
      return backend;
    }

    it("is offered only for read-only files", async () => {
      const backend = fakeBackend({
        initial: ok(workspaceView(skills)),
        files: { "/work/skills/changelog/SKILL.md": "---\nname: changelog\n---\n" },
      });
      render(App, { backend });
      await fireEvent.click((await screen.findAllByTestId("skill-item"))[0]);
      await screen.findByTestId("editor-path");
      expect(screen.queryByTestId("duplicate-builtin")).toBeNull();
    });

    it("does nothing when the folder dialog is cancelled", async () => {
      const backend = await openBuiltinSkill(() => ok(null));
      await fireEvent.click(screen.getByTestId("duplicate-builtin"));
      await waitFor(() => expect(backend.calls).toContain(`duplicateBuiltinSkill ${location}`));
      expect(backend.calls.some((call) => call.startsWith("openWorkspace"))).toBe(false);
      expect(screen.getByTestId("editor-path").textContent).toBe(location);
      expect(screen.queryByTestId("editor-notice")).toBeNull();
    });

    it("opens the chosen folder as the workspace and the copy in the editor", async () => {
      const backend = await openBuiltinSkill(() => ok(copied));
      await fireEvent.click(screen.getByTestId("duplicate-builtin"));
      await waitFor(() => expect(screen.getByTestId("editor-path").textContent).toBe("writing-skill-descriptions/SKILL.md"));
      expect(backend.calls).toContain("openWorkspace /home/me/skills");
      expect(backend.calls).toContain(`readFile ${copied}`);
      expect(screen.getByTestId("workspace-label").textContent?.trim()).toBe("skills");
      expect(screen.queryByTestId("editor-read-only")).toBeNull();
      await waitFor(() => expect(document.querySelector(".cm-content")?.textContent).toContain("Copy"));
    });

    it("shows a failure as text and stays on the builtin skills", async () => {
      const message = "/home/me/skills/writing-skill-descriptions: a folder with this name is already there <b>bold</b>";
      const backend = await openBuiltinSkill(() => failure({ code: "already_exists", message }));
      await fireEvent.click(screen.getByTestId("duplicate-builtin"));
      const notice = await screen.findByTestId("editor-notice");
      expect(notice.textContent).toContain("Cannot duplicate the skill");
      expect(notice.textContent).toContain(message);
      expect(notice.querySelector("b")).toBeNull();
      expect(backend.calls.some((call) => call.startsWith("openWorkspace"))).toBe(false);
      expect(screen.getByTestId("editor-path").textContent).toBe(location);
    });
  });

  it("shows the catalog error and diagnostics as notices", async () => {
    const view = workspaceView(skills);
    view.report.error = "duplicate skill name: changelog";
    view.report.diagnostics = ["skipped notes/SKILL.md: no front matter"];
    render(App, { backend: fakeBackend({ initial: ok(view) }) });
    const notices = await screen.findAllByTestId("catalog-notice");
    expect(notices.map((notice) => notice.dataset.level)).toEqual(["error", "warning"]);
    expect(notices[0].textContent).toContain("duplicate skill name: changelog");
    expect(notices[1].textContent).toContain("skipped notes/SKILL.md: no front matter");
  });

  it("says so when a folder has no skills", async () => {
    render(App, { backend: fakeBackend({ initial: ok(workspaceView([])) }) });
    expect((await screen.findByTestId("skill-list-empty")).textContent).toContain("No skills found");
  });
});
