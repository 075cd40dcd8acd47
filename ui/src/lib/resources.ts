// Pure logic of the skill file tree, the search panel and the new-skill location: no backend, no DOM.
import type { ResourceEntry, RootView, SearchResults, Skill } from "./backend";

/** The folder holding a SKILL.md (or any file). */
export function folderOf(path: string): string {
  const slash = path.lastIndexOf("/");
  return slash <= 0 ? "/" : path.slice(0, slash);
}

/** Whether `path` is `folder` itself or lies inside it. */
export function isInside(path: string, folder: string): boolean {
  return path === folder || path.startsWith(folder.endsWith("/") ? folder : `${folder}/`);
}

/** The skill a file belongs to: the one with the deepest folder holding it (a nested skill wins over its parent). */
export function skillOfPath(path: string | null, skills: readonly Skill[]): Skill | null {
  if (!path) return null;
  let best: Skill | null = null;
  let depth = -1;
  for (const skill of skills) {
    const folder = folderOf(skill.location);
    if (isInside(path, folder) && folder.length > depth) {
      best = skill;
      depth = folder.length;
    }
  }
  return best;
}

/** The entries to show: those whose every enclosing folder is expanded (folders are collapsed when in `collapsed`). */
export function visibleEntries(entries: readonly ResourceEntry[], collapsed: ReadonlySet<string>): ResourceEntry[] {
  const shown: ResourceEntry[] = [];
  for (const entry of entries) {
    const parts = entry.relative.split("/");
    let hidden = false;
    for (let end = 1; end < parts.length; end++) {
      if (collapsed.has(parts.slice(0, end).join("/"))) {
        hidden = true;
        break;
      }
    }
    if (!hidden) shown.push(entry);
  }
  return shown;
}

/** Where "New skill…" proposes to create the skill: beside the selected skill's folder, else the first opened folder. */
export function defaultSkillParent(selectedSkill: string | null, roots: readonly RootView[]): string | null {
  if (selectedSkill && !selectedSkill.startsWith("package:")) {
    const parent = folderOf(folderOf(selectedSkill));
    // A skill that is itself an opened folder has no parent inside the workspace: its own folder is the place.
    if (roots.some((root) => isInside(parent, root.path))) return parent;
    const root = roots.find((candidate) => isInside(selectedSkill, candidate.path));
    if (root) return root.path;
  }
  return roots[0]?.path ?? null;
}

/** Why a name typed for a new file, folder or rename cannot be used; null when it can. */
export function resourceNameProblem(name: string): string | null {
  const trimmed = name.trim();
  if (!trimmed) return "Type a name.";
  if (trimmed.startsWith("/")) return "Use a path relative to the skill folder.";
  if (trimmed.includes("\\")) return "Separate folders with /, not \\.";
  if (trimmed.split("/").some((part) => part === ".." || part === ".")) return "The name must stay inside the skill folder (no . or ..).";
  if (trimmed.split("/").some((part) => part === "")) return "A folder name is empty (//).";
  return null;
}

/** Documents that would lose unsaved edits if `path` (a file or a folder) went away. */
export function unsavedUnder<T extends { path: string; dirty: boolean; conflict: unknown }>(documents: readonly T[], path: string): T[] {
  return documents.filter((doc) => isInside(doc.path, path) && (doc.dirty || doc.conflict !== null));
}

/** "3 matches in 2 files", with the note the engine's bounds call for. */
export function searchSummary(results: SearchResults): string {
  const files = results.files.length;
  const matches = results.matches;
  if (matches === 0) return "No matches.";
  const text = `${matches} ${matches === 1 ? "match" : "matches"} in ${files} ${files === 1 ? "file" : "files"}`;
  return results.truncated ? `${text}; more not shown — narrow the search` : text;
}

/** A path shown relative to `base` when inside it. */
export function shownPath(path: string, base: string | null): string {
  if (base && isInside(path, base) && path !== base) return path.slice(base.length + (base.endsWith("/") ? 0 : 1));
  return path;
}

/** "1.2 KB", "3 bytes". */
export function humanSize(bytes: number | null): string {
  if (bytes === null) return "";
  if (bytes < 1024) return `${bytes} bytes`;
  if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(1)} KB`;
  return `${(bytes / (1024 * 1024)).toFixed(1)} MB`;
}
