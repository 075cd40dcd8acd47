// Export from the real window: check the workspace's skills, export them as .skill archives and into a client
// folder, and read what was written back from disk: every archive member and every installed file must hold the
// bytes of its source file. The destination is typed, because WebDriver cannot drive the native folder dialog.
import assert from "node:assert/strict";
import { createHash } from "node:crypto";
import { appendFile, chmod, mkdir, mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { after, before, describe, it } from "node:test";
import { copyFixture, filesUnder, launch, quit, removeCopy, screenshot, waitFor, zipMembers } from "./support.mjs";

const SKILLS = ["csv-cleanup", "release-notes", "sql-review", "test-names"];
// A client-folder install leaves this stamp at the top of each installed folder, to recognise its own install later
// (STAMP_FILE in crates/skillforge-core/src/bundle/mod.rs); it is the one file there that is not the skill's.
const INSTALL_STAMP = ".skillforge-install.json";

/**
 * Gives csv-cleanup (a lone SKILL.md in the fixture) what real skills carry: a reference, an executable script,
 * a binary asset that is not UTF-8, and a top-level evals/ folder, which a .skill archive leaves out (test data, not
 * what an agent reads: docs of Exclusions::top_level_evals, checked against the peers in tests/fidelity/test_export.py).
 */
async function addResources(skill) {
  await mkdir(path.join(skill, "references"));
  await writeFile(path.join(skill, "references", "dialects.md"), "# Dialects\n\nSemicolons in European exports.\n");
  await mkdir(path.join(skill, "scripts"));
  await writeFile(path.join(skill, "scripts", "trim.sh"), '#!/bin/sh\nexec sed -e "s/ *, */,/g" "$@"\n');
  await chmod(path.join(skill, "scripts", "trim.sh"), 0o755);
  await mkdir(path.join(skill, "assets"));
  await writeFile(path.join(skill, "assets", "sample.bin"), Buffer.from(Array.from({ length: 256 }, (_, byte) => 255 - byte)));
  await mkdir(path.join(skill, "evals"));
  await writeFile(path.join(skill, "evals", "evals.json"), '[{"query": "fix this csv", "should_trigger": true}]\n');
}

const sha256 = (bytes) => createHash("sha256").update(bytes).digest("hex");

/** Asserts that `installed` holds exactly the source skill folder's files, byte for byte and execute bit for bit. */
async function assertSameFiles(installed, source, what) {
  const copied = await filesUnder(installed);
  assert.ok(copied.delete(INSTALL_STAMP), `${what}: the install stamp ${INSTALL_STAMP} is there`);
  const original = await filesUnder(source);
  assert.deepEqual([...copied.keys()], [...original.keys()], `${what}: the same file names`);
  for (const [name, file] of original) {
    assert.ok(copied.get(name).bytes.equals(file.bytes), `${what}: ${name} holds the source bytes`);
    assert.equal(copied.get(name).executable, file.executable, `${what}: ${name} keeps its execute bit`);
  }
}

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
  // A test that failed midway may have left the dialog open: close it, so each test starts from the window.
  const close = browser.$('[data-testid="export-close"]');
  if (await close.isExisting()) {
    await close.click();
    await waitFor(browser, "the dialog closed", () => browser.$('[data-testid="export-dialog"]').isExisting(), (shown) => !shown);
  }
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
    await addResources(path.join(workspace, "csv-cleanup"));
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
    assert.deepEqual([...(await filesUnder(destination)).keys()], ["bundle.json", ...SKILLS.map((name) => `${name}.skill`)]);

    // Each archive, as Python's zipfile reads it: the skill's folder at the top, holding every source file but
    // the top-level evals/ folder, with the source's bytes and (as 0755 or 0644) its execute bit.
    const bundle = JSON.parse(await readFile(path.join(destination, "bundle.json"), "utf8"));
    for (const name of SKILLS) {
      const archive = path.join(destination, `${name}.skill`);
      const members = zipMembers(archive);
      const sources = [...(await filesUnder(path.join(workspace, name)))].filter(([file]) => !file.startsWith("evals/"));
      assert.deepEqual(
        members.map((member) => member.name),
        sources.map(([file]) => `${name}/${file}`),
        `${name}.skill: its members`,
      );
      for (const [index, [file, source]] of sources.entries()) {
        const member = members[index];
        assert.ok(member.bytes.equals(source.bytes), `${member.name} holds the bytes of ${name}/${file}`);
        assert.equal(member.mode, source.executable ? 0o100755 : 0o100644, `${member.name}: its mode`);
      }
      // bundle.json describes what is on disk: each archive's size and digest, and each member's.
      const listed = bundle.files.find((entry) => entry.path === `${name}.skill`);
      const bytes = await readFile(archive);
      assert.deepEqual(listed, { path: `${name}.skill`, size: bytes.length, sha256: sha256(bytes) });
      assert.deepEqual(
        bundle.archives[`${name}.skill`],
        members.map((member) => ({ path: member.name, size: member.bytes.length, sha256: sha256(member.bytes) })),
      );
    }
    assert.ok(
      zipMembers(path.join(destination, "csv-cleanup.skill")).some((member) => member.name === "csv-cleanup/scripts/trim.sh"),
      "the added resources are in the archive",
    );
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
    assert.deepEqual([...new Set([...(await filesUnder(installed)).keys()].map((file) => file.split("/")[0]))], SKILLS);
    // A client folder is what the client reads: the whole skill folder, evals/ included.
    for (const name of SKILLS) await assertSameFiles(path.join(installed, name), path.join(workspace, name), `first install of ${name}`);

    // The same export again meets its own earlier install: refused, then replaced after the author asks.
    await browser.$('[data-testid="export-run"]').click();
    const refused = await waitFor(browser, "the earlier-install refusal", () => dialogState(browser), (shown) => shown.refusal !== null);
    assert.ok(refused.force, `force is offered for: ${refused.refusal}`);
    await screenshot(browser, "export-earlier-install");
    // The source changes before the replacement: the install must then hold the new bytes, not the first copy's.
    await appendFile(path.join(workspace, "csv-cleanup", "references", "dialects.md"), "Tabs in database dumps.\n");
    await browser.$('[data-testid="export-force"]').click();
    const replaced = await waitFor(browser, "the replaced install", () => dialogState(browser), (shown) => shown.written.length > 0);
    assert.equal(replaced.refusal, null);
    assert.deepEqual(replaced.written.map((written) => written.path).sort(), SKILLS.map((name) => path.join(installed, name)));
    assert.ok(replaced.written.every((written) => written.text.includes("replaced")), JSON.stringify(replaced.written));
    for (const name of SKILLS) await assertSameFiles(path.join(installed, name), path.join(workspace, name), `replaced install of ${name}`);
    assert.ok(
      (await readFile(path.join(installed, "csv-cleanup", "references", "dialects.md"), "utf8")).endsWith("Tabs in database dumps.\n"),
      "the replacement copied the changed file",
    );
    await screenshot(browser, "export-client-folder");
  });
});
