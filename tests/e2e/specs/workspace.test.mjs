// Opens the fixture workspace and checks that the window lists its skills and shows the one clicked.
import assert from "node:assert/strict";
import path from "node:path";
import { after, before, describe, it } from "node:test";
import { fixtureWorkspace, launch, listedSkills, quit, screenshot, waitFor } from "./support.mjs";

// What tests/fixtures/e2e-workspace holds, written out so a skill the app drops or garbles fails the test.
const EXPECTED_SKILLS = [
  {
    name: "csv-cleanup",
    description:
      "Cleans messy CSV exports by normalizing headers, trimming whitespace and listing rows that fail to parse. Use when a CSV file will not import cleanly.",
  },
  {
    name: "release-notes",
    description:
      "Turns a list of merged pull requests into user-facing release notes grouped by area. Use when preparing a release announcement or a changelog section.",
  },
  {
    name: "sql-review",
    description:
      "Reviews SQL migrations for table locks, missing indexes and irreversible changes before they reach production. Use when a pull request adds or edits a migration.",
  },
  {
    name: "test-names",
    description:
      "Renames unit tests so each name states the behaviour under test and the expected outcome. Use when test names are vague, such as test1 or works.",
  },
];
const expectedNames = EXPECTED_SKILLS.map((skill) => skill.name).sort();

describe("a workspace of skills", { timeout: 120_000 }, () => {
  let browser;

  before(async () => {
    browser = await launch(fixtureWorkspace);
  });

  after(async () => {
    await quit(browser);
  });

  it("lists every skill with its name and description", async () => {
    const listed = await waitFor(
      browser,
      `the skills ${expectedNames.join(", ")}`,
      () => listedSkills(browser),
      (skills) => skills.length > 0 && JSON.stringify(skills.map((s) => s.name).sort()) === JSON.stringify(expectedNames),
    );
    for (const expected of EXPECTED_SKILLS) {
      const shown = listed.find((skill) => skill.name === expected.name);
      assert.ok(shown, `${expected.name} is listed`);
      assert.equal(shown.shownName, expected.name);
      assert.equal(shown.description, expected.description);
      assert.equal(shown.location, path.join(expected.name, "SKILL.md"));
    }
    const label = await browser.$('[data-testid="workspace-label"]').getText();
    assert.equal(label, path.basename(fixtureWorkspace));
    assert.equal(await browser.$('[data-testid="workspace-error"]').isExisting(), false);
  });

  it("opens the clicked skill in the editor", async () => {
    const chosen = EXPECTED_SKILLS[2];
    await browser.$(`[data-testid="skill-item"][data-skill-name="${chosen.name}"]`).click();
    const editorPath = browser.$('[data-testid="editor-path"]');
    await waitFor(
      browser,
      `the editor for ${chosen.name}`,
      async () => ((await editorPath.isExisting()) ? editorPath.getText() : null),
      (text) => text === path.join(chosen.name, "SKILL.md"),
    );
    await waitFor(
      browser,
      "the SKILL.md text in the editor",
      () => browser.execute(() => document.querySelector('[data-testid="editor"] .cm-content')?.textContent ?? ""),
      (text) => text.includes(`name: ${chosen.name}`),
    );
    const selected = await browser.$('[data-testid="skill-item"][aria-current="true"]').getAttribute("data-skill-name");
    assert.equal(selected, chosen.name);
    await screenshot(browser, "workspace-selected-skill");
  });
});
