import { describe, expect, it } from "vitest";
import type { CatalogEntry } from "../backend";
import {
  applyCompletion,
  clampLimit,
  completionAt,
  currentSkillPath,
  dirtyBuffers,
  entryFor,
  evalsPathFor,
  formatCount,
  formatPercent,
  limitsFor,
  meter,
  parseThreshold,
  queriesFrom,
  rowsExpectingOtherSkills,
  rowsFromEvals,
  splitAtCut,
  splitLines,
  textLines,
  visibleEntries,
} from "./logic";

const entry = (name: string, location: string, included = true): CatalogEntry => ({
  name,
  location,
  included,
  shortened: false,
  start_utf16: 0,
  end_utf16: 0,
  bytes: 0,
  share: 0,
});

describe("controls", () => {
  it("clamps to the control's range and keeps a field that is mid-edit", () => {
    expect(clampLimit("250", "token_limit")).toBe(250);
    expect(clampLimit("0", "token_limit")).toBe(1);
    expect(clampLimit(250_000, "token_limit")).toBe(100_000);
    expect(clampLimit("10,000", "manifest_tokens")).toBe(10_000);
    expect(clampLimit("", "token_limit")).toBeNull();
    expect(clampLimit("abc", "token_limit")).toBeNull();
    expect(clampLimit("12.6", "token_limit")).toBe(13);
  });

  it("takes a router threshold only when the router can compare with it", () => {
    expect(parseThreshold("0")).toBe(0);
    expect(parseThreshold(" 1.25 ")).toBe(1.25);
    expect(parseThreshold(3)).toBe(3);
    for (const bad of ["", "-0.5", "abc", "Infinity", "NaN"]) expect(parseThreshold(bad)).toBeNull();
    expect(parseThreshold(Number.NaN)).toBeNull();
  });

  it("sends only the limit the dialect reads", () => {
    const settings = { manifestTokens: 500, contextWindow: 64_000 };
    expect(limitsFor({ dialect: "nagents", ...settings })).toEqual({ manifest_tokens: 500 });
    expect(limitsFor({ dialect: "claude-code", ...settings })).toEqual({ context_window: 64_000 });
    expect(limitsFor({ dialect: "codex", ...settings })).toEqual({ context_window: 64_000 });
    expect(limitsFor({ dialect: "10xgraph", ...settings })).toEqual({});
  });

  it("measures the budget, over and under", () => {
    expect(meter(null)).toBeNull();
    const under = meter({ unit: "bytes", limit: 400, used: 100, basis: "" })!;
    expect(under.over).toBe(false);
    expect(under.fraction).toBe(0.25);
    expect(under.label).toBe("100 of 400 bytes (25%)");
    expect(meter({ unit: "characters", limit: 10, used: 12, basis: "" })!.over).toBe(true);
    expect(formatPercent(0.1234)).toBe("12.3%");
    expect(formatPercent(null)).toBe("—");
    expect([0, 999, 1234, 1234567].map(formatCount)).toEqual(["0", "999", "1,234", "1,234,567"]);
  });
});

describe("ranges in the text", () => {
  it("marks an entry in UTF-16 units, clamped", () => {
    expect(textLines("ab😀cd", { start: 2, end: 4 }).current).toEqual({ before: "ab", marked: "😀", after: "cd" });
    expect(textLines("abc", { start: 5, end: 9 }).current).toEqual({ before: "abc", marked: "", after: "" });
    expect(textLines("abc", { start: 2, end: 1 }).current).toEqual({ before: "ab", marked: "", after: "c" });
  });

  it("cuts a text into lines that keep their breaks", () => {
    expect(splitLines("")).toEqual([]);
    expect(splitLines("a")).toEqual(["a"]);
    expect(splitLines("a\n\nb\r\nc\n")).toEqual(["a\n", "\n", "b\r\n", "c\n"]);
  });

  it("keeps the lines of the marked entry together, and joins back to the text", () => {
    const text = "header\n<list>\n<skill a>one</skill>\n<skill b>two\nlines</skill>\n</list>";
    const join = (lines: ReturnType<typeof textLines>) =>
      [...lines.head, lines.current ? lines.current.before + lines.current.marked + lines.current.after : "", ...lines.tail].join("");
    const b = text.indexOf("<skill b>");
    const bEnd = text.indexOf("</skill>", b) + "</skill>".length;
    const around = textLines(text, { start: b, end: bEnd });
    expect(around).toEqual({
      head: ["header\n", "<list>\n", "<skill a>one</skill>\n"],
      current: { before: "", marked: "<skill b>two\nlines</skill>", after: "\n" },
      tail: ["</list>"],
    });
    // A range that takes its line break, one inside a line, an empty one, one past the end.
    const withBreak = textLines(text, { start: b, end: bEnd + 1 });
    expect(withBreak.current).toEqual({ before: "", marked: "<skill b>two\nlines</skill>\n", after: "" });
    expect(withBreak.tail).toEqual(["</list>"]);
    expect(textLines(text, { start: 9, end: 11 }).current).toEqual({ before: "<l", marked: "is", after: "t>\n" });
    expect(textLines(text, { start: 9, end: 9 }).current).toEqual({ before: "<l", marked: "", after: "ist>\n" });
    expect(textLines(text, { start: 500, end: 600 })).toEqual({ head: splitLines(text.slice(0, text.lastIndexOf("\n") + 1)), current: { before: "</list>", marked: "", after: "" }, tail: [] });
    for (let start = 0; start <= text.length; start += 3) {
      for (const length of [0, 1, 7, 30]) {
        const lines = textLines(text, { start, end: start + length });
        expect(join(lines)).toBe(text);
        expect(lines.current?.marked).toBe(text.slice(start, start + length));
      }
    }
    expect(join(textLines(text, null))).toBe(text);
  });

  it("splits at the cut", () => {
    expect(splitAtCut("line one\nline two", 9)).toEqual({ kept: "line one\n", cut: "line two" });
    expect(splitAtCut("abc", 10)).toEqual({ kept: "abc", cut: "" });
  });
});

describe("the current skill", () => {
  const skills = [
    { name: "a", description: "", location: "/w/a/SKILL.md" },
    { name: "ab", description: "", location: "/w/ab/SKILL.md" },
  ];

  it("is the open SKILL.md, or the skill whose folder holds the open file", () => {
    expect(currentSkillPath(null, skills)).toBeNull();
    expect(currentSkillPath("/w/a/SKILL.md", skills)).toBe("/w/a/SKILL.md");
    expect(currentSkillPath("/w/ab/references/x.md", skills)).toBe("/w/ab/SKILL.md");
    expect(currentSkillPath("/w/other.md", skills)).toBeNull();
  });

  it("finds its entry by location, or by name where the client shows none", () => {
    const entries = [entry("a", "/w/a/SKILL.md"), entry("ab", "")];
    expect(entryFor(entries, "/w/a/SKILL.md", skills)?.name).toBe("a");
    expect(entryFor(entries, "/w/ab/SKILL.md", skills)?.name).toBe("ab");
    expect(entryFor(entries, null, skills)).toBeNull();
  });

  it("lists only dirty buffers", () => {
    const docs = [
      { path: "/w/a/SKILL.md", dirty: true, text: () => "A" },
      { path: "/w/b/SKILL.md", dirty: false, text: () => "B" },
    ];
    expect(dirtyBuffers(docs)).toEqual([{ path: "/w/a/SKILL.md", text: "A" }]);
  });

  it("keeps the current entry when thousands are cut from the list", () => {
    const many = Array.from({ length: 1000 }, (_, index) => index);
    const { shown, hidden } = visibleEntries(many, 900, many.length, 10);
    expect(shown).toEqual([0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 900]);
    expect(hidden).toBe(989);
  });

  it("counts what the backend's page left out", () => {
    // The backend sent the first 300 rows and the current one (the 4,000th) of 5,000.
    const page = [...Array.from({ length: 300 }, (_, index) => index), 4000];
    const { shown, hidden } = visibleEntries(page, 4000, 5000);
    expect(shown).toEqual(page);
    expect(hidden).toBe(4699);
    expect(page).toHaveLength(301);
  });
});

describe("$name completion", () => {
  const names = ["pdf-forms", "pdf-tools", "sql-review"];

  it("offers names that start with what was typed after $", () => {
    expect(completionAt("use $pd", 7, names)).toEqual({ from: 4, to: 7, prefix: "pd", options: ["pdf-forms", "pdf-tools"] });
    expect(completionAt("$", 1, names)?.options).toEqual(names);
    expect(completionAt("use pd", 6, names)).toBeNull();
    expect(completionAt("a$pd", 4, names)).toBeNull();
    expect(completionAt("use $sql-review", 15, names)).toBeNull();
  });

  it("inserts the chosen name with a space after it", () => {
    const completion = completionAt("use $pd now", 7, names)!;
    expect(applyCompletion("use $pd now", completion, "pdf-tools")).toEqual({ text: "use $pdf-tools now", caret: 15 });
    const atEnd = completionAt("use $sq", 7, names)!;
    expect(applyCompletion("use $sq", atEnd, "sql-review")).toEqual({ text: "use $sql-review ", caret: 16 });
  });
});

describe("trigger rows", () => {
  it("reads the agentskills.io layout beside a skill", () => {
    const text = JSON.stringify([
      { query: "fill this form", should_trigger: true },
      { query: "bake a cake", should_trigger: false },
      { query: "write sql", should_trigger: "sql-review" },
    ]);
    expect(rowsFromEvals(text, "pdf-forms")).toEqual([
      { query: "fill this form", expected: "pdf-forms" },
      { query: "bake a cake", expected: null },
      { query: "write sql", expected: "sql-review" },
    ]);
    expect(() => rowsFromEvals("{}", "x")).toThrow(/JSON list/);
    expect(() => rowsFromEvals("[{}]", "x")).toThrow(/no query/);
  });

  it("reads back another skill's expectation from expected_skill", () => {
    const text = JSON.stringify([
      { query: "write sql", should_trigger: false, expected_skill: "sql-review" },
      { query: "bake a cake", should_trigger: false },
    ]);
    expect(rowsFromEvals(text, "pdf-forms")).toEqual([
      { query: "write sql", expected: "sql-review" },
      { query: "bake a cake", expected: null },
    ]);
    const rows = [
      { query: "fill", expected: "pdf-forms" },
      { query: "sql", expected: "sql-review" },
      { query: " ", expected: "other" },
      { query: "none", expected: null },
    ];
    expect(rowsExpectingOtherSkills(rows, "pdf-forms")).toEqual([{ query: "sql", expected: "sql-review" }]);
    expect(() => rowsFromEvals("[{}]", "x")).toThrow(/no query/);
  });

  it("drops blank queries and treats a blank skill as none", () => {
    expect(
      queriesFrom([
        { query: "a", expected: " pdf-forms " },
        { query: "  ", expected: "x" },
        { query: "b", expected: "" },
      ]),
    ).toEqual([
      { query: "a", should_trigger: "pdf-forms" },
      { query: "b", should_trigger: null },
    ]);
    expect(evalsPathFor("/w/a/SKILL.md")).toBe("/w/a/evals/evals.json");
  });
});
