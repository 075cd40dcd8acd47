// Two folders opened side by side: each is a group of its own in the tree, both are linted, and after a restart
// without --workspace the recent list offers them again.
import assert from "node:assert/strict";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { after, before, describe, it } from "node:test";
import {
  copyFixture,
  fixtureWorkspace,
  launch,
  listedSkills,
  quit,
  removeCopy,
  repo,
  screenshot,
  waitFor,
} from "./support.mjs";

const secondWorkspace = path.join(repo, "tests/fixtures/editor-workspace");

/** The groups of the tree: each opened folder's path and the skills listed under it. */
async function rootGroups(browser) {
  return browser.execute(() =>
    Array.from(document.querySelectorAll('[data-testid="tree-root"]'), (root) => ({
      path: root.getAttribute("data-root-path"),
      label: root.querySelector('[data-testid="tree-root-name"]')?.textContent ?? "",
      skills: Array.from(root.querySelectorAll('[data-testid="skill-item"]'), (item) => item.getAttribute("data-skill-name")),
    })),
  );
}

async function recentFolders(browser) {
  return browser.execute(() =>
    Array.from(document.querySelectorAll('[data-testid="recent-start"] [data-testid="recent-folder"]'), (item) => ({
      path: item.getAttribute("data-path"),
      missing: item.getAttribute("data-missing") === "true",
    })),
  );
}

describe("several folders open at once", { timeout: 180_000 }, () => {
  let browser;
  let configDir;

  before(async () => {
    configDir = await mkdtemp(path.join(tmpdir(), "skillforge-e2e-roots-"));
    browser = await launch([fixtureWorkspace, secondWorkspace], { configDir });
  });

  after(async () => {
    await quit(browser);
    if (configDir) await rm(configDir, { recursive: true, force: true });
  });

  it("shows each folder as a group of its own, with its skills and their badges", async () => {
    const groups = await waitFor(
      browser,
      "two folders in the tree, each with skills",
      () => rootGroups(browser),
      (shown) => shown.length === 2 && shown.every((group) => group.skills.length > 0),
    );
    assert.deepEqual(
      groups.map((group) => [group.path, group.label]),
      [
        [fixtureWorkspace, path.basename(fixtureWorkspace)],
        [secondWorkspace, path.basename(secondWorkspace)],
      ],
    );
    assert.ok(groups[0].skills.includes("csv-cleanup"), JSON.stringify(groups));
    const label = await browser.$('[data-testid="workspace-label"]').getText();
    assert.equal(label, `${path.basename(fixtureWorkspace)}, ${path.basename(secondWorkspace)}`);
    assert.equal(await browser.$('[data-testid="status-roots"]').getText(), "2 folders");
    const total = groups.reduce((sum, group) => sum + group.skills.length, 0);
    assert.equal((await listedSkills(browser)).length, total);
    // Both folders hold a csv-cleanup: discovery reads them together, as nagents would, so the second one is the
    // duplicate that fails the catalog.
    const notices = await waitFor(
      browser,
      "the duplicate across the folders reported",
      () => browser.execute(() => Array.from(document.querySelectorAll('[data-testid="workspace-notice"]'), (n) => n.textContent)),
      (texts) => texts.some((text) => text.includes("Duplicate skill name 'csv-cleanup'")),
    );
    assert.ok(notices.some((text) => text.includes(path.join(secondWorkspace, "csv-cleanup"))), notices.join("\n"));
    await browser.execute(() => document.querySelector('[data-testid="tree-root"]')?.scrollIntoView());
    await screenshot(browser, "roots-two-folders");
  });

  it("closes one folder and keeps the other", async () => {
    await browser.$(`[data-testid="tree-root"][data-root-path="${secondWorkspace}"] [data-testid="tree-root-close"]`).click();
    const label = await waitFor(
      browser,
      "only the first folder open",
      () => browser.$('[data-testid="workspace-label"]').getText(),
      (text) => text === path.basename(fixtureWorkspace),
    );
    assert.equal(label, path.basename(fixtureWorkspace));
    const names = (await listedSkills(browser)).map((skill) => skill.name);
    assert.ok(names.includes("csv-cleanup"), names.join(", "));
  });

  it("offers both folders as recent after a restart without --workspace", async () => {
    await quit(browser);
    browser = await launch(undefined, { configDir });
    const recent = await waitFor(
      browser,
      "the recent folders on the builtin skills' screen",
      () => recentFolders(browser),
      (folders) => folders.length >= 2,
    );
    assert.deepEqual(
      recent.map((folder) => folder.path),
      [fixtureWorkspace, secondWorkspace],
    );
    assert.ok(recent.every((folder) => !folder.missing));
    await screenshot(browser, "roots-recent-after-restart");
    await browser.$(`[data-testid="recent-start"] [data-testid="recent-folder"][data-path="${secondWorkspace}"] [data-testid="recent-open"]`).click();
    await waitFor(
      browser,
      "the recent folder open",
      () => browser.$('[data-testid="workspace-label"]').getText(),
      (text) => text === path.basename(secondWorkspace),
    );
  });

  it("marks a recent folder that vanished, and removes it from the list on request", async () => {
    const copy = await copyFixture("e2e-workspace");
    try {
      await quit(browser);
      browser = await launch(copy, { configDir });
      await waitFor(browser, "the copied folder open", () => listedSkills(browser), (skills) => skills.length > 0);
      await quit(browser);
      await removeCopy(copy);
      browser = await launch(undefined, { configDir });
      const recent = await waitFor(
        browser,
        "the vanished folder marked in the recent list",
        () => recentFolders(browser),
        (folders) => folders.some((folder) => folder.path === copy && folder.missing),
      );
      assert.equal(recent[0].path, copy, "the most recent folder comes first");
      const entry = `[data-testid="recent-start"] [data-testid="recent-folder"][data-path="${copy}"]`;
      assert.equal(await browser.$(`${entry} [data-testid="recent-open"]`).isEnabled(), false);
      await browser.execute((selector) => document.querySelector(selector)?.scrollIntoView(), entry);
      await screenshot(browser, "roots-recent-missing");
      await browser.$(`${entry} [data-testid="recent-forget"]`).click();
      await waitFor(
        browser,
        "the vanished folder gone from the list",
        () => recentFolders(browser),
        (folders) => folders.length > 0 && !folders.some((folder) => folder.path === copy),
      );
    } finally {
      await removeCopy(copy);
    }
  });
});
