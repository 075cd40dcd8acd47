// Starts the app on paths that are not a folder of skills: the window must say why, never stay blank.
import assert from "node:assert/strict";
import path from "node:path";
import { describe, it } from "node:test";
import { fixtureWorkspace, launch, quit, screenshot, waitFor } from "./support.mjs";

const cases = [
  {
    title: "a path that does not exist",
    screenshot: "workspace-error-not-found",
    workspace: path.join(fixtureWorkspace, "no-such-folder"),
    code: "not_found",
    says: "no such folder",
  },
  {
    title: "a path that is a file",
    screenshot: "workspace-error-not-a-folder",
    workspace: path.join(fixtureWorkspace, "csv-cleanup", "SKILL.md"),
    code: "not_a_directory",
    says: "is a file, not a folder",
  },
];

describe("a workspace that cannot be opened", { timeout: 120_000 }, () => {
  for (const testCase of cases) {
    it(`explains ${testCase.title}`, async () => {
      const browser = await launch(testCase.workspace);
      try {
        const error = browser.$('[data-testid="workspace-error"]');
        const message = await waitFor(
          browser,
          "the workspace error",
          async () => ((await error.isDisplayed()) ? error.getText() : null),
          (text) => Boolean(text),
        );
        assert.ok(message.includes(testCase.workspace), `the message names the path: ${message}`);
        assert.ok(message.includes(testCase.says), `the message says "${testCase.says}": ${message}`);
        const panel = browser.$('[data-testid="workspace-error-panel"]');
        assert.equal(await panel.getAttribute("data-error-code"), testCase.code);
        assert.equal((await browser.$$('[data-testid="skill-item"]')).length, 0);
        await screenshot(browser, testCase.screenshot);

        // The header's way out works: the builtin skills replace the error.
        await browser.$('[data-testid="open-builtin"]').click();
        const label = browser.$('[data-testid="workspace-label"]');
        await waitFor(
          browser,
          "the builtin skills after the error",
          async () => ((await label.isExisting()) ? label.getText() : null),
          (text) => text === "Builtin skills",
        );
        assert.equal(await error.isExisting(), false);
        await waitFor(
          browser,
          "the builtin skills listed",
          async () => (await browser.$$('[data-testid="skill-item"]')).length,
          (count) => count > 0,
        );
        await screenshot(browser, `${testCase.screenshot}-then-builtin`);
      } finally {
        await quit(browser);
      }
    });
  }
});
