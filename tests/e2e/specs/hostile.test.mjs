// A workspace whose names, texts, links and files are markup and script: shown in the tree, the editor, the
// preview and the problems list, nothing may run. Payloads set window.__canary or a data-pwned attribute on <html>.
import assert from "node:assert/strict";
import { appendFile } from "node:fs/promises";
import path from "node:path";
import { after, before, describe, it } from "node:test";
import { copyFixture, launch, openSkill, quit, removeCopy, screenshot, waitFor } from "./support.mjs";

const CANARY = "untouched";

async function assertNothingRan(browser, where) {
  const state = await browser.execute(() => ({
    canary: window.__canary,
    pwned: document.documentElement.getAttribute("data-pwned"),
    scripts: Array.from(document.querySelectorAll("script")).filter((script) => !script.src).length,
    frames: document.querySelectorAll("iframe, object, embed").length,
    location: window.location.href,
  }));
  assert.equal(state.canary, CANARY, `${where}: the canary changed`);
  assert.equal(state.pwned, null, `${where}: a payload set data-pwned`);
  assert.equal(state.scripts, 0, `${where}: an inline <script> element is in the page`);
  assert.equal(state.frames, 0, `${where}: a frame or object element is in the page`);
  assert.ok(!state.location.startsWith("javascript:"), `${where}: the window navigated`);
  // No alert, confirm or prompt is open: WebDriver answers "no such alert".
  await assert.rejects(() => browser.getAlertText(), undefined, `${where}: a dialog opened`);
}

describe("a hostile workspace", { timeout: 240_000 }, () => {
  let browser;
  let workspace;

  before(async () => {
    workspace = await copyFixture("hostile-workspace");
    // A 1 MB line, generated in the copy rather than committed.
    await appendFile(path.join(workspace, "hostile-markup", "SKILL.md"), `\n${"<b>x</b>".repeat(131_072)}\n`);
    browser = await launch(workspace);
    await waitFor(
      browser,
      "the hostile skills in the tree",
      async () => (await browser.$$('[data-testid="skill-item"]')).length,
      (count) => count > 0,
    );
    await browser.execute((value) => {
      window.__canary = value;
    }, CANARY);
  });

  after(async () => {
    await quit(browser);
    await removeCopy(workspace);
  });

  it("shows names and descriptions in the tree as text", async () => {
    await assertNothingRan(browser, "tree");
    const shown = await browser.execute(() =>
      Array.from(document.querySelectorAll('[data-testid="skill-item"]'), (item) => item.textContent),
    );
    assert.ok(shown.some((text) => text.includes("<img src=x onerror=")), `markup is shown literally: ${shown}`);
    await screenshot(browser, "hostile-tree");
  });

  it("opens the hostile SKILL.md in the editor, the preview and the problems list without running anything", async () => {
    await openSkill(browser, "hostile-markup");
    await waitFor(
      browser,
      "the rendered preview",
      () => browser.execute(() => document.querySelector('[data-testid="preview"]')?.textContent ?? ""),
      (text) => text.includes("raw anchor"),
    );
    await waitFor(
      browser,
      "the workspace problems",
      async () => (await browser.$$('[data-testid="problem"]')).length,
      (count) => count > 0,
    );
    await assertNothingRan(browser, "editor, preview and problems");

    // Every link in the preview: clicking navigates nowhere and runs nothing.
    const links = await browser.$$('[data-testid="preview"] a');
    for (const link of links) {
      const status = await link.getAttribute("data-link-status");
      if (status === "external") continue; // would open the system browser
      await link.click().catch(() => {});
      await assertNothingRan(browser, `after clicking a ${status} link`);
    }
    await screenshot(browser, "hostile-editor-preview");
  });

  it("shows the skill whose folder and name are markup, which clients skip, as a text notice", async () => {
    const notices = await browser.execute(() =>
      Array.from(document.querySelectorAll('[data-testid="catalog-notice"]'), (notice) => notice.textContent),
    );
    assert.ok(
      notices.some((text) => text.includes("<img src=x onerror=document.documentElement.dataset.pwned=1>")),
      `the folder name is shown literally: ${notices}`,
    );
    await assertNothingRan(browser, "notices");
  });
});
