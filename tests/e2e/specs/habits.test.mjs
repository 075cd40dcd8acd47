// A desktop editor's habits in the real window: the welcome on first start, keyboard shortcuts and their sheet,
// the command palette, a dark theme that follows the system and is remembered, tabs for open files, and moving
// between problems.
import assert from "node:assert/strict";
import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { after, before, describe, it } from "node:test";
import { copyFixture, launch, openSkill, press, problems, quit, removeCopy, screenshot, waitFor } from "./support.mjs";

const testid = (id) => `[data-testid="${id}"]`;

async function exists(browser, selector) {
  return browser.$(selector).isExisting();
}

/** The computed colours that say which theme is shown: the window's and the editor's backgrounds and text. */
async function colours(browser) {
  return browser.execute(() => {
    const of = (selector, property) => {
      const element = document.querySelector(selector);
      return element ? getComputedStyle(element)[property] : null;
    };
    return {
      theme: document.documentElement.dataset.theme ?? null,
      body: of("html", "backgroundColor"),
      text: of("html", "color"),
      pane: of('[aria-label="Editor"]', "backgroundColor"),
      editor: of('[data-testid="editor"] .cm-editor', "backgroundColor"),
      gutter: of('[data-testid="editor"] .cm-gutters', "backgroundColor"),
    };
  });
}

/** Relative luminance (0 black … 1 white) of a computed `rgb(…)` colour. */
function luminance(colour) {
  const [r, g, b] = colour.match(/[\d.]+/g).slice(0, 3).map((value) => Number(value) / 255);
  const linear = (c) => (c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4);
  return 0.2126 * linear(r) + 0.7152 * linear(g) + 0.0722 * linear(b);
}

/** The line the caret is on, as the editor's active-line gutter shows it. */
async function caretLine(browser) {
  return browser.execute(() => Number(document.querySelector('[data-testid="editor"] .cm-activeLineGutter')?.textContent ?? 0));
}

/** Runs xdotool on the display the app is shown on; resolves with its output ("" when it finds nothing). */
async function xdotool(args) {
  const { execFile } = await import("node:child_process");
  return new Promise((resolve, reject) =>
    execFile("xdotool", args, { timeout: 20_000 }, (error, stdout) => {
      // `search` exits 1 when nothing matches yet.
      if (error && !(args[0] === "search" && error.code === 1)) reject(error);
      else resolve(stdout);
    }),
  );
}

async function shortcut(browser, ...keys) {
  await browser.keys(keys);
}

describe("the habits of a desktop editor", { timeout: 400_000 }, () => {
  let browser;
  let workspace;
  let configDir;

  before(async () => {
    workspace = await copyFixture("editor-workspace");
    configDir = await mkdtemp(path.join(tmpdir(), "skillforge-e2e-habits-config-"));
    // Two problems on two lines of csv-cleanup (unknown fields on lines 4 and 5), for moving between them.
    const csv = path.join(workspace, "csv-cleanup", "SKILL.md");
    const text = await readFile(csv, "utf8");
    await writeFile(csv, text.replace("\n---\n", "\nfoo: bar\nqux: baz\n---\n"));
    browser = await launch(workspace, { configDir });
  });

  after(async () => {
    await quit(browser);
    await removeCopy(workspace);
    if (configDir) await rm(configDir, { recursive: true, force: true });
  });

  it("welcomes a first start with the four panels, and not again once dismissed", async () => {
    const panels = await waitFor(
      browser,
      "the welcome's panels",
      () => browser.execute(() => Array.from(document.querySelectorAll('[data-testid="welcome-panel"]'), (p) => p.getAttribute("data-panel"))),
      (list) => list.length === 4,
    );
    assert.deepEqual(panels, ["tree", "editor", "side", "previews"]);
    await screenshot(browser, "habits-welcome-first-start");
    await browser.$(testid("welcome-dismiss")).click();
    await waitFor(browser, "the welcome gone", () => exists(browser, testid("welcome")), (shown) => !shown);

    await quit(browser);
    browser = await launch(workspace, { configDir });
    await waitFor(browser, "the skills tree", () => exists(browser, '[data-testid="skill-item"]'), Boolean);
    await waitFor(browser, "the empty editor", () => exists(browser, testid("editor-empty")), Boolean);
    assert.equal(await exists(browser, testid("welcome")), false, "a dismissed welcome stays dismissed after a restart");

    // Reachable from the shortcut sheet.
    await shortcut(browser, "F1");
    await waitFor(browser, "the shortcut sheet", () => exists(browser, testid("shortcut-sheet")), Boolean);
    await browser.$(testid("sheet-welcome")).click();
    await waitFor(browser, "the welcome from help", () => exists(browser, testid("welcome")), Boolean);
    await screenshot(browser, "habits-welcome-from-help");
    await browser.$(testid("welcome-dismiss")).click();
    await waitFor(browser, "the welcome closed", () => exists(browser, testid("welcome")), (shown) => !shown);
  });

  it("lists every shortcut on the sheet (F1 or Ctrl+/)", async () => {
    await shortcut(browser, "Control", "/");
    await waitFor(browser, "the shortcut sheet", () => exists(browser, testid("shortcut-sheet")), Boolean);
    const rows = await browser.execute(() =>
      Array.from(document.querySelectorAll('[data-testid="shortcut-row"]'), (row) => [row.getAttribute("data-command-id"), row.textContent]),
    );
    const ids = rows.map(([id]) => id);
    for (const id of ["open-folder", "new-skill", "save", "close-file", "next-problem", "previous-problem", "command-palette", "shortcut-sheet"]) {
      assert.ok(ids.includes(id), `${id} is on the sheet: ${JSON.stringify(rows)}`);
    }
    const text = Object.fromEntries(rows);
    assert.match(text["command-palette"], /Ctrl\+Shift\+P/);
    assert.match(text["open-folder"], /Ctrl\+O/);
    assert.match(text["next-problem"], /F8/);
    await screenshot(browser, "habits-shortcut-sheet");
    await press(browser, "\uE00C");
    await waitFor(browser, "the sheet closed", () => exists(browser, testid("shortcut-sheet")), (shown) => !shown);
  });

  it("opens a folder with Ctrl+O through the system's folder dialog", async () => {
    // The dialog is the real GTK one, outside the web view: it is found and answered with xdotool on the same
    // display, as a user would type a path into it.
    const other = await copyFixture("e2e-workspace");
    try {
      assert.equal(await exists(browser, '[data-testid="skill-item"][data-skill-name="sql-review"]'), false);
      await shortcut(browser, "Control", "o");
      const dialog = await waitFor(
        browser,
        "the system folder dialog",
        async () => (await xdotool(["search", "--name", "Open a folder of skills"])).trim().split("\n")[0],
        Boolean,
      );
      await screenshot(browser, "habits-ctrl-o-dialog-open");
      await xdotool(["windowfocus", "--sync", dialog]);
      // The dialog opens on its Recent list, where a typed path is a search: Alt+Home moves it to the home
      // folder first. Ctrl+L opens its location field (given a moment to appear).
      await xdotool(["key", "alt+Home"]);
      await new Promise((resolve) => setTimeout(resolve, 500));
      await xdotool(["key", "ctrl+l"]);
      await new Promise((resolve) => setTimeout(resolve, 500));
      await xdotool(["type", "--delay", "20", other]);
      await new Promise((resolve) => setTimeout(resolve, 500));
      // The first Enter takes the field's completion, the next moves the dialog into the folder; its Open button
      // (Alt+O) then chooses the folder it shows.
      const dialogOpen = async () => Boolean((await xdotool(["search", "--name", "Open a folder of skills"])).trim());
      for (const key of ["Return", "Return", "alt+o", "alt+o"]) {
        if (!(await dialogOpen())) break;
        await xdotool(["key", key]);
        await new Promise((resolve) => setTimeout(resolve, 800));
      }
      await waitFor(
        browser,
        "the chosen folder's skills in the tree",
        () => exists(browser, '[data-testid="skill-item"][data-skill-name="sql-review"]'),
        Boolean,
      );
      await screenshot(browser, "habits-ctrl-o-opened");
    } finally {
      // Back to the workspace the other cases use.
      await quit(browser);
      browser = await launch(workspace, { configDir });
      await waitFor(browser, "the skills tree", () => exists(browser, '[data-testid="skill-item"]'), Boolean);
      await removeCopy(other);
    }
  });

  it("opens the new-skill dialog with Ctrl+N", async () => {
    await shortcut(browser, "Control", "n");
    await waitFor(browser, "the new-skill dialog", () => exists(browser, testid("new-skill-dialog")), Boolean);
    await screenshot(browser, "habits-ctrl-n-new-skill");
    await browser.$(testid("new-skill-dialog")).$("button=Cancel").click();
    await waitFor(browser, "the dialog closed", () => exists(browser, testid("new-skill-dialog")), (shown) => !shown);
  });

  it("keeps open files in tabs: Ctrl+PageDown switches, Ctrl+W closes", async () => {
    await openSkill(browser, "csv-cleanup");
    await openSkill(browser, "release-notes");
    const tabs = () =>
      browser.execute(() =>
        Array.from(document.querySelectorAll('[data-testid="file-tab"]'), (tab) => ({ path: tab.getAttribute("data-path"), active: tab.getAttribute("data-active") === "true" })),
      );
    let shown = await waitFor(browser, "two tabs", tabs, (list) => list.length === 2);
    assert.ok(shown[1].path.endsWith("release-notes/SKILL.md") && shown[1].active, JSON.stringify(shown));
    await screenshot(browser, "habits-tabs");
    await browser.$('[data-testid="file-tab"] button[role="tab"]').click();
    await waitFor(browser, "the first tab active", tabs, (list) => list[0].active);
    await shortcut(browser, "Control", "PageDown");
    await waitFor(browser, "the second tab active", tabs, (list) => list[1].active);
    await shortcut(browser, "Control", "w");
    shown = await waitFor(browser, "one tab left", tabs, (list) => list.length === 1);
    assert.ok(shown[0].path.endsWith("csv-cleanup/SKILL.md") && shown[0].active, JSON.stringify(shown));
    assert.ok((await browser.$(testid("editor-path")).getText()).endsWith("csv-cleanup/SKILL.md"));
  });

  it("moves between problems with F8 and Shift+F8", async () => {
    await waitFor(browser, "the live problems", () => problems(browser), (rows) => rows.filter((row) => row.live).length >= 2);
    await browser.$('[data-testid="editor"] .cm-content').click();
    await shortcut(browser, "Control", "Home");
    assert.equal(await caretLine(browser), 1);
    await shortcut(browser, "F8");
    await waitFor(browser, "the caret on the first unknown field (line 4)", () => caretLine(browser), (line) => line === 4);
    await shortcut(browser, "F8");
    await waitFor(browser, "the caret on the second unknown field (line 5)", () => caretLine(browser), (line) => line === 5);
    await screenshot(browser, "habits-next-problem");
    await shortcut(browser, "Shift", "F8");
    await waitFor(browser, "the caret back on the first", () => caretLine(browser), (line) => line === 4);
  });

  it("runs commands by name from the palette, and the dark theme follows the choice and is remembered", async () => {
    const light = await colours(browser);
    assert.equal(light.theme, "light", "Xvfb's WebKit has no dark preference: the system choice shows light");
    await shortcut(browser, "Control", "Shift", "p");
    await waitFor(browser, "the command palette", () => exists(browser, testid("command-palette")), Boolean);
    await browser.$(testid("palette-input")).setValue("thdark");
    const first = await waitFor(
      browser,
      "the dark theme command first",
      () => browser.execute(() => document.querySelector('[data-testid="palette-item"]')?.getAttribute("data-command-id") ?? null),
      (id) => id === "theme-dark",
    );
    assert.equal(first, "theme-dark");
    await screenshot(browser, "habits-command-palette");
    await press(browser, "Enter");
    const dark = await waitFor(browser, "the dark theme", () => colours(browser), (now) => now.theme === "dark" && now.editor !== light.editor);
    for (const key of ["body", "pane", "editor", "gutter"]) {
      assert.notEqual(dark[key], light[key], `${key}'s colour changed`);
      assert.ok(luminance(dark[key]) < 0.05, `${key} is dark: ${dark[key]}`);
      assert.ok(luminance(light[key]) > 0.7, `${key} was light: ${light[key]}`);
    }
    assert.ok(luminance(dark.text) > 0.5, `text is light on dark: ${dark.text}`);
    await screenshot(browser, "habits-dark-mode");

    await quit(browser);
    browser = await launch(workspace, { configDir });
    await waitFor(browser, "the dark theme after a restart", () => colours(browser), (now) => now.theme === "dark" && luminance(now.body) < 0.05);
    assert.equal(await browser.$(testid("theme-choice")).getValue(), "dark");
    await browser.$(testid("theme-choice")).selectByAttribute("value", "system");
    await waitFor(browser, "the system's (light) theme", () => colours(browser), (now) => now.theme === "light" && luminance(now.body) > 0.7);
  });

});
