// Small defects of the editor in the real window: a marker left behind by quick undos, images in the preview,
// Ctrl+S during a conflict, the Compare dialog's last rows, the playground's text and the Recent popover.
import assert from "node:assert/strict";
import { mkdir, readFile, writeFile } from "node:fs/promises";
import path from "node:path";
import { inflateSync } from "node:zlib";
import { after, before, describe, it } from "node:test";
import { copyFixture, editorText, launch, openSkill, press, problems, quit, removeCopy, screenshot, waitFor } from "./support.mjs";

// A 2×2 PNG, written beside a skill as a bundled image.
const PNG = Buffer.from(
  "iVBORw0KGgoAAAANSUhEUgAAAAIAAAACCAIAAAD91JpzAAAAFklEQVR4nGP4z8DAwMDAxMDAwMDAAAANHQEDasKb6QAAAABJRU5ErkJggg==",
  "base64",
);

const testid = (id) => `[data-testid="${id}"]`;

/** Decodes a PNG (8-bit RGB or RGBA, not interlaced, as WebDriver returns) into width, height and RGBA rows. */
function decodePng(buffer) {
  let offset = 8;
  let width = 0;
  let height = 0;
  let channels = 0;
  const data = [];
  while (offset < buffer.length) {
    const length = buffer.readUInt32BE(offset);
    const type = buffer.toString("ascii", offset + 4, offset + 8);
    const body = buffer.subarray(offset + 8, offset + 8 + length);
    if (type === "IHDR") {
      width = body.readUInt32BE(0);
      height = body.readUInt32BE(4);
      assert.equal(body[8], 8, "8-bit samples");
      channels = { 2: 3, 6: 4 }[body[9]];
      assert.ok(channels && body[12] === 0, "RGB or RGBA, not interlaced");
    } else if (type === "IDAT") data.push(body);
    offset += 12 + length;
  }
  const raw = inflateSync(Buffer.concat(data));
  const stride = width * channels;
  const pixels = Buffer.alloc(height * stride);
  for (let y = 0; y < height; y++) {
    const filter = raw[y * (stride + 1)];
    for (let x = 0; x < stride; x++) {
      const value = raw[y * (stride + 1) + 1 + x];
      const left = x >= channels ? pixels[y * stride + x - channels] : 0;
      const up = y > 0 ? pixels[(y - 1) * stride + x] : 0;
      const upLeft = y > 0 && x >= channels ? pixels[(y - 1) * stride + x - channels] : 0;
      const paeth = () => {
        const p = left + up - upLeft;
        const [a, b, c] = [Math.abs(p - left), Math.abs(p - up), Math.abs(p - upLeft)];
        return a <= b && a <= c ? left : b <= c ? up : upLeft;
      };
      const predicted = [0, left, up, (left + up) >> 1, 0][filter] ?? 0;
      pixels[y * stride + x] = (value + (filter === 4 ? paeth() : predicted)) & 255;
    }
  }
  return { width, height, pixel: (x, y) => [...pixels.subarray(y * stride + x * channels, y * stride + x * channels + 3)] };
}

async function exists(browser, selector) {
  return browser.$(selector).isExisting();
}

async function shortcut(browser, ...keys) {
  await browser.keys(keys);
}

describe("small defects of the editor", { timeout: 400_000 }, () => {
  let browser;
  let workspace;

  before(async () => {
    workspace = await copyFixture("editor-workspace");
    // A third skill with a bundled image, a remote one and a missing one.
    const guide = path.join(workspace, "brand-guide");
    await mkdir(path.join(guide, "assets"), { recursive: true });
    await writeFile(path.join(guide, "assets", "logo.png"), PNG);
    await writeFile(
      path.join(guide, "SKILL.md"),
      "---\nname: brand-guide\ndescription: Applies the brand's colours and logo to documents. Use when a document needs the brand look.\n---\n\n" +
        "# Brand guide\n\n![logo](assets/logo.png)\n\n![tracker](https://example.com/pixel.png)\n\n![gone](assets/missing.png)\n",
    );
    // A release-notes description short enough not to wrap, so End reaches its end.
    const notes = path.join(workspace, "release-notes", "SKILL.md");
    await writeFile(
      notes,
      (await readFile(notes, "utf8")).replace(/description: .*\n/, "description: Writes release notes from merged pull requests. Use when preparing a release.\n"),
    );
    // A csv-cleanup longer than the window, so the Compare dialog scrolls.
    const csv = path.join(workspace, "csv-cleanup", "SKILL.md");
    // Short lines, so the dialog shows only its own background where the editor behind has its scrollbar.
    const steps = Array.from({ length: 80 }, (_, index) => `${index + 3}. Column ${index + 1}.`).join("\n");
    await writeFile(csv, `${await readFile(csv, "utf8")}${steps}\n`);
    browser = await launch(workspace);
  });

  after(async () => {
    await quit(browser);
    await removeCopy(workspace);
  });
  it("clears the marker and hover of an error that quick undos removed", async () => {
    // Under claude-upload a tag in the description is an error on exactly the tag's text (SF305): undoing the
    // typing deletes the whole range while the line, and so its gutter marker, stays.
    await browser.$(testid("profile")).selectByAttribute("value", "claude-upload");
    await openSkill(browser, "release-notes");
    const saved = await editorText(browser);
    await waitFor(browser, "no live problems at first", () => problems(browser), (rows) => rows.every((row) => !row.live));
    await browser.$('[data-testid="editor"] .cm-content').click();
    await shortcut(browser, "Control", "Home");
    // The end of the description (line 3, short enough not to wrap).
    await press(browser, "ArrowDown", "ArrowDown", "End");
    // Two undo steps (the editor groups typing that pauses less than half a second).
    await press(browser, " <b>");
    await browser.pause(800);
    await press(browser, " and more");
    await waitFor(browser, "the tag finding", () => problems(browser), (rows) => rows.some((row) => row.live && row.code === "SF305"));
    await waitFor(browser, "their marker", () => browser.$$('[data-testid="editor"] .cm-lint-marker-error').length, (count) => count > 0);
    await screenshot(browser, "defects-before-undo");
    // Both undos in one burst.
    await browser.action("key").down("\uE009").down("z").up("z").down("z").up("z").up("\uE009").perform();
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
    await screenshot(browser, "defects-undo-clears-markers");
    await browser.$(testid("profile")).selectByAttribute("value", "spec");
  });

  it("renders bundled images in the preview and never loads remote ones", async () => {
    await openSkill(browser, "brand-guide");
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
    await screenshot(browser, "defects-preview-images");
  });

  it("covers the panel behind the Compare dialog, and says what to do when Ctrl+S meets a conflict", async () => {
    await openSkill(browser, "csv-cleanup");
    const file = path.join(workspace, "csv-cleanup", "SKILL.md");
    await browser.$('[data-testid="editor"] .cm-content').click();
    await shortcut(browser, "Control", "End");
    await press(browser, " Mine.");
    const theirs = (await readFile(file, "utf8")).replace("# CSV cleanup", "# CSV cleanup (edited outside)");
    await writeFile(file, theirs);
    await waitFor(browser, "the conflict banner", () => exists(browser, testid("conflict-banner")), Boolean);
    // The Compare dialog covers what is behind it to its last row.
    await browser.$(testid("conflict-compare")).click();
    await waitFor(browser, "the compare dialog", () => browser.$$('[data-testid="compare-view"] .cm-content').length, (count) => count === 2);
    // The editor behind draws its gutter and caret on layers of their own (z-index 200 and 150). Let them take
    // clicks for a moment, then ask the window what is on top at points over them and along the dialog's last rows.
    const behind = await browser.execute(() => {
      const probe = document.createElement("style");
      probe.textContent = '[data-testid="editor"] * { pointer-events: auto !important; }';
      document.head.append(probe);
      try {
        const dialog = document.querySelector('[data-testid="compare-view"]');
        const rect = dialog.getBoundingClientRect();
        const points = [];
        for (const layer of document.querySelectorAll('[data-testid="editor"] .cm-gutters, [data-testid="editor"] .cm-cursor')) {
          const box = layer.getBoundingClientRect();
          const x = box.left + box.width / 2;
          for (let y = Math.max(box.top, rect.top) + 2; y < Math.min(box.bottom, rect.bottom); y += 20) points.push([x, y]);
        }
        for (const fraction of [0.1, 0.3, 0.5, 0.7, 0.9]) points.push([rect.left + rect.width * fraction, rect.bottom - 3]);
        const found = [];
        for (const [x, y] of points) {
          if (x < rect.left || x > rect.right || y < rect.top || y > rect.bottom) continue;
          const element = document.elementFromPoint(x, y);
          if (!element || !dialog.contains(element)) found.push(`${Math.round(x)},${Math.round(y)}: ${element ? `${element.tagName}.${element.className}` : "nothing"}`);
        }
        return found.slice(0, 8);
      } finally {
        probe.remove();
      }
    });
    const shot = await screenshot(browser, "defects-compare-dialog");
    assert.deepEqual(behind, [], "nothing behind the dialog shows through its bottom rows");
    // What is drawn: where the editor behind has its scrollbar, the dialog shows only its own light background
    // (its lines past the frontmatter are short and end far to the left of it).
    const strip = await browser.execute(() => {
      const pane = document.querySelector('[data-testid="editor"] .cm-scroller').getBoundingClientRect();
      const merged = document.querySelector('[data-testid="compare-view"] .cm-mergeView').getBoundingClientRect();
      const dialog = document.querySelector('[data-testid="compare-view"]').getBoundingClientRect();
      return { left: Math.round(pane.right - 14), right: Math.round(pane.right), top: Math.round(merged.top + 200), bottom: Math.round(dialog.bottom - 4), scale: window.devicePixelRatio };
    });
    const picture = decodePng(await readFile(shot));
    const dark = [];
    for (let y = strip.top; y < Math.min(strip.bottom, picture.height / strip.scale); y++) {
      for (let x = strip.left; x < strip.right; x++) {
        const [r, g, b] = picture.pixel(Math.round(x * strip.scale), Math.round(y * strip.scale));
        if (Math.min(r, g, b) < 235) dark.push(`${x},${y}: rgb(${r}, ${g}, ${b})`);
      }
    }
    assert.deepEqual(dark.slice(0, 5), [], `${dark.length} pixels of the window behind show through the dialog`);
    await browser.$(testid("compare-close")).click();
    await waitFor(browser, "the compare dialog closed", () => exists(browser, testid("compare-view")), (shown) => !shown);

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
    await screenshot(browser, "defects-ctrl-s-in-conflict");

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
    await screenshot(browser, "defects-playground-line-breaks");
  });

  it("closes the Recent popover on a click outside it", async () => {
    const menu = browser.$(testid("recent-menu"));
    await menu.$("summary").click();
    await waitFor(browser, "the Recent popover open", () => menu.getAttribute("open"), (open) => open !== null);
    await screenshot(browser, "defects-recent-open");
    await browser.$(testid("status-bar")).click();
    await waitFor(browser, "the Recent popover closed", () => menu.getAttribute("open"), (open) => open === null, { timeout: 5_000 });
  });
});
