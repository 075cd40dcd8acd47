// Several folders in one window: a group per folder, closing one asks about its unsaved edits and keeps the rest.
import { cleanup, fireEvent, render, screen, waitFor, within } from "@testing-library/svelte";
import { EditorView } from "@codemirror/view";
import { afterEach, describe, expect, it } from "vitest";
import App from "./App.svelte";
import { fakeBackend, ok } from "./test/fakeBackend";
import { engineView } from "./test/engineAnswers";

afterEach(cleanup);

const TEXT = "---\nname: beta\ndescription: Checks beta. Use when checking.\n---\nBody\n";

function setup() {
  const backend = fakeBackend({
    // What the engine answers for the two folders, and for the one left after closing the other.
    initial: ok(engineView("roots")),
    remove: (path) => ok(engineView("roots", path === "/work/b" ? ["/work/a"] : ["/work/b"])),
    files: { "/work/a/alpha/SKILL.md": TEXT.replaceAll("beta", "alpha"), "/work/b/beta/SKILL.md": TEXT },
  });
  render(App, { backend });
  return backend;
}

function rootGroup(path: string): HTMLElement {
  const group = screen.getAllByTestId("tree-root").find((element) => element.dataset.rootPath === path);
  if (!group) throw new Error(`no group for ${path}`);
  return group;
}

async function open(name: string) {
  const item = (await screen.findAllByTestId("skill-item")).find((element) => element.dataset.skillName === name);
  await fireEvent.click(item!);
  await waitFor(() => expect(document.querySelector(".cm-content")?.textContent).toContain(`name: ${name}`));
}

function typeAtEnd(text: string) {
  const dom = document.querySelector(".cm-editor");
  const view = dom instanceof HTMLElement ? EditorView.findFromDOM(dom) : null;
  if (!view) throw new Error("no editor");
  const end = view.state.doc.length;
  view.dispatch({ changes: { from: end, insert: text }, userEvent: "input.type" });
}

describe("several folders", () => {
  it("shows each folder as a group with its own skills", async () => {
    setup();
    await screen.findAllByTestId("tree-root");
    expect(screen.getAllByTestId("tree-root").map((group) => group.dataset.rootPath)).toEqual(["/work/a", "/work/b"]);
    expect(within(rootGroup("/work/b")).getAllByTestId("skill-item").map((item) => item.dataset.skillName)).toEqual(["beta"]);
    expect(screen.getByTestId("status-roots").textContent).toBe("2 folders");
  });

  it("asks before closing a folder with unsaved edits, and keeps the other folder's files open", async () => {
    const backend = setup();
    await screen.findAllByTestId("tree-root");
    await open("alpha");
    await open("beta");
    // With several folders, a path starts with its folder's name.
    expect(screen.getByTestId("editor-path").textContent).toBe("b/beta/SKILL.md");
    typeAtEnd("More\n");
    await waitFor(() => expect(screen.getByTestId("editor-state").dataset.dirty).toBe("true"));

    await fireEvent.click(within(rootGroup("/work/b")).getByTestId("tree-root-close"));
    expect((await screen.findByTestId("confirm-message")).textContent).toContain("/work/b/beta/SKILL.md");
    await fireEvent.click(screen.getByTestId("confirm-cancel"));
    expect(backend.calls).not.toContain("removeWorkspaceRoot /work/b");
    expect(screen.getAllByTestId("tree-root")).toHaveLength(2);

    await fireEvent.click(within(rootGroup("/work/b")).getByTestId("tree-root-close"));
    await fireEvent.click(await screen.findByTestId("confirm-discard"));
    await waitFor(() => expect(backend.calls).toContain("removeWorkspaceRoot /work/b"));
    await waitFor(() => expect(screen.queryAllByTestId("tree-root")).toHaveLength(0));
    expect(screen.getAllByTestId("skill-item").map((item) => item.dataset.skillName)).toEqual(["alpha"]);
    // The file of the folder that stays open is still open, unlike the closed folder's.
    await waitFor(() => expect(document.querySelector(".cm-content")?.textContent).toContain("name: alpha"));
    expect(backend.files.get("/work/b/beta/SKILL.md")).toBe(TEXT);
  });

  it("adds a recent folder from the toolbar's Recent menu", async () => {
    const backend = fakeBackend({
      initial: ok(engineView("roots", ["/work/a"])),
      // /work/c holds gamma (engine-questions.json, "roots-added").
      add: (path) => ok(engineView("roots-added", ["/work/a", path])),
      recent: {
        folders: [
          { path: "/work/c", label: "c", missing: false },
          { path: "/gone", label: "gone", missing: true },
        ],
        problem: "/config/recent-workspaces.json: not a valid list of recent workspaces",
      },
    });
    render(App, { backend });
    await screen.findAllByTestId("skill-item");
    const menu = within(screen.getByTestId("recent-menu"));
    expect((await menu.findByTestId("recent-problem")).textContent).toContain("not a valid list");
    const entries = await menu.findAllByTestId("recent-folder");
    expect(entries.map((entry) => [entry.dataset.path, entry.dataset.missing])).toEqual([
      ["/work/c", "false"],
      ["/gone", "true"],
    ]);
    expect((within(entries[1]).getByTestId("recent-add") as HTMLButtonElement).disabled).toBe(true);
    await fireEvent.click(within(entries[0]).getByTestId("recent-add"));
    await waitFor(() => expect(backend.calls).toContain("addWorkspaceRoot /work/c"));
    await waitFor(() =>
      expect(screen.getAllByTestId("tree-root").map((group) => group.dataset.rootPath)).toEqual(["/work/a", "/work/c"]),
    );
  });

  it("lets the author choose which folder a new skill goes into", async () => {
    const backend = setup();
    await screen.findAllByTestId("tree-root");
    await fireEvent.click(screen.getByTestId("new-skill"));
    const folder = (await screen.findByTestId("new-skill-location")) as HTMLInputElement;
    expect(Array.from(folder.list?.options ?? [], (option) => option.value)).toEqual(["/work/a", "/work/b"]);
    expect(folder.value).toBe("/work/a");
    await fireEvent.input(folder, { target: { value: "/work/b" } });
    await fireEvent.input(screen.getByTestId("new-skill-name"), { target: { value: "delta" } });
    await fireEvent.click(screen.getByTestId("new-skill-create"));
    await waitFor(() => expect(backend.calls).toContain("createSkill /work/b delta false false"));
  });
});
