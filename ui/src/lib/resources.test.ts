import { describe, expect, it } from "vitest";
import type { ResourceEntry, SearchResults } from "./backend";
import { languageOf } from "./languages";
import {
  defaultSkillParent,
  humanSize,
  isInside,
  resourceNameProblem,
  searchSummary,
  shownPath,
  skillOfPath,
  unsavedUnder,
  visibleEntries,
} from "./resources";

function entry(relative: string, kind: ResourceEntry["kind"] = "text"): ResourceEntry {
  const name = relative.slice(relative.lastIndexOf("/") + 1);
  return { path: `/w/s/${relative}`, relative, name, depth: relative.split("/").length - 1, kind, size: 1, note: null };
}

describe("the skill file tree", () => {
  it("hides what collapsed folders hold, at any depth", () => {
    const entries = [entry("references", "folder"), entry("references/deep", "folder"), entry("references/deep/a.md"), entry("references/b.md"), entry("x.py")];
    const all = (collapsed: string[]) => visibleEntries(entries, new Set(collapsed)).map((shown) => shown.relative);
    expect(all([])).toEqual(["references", "references/deep", "references/deep/a.md", "references/b.md", "x.py"]);
    expect(all(["references/deep"])).toEqual(["references", "references/deep", "references/b.md", "x.py"]);
    expect(all(["references"])).toEqual(["references", "x.py"]);
  });

  it("finds the skill a file belongs to, the nested one first, and not a sibling with a longer name", () => {
    const skills = [
      { name: "a", description: "", location: "/w/a/SKILL.md" },
      { name: "inner", description: "", location: "/w/a/inner/SKILL.md" },
      { name: "ab", description: "", location: "/w/ab/SKILL.md" },
    ];
    expect(skillOfPath("/w/a/scripts/x.py", skills)?.name).toBe("a");
    expect(skillOfPath("/w/a/inner/SKILL.md", skills)?.name).toBe("inner");
    expect(skillOfPath("/w/ab/notes.md", skills)?.name).toBe("ab");
    expect(skillOfPath("/w/other/x", skills)).toBeNull();
    expect(isInside("/w/ab", "/w/a")).toBe(false);
  });

  it("refuses names that leave the skill folder or are empty", () => {
    expect(resourceNameProblem("references/forms.md")).toBeNull();
    expect(resourceNameProblem(" ")).toContain("Type a name");
    expect(resourceNameProblem("../x")).toContain("inside the skill folder");
    expect(resourceNameProblem("/etc/passwd")).toContain("relative");
    expect(resourceNameProblem("a\\b")).toContain("/");
    expect(resourceNameProblem("a//b")).toContain("empty");
  });

  it("names the open files with unsaved edits under a file or folder", () => {
    const docs = [
      { path: "/w/s/scripts/a.py", dirty: true, conflict: null },
      { path: "/w/s/scripts/b.py", dirty: false, conflict: null },
      { path: "/w/s/scriptsx/c.py", dirty: true, conflict: null },
      { path: "/w/s/SKILL.md", dirty: false, conflict: { kind: "deleted" } },
    ];
    expect(unsavedUnder(docs, "/w/s/scripts").map((doc) => doc.path)).toEqual(["/w/s/scripts/a.py"]);
    expect(unsavedUnder(docs, "/w/s").map((doc) => doc.path)).toEqual(["/w/s/scripts/a.py", "/w/s/scriptsx/c.py", "/w/s/SKILL.md"]);
    expect(unsavedUnder(docs, "/w/s/scripts/b.py")).toEqual([]);
  });

  it("writes sizes for people", () => {
    expect(humanSize(3)).toBe("3 bytes");
    expect(humanSize(2048)).toBe("2.0 KB");
    expect(humanSize(5 * 1024 * 1024)).toBe("5.0 MB");
  });
});

describe("highlighting by file type", () => {
  it("chooses the language from the extension, or a script's #! line", () => {
    expect(languageOf("/s/references/guide.md")).toBe("markdown");
    expect(languageOf("/s/scripts/fill.py")).toBe("python");
    expect(languageOf("/s/scripts/run.sh")).toBe("shell");
    expect(languageOf("/s/evals/evals.json")).toBe("json");
    expect(languageOf("/s/config.YML")).toBe("yaml");
    expect(languageOf("/s/scripts/tool", "#!/usr/bin/env python3\nprint()")).toBe("python");
    expect(languageOf("/s/scripts/tool", "#!/bin/bash\necho")).toBe("shell");
    expect(languageOf("/s/LICENSE", "MIT")).toBe("plain");
    expect(languageOf("/s/.env")).toBe("plain");
  });
});

describe("new skill location", () => {
  const roots = [
    { path: "/w/one", label: "one" },
    { path: "/w/two", label: "two" },
  ];
  it("defaults to beside the selected skill's folder", () => {
    expect(defaultSkillParent("/w/two/group/pdf/SKILL.md", roots)).toBe("/w/two/group");
    expect(defaultSkillParent("/w/one/pdf/SKILL.md", roots)).toBe("/w/one");
  });
  it("falls back to the first opened folder", () => {
    expect(defaultSkillParent(null, roots)).toBe("/w/one");
    expect(defaultSkillParent("package:skillforge/skills/x/SKILL.md", roots)).toBe("/w/one");
    expect(defaultSkillParent(null, [])).toBeNull();
  });
  it("uses the skill's own folder when the skill is an opened folder", () => {
    expect(defaultSkillParent("/w/solo/SKILL.md", [{ path: "/w/solo", label: "solo" }])).toBe("/w/solo");
  });
});

describe("search results", () => {
  const results = (matches: number, files: number, truncated = false): SearchResults => ({
    files: Array.from({ length: files }, (_, index) => ({ path: `/w/${index}`, skill: "/w/SKILL.md", matches: [], more: 0 })),
    matches,
    truncated,
    files_searched: 10,
    skipped: 0,
  });
  it("summarises counts and says when the engine stopped early", () => {
    expect(searchSummary(results(0, 0))).toBe("No matches.");
    expect(searchSummary(results(1, 1))).toBe("1 match in 1 file");
    expect(searchSummary(results(1000, 7, true))).toBe("1000 matches in 7 files; more not shown — narrow the search");
  });
  it("shows paths relative to the workspace", () => {
    expect(shownPath("/w/pdf/SKILL.md", "/w")).toBe("pdf/SKILL.md");
    expect(shownPath("/elsewhere/x", "/w")).toBe("/elsewhere/x");
  });
});
