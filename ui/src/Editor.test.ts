// The editing workflow against the fake backend: diagnostics, quick fixes, saves, conflicts and the preview.
import { cleanup, fireEvent, render, screen, waitFor, within } from "@testing-library/svelte";
import { EditorView } from "@codemirror/view";
import { undo } from "@codemirror/commands";
import { afterEach, describe, expect, it } from "vitest";
import App from "./App.svelte";
import { fakeBackend, ok } from "./test/fakeBackend";
import { engineView, engineWorkspace } from "./test/engineAnswers";

afterEach(cleanup);

const PATH = "/work/skills/csv/SKILL.md";
const OTHER = "/work/skills/other/SKILL.md";
// The fixture the engine answered about (engine-questions.json); every text linted below has its recorded answer.
const FIXTURE = engineWorkspace("editor").files;
// How each client sees csv named `CSV` (engine answer, asserted literally so a changed verdict fails here).
const VERDICTS_FOR_UPPERCASE = {
  spec: "skipped",
  nagents: "loads",
  "10xgraph": "loads",
  "claude-code": "loads",
  "claude-upload": "skipped",
  codex: "loads",
  copilot: "loads",
  opencode: "loads",
  gemini: "loads",
};
const GOOD = FIXTURE[PATH];
// The same workspace with links in csv's body: to the web, to its bundled notes and with a blocked scheme.
const LINKED = engineWorkspace("editor-links").files;

function setup(files: Record<string, string> = { ...FIXTURE }) {
  // What opening the fixture answers: csv and other, as the engine lists them.
  const backend = fakeBackend({
    initial: ok(engineView("editor")),
    refresh: () => ok(engineView("editor")),
    files,
  });
  render(App, { backend });
  return backend;
}

function view(): EditorView {
  const dom = document.querySelector(".cm-editor");
  const found = dom instanceof HTMLElement ? EditorView.findFromDOM(dom) : null;
  if (!found) throw new Error("no editor");
  return found;
}

async function openSkill(name: string) {
  const item = (await screen.findAllByTestId("skill-item")).find((element) => element.dataset.skillName === name);
  await fireEvent.click(item!);
  await waitFor(() => expect(screen.getByTestId("editor-path").textContent).toBe(`${name}/SKILL.md`));
}

function type(from: number, to: number, insert: string) {
  view().dispatch({ changes: { from, to, insert }, userEvent: "input.type" });
}

/** The codes of the problems listed, once there are some. */
async function problemCodes(): Promise<(string | undefined)[]> {
  const rows = await screen.findAllByTestId("problem", {}, { timeout: 2000 });
  return rows.map((row) => row.dataset.code);
}

function problemRow(code: string): HTMLElement {
  const row = screen.getAllByTestId("problem").find((element) => element.dataset.code === code);
  if (!row) throw new Error(`no problem ${code}`);
  return row;
}

describe("the editor", () => {
  it("lints the unsaved text, shows the code, and applies the quick fix as one undoable step", async () => {
    setup();
    await openSkill("csv");
    const at = GOOD.indexOf("csv");
    type(at, at + 3, "CSV");
    // An uppercase name is two findings: not lowercase, and not the folder's name; both fixes are unsafe.
    expect(await problemCodes()).toEqual(["SF203", "SF206"]);
    const lowercase = problemRow("SF203");
    expect(within(lowercase).getByTestId("problem-message").textContent).toBe("`name` `CSV` must be lowercase");
    expect(within(lowercase).getByTestId("problem-fix").textContent?.trim()).toBe("Rename to `csv` (unsafe)");
    expect(within(problemRow("SF206")).getByTestId("problem-fix").textContent?.trim()).toBe("Set `name` to `csv` (unsafe)");
    await waitFor(() => expect(document.querySelector(".cm-lintRange-error")).not.toBeNull());
    await fireEvent.click(within(lowercase).getByTestId("problem-fix"));
    expect(view().state.sliceDoc()).toBe(GOOD);
    await waitFor(() => expect(screen.queryByTestId("problem")).toBeNull(), { timeout: 2000 });
    undo(view());
    expect(view().state.sliceDoc()).toContain("name: CSV\n");
  });

  it("keeps a CRLF file and its BOM byte for byte and maps diagnostics onto the right characters", async () => {
    const crlf = "\uFEFF---\r\ndescription: d\r\nname: Bad\r\n---\r\n";
    const backend = setup({ [PATH]: crlf });
    await openSkill("csv");
    expect(await problemCodes()).toEqual(["SF112", "SF304", "SF203", "SF206"]);
    await fireEvent.click(within(problemRow("SF203")).getByTestId("problem-fix"));
    expect(view().state.sliceDoc()).toBe(crlf.replace("Bad", "bad"));
    await fireEvent.keyDown(window, { key: "s", ctrlKey: true });
    await waitFor(() => expect(backend.files.get(PATH)).toBe(crlf.replace("Bad", "bad")));
  });

  it("saves with Ctrl+S only over the version it read", async () => {
    const backend = setup();
    await openSkill("csv");
    type(GOOD.length, GOOD.length, "More\n");
    await waitFor(() => expect(screen.getByTestId("editor-state").dataset.dirty).toBe("true"));
    await fireEvent.keyDown(window, { key: "s", ctrlKey: true });
    await waitFor(() => expect(backend.files.get(PATH)).toBe(`${GOOD}More\n`));
    expect(backend.calls).toContain(`saveFile ${PATH} unchanged`);
    await waitFor(() => expect(screen.getByTestId("editor-state").dataset.dirty).toBe("false"));
  });

  it("never overwrites a file changed on disk: banner, compare, reload theirs, and undo brings mine back", async () => {
    const backend = setup();
    await openSkill("csv");
    type(GOOD.length, GOOD.length, "Mine\n");
    backend.files.set(PATH, `${GOOD}Theirs\n`);
    await fireEvent.keyDown(window, { key: "s", ctrlKey: true });
    const banner = await screen.findByTestId("conflict-banner");
    expect(banner.dataset.conflict).toBe("changed");
    expect(backend.files.get(PATH)).toBe(`${GOOD}Theirs\n`);
    await fireEvent.click(screen.getByTestId("conflict-compare"));
    expect(await screen.findByTestId("compare-view")).toBeTruthy();
    await fireEvent.click(screen.getByTestId("compare-close"));
    await fireEvent.click(screen.getByTestId("conflict-reload-theirs"));
    await waitFor(() => expect(view().state.sliceDoc()).toBe(`${GOOD}Theirs\n`));
    expect(screen.queryByTestId("conflict-banner")).toBeNull();
    undo(view());
    expect(view().state.sliceDoc()).toBe(`${GOOD}Mine\n`);
  });

  it("keeps mine over theirs when asked", async () => {
    const backend = setup();
    await openSkill("csv");
    type(GOOD.length, GOOD.length, "Mine\n");
    backend.files.set(PATH, "theirs");
    backend.emit({ kind: "files_changed", paths: [PATH] });
    await screen.findByTestId("conflict-banner");
    await fireEvent.click(screen.getByTestId("conflict-keep-mine"));
    await waitFor(() => expect(backend.files.get(PATH)).toBe(`${GOOD}Mine\n`));
    expect(backend.calls).toContain(`saveFile ${PATH} overwrite`);
  });

  it("reloads a clean buffer by itself and flags a dirty one whose file was deleted", async () => {
    const backend = setup();
    await openSkill("csv");
    backend.files.set(PATH, `${GOOD}Outside\n`);
    backend.emit({ kind: "files_changed", paths: [PATH] });
    await waitFor(() => expect(view().state.sliceDoc()).toBe(`${GOOD}Outside\n`));
    type(0, 0, "x");
    backend.files.delete(PATH);
    backend.emit({ kind: "files_changed", paths: ["/work/skills/csv"] });
    const banner = await screen.findByTestId("conflict-banner");
    expect(banner.dataset.conflict).toBe("deleted");
    await fireEvent.click(screen.getByTestId("conflict-save-again"));
    await waitFor(() => expect(backend.files.get(PATH)).toBe(`x${GOOD}Outside\n`));
    // That save kept the new file's fingerprint: the next one replaces the file as unchanged, with no conflict.
    type(0, 0, "y");
    await fireEvent.keyDown(window, { key: "s", ctrlKey: true });
    await waitFor(() => expect(backend.files.get(PATH)).toBe(`yx${GOOD}Outside\n`));
    expect(backend.calls.filter((call) => call.startsWith(`saveFile ${PATH}`))).toEqual([
      `saveFile ${PATH} new`,
      `saveFile ${PATH} unchanged`,
    ]);
    expect(screen.queryByTestId("conflict-banner")).toBeNull();
  });

  it("asks before switching away from unsaved edits", async () => {
    setup();
    await openSkill("csv");
    type(0, 0, "x");
    const other = (await screen.findAllByTestId("skill-item")).find((element) => element.dataset.skillName === "other")!;
    await fireEvent.click(other);
    await screen.findByTestId("confirm-dialog");
    await fireEvent.click(screen.getByTestId("confirm-cancel"));
    await waitFor(() => expect(screen.queryByTestId("confirm-dialog")).toBeNull());
    expect(screen.getByTestId("editor-path").textContent).toBe("csv/SKILL.md");
    await fireEvent.click(other);
    await fireEvent.click(await screen.findByTestId("confirm-keep"));
    await waitFor(() => expect(screen.getByTestId("editor-path").textContent).toBe("other/SKILL.md"));
    // The unsaved buffer is kept, with its edit, when the author comes back.
    await openSkill("csv");
    expect(view().state.sliceDoc()).toBe(`x${GOOD}`);
  });

  it("shows the preview and opens external links only through the backend, on click", async () => {
    const backend = setup({ ...LINKED });
    await openSkill("csv");
    const preview = await screen.findByTestId("preview");
    const link = await waitFor(() => {
      const found = preview.querySelector("a[data-link-status=external]");
      if (!found) throw new Error("no link yet");
      return found;
    });
    expect(backend.calls.filter((call) => call.startsWith("openExternal"))).toEqual([]);
    await fireEvent.click(link);
    expect(backend.calls).toContain("openExternal https://example.com/");
    await fireEvent.click(preview.querySelector("a[data-link-status=blocked]")!);
    expect(backend.calls.filter((call) => call.startsWith("openExternal"))).toHaveLength(1);
  });

  it("opens a bundled file from a preview link in the editor", async () => {
    setup({ ...LINKED });
    await openSkill("csv");
    const preview = await screen.findByTestId("preview");
    await waitFor(() => expect(preview.querySelector("a[data-link-status=bundled]")).not.toBeNull());
    await fireEvent.click(preview.querySelector("a[data-link-status=bundled]")!);
    await waitFor(() => expect(screen.getByTestId("editor-path").textContent).toBe("csv/references/notes.md"));
    expect(view().state.sliceDoc()).toBe("# Notes\n");
  });

  it("lists how each client sees the skill", async () => {
    setup();
    await fireEvent.click(await screen.findByTestId("tab-clients"));
    await openSkill("csv");
    const verdicts = await screen.findAllByTestId("verdict", {}, { timeout: 2000 });
    expect(verdicts).toHaveLength(9);
    expect(verdicts.map((verdict) => verdict.dataset.outcome)).toEqual(Array(9).fill("loads"));
    expect(verdicts[0].textContent).toContain("Cleans CSV");
  });

  it("says which profiles no real client checks", async () => {
    setup();
    await fireEvent.click(await screen.findByTestId("tab-clients"));
    await openSkill("csv");
    await screen.findAllByTestId("verdict", {}, { timeout: 2000 });
    const status = (profile: string) =>
      screen
        .getAllByTestId("verdict")
        .find((verdict) => verdict.dataset.profile === profile)!
        .querySelector("[data-testid=verdict-status]")!.textContent!.trim();
    expect(status("claude-upload")).toMatch(/^unverified: /);
    expect(status("codex")).toBe("verified against the Codex 0.171.0 binary");
    const menu = screen.getByTestId("profile") as HTMLSelectElement;
    const label = (value: string) => [...menu.options].find((option) => option.value === value)!.textContent;
    expect(label("claude-upload")).toBe("claude-upload (unverified)");
    expect(label("codex")).toBe("codex");
  });

  it("shows nagents loading an uppercase name that the specification refuses", async () => {
    setup();
    await fireEvent.click(await screen.findByTestId("tab-clients"));
    await openSkill("csv");
    await screen.findAllByTestId("verdict", {}, { timeout: 2000 });
    const at = GOOD.indexOf("csv");
    type(at, at + 3, "CSV");
    const outcomes = () =>
      Object.fromEntries(screen.getAllByTestId("verdict").map((verdict) => [verdict.dataset.profile, verdict.dataset.outcome]));
    await waitFor(() => expect(outcomes().spec).not.toBe("loads"), { timeout: 2000 });
    expect(outcomes()).toEqual(VERDICTS_FOR_UPPERCASE);
  });
});

describe("the backend's copy of the buffer", () => {
  function held(backend: ReturnType<typeof setup>, path = PATH) {
    return [...backend.buffers.values()].find((buffer) => buffer.path === path);
  }

  it("receives only the change of a keystroke, and the whole text again after a lost update", async () => {
    const backend = setup();
    await openSkill("csv");
    await waitFor(() => expect(held(backend)?.text).toBe(GOOD));
    const at = GOOD.indexOf("csv");
    type(at, at + 3, "CSV");
    await screen.findAllByTestId("problem", {}, { timeout: 2000 });
    expect(backend.calls.filter((call) => call.startsWith("openBuffer"))).toHaveLength(1);
    expect(backend.calls.some((call) => call.startsWith("editBuffer"))).toBe(true);
    expect(backend.calls.some((call) => call.startsWith("lintBuffer"))).toBe(false);
    expect(held(backend)?.text).toBe(view().state.sliceDoc());

    // An update lost on the way: the backend's copy is at another version than the editor believes.
    held(backend)!.version += 5;
    const fixedAt = view().state.sliceDoc().indexOf("CSV");
    type(fixedAt, fixedAt + 3, "csv");
    await waitFor(() => expect(screen.queryByTestId("problem")).toBeNull(), { timeout: 2000 });
    expect(backend.calls.filter((call) => call.startsWith("openBuffer"))).toHaveLength(2);
    expect(held(backend)?.text).toBe(view().state.sliceDoc());
    await waitFor(() => expect(document.querySelector(".cm-lintRange-error")).toBeNull());
  });

  it("follows a reload of their version, and saving still writes the editor's text", async () => {
    const backend = setup();
    await openSkill("csv");
    type(GOOD.length, GOOD.length, "Mine\n");
    backend.files.set(PATH, GOOD.replace("name: csv", "name: Theirs"));
    backend.emit({ kind: "files_changed", paths: [PATH] });
    await screen.findByTestId("conflict-banner");
    await fireEvent.click(screen.getByTestId("conflict-reload-theirs"));
    await waitFor(() => expect(held(backend)?.text).toBe(GOOD.replace("name: csv", "name: Theirs")));
    expect(await problemCodes()).toEqual(["SF203", "SF206"]);
    undo(view());
    await waitFor(() => expect(held(backend)?.text).toBe(`${GOOD}Mine\n`));
    await waitFor(() => expect(screen.queryByTestId("problem")).toBeNull(), { timeout: 2000 });
    // The backend's copy plays no part in saving: a different text there changes nothing on disk.
    held(backend)!.text = "not the editor's text";
    await fireEvent.keyDown(window, { key: "s", ctrlKey: true });
    await waitFor(() => expect(backend.files.get(PATH)).toBe(`${GOOD}Mine\n`));
  });
});

describe("leaving unsaved work", () => {
  it("asks before opening another workspace, and stays when cancelled", async () => {
    const backend = setup();
    await openSkill("csv");
    type(0, 0, "x");
    await fireEvent.click(screen.getByTestId("open-builtin"));
    expect((await screen.findByTestId("confirm-message")).textContent).toContain(PATH);
    await fireEvent.click(screen.getByTestId("confirm-cancel"));
    await waitFor(() => expect(screen.queryByTestId("confirm-dialog")).toBeNull());
    expect(backend.calls).not.toContain("builtinWorkspace");
    expect(view().state.sliceDoc()).toBe(`x${GOOD}`);
  });

  it("jumps from a problem of another file to its place in that file", async () => {
    const bad = FIXTURE[OTHER].replace("name: other", "name: Other");
    setup({ [PATH]: GOOD, [OTHER]: bad });
    await openSkill("csv");
    expect(await problemCodes()).toEqual(["SF203", "SF206"]);
    await fireEvent.click(within(problemRow("SF203")).getByTestId("problem-jump"));
    await waitFor(() => expect(screen.getByTestId("editor-path").textContent).toBe("other/SKILL.md"));
    expect(view().state.selection.main.head).toBe(bad.indexOf("Other"));
  });
});

describe("the new skill dialog", () => {
  it("refuses a bad name and creates and opens a good one", async () => {
    const backend = setup();
    await fireEvent.click(await screen.findByTestId("new-skill"));
    const input = await screen.findByTestId("new-skill-name");
    await fireEvent.input(input, { target: { value: "Bad Name" } });
    expect((await screen.findByTestId("new-skill-problem")).textContent).toContain("lowercase");
    await fireEvent.input(input, { target: { value: "fresh-skill" } });
    await fireEvent.click(screen.getByTestId("new-skill-create"));
    await waitFor(() => expect(backend.calls).toContain("createSkill /work/skills fresh-skill false false"));
    await waitFor(() => expect(screen.getByTestId("editor-path").textContent).toBe("fresh-skill/SKILL.md"));
  });
});

describe("untrusted text", () => {
  it("shows markup in names, messages and verdicts as text", async () => {
    // csv's description is full of markup; other's name is markup, so discovery skips it with a diagnostic and the
    // linter names it in a message (engine-questions.json, "hostile").
    const backend = fakeBackend({ initial: ok(engineView("hostile")), files: { ...engineWorkspace("hostile").files } });
    render(App, { backend });
    // Both are in the tree, the one clients skip too, with their markup as text.
    const items = await screen.findAllByTestId("skill-item");
    expect(items).toHaveLength(2);
    for (const each of items) expect(each.querySelector("img, script, b")).toBeNull();
    const item = items.find((each) => each.dataset.skillName === "csv")!;
    expect(item.querySelector('[data-testid="skill-description"]')!.textContent).toBe(
      "<script>alert(1)</script> Cleans <b>CSV</b>. Use when a CSV will not import.",
    );
    expect(screen.getAllByTestId("notice-path").map((notice) => notice.textContent).join(" ")).toContain("other/SKILL.md");
    await fireEvent.click(item);
    await waitFor(() => expect(screen.getAllByTestId("problem-message").map((message) => message.textContent)).toContain(
      "`name` `<img src=x onerror=alert(1)>` does not match the folder name `other`",
    ), { timeout: 2000 });
    await fireEvent.click(screen.getByTestId("tab-clients"));
    await screen.findAllByTestId("verdict", {}, { timeout: 2000 });
    // The only markup from the backend in the page is the preview's; nothing else became elements.
    expect(document.querySelector("img, script, iframe")).toBeNull();
  });

  it("shows a rule's documentation from the backend in the side panel", async () => {
    const backend = setup();
    await openSkill("csv");
    const at = GOOD.indexOf("csv");
    type(at, at + 3, "Bad");
    expect(await problemCodes()).toEqual(["SF203", "SF206"]);
    await fireEvent.click(within(problemRow("SF203")).getByText("?", { selector: "button" }));
    expect((await screen.findByTestId("rule-name")).textContent).toBe("name-not-lowercase");
    expect(screen.getByTestId("rule-doc").querySelector("h1")?.textContent).toBe("SF203 name-not-lowercase");
    expect(backend.calls).toContain("ruleDocumentation name-not-lowercase");
  });
});
