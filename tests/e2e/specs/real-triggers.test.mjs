// The Trigger tests panel's runs on the real Claude Code (the pinned binary of the fidelity suite) against a scripted
// Messages endpoint on 127.0.0.1: the estimate, the runs, the Real client column showing exactly what the endpoint
// was scripted to answer, the rows where the mock router disagrees, and a cancel that leaves no client process behind.
// Then the same on the real Codex, through a model provider of its own named in the panel's Codex settings, against a
// scripted Responses endpoint.
import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import { mkdir, mkdtemp, readFile, readdir, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { after, before, describe, it } from "node:test";
import { copyFixture, launch, openSkill, quit, removeCopy, repo, runProgram, screenshot, waitFor } from "./support.mjs";

const SKILL = "pdf-forms";
// Each row: the query, the skill it should trigger ("" for none), and what the endpoint answers for it.
const ROWS = [
  { query: "fill in the fields of a pdf form", expected: SKILL, action: ["skill", SKILL] },
  { query: "write release notes from the merged pull requests", expected: "skill-b", action: ["skill", "skill-b"] },
  { query: "what is the weather tomorrow", expected: "", action: ["text"] },
  { query: "merge two spreadsheets that share a key column", expected: "skill-a", action: ["read", SKILL] },
  { query: "review this sql query for injection risks", expected: "sql-review", action: ["error", 400] },
];
const HANGING = "fill the pdf form and wait for the service forever";

/** A pinned client (`CLAUDE_BIN`, `CODEX_BIN`), installed when missing, as `eval "$(scripts/ensure-clients.sh)"` gives it. */
function clientBinary(variable) {
  const script = `eval "$("${path.join(repo, "scripts/ensure-clients.sh")}")" && printf %s "$${variable}"`;
  return runProgram("bash", ["-c", script]);
}

/**
 * Starts a scripted endpoint's command line (tests/fidelity/scripted_anthropic.py, or fake_responses.py) with
 * `script`; resolves to its url, its log and a stop function.
 */
async function scriptedEndpoint(scratch, script, program = "tests/fidelity/scripted_anthropic.py") {
  const scriptFile = path.join(scratch, "script.json");
  const ready = path.join(scratch, "ready.json");
  const log = path.join(scratch, "endpoint.log");
  await writeFile(scriptFile, JSON.stringify(script));
  const server = spawn("python3", [path.join(repo, program), "--script", scriptFile, "--ready", ready, "--log", log], {
    stdio: ["pipe", "ignore", "inherit"],
  });
  const exited = new Promise((resolve) => server.once("exit", resolve));
  const deadline = Date.now() + 30_000;
  for (;;) {
    const text = await readFile(ready, "utf8").catch(() => "");
    if (text) {
      const { url } = JSON.parse(text);
      return {
        url,
        /** The requests the endpoint answered, one object each ({query, action}; fake_responses.py: {query, run, step, reply}). */
        turns: async () =>
          (await readFile(log, "utf8").catch(() => ""))
            .split("\n")
            .filter(Boolean)
            .map((line) => JSON.parse(line)),
        stop: async () => {
          server.stdin.end();
          server.kill("SIGTERM");
          await exited;
        },
      };
    }
    if (server.exitCode !== null || Date.now() > deadline) throw new Error("the scripted endpoint did not start");
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/** Processes still alive in the process group of any client the app started (each recorded by its wrapper). */
async function clientsLeft(pidsFile) {
  const groups = new Set(
    (await readFile(pidsFile, "utf8").catch(() => ""))
      .split(/\s+/)
      .filter(Boolean)
      .map(Number),
  );
  const alive = [];
  for (const entry of await readdir("/proc")) {
    if (!/^\d+$/.test(entry)) continue;
    const stat = await readFile(`/proc/${entry}/stat`, "utf8").catch(() => null);
    if (!stat) continue;
    const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    if (groups.has(Number(fields[2])) && fields[0] !== "Z") alive.push(`process ${entry} of group ${fields[2]}`);
  }
  return { groups: groups.size, alive };
}

/** The run folders the engine made under the app's TMPDIR and did not remove. */
async function runFoldersLeft(tmp) {
  return (await readdir(tmp)).filter((name) => name.startsWith("skillforge-eval-"));
}

async function openTriggerTests(browser) {
  if (!(await browser.$('[data-testid="previews-panel"]').isExisting())) {
    await browser.$('[data-testid="previews-toggle"]').click();
  }
  await browser.$('[data-testid="previews-tab-triggers"]').click();
  await waitFor(browser, "the trigger table", () => browser.$('[data-testid="triggers-path"]').isExisting(), Boolean);
}

/** Replaces the table's rows with `rows` ({query, expected}). */
async function enterRows(browser, rows) {
  while ((await browser.$$('[data-testid="trigger-row"]')).length > 1) {
    const remove = browser.$('[data-testid="trigger-row"] button[aria-label^="Remove query"]');
    await remove.scrollIntoView({ block: "center" });
    await remove.click();
  }
  for (let index = 0; index < rows.length; index++) {
    if (index > 0) await browser.$('[data-testid="trigger-add"]').click();
    await (await browser.$$('[data-testid="trigger-query"]'))[index].setValue(rows[index].query);
    const expected = (await browser.$$('[data-testid="trigger-expected"]'))[index];
    await expected.clearValue();
    if (rows[index].expected) await expected.setValue(rows[index].expected);
  }
}

/** Scrolls the panel so the element with this test id is in view (for a screenshot that shows it). */
function reveal(browser, testid, block = "center") {
  return browser.execute(
    (id, where) => document.querySelector(`[data-testid="${id}"]`)?.scrollIntoView({ block: where }),
    testid,
    block,
  );
}

function textOf(browser, testid) {
  return browser.execute((id) => document.querySelector(`[data-testid="${id}"]`)?.textContent ?? null, testid);
}

/** The Real client column, row by row, as the window shows it. */
function realColumn(browser) {
  return browser.execute(() =>
    Array.from(document.querySelectorAll('[data-testid="trigger-row"]'), (row) => {
      const cell = row.querySelector('[data-testid="trigger-real"]');
      return {
        query: row.querySelector('[data-testid="trigger-query"]').value,
        predicted: row.querySelector('[data-testid="trigger-predicted"]').textContent.trim(),
        disagree: row.getAttribute("data-disagree"),
        triggered: cell?.getAttribute("data-triggered") ?? null,
        completed: cell?.getAttribute("data-completed") ?? null,
        others: cell?.getAttribute("data-others") ?? null,
        errors: cell?.getAttribute("data-errors") ?? null,
        text: cell?.textContent.replace(/\s+/g, " ").trim() ?? null,
      };
    }),
  );
}

describe("trigger tests on the real Claude Code", { timeout: 600_000 }, () => {
  let browser;
  let workspace;
  let scratch;
  let endpoint;
  let pids;
  let tmp;
  let wrapper;

  before(async () => {
    const claude = clientBinary("CLAUDE_BIN");
    scratch = await mkdtemp(path.join(tmpdir(), "skillforge-e2e-real-"));
    pids = path.join(scratch, "pids");
    tmp = path.join(scratch, "tmp");
    await mkdir(tmp);
    // Every client process the app starts records its PID (= its process group: the engine starts each run in a
    // group of its own) before becoming the real Claude Code.
    wrapper = path.join(scratch, "claude-recording");
    await writeFile(wrapper, `#!/bin/sh\necho $$ >> "${pids}"\nexec "${claude}" "$@"\n`, { mode: 0o755 });
    const script = Object.fromEntries(ROWS.map((row) => [row.query, [row.action]]));
    script[HANGING] = [["hang"]];
    endpoint = await scriptedEndpoint(scratch, script);
    // The client program comes from the app's settings, as the panel's "Client programs" field saves it.
    const configDir = path.join(scratch, "config");
    await mkdir(configDir);
    await writeFile(path.join(configDir, "ui-preferences.json"), JSON.stringify({ claude_bin: wrapper }));
    workspace = await copyFixture("previews-workspace");
    browser = await launch(workspace, {
      configDir,
      env: { ANTHROPIC_API_KEY: "dummy", ANTHROPIC_BASE_URL: endpoint.url, TMPDIR: tmp },
    });
    await openSkill(browser, SKILL);
    await openTriggerTests(browser);
  });

  after(async () => {
    await quit(browser);
    await endpoint?.stop();
    await removeCopy(workspace);
    if (scratch) await rm(scratch, { recursive: true, force: true });
  });

  it("shows the estimate, then exactly the scripted outcomes beside the mock's, and marks where they disagree", async () => {
    await enterRows(browser, ROWS);
    assert.match(await textOf(browser, "real-notice"), /your own key from this app's environment/);
    // The mock's predictions first, for the comparison.
    await browser.$('[data-testid="triggers-run"]').click();
    const mock = await waitFor(
      browser,
      "the mock's prediction in every row",
      () => realColumn(browser),
      (rows) => rows.length === ROWS.length && rows.every((row) => row.predicted !== ""),
    );

    // The panel shows the program the settings name.
    await browser.$('[data-testid="real-programs-toggle"]').click();
    assert.equal(await browser.$('[data-testid="real-claude-bin"]').getValue(), wrapper);
    await browser.$('[data-testid="real-run-claude"]').click();
    await waitFor(browser, "the estimate", () => browser.$('[data-testid="real-plan"]').isExisting(), Boolean, { timeout: 90_000 });
    assert.equal(await textOf(browser, "real-plan-runs"), `${ROWS.length} queries × 1 = ${ROWS.length}`);
    assert.match(await textOf(browser, "real-plan-requests"), new RegExp(`^at most ${ROWS.length}, about \\d+ input tokens each$`));
    assert.match(await textOf(browser, "real-plan-cost"), /^about \$\d+\.\d+ at \$5\.00 per million input tokens$/);
    assert.match(await textOf(browser, "real-plan-client"), /claude-recording \(2\.1\.332/);
    const installed = (await textOf(browser, "real-plan-installed")).split(", ");
    assert.equal(installed[0], `${SKILL} (${SKILL})`, "the skill under test first");
    assert.deepEqual([...installed].sort(), ["csv-cleanup (csv-cleanup)", "pdf-forms (pdf-forms)", "skill-a (skill-a)", "skill-b (skill-b)", "sql-review (sql-review)"]);
    assert.deepEqual(await endpoint.turns(), [], "nothing is sent before the confirmation");
    await reveal(browser, "real-plan");
    await screenshot(browser, "real-triggers-estimate");

    await browser.$('[data-testid="real-confirm"]').click();
    await waitFor(browser, "the report's totals", () => browser.$('[data-testid="real-totals"]').isExisting(), Boolean, { timeout: 400_000 });
    const shown = await realColumn(browser);
    const scripted = ROWS.map(({ action }) => {
      if (action[0] === "skill" || action[0] === "read") {
        const underTest = action[1] === SKILL;
        return { triggered: underTest ? "1" : "0", completed: "1", others: underTest ? "" : `${action[1]}:1`, errors: "0", used: action[1] };
      }
      if (action[0] === "text") return { triggered: "0", completed: "1", others: "", errors: "0", used: null };
      return { triggered: "0", completed: "0", others: "", errors: "1", used: undefined };
    });
    assert.deepEqual(
      shown.map(({ triggered, completed, others, errors }) => ({ triggered, completed, others, errors })),
      scripted.map(({ triggered, completed, others, errors }) => ({ triggered, completed, others, errors })),
    );
    assert.match(shown[4].text, /scripted failure/, "the service's error is shown");
    assert.match(shown[1].text, /instead: skill-b 1\/1/);
    // Marked where the mock's pick is not the skill the endpoint made the model use (no mark without a completed run).
    const expectedMarks = scripted.map((outcome, index) => {
      if (outcome.used === undefined) return null;
      const picked = mock[index].predicted.replace(/ [✓✗]$/, "");
      return String(picked !== (outcome.used ?? "(none)"));
    });
    assert.deepEqual(shown.map((row) => row.disagree), expectedMarks);
    assert.ok(expectedMarks.includes("true") && expectedMarks.includes("false"), `both kinds of rows: ${JSON.stringify(expectedMarks)}`);
    assert.equal(await textOf(browser, "real-version"), "2.1.332");
    assert.equal(await textOf(browser, "real-stopped"), null);
    // Every query reached the endpoint, each answered once but the failing one (the client retries it).
    const turns = await endpoint.turns();
    assert.deepEqual([...new Set(turns.map((turn) => turn.query))].sort(), ROWS.map((row) => row.query).sort());
    for (const row of ROWS.filter((candidate) => candidate.action[0] !== "error")) {
      assert.equal(turns.filter((turn) => turn.query === row.query).length, 1, `${row.query}: one agent turn`);
    }
    // The client's own count of its requests: at least the answered turns (the failed run may count its attempt).
    const requests = Number((await textOf(browser, "real-requests")).replace(/ model requests$/, ""));
    assert.ok(requests >= ROWS.length - 1, `${requests} model requests`);
    assert.match(await textOf(browser, "real-totals"), new RegExp(`${ROWS.length} of ${ROWS.length} runs`));
    assert.deepEqual((await clientsLeft(pids)).alive, []);
    assert.equal((await clientsLeft(pids)).groups, ROWS.length + 2, "a version check for the estimate and for the start, and a client per run");
    assert.deepEqual(await runFoldersLeft(tmp), []);
    await reveal(browser, "triggers-table", "start");
    await screenshot(browser, "real-triggers-result");
  });

  it("cancels a run the service never answers, says so, and leaves no client process behind", async () => {
    await enterRows(browser, [{ query: HANGING, expected: SKILL }]);
    await browser.$('[data-testid="real-run-claude"]').scrollIntoView({ block: "center" });
    await browser.$('[data-testid="real-run-claude"]').click();
    await waitFor(browser, "the estimate", () => browser.$('[data-testid="real-confirm"]').isExisting(), Boolean, { timeout: 90_000 });
    await browser.$('[data-testid="real-confirm"]').click();
    await waitFor(
      browser,
      "the progress of the first run",
      () => textOf(browser, "real-progress-text"),
      (text) => text === "Claude Code: Query 1 of 1, run 1 of 1 (1 of 1 runs)",
    );
    // The client is waiting on the endpoint's answer.
    await waitFor(browser, "the hanging request at the endpoint", () => endpoint.turns(), (turns) => turns.some((turn) => turn.query === HANGING), {
      timeout: 120_000,
    });
    await reveal(browser, "real-progress");
    await screenshot(browser, "real-triggers-progress");
    await browser.$('[data-testid="real-cancel"]').click();
    await waitFor(browser, "the cancelled report", () => textOf(browser, "real-stopped"), (text) => text === "Cancelled:", { timeout: 60_000 });
    const [row] = await realColumn(browser);
    assert.deepEqual({ triggered: row.triggered, completed: row.completed, errors: row.errors }, { triggered: "0", completed: "0", errors: "0" });
    assert.match(await textOf(browser, "real-totals"), /0 of 1 runs/);
    assert.equal(await browser.$('[data-testid="real-progress"]').isExisting(), false);
    const left = await clientsLeft(pids);
    assert.equal(left.groups, ROWS.length + 5, "two more version checks and the hanging run's client");
    assert.deepEqual(left.alive, []);
    assert.deepEqual(await runFoldersLeft(tmp), []);
    await reveal(browser, "real-totals");
    await screenshot(browser, "real-triggers-cancelled");
  });

  it("says where to set the client program when the one set is not there, and keeps the setting", async () => {
    const missing = path.join(scratch, "no-such-claude");
    const field = browser.$('[data-testid="real-claude-bin"]');
    await field.scrollIntoView({ block: "center" });
    await field.setValue(missing);
    // Leaving the field saves it.
    await browser.keys("Tab");
    const settings = path.join(scratch, "config", "ui-preferences.json");
    await waitFor(browser, "the program in the settings file", () => readFile(settings, "utf8").then(JSON.parse), (saved) => saved.claude_bin === missing);
    const before = (await endpoint.turns()).length;
    await browser.$('[data-testid="real-run-claude"]').click();
    const error = browser.$('[data-testid="real-error"]');
    await waitFor(browser, "the refusal", () => error.isExisting(), Boolean);
    assert.equal(await error.getAttribute("data-code"), "client_missing");
    const message = await textOf(browser, "real-error");
    assert.ok(message.startsWith(`${missing}: `), message);
    assert.match(message, /under “Client programs” in the Trigger tests panel/);
    assert.equal(await browser.$('[data-testid="real-plan"]').isExisting(), false);
    assert.equal((await endpoint.turns()).length, before, "nothing was sent");
  });

  // Closing the last window through WebDriver ends the app without its exit event, as a crash or a kill would: the
  // client must not go on waiting for the model service by itself. (Its run folder stays in the temporary folder.)
  it("does not leave the client of a run in progress running when the app goes away", async () => {
    const field = browser.$('[data-testid="real-claude-bin"]');
    await field.setValue(wrapper);
    await browser.keys("Tab");
    const settings = path.join(scratch, "config", "ui-preferences.json");
    await waitFor(browser, "the program in the settings file", () => readFile(settings, "utf8").then(JSON.parse), (saved) => saved.claude_bin === wrapper);
    const hangingTurns = async () => (await endpoint.turns()).filter((turn) => turn.query === HANGING).length;
    const before = await hangingTurns();
    await browser.$('[data-testid="real-run-claude"]').click();
    await waitFor(browser, "the estimate", () => browser.$('[data-testid="real-confirm"]').isExisting(), Boolean, { timeout: 90_000 });
    await browser.$('[data-testid="real-confirm"]').click();
    await waitFor(browser, "the hanging request at the endpoint", hangingTurns, (count) => count > before, { timeout: 120_000 });
    const started = await clientsLeft(pids);
    assert.equal(started.alive.length > 0, true, "the client waits on the endpoint");
    await browser.closeWindow().catch(() => {});
    const deadline = Date.now() + 30_000;
    let left = started;
    while (left.alive.length > 0 && Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 100));
      left = await clientsLeft(pids);
    }
    assert.deepEqual(left.alive, []);
  });
});

// Codex reads a skill by printing its SKILL.md with a command; the endpoint is its model provider, named in the
// panel's Codex settings with the variable that holds the key (as tests/fidelity/test_eval.py configures it).
const CODEX_ROWS = [
  { query: "fill in the fields of a pdf form", expected: SKILL, run: ["read", `.agents/skills/${SKILL}/SKILL.md`] },
  { query: "what is the weather tomorrow", expected: "", run: ["text", "Sunny, I expect."] },
  { query: "write release notes from the merged pull requests", expected: "skill-b", run: ["read", ".agents/skills/skill-b/SKILL.md"] },
  { query: "review this sql query for injection risks", expected: "sql-review", run: ["error", 400] },
];
const FAKE_KEY = "fake-provider-key";

/** The Codex settings of a provider "fake" at `url` (the endpoint's origin). */
function codexSettings(url) {
  return [
    "skills.bundled.enabled=false",
    'model_provider="fake"',
    'model_providers.fake.name="fake"',
    `model_providers.fake.base_url="${url}/v1"`,
    'model_providers.fake.env_key="FAKE_API_KEY"',
    "model_providers.fake.request_max_retries=0",
    "model_providers.fake.stream_max_retries=0",
  ];
}

describe("trigger tests on the real Codex through a model provider of the Codex settings", { timeout: 600_000 }, () => {
  let browser;
  let workspace;
  let scratch;
  let endpoint;
  let pids;
  let tmp;
  let wrapper;
  let settings;

  before(async () => {
    const codex = clientBinary("CODEX_BIN");
    scratch = await mkdtemp(path.join(tmpdir(), "skillforge-e2e-real-codex-"));
    pids = path.join(scratch, "pids");
    tmp = path.join(scratch, "tmp");
    await mkdir(tmp);
    wrapper = path.join(scratch, "codex-recording");
    await writeFile(wrapper, `#!/bin/sh\necho $$ >> "${pids}"\nexec "${codex}" "$@"\n`, { mode: 0o755 });
    endpoint = await scriptedEndpoint(scratch, Object.fromEntries(CODEX_ROWS.map((row) => [row.query, [row.run]])), "tests/fidelity/fake_responses.py");
    settings = codexSettings(endpoint.url);
    const configDir = path.join(scratch, "config");
    await mkdir(configDir);
    await writeFile(path.join(configDir, "ui-preferences.json"), JSON.stringify({ codex_bin: wrapper, codex_config: settings }));
    workspace = await copyFixture("previews-workspace");
    browser = await launch(workspace, { configDir, env: { FAKE_API_KEY: FAKE_KEY, TMPDIR: tmp } });
    await openSkill(browser, SKILL);
    await openTriggerTests(browser);
  });

  after(async () => {
    await quit(browser);
    await endpoint?.stop();
    await removeCopy(workspace);
    if (scratch) await rm(scratch, { recursive: true, force: true });
  });

  it("runs every query on Codex at the provider the settings name and shows exactly the scripted outcomes", async () => {
    await enterRows(browser, CODEX_ROWS);
    await browser.$('[data-testid="real-programs-toggle"]').click();
    assert.equal(await browser.$('[data-testid="real-codex-bin"]').getValue(), wrapper);
    assert.equal(await browser.$('[data-testid="real-codex-config"]').getValue(), settings.join("\n"));
    await browser.$('[data-testid="real-run-codex"]').scrollIntoView({ block: "center" });
    await browser.$('[data-testid="real-run-codex"]').click();
    const estimated = await waitFor(
      browser,
      "the estimate or a refusal",
      async () => ((await browser.$('[data-testid="real-plan"]').isExisting()) ? "plan" : await textOf(browser, "real-error")),
      Boolean,
      { timeout: 90_000 },
    );
    assert.equal(estimated, "plan");
    assert.equal(await textOf(browser, "real-plan-runs"), `${CODEX_ROWS.length} queries × 1 = ${CODEX_ROWS.length}`);
    assert.match(await textOf(browser, "real-plan-client"), /codex-recording \(codex-cli 0\.171\.0\)/);
    assert.deepEqual(await endpoint.turns(), [], "nothing is sent before the confirmation");

    await browser.$('[data-testid="real-confirm"]').click();
    await waitFor(browser, "the report's totals", () => browser.$('[data-testid="real-totals"]').isExisting(), Boolean, { timeout: 400_000 });
    const shown = await realColumn(browser);
    assert.deepEqual(
      shown.map(({ query, triggered, completed, others, errors }) => ({ query, triggered, completed, others, errors })),
      [
        { query: CODEX_ROWS[0].query, triggered: "1", completed: "1", others: "", errors: "0" },
        { query: CODEX_ROWS[1].query, triggered: "0", completed: "1", others: "", errors: "0" },
        { query: CODEX_ROWS[2].query, triggered: "0", completed: "1", others: "skill-b:1", errors: "0" },
        { query: CODEX_ROWS[3].query, triggered: "0", completed: "0", others: "", errors: "1" },
      ],
    );
    assert.match(shown[0].text, /^triggered 1\/1 ✓/);
    assert.match(shown[1].text, /^triggered 0\/1 ✓/);
    assert.match(shown[2].text, /instead: skill-b 1\/1/);
    assert.match(shown[3].text, /scripted failure/, "the provider's error is shown");
    assert.equal(await textOf(browser, "real-version"), "codex-cli 0.171.0");
    assert.equal(await textOf(browser, "real-stopped"), null);
    assert.match(await textOf(browser, "real-totals"), new RegExp(`${CODEX_ROWS.length} of ${CODEX_ROWS.length} runs`));
    // Every run asked the provider of the settings, once.
    const turns = await endpoint.turns();
    for (const row of CODEX_ROWS) {
      const asked = turns.filter((turn) => turn.query === row.query);
      // The run ends at the skill's read: its output is not sent back.
      assert.deepEqual(
        asked.map((turn) => [turn.run, turn.step]),
        [[1, 0]],
        `${row.query}: ${JSON.stringify(asked)}`,
      );
    }
    assert.deepEqual((await clientsLeft(pids)).alive, []);
    assert.deepEqual(await runFoldersLeft(tmp), []);
    await reveal(browser, "triggers-table", "start");
    await screenshot(browser, "real-triggers-codex-result");
  });

  it("refuses a Codex setting that is not KEY=VALUE, naming its line, and keeps the saved settings and the field", async () => {
    const field = browser.$('[data-testid="real-codex-config"]');
    await field.scrollIntoView({ block: "center" });
    const written = `${settings.join("\n")}\nmodel_providers.fake.wire_api`;
    // Typed at the end of the field, after an Enter (clearing it first would save an empty list when left).
    await field.addValue("\uE007model_providers.fake.wire_api");
    assert.equal(await field.getValue(), written);
    // Leaving the field saves it.
    await browser.keys("Tab");
    const problem = await waitFor(browser, "the refusal", () => textOf(browser, "real-programs-problem"), Boolean);
    assert.equal(problem.startsWith(`Codex settings, line ${settings.length + 1} (\`model_providers.fake.wire_api\`): has no \`=\``), true, problem);
    assert.equal(await field.getValue(), written, "the field keeps what was written");
    const saved = JSON.parse(await readFile(path.join(scratch, "config", "ui-preferences.json"), "utf8"));
    assert.deepEqual(saved.codex_config, settings);
    const before = (await endpoint.turns()).length;
    await browser.$('[data-testid="real-run-codex"]').click();
    await waitFor(browser, "the refusal of the run", () => textOf(browser, "real-error"), (text) => text === problem);
    assert.equal(await browser.$('[data-testid="real-plan"]').isExisting(), false);
    assert.equal((await endpoint.turns()).length, before, "nothing was sent");
    await reveal(browser, "real-programs");
    await screenshot(browser, "real-triggers-codex-settings-refused");
  });
});
