import { cleanup, fireEvent, render, screen, waitFor, within } from "@testing-library/svelte";
import { afterEach, describe, expect, it } from "vitest";
import App from "./App.svelte";
import type { AppError, Result, WorkspaceView } from "./lib/backend";
import { deferred, failure, fakeBackend, ok } from "./test/fakeBackend";
import { engineOpenError, engineView, engineWorkspace } from "./test/engineAnswers";

afterEach(cleanup);

// What the engine answers for opening the fixture folder of three skills (engine-questions.json, "app").
const workspace = () => engineView("app");
const files = () => ({ ...engineWorkspace("app").files });

describe("App", () => {
  it("shows a loading state while the workspace is scanned", async () => {
    const pending = deferred<Result<WorkspaceView>>();
    render(App, { backend: fakeBackend({ initial: pending.promise }) });
    expect(await screen.findByTestId("workspace-loading")).toBeTruthy();
    pending.resolve(ok(workspace()));
    await screen.findAllByTestId("skill-item");
    expect(screen.queryByTestId("workspace-loading")).toBeNull();
  });

  it("lists every skill with its name, description and location", async () => {
    render(App, { backend: fakeBackend({ initial: ok(workspace()) }) });
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
    render(App, { backend: fakeBackend({ initial: ok(workspace()) }) });
    const items = await screen.findAllByTestId("skill-item");
    const description = within(items[2]).getByTestId("skill-description");
    expect(description.textContent).toBe("Reviews SQL for <script>alert(1)</script> & friends.");
    expect(document.querySelector("script")).toBeNull();
  });

  it("opens the clicked skill in the editor", async () => {
    const backend = fakeBackend({
      initial: ok(workspace()),
      files: files(),
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

  // The engine's refusals to open a missing folder, a file, and a path through a file (engine-questions.json).
  it.each([
    ["not_found", "Folder not found", "/work/places/missing"],
    ["not_a_directory", "Not a folder", "/work/places/notes.txt"],
    ["unreadable", "Folder cannot be read", "/work/places/notes.txt/locked"],
  ] as const)("shows a %s error with its message", async (code, title, path) => {
    const refused = engineOpenError(path);
    expect(refused.code).toBe(code);
    render(App, { backend: fakeBackend({ initial: failure(refused) }) });
    const error = await screen.findByTestId("workspace-error");
    expect(error.textContent).toBe(refused.message);
    expect(screen.getByRole("alert").textContent).toContain(title);
    expect(screen.queryAllByTestId("skill-item")).toEqual([]);
    // The way out stays available.
    expect(screen.getByTestId("open-folder")).toBeTruthy();
    expect(screen.getByTestId("open-builtin")).toBeTruthy();
  });

  it("recovers from an error by opening the builtin skills", async () => {
    const backend = fakeBackend({
      initial: failure(engineOpenError("/work/places/missing")),
      builtin: ok(engineView("builtin")),
    });
    render(App, { backend });
    await screen.findByTestId("workspace-error");
    await fireEvent.click(screen.getByTestId("open-builtin"));
    const items = await screen.findAllByTestId("skill-item");
    expect(items.map((item) => item.dataset.skillName)).toEqual(engineView("builtin").report.skills.map((skill) => skill.name));
    expect(items.map((item) => item.dataset.skillName)).toContain("writing-skill-descriptions");
    expect(screen.queryByTestId("workspace-error")).toBeNull();
    expect(screen.getByText("read-only")).toBeTruthy();
  });

  describe("duplicating a builtin skill", () => {
    // A real builtin skill, with the text the engine embeds, and the fixture's copy of it.
    const location = "package:skillforge/skills/writing-skill-descriptions/SKILL.md";
    const copied = "/home/me/skills/writing-skill-descriptions/SKILL.md";
    async function openBuiltinSkill(duplicate: (location: string) => Result<string | null>) {
      const backend = fakeBackend({
        initial: ok(engineView("builtin")),
        // The only folder the tests open: the copy's, as the engine lists it.
        open: (path) => (path === "/home/me/skills" ? ok(engineView("copied")) : failure(engineOpenError(path))),
        duplicate,
        files: { ...engineWorkspace("builtin").files, ...engineWorkspace("copied").files },
      });
      render(App, { backend });
      const items = await screen.findAllByTestId("skill-item");
      await fireEvent.click(items.find((item) => item.dataset.skillName === "writing-skill-descriptions")!);
      await screen.findByTestId("editor-read-only");
      return backend;
    }

    it("is offered only for read-only files", async () => {
      const backend = fakeBackend({
        initial: ok(workspace()),
        files: files(),
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

  it("lists every skill and shows the catalog error and skipped skills as grouped notices in the problems list", async () => {
    // Two skills named changelog, and a SKILL.md nagents skips for its folded description (engine-questions.json).
    const view = engineView("app-notices");
    render(App, { backend: fakeBackend({ initial: ok(view) }) });
    // The skipped skill stays in the tree, marked with nagents' finding.
    const notes = await screen.findByText("notes", { selector: '[data-testid="skill-name"]' });
    const marker = notes.closest('[data-testid="skill-item"]')!.querySelector('[data-testid="skill-client-notice"]');
    expect(marker?.getAttribute("title")).toMatch(/single-line description/);
    expect(screen.getAllByTestId("skill-item")).toHaveLength(3);
    // No cards above the tree: the notices are in the problems list, one group per kind.
    expect(document.querySelector('.catalog [data-testid="workspace-notice"], .catalog .notices')).toBeNull();
    const groups = screen.getAllByTestId("notice-group");
    expect(groups.map((group) => group.dataset.group)).toEqual([
      "A client would refuse this catalog",
      "nagents' catalog lacks skills of the tree",
      "nagents cannot read these skills, so it does not list them",
      "Skill names used more than once",
    ]);
    const notices = screen.getAllByTestId("workspace-notice");
    expect(notices.map((notice) => notice.dataset.level)).toEqual(["error", "warning", "warning", "warning"]);
    expect(view.report.error).toMatch(/changelog/);
    expect(notices[0].textContent).toContain(view.report.error);
    expect(notices[1].textContent).toContain("nagents lists 2 of the 3 SKILL.md files");
    // Each path once: beside the message, not again inside it.
    expect(notices[2].querySelector('[data-testid="notice-path"]')?.textContent).toBe("notes/SKILL.md");
    expect(notices[2].querySelector('[data-testid="notice-message"]')?.textContent).toBe("use one single-line description value");
    expect(notices[3].querySelector('[data-testid="notice-path"]')?.textContent).toBe("release-notes/SKILL.md");
  });

  it("says so when a folder has no skills", async () => {
    render(App, { backend: fakeBackend({ initial: ok(engineView("empty")) }) });
    expect((await screen.findByTestId("skill-list-empty")).textContent).toContain("No skills found");
  });
});
