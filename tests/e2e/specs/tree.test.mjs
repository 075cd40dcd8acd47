// What the workspace tree and its panels show: every SKILL.md on disk whatever a client's limits, skills a client
// cannot read kept and marked, notices grouped in the problems list, 10xGraph's reach explained, bounded cards, and
// trigger-test expectations that survive a save and a reopen.
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { mkdir, mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { after, before, describe, it } from "node:test";
import {
  copyFixture,
  launch,
  openSkill,
  press,
  quit,
  removeCopy,
  repo,
  screenshot,
  waitFor,
  waitForDisk,
} from "./support.mjs";

async function openPreviews(browser, tab) {
  if (!(await browser.$('[data-testid="previews-panel"]').isExisting())) {
    await browser.$('[data-testid="previews-toggle"]').click();
  }
  await browser.$(`[data-testid="previews-tab-${tab}"]`).click();
}

/** The tree's count line ("12 skills") as a number. */
async function treeCount(browser) {
  const text = await browser.$('[data-testid="skill-count"]').getText();
  const match = /^(\d+) skills?$/.exec(text.trim());
  return match ? Number(match[1]) : null;
}

/** The SKILL.md files under `root`, counted by find(1). */
function skillFilesOnDisk(root) {
  const out = execFileSync("find", [root, "-type", "f", "-name", "SKILL.md"], { encoding: "utf8" });
  return out.split("\n").filter(Boolean).length;
}

function skillFile(name, description, body = `# ${name}\n`) {
  return `---\nname: ${name}\n${description}\n---\n${body}`;
}

async function writeSkill(root, folder, text) {
  await mkdir(path.join(root, folder), { recursive: true });
  await writeFile(path.join(root, folder, "SKILL.md"), text);
}

// One line, as nagents reads it, of 900-odd characters: whole, it makes a card some 300 px tall.
const LONG_DESCRIPTION = `description: ${Array.from(
  { length: 9 },
  (_, part) => `Part ${part + 1} says what this skill does, when to use it, which files it reads and what it writes back.`,
).join(" ")}`;

describe("the workspace tree and its panels", { timeout: 300_000 }, () => {
  let browser;
  let base;
  let root;

  before(async () => {
    base = await mkdtemp(path.join(tmpdir(), "skillforge-e2e-tree-"));
    root = path.join(base, "repo");
    await writeSkill(root, "plain", skillFile("plain", "description: Plain skill. Use when nothing special is needed."));
    await writeSkill(root, "block", skillFile("block", "description: |-\n  Folds a block.\n  Use when folding blocks."));
    for (let index = 0; index < 24; index++) {
      const name = `broken-${String(index).padStart(2, "0")}`;
      await writeSkill(root, name, skillFile(name, `description: |-\n  Broken ${index}.\n  Use when broken.`));
    }
    await writeSkill(root, "long", skillFile("long", LONG_DESCRIPTION));
    // Two levels down: 10xGraph reads only the folders directly inside the opened one.
    for (const name of ["deep-one", "deep-two", "deep-three"]) {
      await writeSkill(root, path.join("plugins", "kit", name), skillFile(name, `description: Deep ${name}. Use when deep.`));
    }
    browser = await launch(root);
    await waitFor(browser, "the tree", () => treeCount(browser), (count) => count !== null && count > 0);
  });

  after(async () => {
    await quit(browser);
    if (base) await rm(base, { recursive: true, force: true });
  });

  it("lists every SKILL.md on disk, and keeps a skill nagents cannot parse, marked with nagents' finding", async () => {
    const count = await waitFor(browser, "every skill in the tree", () => treeCount(browser), (n) => n === skillFilesOnDisk(root));
    assert.equal(count, 30);
    const block = browser.$('[data-testid="skill-item"][data-skill-name="block"]');
    assert.ok(await block.isExisting(), "the skill with a |- description is in the tree");
    const marker = await block.$('[data-testid="skill-client-notice"]');
    assert.equal(await marker.getAttribute("data-client"), "nagents");
    assert.match(await marker.getAttribute("title"), /use one single-line description value/);
    await screenshot(browser, "tree-unparsable-kept");
  });

  it("keeps it under the spec profile, and keeps a skill saved with a folded description", async () => {
    await browser.$('[data-testid="profile"]').selectByAttribute("value", "spec");
    await waitFor(browser, "the spec profile", () => browser.$('[data-testid="profile"]').getValue(), (value) => value === "spec");
    assert.ok(await browser.$('[data-testid="skill-item"][data-skill-name="block"]').isExisting());
    await openSkill(browser, "plain");
    // Line 3 is the description: replace it with a folded one, typed.
    const line = "description: Plain skill. Use when nothing special is needed.";
    await browser.$('[data-testid="editor"] .cm-content').click();
    await browser.keys(["Control", "Home"]);
    await press(browser, "ArrowDown", "ArrowDown", "End", ...Array(line.length).fill("Backspace"));
    await press(browser, "description: >-");
    await press(browser, "Enter");
    await press(browser, "  Folded plain skill.");
    await browser.keys(["Control", "s"]);
    const file = path.join(root, "plain", "SKILL.md");
    await waitForDisk(browser, "the folded description on disk", file, (text) => text?.includes("description: >-"));
    // The watcher reads the folder again; the skill being edited stays, marked as nagents refuses it.
    const marked = await waitFor(
      browser,
      "plain marked with nagents' finding after the save",
      () =>
        browser.execute(() => {
          const item = document.querySelector('[data-testid="skill-item"][data-skill-name="plain"]');
          return item ? Array.from(item.querySelectorAll('[data-testid="skill-client-notice"]'), (n) => n.title) : null;
        }),
      (titles) => Array.isArray(titles) && titles.length > 0,
    );
    assert.match(marked[0], /single-line description/);
    assert.equal(await treeCount(browser), skillFilesOnDisk(root));
    await screenshot(browser, "tree-folded-description-saved");
  });

  it("puts notices in the problems list, grouped and collapsible, each path said once, none in the sidebar", async () => {
    const sidebarCards = await browser.execute(
      () =>
        document.querySelectorAll(
          '.catalog [data-testid="catalog-notice"], .catalog [data-testid="workspace-notice"], .catalog .notices',
        ).length,
    );
    assert.equal(sidebarCards, 0, "no notice cards above the tree");
    const groups = await waitFor(
      browser,
      "grouped notices in the problems list",
      () =>
        browser.execute(() =>
          Array.from(document.querySelectorAll('[data-testid="problems"] [data-testid="notice-group"]'), (group) => ({
            title: group.querySelector('[data-testid="notice-group-title"]').textContent,
            count: Number(group.querySelector('[data-testid="notice-group-count"]').textContent),
            tag: group.tagName.toLowerCase(),
            items: Array.from(group.querySelectorAll('[data-testid="workspace-notice"]'), (item) => ({
              path: item.querySelector('[data-testid="notice-path"]')?.textContent ?? "",
              text: item.textContent,
            })),
          })),
        ),
      (list) => list.length > 0,
    );
    const unreadable = groups.find((group) => /cannot read/.test(group.title));
    assert.ok(unreadable, JSON.stringify(groups.map((group) => group.title)));
    // block, 24 broken ones and plain (saved folded): one group, one row each.
    assert.equal(unreadable.count, 26);
    assert.equal(unreadable.items.length, 26);
    assert.ok(groups.every((group) => group.tag === "details"), "each group folds");
    for (const group of groups) {
      for (const item of group.items) {
        if (!item.path) continue;
        const times = item.text.split(item.path).length - 1;
        assert.equal(times, 1, `the path once in: ${item.text}`);
        assert.ok(!/SKILL\.md: .*SKILL\.md/.test(item.text), `no repeated path in: ${item.text}`);
      }
    }
    await browser.execute(() => document.querySelector('[data-testid="notice-group"]')?.setAttribute("open", ""));
    await browser.execute(() => document.querySelector('[data-testid="notice-groups"]')?.scrollIntoView());
    await screenshot(browser, "tree-notices-grouped");
  });

  it("clamps a long description in its card", async () => {
    const card = await browser.execute(() => {
      const item = document.querySelector('[data-testid="skill-item"][data-skill-name="long"]');
      const description = item?.querySelector('[data-testid="skill-description"]');
      const lineHeight = description ? parseFloat(getComputedStyle(description).lineHeight) || 16 : 0;
      return item ? { height: item.getBoundingClientRect().height, lineHeight, title: item.title } : null;
    });
    assert.ok(card, "the long skill is in the tree");
    // Name, three lines of description and the location: far below the ~300 px of the whole text.
    assert.ok(card.height <= card.lineHeight * 7 + 24, `card height ${card.height}px`);
    assert.match(card.title, /Part 9 says/, "the whole description on hover");
    await browser.execute(() =>
      document.querySelector('[data-testid="skill-item"][data-skill-name="long"]')?.scrollIntoView({ block: "center" }),
    );
    await screenshot(browser, "tree-long-description-clamped");
  });

  it("says why 10xGraph's catalog misses the skills two levels down, and which folder to open", async () => {
    await openPreviews(browser, "catalog");
    await browser.$('[data-testid="catalog-dialect"]').selectByAttribute("value", "10xgraph");
    const reach = browser.$('[data-testid="catalog-reach"]');
    await waitFor(browser, "10xGraph's reach explained", () => reach.isExisting(), Boolean);
    const text = await reach.getText();
    assert.match(text, /does not see 3 of the 30 skills/);
    const folders = await browser.execute(() =>
      Array.from(document.querySelectorAll('[data-testid="catalog-reach-folder"]'), (folder) => folder.textContent),
    );
    assert.deepEqual(folders, [path.join(root, "plugins", "kit")]);
    await screenshot(browser, "tree-10xgraph-reach");
  });
});

describe("a repository larger than nagents' discovery limit", { timeout: 600_000 }, () => {
  let browser;
  let base;
  let root;

  before(async () => {
    base = await mkdtemp(path.join(tmpdir(), "skillforge-e2e-big-"));
    root = path.join(base, "registry");
    // About ten files and folders per skill: 2,400 skills are over twice nagents' 10,000 entries.
    execFileSync("python3", [path.join(repo, "bench/generate_registry.py"), root, "2400"]);
    browser = await launch(root);
  });

  after(async () => {
    await quit(browser);
    if (base) await rm(base, { recursive: true, force: true });
  });

  it("shows every SKILL.md on disk in the tree, and nagents' limit as a finding about nagents", async () => {
    const onDisk = skillFilesOnDisk(root);
    assert.equal(onDisk, 2400);
    const count = await waitFor(browser, "the whole registry in the tree", () => treeCount(browser), (n) => n !== null, {
      timeout: 120_000,
    });
    assert.equal(count, onDisk);
    assert.equal(await browser.$('[data-testid="status-skills"]').getText(), `${onDisk} skills`);
    const limits = await waitFor(
      browser,
      "nagents' limit in the problems list",
      () =>
        browser.execute(() => {
          const group = Array.from(document.querySelectorAll('[data-testid="notice-group"]')).find((each) =>
            /discovery limits/.test(each.querySelector('[data-testid="notice-group-title"]').textContent),
          );
          return group
            ? {
                count: Number(group.querySelector('[data-testid="notice-group-count"]').textContent),
                first: group.querySelector('[data-testid="notice-message"]')?.textContent ?? "",
              }
            : null;
        }),
      Boolean,
    );
    assert.ok(limits.count > 0 && limits.count < onDisk, JSON.stringify(limits));
    assert.match(limits.first, /10,000 entries/);
    // And one line that says how many nagents lists of what the tree shows.
    const summary = await browser.execute(() =>
      Array.from(document.querySelectorAll('[data-testid="notice-message"]'), (message) => message.textContent).find((text) =>
        text.startsWith("nagents lists "),
      ),
    );
    assert.equal(summary?.match(/^nagents lists (\d+) of the (\d+) SKILL\.md files/)?.slice(1).map(Number).join(" "), `${onDisk - limits.count} ${onDisk}`);
    await screenshot(browser, "tree-big-registry");
  });
});

describe("trigger-test expectations", { timeout: 300_000 }, () => {
  let browser;
  let workspace;

  before(async () => {
    workspace = await copyFixture("previews-workspace");
  });

  after(async () => {
    await quit(browser);
    await removeCopy(workspace);
  });

  it("keep a query's expected skill through evals.json when it is another skill", async () => {
    browser = await launch(workspace);
    await openSkill(browser, "skill-a");
    await openPreviews(browser, "triggers");
    await waitFor(browser, "the trigger table", () => browser.$('[data-testid="triggers-path"]').isExisting(), Boolean);
    const rows = [
      ["clean the csv export", "skill-a"],
      ["write release notes from the merged pull requests", "skill-b"],
      ["what is the weather tomorrow", ""],
    ];
    for (let index = 0; index < rows.length; index++) {
      if (index > 0) await browser.$('[data-testid="trigger-add"]').click();
      await (await browser.$$('[data-testid="trigger-query"]'))[index].setValue(rows[index][0]);
      if (rows[index][1]) await (await browser.$$('[data-testid="trigger-expected"]'))[index].setValue(rows[index][1]);
    }
    await screenshot(browser, "tree-triggers-other-skill");
    await browser.$('[data-testid="triggers-save"]').click();
    const file = path.join(workspace, "skill-a", "evals", "evals.json");
    const saved = await waitForDisk(browser, "evals.json beside skill-a", file, (text) => text !== null);
    const entries = JSON.parse(saved);
    assert.deepEqual(entries[1], { query: rows[1][0], should_trigger: false, expected_skill: "skill-b" });
    assert.deepEqual(entries[2], { query: rows[2][0], should_trigger: false });

    // Reopen: a new window on the same folder reads the file back.
    await quit(browser);
    browser = await launch(workspace);
    await openSkill(browser, "skill-a");
    await openPreviews(browser, "triggers");
    const expected = await waitFor(
      browser,
      "the saved rows read back",
      () => browser.execute(() => Array.from(document.querySelectorAll('[data-testid="trigger-expected"]'), (input) => input.value)),
      (values) => values.length === rows.length,
    );
    assert.deepEqual(expected, rows.map((row) => row[1]));
    assert.deepEqual(JSON.parse(await readFile(file, "utf8")), entries, "the file on disk is unchanged by reading it");
    // The table says where the other skill's name is kept, since evals.json itself cannot name it.
    assert.match(await browser.$('[data-testid="triggers-other-skills"]').getText(), /expected_skill/);
    await screenshot(browser, "tree-triggers-reopened");
  });
});
