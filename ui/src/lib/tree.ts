// The workspace tree: skills grouped by the folder that holds them, with problem counts and filters.
import type { RootView, Skill } from "./backend";
import { displayLocation } from "./catalog";

export interface ProblemCounts {
  errors: number;
  warnings: number;
  infos: number;
}

export interface FileProblems extends ProblemCounts {
  path: string;
}

export interface TreeSkill {
  skill: Skill;
  /** The skill's folder as shown, relative to the root when inside it. */
  folder: string;
  counts: ProblemCounts;
}

export interface TreeGroup {
  /** The folder that holds the skill folders, relative to the root; "" for the root itself. */
  parent: string;
  skills: TreeSkill[];
}

export interface TreeFilter {
  text: string;
  onlyProblems: boolean;
}

const NONE: ProblemCounts = { errors: 0, warnings: 0, infos: 0 };

/** The folder of a SKILL.md location (everything before the last separator). */
export function skillFolder(location: string): string {
  const cut = Math.max(location.lastIndexOf("/"), location.lastIndexOf("\\"));
  return cut === -1 ? "" : location.slice(0, cut);
}

function parentOf(folder: string): string {
  const cut = Math.max(folder.lastIndexOf("/"), folder.lastIndexOf("\\"));
  return cut === -1 ? "" : folder.slice(0, cut);
}

/** Adds up the problems of every file inside each skill's folder (a file counts for its nearest skill folder). */
export function countsBySkill(skills: Skill[], files: FileProblems[]): Map<string, ProblemCounts> {
  const byFolder = new Map<string, ProblemCounts>();
  const counts = new Map<string, ProblemCounts>();
  for (const skill of skills) {
    const total = { ...NONE };
    byFolder.set(skillFolder(skill.location), total);
    counts.set(skill.location, total);
  }
  // Linear in files times depth, so a workspace of thousands of skills stays instant.
  for (const file of files) {
    for (let folder = skillFolder(file.path); folder; folder = parentOf(folder)) {
      const total = byFolder.get(folder);
      if (!total) continue;
      total.errors += file.errors;
      total.warnings += file.warnings;
      total.infos += file.infos;
      break;
    }
  }
  return counts;
}

export function hasProblems(counts: ProblemCounts): boolean {
  return counts.errors + counts.warnings > 0;
}

/** Groups and filters the skills; groups and skills keep a stable order (by folder, then by name). */
export function buildTree(
  skills: Skill[],
  root: string | null,
  counts: Map<string, ProblemCounts>,
  filter: TreeFilter,
): TreeGroup[] {
  const needle = filter.text.trim().toLowerCase();
  const groups = new Map<string, TreeSkill[]>();
  for (const skill of skills) {
    const folder = displayLocation(skillFolder(skill.location), root);
    const skillCounts = counts.get(skill.location) ?? NONE;
    if (filter.onlyProblems && !hasProblems(skillCounts)) continue;
    if (needle && !`${skill.name}\n${folder}\n${skill.description}`.toLowerCase().includes(needle)) continue;
    const parent = parentOf(folder);
    const list = groups.get(parent) ?? [];
    list.push({ skill, folder, counts: skillCounts });
    groups.set(parent, list);
  }
  // Code-point order: stable across locales and fast for thousands of skills.
  return [...groups.entries()]
    .sort(([a], [b]) => compare(a, b))
    .map(([parent, list]) => ({
      parent,
      skills: list.sort((a, b) => compare(a.folder, b.folder) || compare(a.skill.name, b.skill.name)),
    }));
}

function compare(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/** The first `limit` skills of the tree, in order, keeping their groups. */
export function limitTree(groups: TreeGroup[], limit: number): TreeGroup[] {
  const limited: TreeGroup[] = [];
  let left = limit;
  for (const group of groups) {
    if (left <= 0) break;
    const skills = group.skills.slice(0, left);
    left -= skills.length;
    limited.push({ parent: group.parent, skills });
  }
  return limited;
}

export function shownCount(groups: TreeGroup[]): number {
  return groups.reduce((sum, group) => sum + group.skills.length, 0);
}

/** The skills of one opened folder (or of no folder: the builtin skills), grouped as [`buildTree`] groups them. */
export interface RootTree {
  root: RootView | null;
  groups: TreeGroup[];
  /** Every skill of the folder, shown or not. */
  total: number;
}

/** Whether `path` is `root` or lies below it. */
export function insideRoot(path: string, root: string): boolean {
  if (path === root) return true;
  const prefix = root.endsWith("/") || root.endsWith("\\") ? root : `${root}/`;
  return path.startsWith(prefix);
}

/** The opened folder that holds `path`: the deepest one, as the backend's path guard decides. */
export function rootOf(path: string, roots: RootView[]): RootView | null {
  let found: RootView | null = null;
  for (const root of roots) {
    if (insideRoot(path, root.path) && (!found || root.path.length > found.path.length)) found = root;
  }
  return found;
}

/** One tree per opened folder, in the order they were opened; skills outside every folder (builtin) come last. */
export function buildForest(
  skills: Skill[],
  roots: RootView[],
  counts: Map<string, ProblemCounts>,
  filter: TreeFilter,
): RootTree[] {
  const byRoot = new Map<RootView | null, Skill[]>(roots.map((root) => [root, []]));
  for (const skill of skills) {
    const root = rootOf(skill.location, roots);
    const list = byRoot.get(root) ?? [];
    list.push(skill);
    byRoot.set(root, list);
  }
  return [...byRoot.entries()].map(([root, list]) => ({
    root,
    groups: buildTree(list, root?.path ?? null, counts, filter),
    total: list.length,
  }));
}

/** The first `limit` skills of the forest, in order, keeping their folders and groups. */
export function limitForest(forest: RootTree[], limit: number): RootTree[] {
  let left = limit;
  return forest.map((tree) => {
    const groups = limitTree(tree.groups, Math.max(left, 0));
    left -= shownCount(groups);
    return { ...tree, groups };
  });
}

export function forestCount(forest: RootTree[]): number {
  return forest.reduce((sum, tree) => sum + shownCount(tree.groups), 0);
}

const NAME = /^[a-z0-9]+(-[a-z0-9]+)*$/;

/** Why a new skill's name is not acceptable, or null when it is (lowercase words joined by single hyphens). */
export function skillNameProblem(name: string): string | null {
  if (name.length === 0) return "Enter a name.";
  if (name.length > 64) return "Use at most 64 characters.";
  if (!NAME.test(name)) return "Use lowercase letters, digits and single hyphens between words (like csv-cleanup).";
  return null;
}

/**
 * The folder paths are shown relative to: the open folder itself, or with several open, the folder that holds
 * them all, so each path starts with its own folder's name (`skills-a/csv/SKILL.md`, `skills-b/csv/SKILL.md`).
 */
export function displayBase(roots: RootView[], root: string | null): string | null {
  if (roots.length < 2) return root;
  const parts = roots.map((each) => each.path.split("/").slice(0, -1));
  const common: string[] = [];
  for (let index = 0; parts.every((list) => index < list.length && list[index] === parts[0][index]); index++) {
    common.push(parts[0][index]);
  }
  const base = common.join("/");
  return base === "" ? "/" : base;
}
