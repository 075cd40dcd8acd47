import { describe, expect, it } from "vitest";
import type { EvalReport, Plan, QueryOutcome, RunOutcome } from "../backend";
import { fakeBackend, ok } from "../../test/fakeBackend";
import { disagrees, dollars, mostUsed, progressText, realCell, settingsLines, settingsText } from "./realRun";
import { RealRunState } from "./realRun.svelte";

// Hand-made outcomes: what the UI does with them is under test, not what a client answers.
const base = { requests: 1, usage: { input_tokens: 10, output_tokens: 2 }, cost_usd: 0.001, cost_from_client: true };
const skill = (name: string): RunOutcome => ({ ...base, outcome: "skill", name, how: "skill-tool" });
const none: RunOutcome = { ...base, outcome: "no-skill" };
const failed = (message: string): RunOutcome => ({ ...base, outcome: "error", message });
const timedOut: RunOutcome = { ...base, outcome: "timed-out" };

const plan: Plan = {
  client: "claude-code",
  client_path: "/bin/claude",
  client_version: "2.1.332 (Claude Code)",
  skill: "pdf",
  queries: 2,
  runs_per_query: 3,
  runs: 6,
  max_requests: 6,
  tokens_per_request: 9000,
  input_price: 5,
  estimated_cost_usd: 0.27,
  installed: ["pdf (pdf)", "sql (sql)"],
  left_out: [],
};

describe("a row's real-client cell", () => {
  it("counts the skill under test, the others, the runs without a skill and the failures", () => {
    const cell = realCell([skill("pdf"), skill("sql"), none, failed("overloaded"), timedOut, skill("pdf")], "pdf", 6);
    expect(cell).toMatchObject({ completed: 4, triggered: 2, none: 1, runs: 6, errors: ["overloaded", "timed out"], passed: null });
    expect(cell.others).toEqual([{ name: "sql", runs: 1 }]);
    expect(mostUsed(cell, "pdf")).toEqual(["pdf"]);
  });

  it("passes a query that did what it expects in at least half of its completed runs", () => {
    const outcome = { completed: 2, passed: 1 } as QueryOutcome;
    expect(realCell([skill("pdf"), none], "pdf", 2, outcome).passed).toBe(true);
    expect(realCell([none, none], "pdf", 2, { completed: 2, passed: 0 } as QueryOutcome).passed).toBe(false);
  });

  it("disagrees with the mock only when the mock's pick is not what the real client used most", () => {
    const cell = realCell([skill("sql"), skill("sql"), none], "pdf", 3);
    expect(disagrees("sql", cell, "pdf")).toBe(false);
    expect(disagrees("pdf", cell, "pdf")).toBe(true);
    expect(disagrees(null, realCell([none], "pdf", 1), "pdf")).toBe(false);
    // A tie: either pick agrees.
    const tie = realCell([skill("pdf"), none], "pdf", 2);
    expect([disagrees("pdf", tie, "pdf"), disagrees(null, tie, "pdf"), disagrees("sql", tie, "pdf")]).toEqual([false, false, true]);
    // Nothing to compare.
    expect(disagrees(undefined, cell, "pdf")).toBeUndefined();
    expect(disagrees("pdf", realCell([failed("x")], "pdf", 1), "pdf")).toBeUndefined();
  });

  it("says which query and which of its runs is going", () => {
    expect(progressText(plan, 1, 0)).toBe("Query 1 of 2, run 1 of 3 (1 of 6 runs)");
    expect(progressText(plan, 5, 1)).toBe("Query 2 of 2, run 2 of 3 (5 of 6 runs)");
    expect([dollars(0.27), dollars(0.0012), dollars(0), dollars(null)]).toEqual(["$0.27", "$0.0012", "$0.00", "—"]);
  });
});

describe("a run on a real client", () => {
  const rows = [
    { query: "fill the form", should_trigger: "pdf" },
    { query: "count rows", should_trigger: "sql" },
  ];

  it("asks for the estimate, starts only when confirmed, and fills the cells from the events", async () => {
    const backend = fakeBackend({ realPlan: ok(plan) });
    const real = new RealRunState(backend);
    real.runsPerQuery = 3;
    await real.estimate("claude-code", "/w/pdf/SKILL.md", rows);
    expect(real.phase).toBe("confirm");
    expect(backend.calls).toEqual(["planRealTriggers claude-code /w/pdf/SKILL.md 2 3 null"]);
    await real.confirm();
    expect(real.phase).toBe("running");
    expect(backend.calls.at(-1)).toBe("startRealTriggers claude-code /w/pdf/SKILL.md 2 3 null");
    backend.emitRealTrigger({ kind: "started", number: 2, total: 6, query_index: 0, query: "fill the form" });
    expect(real.progress).toBe("Query 1 of 2, run 2 of 3 (2 of 6 runs)");
    backend.emitRealTrigger({ kind: "finished", number: 2, total: 6, query_index: 0, outcome: skill("pdf") });
    expect(real.cellFor("fill the form")?.triggered).toBe(1);
    expect(real.cellFor("not sent")).toBeNull();
    await real.cancel();
    expect(backend.calls.at(-1)).toBe("cancelRealTriggers");
    const report: EvalReport = {
      plan,
      client_version: "2.1.332",
      queries: [
        { query: "fill the form", expect: { kind: "this" }, half: null, runs: [skill("pdf")], completed: 1, triggered: 1, passed: 1, pass_at_k: true, pass_all_k: false, other_skills: [] },
        { query: "count rows", expect: { kind: "other", skill: "sql" }, half: null, runs: [], completed: 0, triggered: 0, passed: 0, pass_at_k: false, pass_all_k: false, other_skills: [] },
      ],
      summaries: [],
      skills: [],
      runs_made: 1,
      requests: 1,
      cost_usd: 0.001,
      stopped: "cancelled",
    };
    backend.emitRealTrigger({ kind: "done", report });
    expect(real.phase).toBe("done");
    expect(real.report?.stopped).toBe("cancelled");
    expect(real.cellFor("fill the form")?.passed).toBe(true);
    expect(real.cellFor("count rows")?.completed).toBe(0);
    // No longer listening: a late event changes nothing.
    backend.emitRealTrigger({ kind: "failed", error: { code: "internal", message: "late" } });
    expect(real.error).toBeNull();
  });

  it("runs nothing when the estimate is dropped, and says what is missing before asking", async () => {
    const backend = fakeBackend({ realPlan: ok(plan) });
    const real = new RealRunState(backend);
    await real.estimate("codex", null, rows);
    expect(real.error?.message).toMatch(/Open the skill/);
    await real.estimate("codex", "/w/pdf/SKILL.md", []);
    expect(real.error?.message).toMatch(/at least one query/);
    real.runsPerQuery = 0;
    await real.estimate("codex", "/w/pdf/SKILL.md", rows);
    expect(real.error?.message).toMatch(/at least 1/);
    expect(backend.calls).toEqual([]);
    real.runsPerQuery = 1;
    real.programs.codex_bin = " /opt/codex ";
    await real.estimate("codex", "/w/pdf/SKILL.md", rows);
    expect(backend.calls).toEqual(["planRealTriggers codex /w/pdf/SKILL.md 2 1 /opt/codex"]);
    real.back();
    expect(real.phase).toBe("idle");
    await real.confirm();
    expect(backend.calls.filter((call) => call.startsWith("startRealTriggers"))).toEqual([]);
  });

  it("shows the backend's refusal and stays idle", async () => {
    const backend = fakeBackend({ realPlan: { status: "error", error: { code: "client_missing", message: "Claude Code (`claude`) is not on PATH" } } });
    const real = new RealRunState(backend);
    await real.estimate("claude-code", "/w/pdf/SKILL.md", rows);
    expect(real.phase).toBe("idle");
    expect(real.error?.code).toBe("client_missing");
  });

  it("loads the saved Codex settings into their field one per line, and saves the field's lines as written", async () => {
    const backend = fakeBackend();
    await backend.saveClientPrograms({ claude_bin: null, codex_bin: "/opt/codex", codex_config: ['model_provider="fake"', "skills.bundled.enabled=false"] });
    const real = new RealRunState(backend);
    await real.loadPrograms();
    expect(real.codexSettings).toBe('model_provider="fake"\nskills.bundled.enabled=false');
    expect(real.programs.codex_bin).toBe("/opt/codex");
    real.codexSettings = ' model_provider="azure" \n\nmodel_providers.azure.env_key="AZURE_KEY"\n';
    await real.savePrograms();
    expect(backend.calls.at(-1)).toBe(
      'saveClientPrograms  /opt/codex [" model_provider=\\"azure\\" ","","model_providers.azure.env_key=\\"AZURE_KEY\\"",""]',
    );
    // The field then shows what was kept.
    expect(real.codexSettings).toBe('model_provider="azure"\nmodel_providers.azure.env_key="AZURE_KEY"');
    expect(real.programsProblem).toBeNull();
  });

  it("keeps the field as written when a setting is refused, and does not estimate a Codex run with other settings", async () => {
    const refusal = { code: "invalid_input" as const, message: "Codex settings, line 2 (`just words`): has no `=`" };
    const backend = fakeBackend({ realPlan: ok(plan), saveProgramsRefusal: refusal });
    const real = new RealRunState(backend);
    real.codexSettings = 'model_provider="fake"\njust words';
    // The estimate comes while the save of the field just left is under way.
    const saving = real.savePrograms();
    await real.estimate("codex", "/w/pdf/SKILL.md", rows);
    await saving;
    expect(real.codexSettings).toBe('model_provider="fake"\njust words');
    expect(real.programsProblem).toBe(refusal.message);
    expect(real.error).toEqual(refusal);
    expect(real.phase).toBe("idle");
    expect(backend.calls.filter((call) => call.startsWith("planRealTriggers"))).toEqual([]);
    // Claude Code runs do not use them.
    await real.estimate("claude-code", "/w/pdf/SKILL.md", rows);
    expect(backend.calls.at(-1)).toBe("planRealTriggers claude-code /w/pdf/SKILL.md 2 1 null");
  });
});

describe("the Codex settings field", () => {
  it("gives every line, blank ones included, so a refusal's line number is the field's", () => {
    expect(settingsLines("")).toEqual([]);
    expect(settingsLines("  \n ")).toEqual([]);
    expect(settingsLines("a=1\r\n\nb=2")).toEqual(["a=1", "", "b=2"]);
    expect(settingsText(["a=1", "b=2"])).toBe("a=1\nb=2");
    expect(settingsText(undefined)).toBe("");
  });
});
