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
  assert.equal(state.location, appLocation, `${where}: the window navigated`);
  // No alert, confirm or prompt is open: WebDriver answers "no such alert", and nothing else will do.
  const alert = await browser.getAlertText().then(
    (text) => ({ open: true, text }),
    (error) => ({ open: false, error }),
  );
  assert.equal(alert.open, false, `${where}: a dialog opened: ${JSON.stringify(alert.text)}`);
  // webdriverio names the error by its W3C error code.
  assert.equal(alert.error.name, "no such alert", `${where}: asking for a dialog failed otherwise: ${alert.error.message}`);
}

/** Where the app's page was when the spec started; no click may move it. */
let appLocation;

/** The path the editor shows. */
function editorPath(browser) {
  return browser.execute(() => document.querySelector('[data-testid="editor-path"]')?.textContent ?? null);
}

/** The preview's links: text, status and target, as the engine marked them. */
function previewLinks(browser) {
  return browser.execute(() =>
    Array.from(document.querySelectorAll('[data-testid="preview"] a'), (link) => ({
      text: link.textContent,
      status: link.getAttribute("data-link-status"),
      target: link.getAttribute("data-link-target"),
      href: link.getAttribute("href"),
    })),
  );
}

// The links of hostile-markup/SKILL.md, as the preview must mark them (crates/skillforge-core/src/preview.rs):
// `javascript:` and `data:` are schemes it never follows, `../…` leaves the skill folder. The file named like
// markup has spaces in its address, which Markdown does not take for a link, and the raw <a> stays text.
const EXPECTED_LINKS = [
  { text: "a javascript link", status: "blocked", target: "javascript:window.__canary='link';alert(1)", href: "#" },
  { text: "a data link", status: "blocked", target: "data:text/html,<script>alert(1)</script>", href: "#" },
  { text: "an escaping link", status: "escapes", target: "../../../../etc/passwd", href: "#" },
];

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
    appLocation = await browser.execute(() => window.location.href);
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

    // Every link in the preview is marked, and clicking it navigates nowhere, opens nothing and runs nothing.
    assert.deepEqual(await previewLinks(browser), EXPECTED_LINKS);
    for (const [index, expected] of EXPECTED_LINKS.entries()) {
      // By position (webdriverio reads a selector holding `<script>` as a tag name), after checking it is the one.
      const link = (await browser.$$('[data-testid="preview"] a'))[index];
      assert.equal(await link.getAttribute("data-link-target"), expected.target);
      await link.click(); // a click the driver refuses fails the test
      await assertNothingRan(browser, `after clicking ${expected.text}`);
      assert.equal(await editorPath(browser), "hostile-markup/SKILL.md", `after clicking ${expected.text}: the editor stays`);
      assert.deepEqual(await previewLinks(browser), EXPECTED_LINKS, `after clicking ${expected.text}: the same preview`);
    }
    await screenshot(browser, "hostile-editor-preview");
  });

  it("shows the skill whose folder and name are markup, which clients skip, as a text notice", async () => {
    const notices = await browser.execute(() =>
      Array.from(document.querySelectorAll('[data-testid="workspace-notice"]'), (notice) => notice.textContent),
    );
    assert.ok(
      notices.some((text) => text.includes("<img src=x onerror=document.documentElement.dataset.pwned=1>")),
      `the folder name is shown literally: ${notices}`,
    );
    await assertNothingRan(browser, "notices");
  });
});
