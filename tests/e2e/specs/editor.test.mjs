// The authoring loop in the real window: live diagnostics, a quick fix, Ctrl+S, a conflict with an edit made
// outside the app, and a deletion made outside the app.
import assert from "node:assert/strict";
import { mkdir, mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { after, before, describe, it } from "node:test";
import {
  copyFixture,
  editorText,
  launch,
  openSkill,
  press,
  problems,
  quit,
  removeCopy,
  runCli,
  screenshot,
  waitFor,
  waitForDisk,
} from "./support.mjs";

// An uppercase `name` in the folder csv-cleanup breaks two spec rules (docs/rules.md): SF203 name-not-lowercase
// and SF206 name-directory-mismatch. Written out, so a renumbered or silenced rule fails here even though the CLI
// below, built from the same engine, would agree with the window.
const UPPERCASE_NAME_CODES = ["SF203", "SF206"];

/**
 * What `skillforge lint --format json --profile PROFILE` reports for `text` as csv-cleanup/SKILL.md: the engine's
 * answer for the buffer the window lints, as [code, message] pairs in the engine's order.
 */
async function lintedByCli(text, profile) {
  const scratch = await mkdtemp(path.join(tmpdir(), "skillforge-e2e-lint-"));
  try {
    const file = path.join(scratch, "csv-cleanup", "SKILL.md");
    await mkdir(path.dirname(file));
    await writeFile(file, text);
    const report = JSON.parse(runCli(["lint", file, "--format", "json", "--no-config", "--profile", profile], { statuses: [0, 1] }));
    assert.equal(report.files.length, 1, "the CLI linted the one file");
    return report.files[0].diagnostics.map((diagnostic) => [diagnostic.code, diagnostic.message]);
  } finally {
    await rm(scratch, { recursive: true, force: true });
  }
}

/** The live rows of the problems list (the unsaved buffer's diagnostics) as [code, message] pairs. */
async function liveProblems(browser) {
  return (await problems(browser)).filter((row) => row.live).map((row) => [row.code, row.message]);
}

describe("editing a skill", { timeout: 240_000 }, () => {
  let browser;
  let workspace;
  let file;

  before(async () => {
    workspace = await copyFixture("editor-workspace");
    file = path.join(workspace, "csv-cleanup", "SKILL.md");
    browser = await launch(workspace);
    await openSkill(browser, "csv-cleanup");
  });

  after(async () => {
    await quit(browser);
    await removeCopy(workspace);
  });

  it("shows the engine's diagnostics for an invalid name, and the quick fix removes them", async () => {
    const profile = await browser.$('[data-testid="profile"]').getValue();
    assert.equal(profile, "spec", "the editor lints under the spec profile by default");
    // Real keystrokes: to the end of line 2 ("name: csv-cleanup"), then replace the name.
    await browser.$('[data-testid="editor"] .cm-content').click();
    await browser.keys(["Control", "Home"]);
    await press(browser, "ArrowDown", "End", ...Array(11).fill("Backspace"), "CSV-Cleanup");
    const typed = await editorText(browser);
    assert.ok(typed.includes("name: CSV-Cleanup\n"), typed);

    // The window shows exactly what the CLI reports for the same text: every code and message, in order.
    const expected = await lintedByCli(typed, profile);
    assert.deepEqual(expected.map(([code]) => code), UPPERCASE_NAME_CODES, `the engine's codes: ${JSON.stringify(expected)}`);
    await waitFor(
      browser,
      `the live diagnostics ${JSON.stringify(expected)}`,
      () => liveProblems(browser),
      (live) => JSON.stringify(live) === JSON.stringify(expected),
    );
    const rows = (await problems(browser)).filter((candidate) => candidate.live);
    assert.ok(rows.every((candidate) => candidate.fix), `each has a quick fix: ${JSON.stringify(rows)}`);
    const row = rows[0];
    await waitFor(
      browser,
      "a squiggle under the name",
      () => browser.execute(() => document.querySelectorAll(".cm-lintRange-error").length),
      (count) => count > 0,
    );
    await screenshot(browser, "editor-diagnostic");

    const fixButton = await browser.$(`[data-testid="problem"][data-code="${row.code}"][data-live="true"] [data-testid="problem-fix"]`);
    await fixButton.click();
    const fixed = await waitFor(browser, "the fixed name", () => editorText(browser), (text) => text.includes("name: csv-cleanup\n"));
    // One edit answers both rules: the CLI finds nothing in the fixed text, and neither does the window.
    assert.deepEqual(await lintedByCli(fixed, profile), []);
    await waitFor(browser, "no live diagnostics after the fix", () => liveProblems(browser), (live) => live.length === 0);
    await screenshot(browser, "editor-quick-fix-applied");
  });

  it("saves with Ctrl+S", async () => {
    await browser.$('[data-testid="editor"] .cm-content').click();
    await browser.keys(["Control", "End"]);
    await press(browser, "3. Saved from the editor.");
    await browser.keys(["Control", "s"]);
    const saved = await waitForDisk(browser, "the saved text on disk", file, (text) => text?.includes("3. Saved from the editor."));
    assert.ok(saved.includes("name: csv-cleanup\n"));
    await waitFor(
      browser,
      "the buffer marked saved",
      () => browser.$('[data-testid="editor-state"]').getAttribute("data-dirty"),
      (dirty) => dirty === "false",
    );
    await screenshot(browser, "editor-saved");
  });

  it("keeps both versions when the file changes on disk while the buffer is dirty", async () => {
    await press(browser, " Mine.");
    const mine = await editorText(browser);
    const theirs = (await readFile(file, "utf8")).replace("# CSV cleanup", "# CSV cleanup (edited outside)");
    await writeFile(file, theirs);

    const banner = browser.$('[data-testid="conflict-banner"]');
    await waitFor(browser, "the conflict banner", () => banner.isExisting(), Boolean);
    assert.equal(await banner.getAttribute("data-conflict"), "changed");
    assert.equal(await readFile(file, "utf8"), theirs, "the outside edit is not overwritten");

    await browser.$('[data-testid="conflict-compare"]').click();
    const compared = await waitFor(
      browser,
      "both versions side by side",
      () => browser.execute(() => Array.from(document.querySelectorAll('[data-testid="compare-view"] .cm-content'), (c) => c.textContent)),
      (sides) => sides.length === 2,
    );
    assert.ok(compared[0].includes("Mine."), "mine is on the left");
    assert.ok(compared[1].includes("(edited outside)"), "theirs is on the right");
    await screenshot(browser, "editor-conflict-compare");
    await browser.$('[data-testid="compare-close"]').click();

    // Reload theirs, then undo: the author's version comes back, and saving it now is allowed.
    await browser.$('[data-testid="conflict-reload-theirs"]').click();
    await waitFor(browser, "their version in the editor", () => editorText(browser), (text) => text.includes("(edited outside)"));
    await screenshot(browser, "editor-conflict-reloaded-theirs");
    await browser.$('[data-testid="editor"] .cm-content').click();
    await browser.keys(["Control", "z"]);
    await waitFor(browser, "my version back after undo", () => editorText(browser), (text) => text === mine);
    await browser.keys(["Control", "s"]);
    await waitForDisk(browser, "my version on disk", file, (text) => text?.includes("Mine.") && !text.includes("(edited outside)"));
  });

  it("keeps a dirty buffer whose file is deleted outside the app, and saves it again", async () => {
    const notes = path.join(workspace, "release-notes", "SKILL.md");
    await openSkill(browser, "release-notes");
    await browser.$('[data-testid="editor"] .cm-content').click();
    await browser.keys(["Control", "End"]);
    await press(browser, "Unsaved line.");
    await rm(notes);
    const banner = browser.$('[data-testid="conflict-banner"]');
    await waitFor(browser, "the deleted-file banner", async () => (await banner.isExisting()) && banner.getAttribute("data-conflict"), (kind) => kind === "deleted");
    await waitFor(browser, "release-notes gone from the tree", () => treeNames(browser), (names) => names.join() === "csv-cleanup");
    await screenshot(browser, "editor-deleted-while-dirty");
    await browser.$('[data-testid="conflict-save-again"]').click();
    await waitForDisk(browser, "the buffer saved again", notes, (text) => text?.includes("Unsaved line."));
    await waitFor(browser, "release-notes back in the tree", () => treeNames(browser), (names) => names.join() === "csv-cleanup,release-notes");
  });

  it("updates the tree when a skill folder is deleted outside the app", async () => {
    await rm(path.join(workspace, "csv-cleanup"), { recursive: true });
    await waitFor(browser, "csv-cleanup gone from the tree", () => treeNames(browser), (names) => names.join() === "release-notes");
    await screenshot(browser, "editor-tree-after-delete");
  });

  it("creates a new skill from the dialog, refusing a bad name first", async () => {
    await browser.$('[data-testid="new-skill"]').click();
    const input = browser.$('[data-testid="new-skill-name"]');
    await waitFor(browser, "the new skill dialog", () => input.isExisting(), Boolean);
    await input.click();
    await press(browser, "Fresh Skill");
    const problem = browser.$('[data-testid="new-skill-problem"]');
    await waitFor(browser, "the name problem", async () => (await problem.isExisting()) && problem.getText(), (text) => Boolean(text) && text.includes("lowercase"));
    await press(browser, ...Array(11).fill("Backspace"), "fresh-skill");
    await browser.$('[data-testid="new-skill-create"]').click();
    await waitFor(browser, "the new skill open", () => browser.$('[data-testid="editor-path"]').getText(), (text) => text === "fresh-skill/SKILL.md");
    await waitForDisk(browser, "the new SKILL.md on disk", path.join(workspace, "fresh-skill", "SKILL.md"), (text) => text?.includes("name: fresh-skill"));
    await waitFor(browser, "the new skill in the tree", () => treeNames(browser), (names) => names.join() === "fresh-skill,release-notes");
    await screenshot(browser, "editor-new-skill");
  });
});

function treeNames(browser) {
  return browser.execute(() =>
    Array.from(document.querySelectorAll('[data-testid="skill-item"]'), (item) => item.getAttribute("data-skill-name")).sort(),
  );
}
