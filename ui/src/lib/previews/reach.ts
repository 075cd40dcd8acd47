// Which skills of the tree a client that reads only one level below its folders (10xGraph) never sees, and which
// folders to open instead so that it does.
import type { RootView, Skill } from "../backend";
import { rootOf } from "../tree";

export interface ShallowReach {
  /** Skills of the tree the client does not reach. */
  unreached: number;
  /** The folders holding them, most skills first: opened as a folder, each shows its skills to the client. */
  holders: { path: string; skills: number }[];
}

/**
 * 10xGraph takes a folder holding a SKILL.md as its one skill, and otherwise each folder directly inside it that
 * holds one: a SKILL.md any deeper, or beside a root's own SKILL.md, is not in its catalog.
 */
export function shallowReach(skills: Skill[], roots: RootView[], limit = 3): ShallowReach | null {
  // The opened folders that are themselves a skill.
  const locations = new Set(skills.map((skill) => skill.location));
  const rootSkills = new Set(roots.map((root) => `${root.path}/SKILL.md`).filter((location) => locations.has(location)));
  const holders = new Map<string, number>();
  let unreached = 0;
  for (const skill of skills) {
    const root = rootOf(skill.location, roots);
    if (!root) continue;
    const parts = skill.location.slice(root.path.length + 1).split("/");
    const reached = rootSkills.has(`${root.path}/SKILL.md`) ? parts.length === 1 : parts.length <= 2;
    if (reached) continue;
    unreached += 1;
    // The folder that holds this skill's folder.
    const holder = [root.path, ...parts.slice(0, -2)].join("/");
    holders.set(holder, (holders.get(holder) ?? 0) + 1);
  }
  if (unreached === 0) return null;
  const sorted = [...holders.entries()]
    .map(([path, count]) => ({ path, skills: count }))
    .sort((a, b) => b.skills - a.skills || (a.path < b.path ? -1 : 1));
  return { unreached, holders: sorted.slice(0, limit) };
}
