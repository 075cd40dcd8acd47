// A desktop editor's habits in the real window: the welcome on first start, keyboard shortcuts and their sheet,
// the command palette, a dark theme that follows the system and is remembered, tabs for open files, moving
// between problems, and the small defects around them (stale markers after quick undos, Ctrl+S in a conflict,
// the Recent popover, the playground's text, images in the preview).
import assert from "node:assert/strict";
import { mkdir, mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { after, before, describe, it } from "node:test";
import { copyFixture, editorText, launch, openSkill, press, problems, quit, removeCopy, screenshot, waitFor } from "./support.mjs";

// A 2×2 PNG (red, green, blue, white), written beside the skill as a bundled image.
const PNG = Buffer.from(
  "iVBORw0KGgoAAAANSUhEUgAAAAIAAAACCAIAAAD91JpzAAAAFklEQVR4nGP4z8DAwMDAxMDAwMDAAAANHQEDasKb6QAAAABJRU5ErkJggg==",
  "base64",
);

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
      body: of("body", "backgroundColor"),
      text: of("body", "color"),
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
    // Two problems on two lines of csv-cleanup, for moving between them.
    const csv = path.join(workspace, "csv-cleanup", "SKILL.md");
    const text = await readFile(csv, "utf8");
    await writeFile(csv, text.replace("name: csv-cleanup\n", "name: CSV-Cleanup\n").replace("\n---\n", "\nfoo: bar\n---\n"));
    // A bundled image and a remote one in release-notes.
    const notes = path.join(workspace, "release-notes");
    await mkdir(path.join(notes, "assets"));
    await writeFile(path.join(notes, "assets", "logo.png"), PNG);
    const body = await readFile(path.join(notes, "SKILL.md"), "utf8");
    await writeFile(
      path.join(notes, "SKILL.md"),
      `${body}\n![logo](assets/logo.png)\n\n![tracker](https://example.com/pixel.png)\n\n![gone](assets/missing.png)\n`,
    );
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

  it("opens the new-skill dialog with Ctrl+N", async () => {
    await shortcut(browser, "Control", "n");
    await waitFor(browser, "the new-skill dialog", () => browser.$('[role="dialog"] input').isExisting(), Boolean);
    await screenshot(browser, "habits-ctrl-n-new-skill");
    await press(browser, "\uE00C");
    await waitFor(browser, "the dialog closed", () => browser.$('[role="dialog"] input').isExisting(), (shown) => !shown);
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
    await waitFor(browser, "the caret on the name (line 2)", () => caretLine(browser), (line) => line === 2);
    await shortcut(browser, "F8");
    await waitFor(browser, "the caret on the unknown field (line 4)", () => caretLine(browser), (line) => line === 4);
    await screenshot(browser, "habits-next-problem");
    await shortcut(browser, "Shift", "F8");
    await waitFor(browser, "the caret back on the name", () => caretLine(browser), (line) => line === 2);
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

  it("clears the marker and hover of an error that quick undos removed", async () => {
    await openSkill(browser, "release-notes");
    const saved = await editorText(browser);
    await browser.$('[data-testid="editor"] .cm-content').click();
    await shortcut(browser, "Control", "Home");
    await press(browser, "ArrowDown", "ArrowDown", "End");
    // Three undo steps (the editor groups typing that pauses less than half a second).
    await press(browser, "Enter", "fo");
    await browser.pause(800);
    await press(browser, "o: ");
    await browser.pause(800);
    await press(browser, "bar");
    await waitFor(browser, "the unknown-field finding", () => problems(browser), (rows) => rows.some((row) => row.live && row.code === "SF402"));
    await waitFor(browser, "its marker", () => browser.$$('[data-testid="editor"] .cm-lint-marker-error').length, (count) => count > 0);
    // All three undos in one burst, faster than the linter answers.
    await browser
      .action("key")
      .down("\uE009")
      .down("z")
      .up("z")
      .down("z")
      .up("z")
      .down("z")
      .up("z")
      .up("\uE009")
      .perform();
    await waitFor(browser, "the saved text back", () => editorText(browser), (text) => text === saved);
    await waitFor(browser, "no live problems", () => problems(browser), (rows) => rows.every((row) => !row.live));
    const left = await waitFor(
      browser,
      "no marker or squiggle left",
      () =>
        browser.execute(() => ({
          markers: document.querySelectorAll('[data-testid="editor"] .cm-lint-marker-error, [data-testid="editor"] .cm-lint-marker-warning').length,
          squiggles: document.querySelectorAll('[data-testid="editor"] .cm-lintRange-error, [data-testid="editor"] .cm-lintRange-warning').length,
        })),
      (found) => found.markers === 0 && found.squiggles === 0,
      { timeout: 5_000 },
    );
    assert.deepEqual(left, { markers: 0, squiggles: 0 });
    await screenshot(browser, "habits-undo-clears-markers");
  });

  it("renders bundled images in the preview and never loads remote ones", async () => {
    await browser.$(testid("tab-preview")).click();
    const images = await waitFor(
      browser,
      "the preview's images",
      () =>
        browser.execute(() => ({
          loaded: Array.from(document.querySelectorAll('[data-testid="preview"] img'), (img) => ({
            src: img.getAttribute("src")?.slice(0, 22) ?? "",
            width: img.naturalWidth,
            alt: img.getAttribute("alt"),
          })),
          placeholders: Array.from(document.querySelectorAll('[data-testid="preview"] .image-placeholder'), (span) => span.textContent),
        })),
      (found) => found.loaded.length > 0 && found.loaded.every((image) => image.width > 0),
    );
    assert.deepEqual(images.loaded, [{ src: "data:image/png;base64,", width: 2, alt: "logo" }]);
    assert.equal(images.placeholders.length, 2, JSON.stringify(images.placeholders));
    assert.match(images.placeholders[0], /tracker.*remote image not loaded/);
    assert.match(images.placeholders[1], /gone.*not found/);
    await screenshot(browser, "habits-preview-images");
  });

  it("closes the Recent popover on a click outside it", async () => {
    const menu = browser.$(testid("recent-menu"));
    await menu.$("summary").click();
    await waitFor(browser, "the Recent popover open", () => menu.getAttribute("open"), (open) => open !== null);
    await screenshot(browser, "habits-recent-open");
    await browser.$(testid("status-bar")).click();
    await waitFor(browser, "the Recent popover closed", () => menu.getAttribute("open"), (open) => open === null, { timeout: 5_000 });
  });

  it("says what to do when Ctrl+S meets a conflict", async () => {
    await openSkill(browser, "csv-cleanup");
    const file = path.join(workspace, "csv-cleanup", "SKILL.md");
    await browser.$('[data-testid="editor"] .cm-content').click();
    await shortcut(browser, "Control", "End");
    await press(browser, " Mine.");
    const theirs = (await readFile(file, "utf8")).replace("# CSV cleanup", "# CSV cleanup (edited outside)");
    await writeFile(file, theirs);
    await waitFor(browser, "the conflict banner", () => exists(browser, testid("conflict-banner")), Boolean);
    await shortcut(browser, "Control", "s");
    const said = await waitFor(
      browser,
      "what to do about the conflict",
      async () => ((await exists(browser, testid("conflict-save-refused"))) ? browser.$(testid("conflict-save-refused")).getText() : null),
      (text) => text !== null,
      { timeout: 5_000 },
    );
    assert.match(said, /Not saved/);
    assert.match(said, /Reload theirs/);
    assert.match(said, /Keep mine/);
    assert.equal(await readFile(file, "utf8"), theirs, "their version on disk is untouched");
    await screenshot(browser, "habits-ctrl-s-in-conflict");

    // The Compare dialog covers what is behind it to its last row.
    await browser.$(testid("conflict-compare")).click();
    await waitFor(browser, "the compare dialog", () => browser.$$('[data-testid="compare-view"] .cm-content').length, (count) => count === 2);
    const behind = await browser.execute(() => {
      const dialog = document.querySelector('[data-testid="compare-view"]');
      const rect = dialog.getBoundingClientRect();
      const found = [];
      for (const fromBottom of [2, 6, 12, 24]) {
        for (const fraction of [0.1, 0.3, 0.5, 0.7, 0.9]) {
          const x = rect.left + rect.width * fraction;
          const y = rect.bottom - fromBottom;
          const element = document.elementFromPoint(x, y);
          if (!element || !dialog.contains(element)) {
            found.push(`${Math.round(x)},${Math.round(y)}: ${element ? `${element.tagName}.${element.className}` : "nothing"}`);
          }
          const background = element ? getComputedStyle(element).backgroundColor : "";
          if (element && dialog.contains(element) && background === "rgba(0, 0, 0, 0)") {
            // Transparent all the way up to the dialog is fine; the dialog's own background must be opaque.
          }
        }
      }
      const own = getComputedStyle(dialog).backgroundColor;
      if (own === "rgba(0, 0, 0, 0)" || own === "transparent") found.push(`the dialog's background is ${own}`);
      return found;
    });
    await screenshot(browser, "habits-compare-dialog");
    assert.deepEqual(behind, [], "nothing behind the dialog shows through its bottom rows");
    await browser.$(testid("compare-close")).click();
    await browser.$(testid("conflict-reload-theirs")).click();
    await waitFor(browser, "the banner gone", () => exists(browser, testid("conflict-banner")), (shown) => !shown);
  });

  it("shows skill content in the playground with its line breaks", async () => {
    if (!(await exists(browser, testid("previews-panel")))) await browser.$(testid("previews-toggle")).click();
    await browser.$(testid("previews-tab-playground")).click();
    await browser.$(testid("playground-message")).setValue("use $csv-cleanup");
    await browser.$(testid("playground-run")).click();
    const shown = await waitFor(
      browser,
      "the activation message",
      () =>
        browser.execute(() => document.querySelector('[data-testid="transcript-message"][data-origin="activation"] [data-testid="transcript-content"]')?.textContent ?? null),
      (text) => text !== null,
    );
    assert.ok(!shown.includes("\\n"), `no literal \\n: ${shown.slice(0, 300)}`);
    assert.ok(shown.includes("\n# CSV cleanup"), `the skill's lines: ${shown.slice(0, 300)}`);
    await screenshot(browser, "habits-playground-line-breaks");
  });
});
