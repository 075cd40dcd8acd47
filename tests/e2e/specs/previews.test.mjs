// What the model sees, in the real window: the nagents manifest at a lowered budget against the CLI byte for byte,
// the load cut marker, the playground's two explicit activations against `skillforge simulate`, a trigger run
// against `skillforge triggers`, and the builtin skills' manifest against nagents' own builtin source.
import assert from "node:assert/strict";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { after, before, describe, it } from "node:test";
import {
  copyFixture,
  launch,
  openSkill,
  peersPython,
  quit,
  removeCopy,
  repo,
  runCli,
  runProgram,
  screenshot,
  waitFor,
  waitForDisk,
} from "./support.mjs";

function run(...args) {
  return runCli(args);
}

/** `skillforge triggers --format json` for these [query, expected skill or ""] rows over `workspace`. */
async function triggersByCli(workspace, rows, threshold) {
  const scratch = await mkdtemp(path.join(tmpdir(), "skillforge-e2e-triggers-"));
  try {
    const queries = path.join(scratch, "queries.json");
    await writeFile(queries, JSON.stringify(rows.map(([query, skill]) => ({ query, should_trigger: skill || null }))));
    // Exit status 1: some query was not routed as expected (one is meant to miss here).
    const args = ["triggers", workspace, "--queries", queries, "--threshold", String(threshold), "--format", "json"];
    return JSON.parse(runCli(args, { statuses: [0, 1] }));
  } finally {
    await rm(scratch, { recursive: true, force: true });
  }
}

/** The text content of the first element with this test id (textContent: WebDriver's getText normalises spaces). */
function textOf(browser, testid) {
  return browser.execute((id) => document.querySelector(`[data-testid="${id}"]`)?.textContent ?? null, testid);
}

async function setNumber(browser, testid, value) {
  const field = browser.$(`[data-testid="${testid}"]`);
  await field.waitForExist({ timeout: 20_000 });
  await field.setValue(String(value));
  // Leaving the field commits the value even where typing alone stopped short of it.
  await browser.keys("Tab");
}

async function openPreviews(browser, tab) {
  if (!(await browser.$('[data-testid="previews-panel"]').isExisting())) {
    await browser.$('[data-testid="previews-toggle"]').click();
  }
  await browser.$(`[data-testid="previews-tab-${tab}"]`).click();
}

describe("what the model sees", { timeout: 300_000 }, () => {
  let browser;
  let workspace;

  before(async () => {
    workspace = await copyFixture("previews-workspace");
    browser = await launch(workspace);
    await openSkill(browser, "skill-a");
  });

  after(async () => {
    await quit(browser);
    await removeCopy(workspace);
  });

  it("omits a skill when the nagents manifest budget is lowered, exactly as the CLI prints it", async () => {
    // The largest budget at which the CLI leaves out exactly one skill.
    const full = JSON.parse(run("listing", workspace, "--dialect", "nagents", "--json"));
    let budget = full.estimated_tokens;
    let preview = full;
    while (budget > 1) {
      preview = JSON.parse(run("listing", workspace, "--dialect", "nagents", "--manifest-tokens", String(budget), "--json"));
      if (preview.omitted.length === 1) break;
      budget--;
    }
    assert.equal(preview.omitted.length, 1, "some budget omits exactly one skill");
    const expected = run("listing", workspace, "--dialect", "nagents", "--manifest-tokens", String(budget));
    assert.equal(expected, preview.text);

    await openPreviews(browser, "catalog");
    await waitFor(browser, "the full catalog", () => textOf(browser, "catalog-text"), (text) => text === full.text);
    await setNumber(browser, "catalog-manifest-tokens-number", budget);

    await waitFor(browser, "one skill omitted", () => textOf(browser, "catalog-omitted-count"), (text) => text === "1 omitted");
    const notice = await textOf(browser, "catalog-notice");
    assert.ok(notice.includes(preview.notice.trim()), `the notice is shown: ${notice}`);
    const shown = await waitFor(browser, "the manifest text at the lowered budget", () => textOf(browser, "catalog-text"), (text) => text === expected);
    assert.equal(shown, expected, "the preview text equals `skillforge listing --dialect nagents` byte for byte");
    const omittedRow = await browser.execute(
      () => document.querySelector('[data-testid="catalog-entry"][data-included="false"]')?.getAttribute("data-name") ?? null,
    );
    assert.equal(omittedRow, preview.omitted[0]);
    assert.equal(await textOf(browser, "catalog-bytes"), `${preview.bytes.toLocaleString("en-US")} bytes`);
    await screenshot(browser, "previews-catalog-omitted");

    // "Copy exactly": which clipboard path the webview allows (the Clipboard API, or the copy command).
    await browser.$('[data-testid="catalog-copy"]').click();
    const outcome = await waitFor(
      browser,
      "the copy outcome",
      () => browser.execute(() => document.querySelector('[data-testid="catalog-copy-status"]')?.getAttribute("data-outcome") ?? null),
      (value) => value !== null,
    );
    console.log(`copy exactly: ${outcome}`);
    assert.notEqual(outcome, "refused");
  });

  it("follows the unsaved buffer as the author types", async () => {
    await setNumber(browser, "catalog-manifest-tokens-number", 10000);
    await waitFor(browser, "no omission at 10,000 tokens", () => textOf(browser, "catalog-omitted-count"), (text) => text === null);
    const content = browser.$('[data-testid="editor"] .cm-content');
    await content.click();
    await browser.keys(["Control", "Home"]);
    // Line 3 is the description (wrapped lines make End land mid-line, so the words go after "description:").
    await browser.keys("ArrowDown");
    await browser.keys("ArrowDown");
    await browser.keys("Home");
    for (let index = 0; index < "description:".length; index++) await browser.keys("ArrowRight");
    for (const key of " Typed live.") await browser.keys(key);
    await waitFor(
      browser,
      "the typed words in the catalog text",
      () => textOf(browser, "catalog-text"),
      (text) => text?.includes('SKILL.md">Typed live. Use when merging'),
    );
    // The current skill's entry is the highlighted one.
    const highlighted = await textOf(browser, "catalog-current");
    assert.ok(highlighted.startsWith('<skill name="skill-a"'), highlighted);
    // Undo the edit so the other checks read the files as saved.
    for (let index = 0; index < " Typed live.".length; index++) await browser.keys("Backspace");
    await waitFor(
      browser,
      "the catalog back to the saved text",
      () => textOf(browser, "catalog-text"),
      (text) => text?.includes('SKILL.md">Use when merging'),
    );
  });

  it("shows the cut marker at a small load budget", async () => {
    await openPreviews(browser, "load");
    await setNumber(browser, "token-limit-number", 60);
    await waitFor(browser, "the cut marker", () => browser.$('[data-testid="load-cut-marker"]').isExisting(), Boolean);
    const truncated = await browser.$('[data-testid="load-truncated"]').getAttribute("data-truncated");
    assert.equal(truncated, "true");
    const expected = run("load", workspace, "--name", "skill-a", "--token-limit", "60", "--format", "json");
    const result = JSON.parse(expected);
    assert.equal(result.truncated, true);
    const tokens = await textOf(browser, "load-tokens");
    assert.ok(tokens.includes(`${result.estimated_tokens} of 60 tokens`), tokens);
    const line = await textOf(browser, "load-cut-line");
    assert.match(line, /^cut on line \d+/);
    const tenx = await textOf(browser, "tenx-files");
    assert.ok(tenx.includes("references/guide.md"), tenx);
    await browser.execute(() => document.querySelector('[data-testid="load-cut-marker"]')?.scrollIntoView({ block: "center" }));
    await screenshot(browser, "previews-load-cut");
  });

  it("activates $skill-a and $skill-b with the budget split as `skillforge simulate` reports", async () => {
    const message = "use $skill-a and $skill-b";
    const limit = 1500;
    const report = JSON.parse(run("simulate", workspace, "--message", message, "--format", "json", "--token-limit", String(limit)));
    const expected = report.transcript.rounds[0].messages
      .filter((entry) => entry.origin === "activation")
      .map((entry) => entry.estimated_tokens);
    assert.equal(expected.length, 2);

    await openPreviews(browser, "playground");
    await setNumber(browser, "token-limit-number", limit);
    const box = browser.$('[data-testid="playground-message"]');
    await box.setValue(message);
    await browser.$('[data-testid="playground-run"]').click();
    const shown = await waitFor(
      browser,
      "two activation messages",
      () =>
        browser.execute(() =>
          Array.from(document.querySelectorAll('[data-testid="transcript-message"][data-origin="activation"]'), (row) =>
            Number(row.getAttribute("data-tokens")),
          ),
        ),
      (tokens) => tokens.length === 2,
    );
    assert.deepEqual(shown, expected);
    const budget = await textOf(browser, "transcript-budget");
    assert.ok(
      budget.replace(/\s+/g, " ").includes(`${report.transcript.budget.used.toLocaleString("en-US")} of ${limit.toLocaleString("en-US")} tokens used`),
      budget,
    );
    const warnings = await browser.execute(() =>
      Array.from(document.querySelectorAll('[data-testid="transcript-warning"]'), (row) => row.getAttribute("data-kind")),
    );
    assert.deepEqual(warnings, report.transcript.warnings.map((warning) => warning.kind));
    await screenshot(browser, "previews-playground");
  });

  it("runs trigger tests with the ranking `skillforge triggers` gives, and saves them beside the skill", async () => {
    await openPreviews(browser, "triggers");
    await waitFor(browser, "the trigger table", () => browser.$('[data-testid="triggers-path"]').isExisting(), Boolean);
    const rows = [
      // Two skills score: skill-a (spreadsheets, key, column) above csv-cleanup (csv).
      ["clean the csv export and merge two spreadsheets on a shared key column", "skill-a"],
      ["write release notes from the merged pull requests", "skill-b"],
      // Routed to pdf-forms although skill-b is expected: a miss, so the counts are not all ones.
      ["fill in the fields of a pdf form", "skill-b"],
      ["what is the weather tomorrow", ""],
    ];
    for (let index = 0; index < rows.length; index++) {
      if (index > 0) await browser.$('[data-testid="trigger-add"]').click();
      const queries = await browser.$$('[data-testid="trigger-query"]');
      await queries[index].setValue(rows[index][0]);
      if (rows[index][1]) {
        const expected = await browser.$$('[data-testid="trigger-expected"]');
        await expected[index].setValue(rows[index][1]);
      }
    }
    const threshold = Number(await browser.$('[data-testid="triggers-threshold"]').getValue());
    const report = await triggersByCli(workspace, rows, threshold);
    assert.equal(report.queries.length, rows.length);
    assert.ok(
      report.queries[0].ranking[1].score > 0,
      `the first query ranks two skills above zero: ${JSON.stringify(report.queries[0].ranking)}`,
    );
    assert.ok(report.queries.some((query) => !query.correct), "one query is routed wrongly");

    await browser.$('[data-testid="triggers-run"]').click();
    const shown = await waitFor(
      browser,
      "a predicted skill and a ranking in every row",
      () =>
        browser.execute(() =>
          Array.from(document.querySelectorAll('[data-testid="trigger-row"]'), (row) => ({
            predicted: row.querySelector('[data-testid="trigger-predicted"]').textContent.trim(),
            correct: row.getAttribute("data-correct"),
            ranking: Array.from(row.querySelectorAll('[data-testid="trigger-ranking"] .rank'), (entry) => ({
              name: entry.firstChild.textContent.trim(),
              score: entry.querySelector(".muted").textContent,
            })),
          })),
        ),
      (list) => list.length === rows.length && list.every((row) => row.ranking.length > 0),
    );
    // Per query: the CLI's prediction and verdict, and its top three in the same order with the same scores (the
    // window shows two decimals; the CLI's JSON has four).
    for (const [index, expected] of report.queries.entries()) {
      const row = shown[index];
      assert.equal(row.predicted, `${expected.predicted ?? "(none)"} ${expected.correct ? "✓" : "✗"}`, `row ${index + 1}: predicted`);
      assert.equal(row.correct, String(expected.correct), `row ${index + 1}: verdict`);
      const top = expected.ranking.slice(0, 3);
      assert.deepEqual(row.ranking.map((entry) => entry.name), top.map((entry) => entry.name), `row ${index + 1}: ranking`);
      for (const [at, entry] of top.entries()) {
        const score = Number(row.ranking[at].score);
        assert.ok(Math.abs(score - entry.score) <= 0.0051, `row ${index + 1}, ${entry.name}: ${row.ranking[at].score} for ${entry.score}`);
      }
    }
    // Per skill: the counts of every skill the table is about, as the CLI counts them.
    const metrics = await browser.execute(() =>
      Array.from(document.querySelectorAll('[data-testid="trigger-metric"]'), (row) => ({
        name: row.getAttribute("data-name"),
        counts: Array.from(row.querySelectorAll("td.number"), (cell) => cell.textContent).slice(2).map(Number),
      })),
    );
    assert.deepEqual(
      metrics,
      report.skills
        .filter((skill) => skill.true_positives + skill.false_positives + skill.false_negatives > 0)
        .map((skill) => ({ name: skill.name, counts: [skill.true_positives, skill.false_positives, skill.false_negatives] })),
    );
    await screenshot(browser, "previews-triggers");

    await browser.$('[data-testid="triggers-save"]').click();
    const file = path.join(workspace, "skill-a", "evals", "evals.json");
    const saved = await waitForDisk(browser, "evals.json beside skill-a", file, (text) => text !== null);
    assert.deepEqual(JSON.parse(saved), [
      { query: rows[0][0], should_trigger: true },
      { query: rows[1][0], should_trigger: false, expected_skill: "skill-b" },
      { query: rows[2][0], should_trigger: false, expected_skill: "skill-b" },
      { query: rows[3][0], should_trigger: false },
    ]);
  });

  it("previews the builtin skills as nagents' builtin source lists them", async () => {
    // nagents' BuiltinSkillDiscoverer and render_skill_manifest over the skills the app embeds (skills/).
    const expected = runProgram(peersPython, [path.join(repo, "tests/e2e/nagents_builtin.py"), path.join(repo, "skills")]);
    await browser.$('[data-testid="open-builtin"]').click();
    // Typing and undoing earlier may count as an edit: drop it rather than save.
    const discard = browser.$('[data-testid="confirm-discard"]');
    if (await discard.isExisting()) await discard.click();
    await openPreviews(browser, "catalog");
    await setNumber(browser, "catalog-manifest-tokens-number", 10000);
    const shown = await waitFor(
      browser,
      "the builtin skills' manifest",
      () => textOf(browser, "catalog-text"),
      (text) => text === expected,
    );
    assert.equal(shown, expected, "the preview equals nagents' manifest of its builtin source byte for byte");
    await screenshot(browser, "previews-builtin");
  });
});
