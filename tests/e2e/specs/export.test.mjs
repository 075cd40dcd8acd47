// Export from the real window: check the workspace's skills, export them as .skill archives and into a client
// folder, and find the files on disk. The destination is typed, because WebDriver cannot drive the native folder
// dialog.
import assert from "node:assert/strict";
import { mkdtemp, readdir, rm, stat } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { after, before, describe, it } from "node:test";
import { copyFixture, launch, quit, removeCopy, screenshot, waitFor } from "./support.mjs";

const SKILLS = ["csv-cleanup", "release-notes", "sql-review", "test-names"];

/** What the dialog shows: the checked skills, the planned skills, the problems, the written paths and artifacts. */
async function dialogState(browser) {
  return browser.execute(() => {
    const all = (selector) => Array.from(document.querySelectorAll(selector));
    const button = (id) => document.querySelector(`[data-testid="${id}"]`);
    return {
      checked: all('[data-testid="export-skill"]').filter((box) => box.checked).map((box) => box.dataset.skillName),
      planned: all('[data-testid="export-planned-skill"]').map((row) => row.dataset.skillName),
      problems: all('[data-testid="export-problem"]').map((row) => row.textContent.trim()),
      verdict: button("export-verdict")?.textContent.trim() ?? null,
      exportEnabled: button("export-run") ? !button("export-run").disabled : false,
      written: all('[data-testid="export-written"]').map((row) => ({
        path: row.dataset.path,
        text: row.textContent,
        artifacts: Array.from(row.querySelectorAll('[data-testid="export-artifact"]'), (item) => item.textContent.trim()),
      })),
      // Not named `error`: WebDriver reads a returned object with an `error` key as a failed command.
      refusal: button("export-error-message")?.textContent ?? null,
      force: Boolean(button("export-force")),
    };
  });
}

async function openDialog(browser) {
  const open = browser.$('[data-testid="export-open"]');
  await waitFor(browser, "the Export… button enabled", () => open.isEnabled(), Boolean);
  await open.click();
  await waitFor(browser, "every skill checked in the export dialog", () => dialogState(browser), (state) => state.checked.length === SKILLS.length);
}

async function checkAndExport(browser, destination) {
  const input = browser.$('[data-testid="export-destination"]');
  await input.setValue(destination);
  await waitFor(browser, "the typed destination", () => input.getValue(), (value) => value === destination);
  await browser.$('[data-testid="export-check"]').click();
  const checked = await waitFor(
    browser,
    "the check listing every skill with Export enabled",
    () => dialogState(browser),
    (state) => state.planned.length === SKILLS.length && state.exportEnabled,
  );
  assert.deepEqual([...checked.planned].sort(), SKILLS);
  await browser.$('[data-testid="export-run"]').click();
}

describe("exporting skills", { timeout: 240_000 }, () => {
  let browser;
  let workspace;
  let outBase;

  before(async () => {
    workspace = await copyFixture("e2e-workspace");
    outBase = await mkdtemp(path.join(tmpdir(), "skillforge-export-"));
    browser = await launch(workspace);
  });

  after(async () => {
    await quit(browser);
    await removeCopy(workspace);
    if (outBase) await rm(outBase, { recursive: true, force: true });
  });

  it("checks the skills and writes one .skill archive per skill", async () => {
    await openDialog(browser);
    const destination = path.join(outBase, "archives");
    await checkAndExport(browser, destination);
    const state = await waitFor(browser, "the paths written", () => dialogState(browser), (shown) => shown.written.length > 0 || shown.refusal);
    assert.equal(state.refusal, null);
    assert.equal(state.written.length, 1);
    assert.equal(state.written[0].path, destination);
    assert.deepEqual([...state.written[0].artifacts].sort(), SKILLS.map((name) => `${name}.skill`));
    for (const artifact of state.written[0].artifacts) {
      const file = await stat(path.join(destination, artifact));
      assert.ok(file.isFile() && file.size > 0, `${artifact} is a non-empty file`);
    }
    assert.ok((await readdir(destination)).includes("bundle.json"));
    await screenshot(browser, "export-archives");
    await browser.$('[data-testid="export-close"]').click();
    await waitFor(browser, "the dialog closed", () => browser.$('[data-testid="export-dialog"]').isExisting(), (shown) => !shown);
  });

  it("installs into a client folder, and replaces that earlier install only when asked", async () => {
    await openDialog(browser);
    await browser.$('[data-testid="export-target"]').selectByAttribute("value", "client-folder");
    await waitFor(browser, "the client choice", () => browser.$('[data-testid="export-client"]').isExisting(), Boolean);
    const project = path.join(outBase, "project");
    await checkAndExport(browser, project);
    const first = await waitFor(browser, "the installed folders", () => dialogState(browser), (shown) => shown.written.length > 0 || shown.refusal);
    assert.equal(first.refusal, null);
    const installed = path.join(project, ".agents", "skills");
    assert.deepEqual(first.written.map((written) => written.path).sort(), SKILLS.map((name) => path.join(installed, name)));
    for (const name of SKILLS) assert.ok((await stat(path.join(installed, name, "SKILL.md"))).isFile());

    // The same export again meets its own earlier install: refused, then replaced after the author asks.
    await browser.$('[data-testid="export-run"]').click();
    const refused = await waitFor(browser, "the earlier-install refusal", () => dialogState(browser), (shown) => shown.refusal !== null);
    assert.ok(refused.force, `force is offered for: ${refused.refusal}`);
    await screenshot(browser, "export-earlier-install");
    await browser.$('[data-testid="export-force"]').click();
    const replaced = await waitFor(browser, "the replaced install", () => dialogState(browser), (shown) => shown.written.length > 0);
    assert.ok(replaced.written.every((written) => written.text.includes("replaced")));
    for (const name of SKILLS) assert.ok((await stat(path.join(installed, name, "SKILL.md"))).isFile());
    await screenshot(browser, "export-client-folder");
  });
});
