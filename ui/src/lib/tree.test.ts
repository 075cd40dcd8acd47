import { describe, expect, it } from "vitest";
import { skill } from "../test/fakeBackend";
import {
  buildForest,
  buildTree,
  countsBySkill,
  displayBase,
  forestCount,
  insideRoot,
  limitForest,
  limitTree,
  rootOf,
  shownCount,
  skillFolder,
  skillNameProblem,
} from "./tree";

const root = "/work/skills";
const skills = [
  skill("zeta", "Last alphabetically."),
  skill("alpha", "Reads CSV files."),
  { name: "nested", description: "In a group.", location: `${root}/group/nested/SKILL.md` },
];
const files = [
  { path: `${root}/alpha/SKILL.md`, errors: 1, warnings: 2, infos: 0 },
  { path: `${root}/alpha/references/notes.md`, errors: 0, warnings: 1, infos: 3 },
  { path: `${root}/alphabet/SKILL.md`, errors: 5, warnings: 0, infos: 0 },
];

describe("countsBySkill", () => {
  it("adds up the files inside each skill folder and no sibling with a longer name", () => {
    const counts = countsBySkill(skills, files);
    expect(counts.get(`${root}/alpha/SKILL.md`)).toEqual({ errors: 1, warnings: 3, infos: 3 });
    expect(counts.get(`${root}/zeta/SKILL.md`)).toEqual({ errors: 0, warnings: 0, infos: 0 });
  });

  it("counts a file of a nested skill for the nested skill only", () => {
    const outer = { name: "group", description: "", location: `${root}/group/SKILL.md` };
    const counts = countsBySkill([outer, skills[2]], [{ path: `${root}/group/nested/SKILL.md`, errors: 2, warnings: 0, infos: 0 }]);
    expect(counts.get(outer.location)?.errors).toBe(0);
    expect(counts.get(skills[2].location)?.errors).toBe(2);
  });
});

describe("buildTree", () => {
  const counts = countsBySkill(skills, files);

  it("groups skills by the folder that holds them, sorted", () => {
    const tree = buildTree(skills, root, counts, { text: "", onlyProblems: false });
    expect(tree.map((group) => group.parent)).toEqual(["", "group"]);
    expect(tree[0].skills.map((entry) => entry.folder)).toEqual(["alpha", "zeta"]);
    expect(tree[1].skills[0].folder).toBe("group/nested");
    expect(shownCount(tree)).toBe(3);
  });

  it("filters by text in the name, folder or description, ignoring case", () => {
    expect(shownCount(buildTree(skills, root, counts, { text: "CSV", onlyProblems: false }))).toBe(1);
    expect(shownCount(buildTree(skills, root, counts, { text: "group", onlyProblems: false }))).toBe(1);
    expect(shownCount(buildTree(skills, root, counts, { text: "nothing", onlyProblems: false }))).toBe(0);
  });

  it("keeps only skills with errors or warnings when asked", () => {
    const tree = buildTree(skills, root, counts, { text: "", onlyProblems: true });
    expect(tree.flatMap((group) => group.skills.map((entry) => entry.skill.name))).toEqual(["alpha"]);
  });

  it("handles builtin locations that are not paths under a root", () => {
    const builtin = [{ name: "b", description: "d", location: "package:skillforge/skills/b/SKILL.md" }];
    const tree = buildTree(builtin, null, new Map(), { text: "", onlyProblems: false });
    expect(tree[0].skills[0].folder).toBe("package:skillforge/skills/b");
    expect(skillFolder(builtin[0].location)).toBe("package:skillforge/skills/b");
  });
});

describe("limitTree", () => {
  it("keeps the first skills in order, across groups", () => {
    const tree = buildTree(skills, root, new Map(), { text: "", onlyProblems: false });
    const limited = limitTree(tree, 2);
    expect(limited.flatMap((group) => group.skills.map((entry) => entry.skill.name))).toEqual(["alpha", "zeta"]);
    expect(shownCount(limitTree(tree, 3))).toBe(3);
    expect(limitTree(tree, 0)).toEqual([]);
  });
});

describe("buildForest", () => {
  const a = { path: "/work/a", label: "a" };
  const nested = { path: "/work/a/inner", label: "inner" };
  const b = { path: "/work/b", label: "b" };
  const forestSkills = [skill("two", "", "/work/b"), skill("one", "", "/work/a"), skill("deep", "", "/work/a/inner")];
  const none = { text: "", onlyProblems: false };

  it("makes one tree per opened folder, in the order opened, and an empty folder stays listed", () => {
    const forest = buildForest(forestSkills, [b, a, { path: "/work/empty", label: "empty" }], new Map(), none);
    expect(forest.map((tree) => [tree.root?.label, tree.total])).toEqual([
      ["b", 1],
      ["a", 2],
      ["empty", 0],
    ]);
    expect(forest[1].groups.flatMap((group) => group.skills.map((entry) => entry.folder))).toEqual(["one", "inner/deep"]);
    expect(forestCount(forest)).toBe(3);
  });

  it("puts a skill in the deepest folder that holds it", () => {
    expect(rootOf("/work/a/inner/deep/SKILL.md", [a, nested])).toBe(nested);
    expect(rootOf("/work/ab/x/SKILL.md", [a])).toBeNull();
    expect(insideRoot("/work/a", "/work/a")).toBe(true);
    expect(insideRoot("/work/ab", "/work/a")).toBe(false);
  });

  it("keeps builtin skills, outside every folder, in a tree of their own", () => {
    const builtin = [{ name: "b", description: "d", location: "package:skillforge/skills/b/SKILL.md" }];
    const forest = buildForest(builtin, [], new Map(), none);
    expect(forest).toHaveLength(1);
    expect(forest[0].root).toBeNull();
    expect(forest[0].groups[0].skills[0].folder).toBe("package:skillforge/skills/b");
  });

  it("limits across folders in order", () => {
    const forest = buildForest(forestSkills, [b, a], new Map(), none);
    const limited = limitForest(forest, 2);
    expect(forestCount(limited)).toBe(2);
    expect(limited.map((tree) => shownCount(tree.groups))).toEqual([1, 1]);
  });
});

describe("displayBase", () => {
  it("is the folder itself, or the folder holding all of them so each path names its own", () => {
    expect(displayBase([{ path: "/work/a", label: "a" }], "/work/a")).toBe("/work/a");
    expect(displayBase([], null)).toBeNull();
    expect(displayBase([{ path: "/work/x/a", label: "a" }, { path: "/work/x/b", label: "b" }], "/work/x/a")).toBe("/work/x");
    expect(displayBase([{ path: "/work/x/a", label: "a" }, { path: "/work/y/b", label: "b" }], "/work/x/a")).toBe("/work");
    expect(displayBase([{ path: "/a", label: "a" }, { path: "/b", label: "b" }], "/a")).toBe("/");
  });
});

describe("skillNameProblem", () => {
  it.each(["a", "csv-cleanup", "v2-notes"])("accepts %s", (name) => expect(skillNameProblem(name)).toBeNull());
  it.each(["", "Csv", "csv_cleanup", "-a", "a-", "a--b", "a b", "x".repeat(65)])("rejects %j", (name) =>
    expect(skillNameProblem(name)).not.toBeNull(),
  );
});
