import { skillFolder } from "./tree";

/**
 * The file a bundled link points at, resolved against the folder of the SKILL.md it appears in; null when it
 * would leave that folder (the backend marks such links "escapes", so this is a second line of defence).
 */
export function resolveBundled(from: string, target: string): string | null {
  const folder = skillFolder(from);
  const path = target.split(/[?#]/, 1)[0];
  if (!path || path.startsWith("/") || /^[a-z][a-z0-9+.-]*:/i.test(path)) return null;
  const parts: string[] = [];
  for (const part of path.split("/")) {
    if (part === "" || part === ".") continue;
    if (part === "..") {
      if (parts.length === 0) return null;
      parts.pop();
    } else parts.push(decodeURIComponentSafe(part));
  }
  return parts.length ? `${folder}/${parts.join("/")}` : null;
}

function decodeURIComponentSafe(part: string): string {
  try {
    return decodeURIComponent(part);
  } catch {
    return part;
  }
}
