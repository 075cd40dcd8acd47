// The window's commands: their keyboard shortcuts, how a key event picks one, and the palette's fuzzy filter.

/** One thing the author can do by name (the palette), and maybe by keys (the shortcut sheet lists them). */
export interface Command {
  id: string;
  title: string;
  /** Shortcuts such as "Mod+Shift+P" or "F8"; Mod is Ctrl (⌘ on macOS). The first is the one shown. */
  keys?: readonly string[];
  /** Whether it can run now (a disabled command stays listed, greyed out in the palette). */
  enabled?: () => boolean;
  run: () => unknown;
}

/** The shortcuts, by command id: one table the handler, the palette and the sheet all read. */
export const SHORTCUTS: Readonly<Record<string, readonly string[]>> = {
  "open-folder": ["Mod+O"],
  "new-skill": ["Mod+N"],
  save: ["Mod+S"],
  "close-file": ["Mod+W"],
  "next-tab": ["Ctrl+PageDown"],
  "previous-tab": ["Ctrl+PageUp"],
  "next-problem": ["F8"],
  "previous-problem": ["Shift+F8"],
  search: ["Mod+Shift+F"],
  "command-palette": ["Mod+Shift+P"],
  "shortcut-sheet": ["F1", "Mod+/"],
};

interface Chord {
  mod: boolean;
  ctrl: boolean;
  shift: boolean;
  alt: boolean;
  key: string;
}

function parse(spec: string): Chord {
  const parts = spec.split("+");
  // "Mod+/" splits cleanly; a literal "+" key would be the empty last part.
  const key = parts.pop() || "+";
  const has = (name: string) => parts.includes(name);
  return { mod: has("Mod"), ctrl: has("Ctrl"), shift: has("Shift"), alt: has("Alt"), key: key.toLowerCase() };
}

/** Whether the event is exactly the chord `spec` (no extra modifier). `mac` makes Mod the ⌘ key. */
export function matchesShortcut(event: Pick<KeyboardEvent, "key" | "ctrlKey" | "metaKey" | "shiftKey" | "altKey">, spec: string, mac = false): boolean {
  const chord = parse(spec);
  const wantCtrl = chord.ctrl || (chord.mod && !mac);
  const wantMeta = chord.mod && mac;
  if (event.ctrlKey !== wantCtrl || event.metaKey !== wantMeta || event.altKey !== chord.alt) return false;
  // Shift changes some keys ("?" for "/"): a chord without Shift must not match a shifted key, and letters compare
  // without case.
  if (event.shiftKey !== chord.shift) return false;
  return event.key.toLowerCase() === chord.key;
}

/** The command a key event runs, if any. */
export function commandForKey<T extends Pick<Command, "id" | "keys">>(commands: readonly T[], event: KeyboardEvent, mac = false): T | null {
  return commands.find((command) => command.keys?.some((spec) => matchesShortcut(event, spec, mac))) ?? null;
}

/** A shortcut as the sheet and the palette show it: "Ctrl+Shift+P" (or "⌘⇧P" on macOS). */
export function formatShortcut(spec: string, mac = false): string {
  const chord = parse(spec);
  const key = chord.key.length === 1 ? chord.key.toUpperCase() : spec.split("+").pop() || chord.key;
  if (mac) return `${chord.ctrl ? "⌃" : ""}${chord.alt ? "⌥" : ""}${chord.shift ? "⇧" : ""}${chord.mod ? "⌘" : ""}${key}`;
  return [chord.mod || chord.ctrl ? "Ctrl" : "", chord.alt ? "Alt" : "", chord.shift ? "Shift" : "", key].filter(Boolean).join("+");
}

/**
 * How well `query` matches `text` as a subsequence of its letters (case-insensitive): null when it does not,
 * else higher for matches at word starts and in runs, and for shorter texts.
 */
export function fuzzyScore(query: string, text: string): number | null {
  const wanted = query.toLowerCase().replace(/\s+/g, "");
  if (wanted === "") return 0;
  const haystack = text.toLowerCase();
  let score = 0;
  let from = 0;
  let previous = -2;
  for (const letter of wanted) {
    const at = haystack.indexOf(letter, from);
    if (at === -1) return null;
    const wordStart = at === 0 || /[\s\-_/.(]/.test(haystack[at - 1]);
    score += 1 + (wordStart ? 3 : 0) + (at === previous + 1 ? 2 : 0);
    previous = at;
    from = at + 1;
  }
  return score - haystack.length / 100;
}

/** The commands whose title matches `query`, best first (ties keep their order). */
export function filterCommands<T extends Pick<Command, "title">>(commands: readonly T[], query: string): T[] {
  return commands
    .map((command, index) => ({ command, index, score: fuzzyScore(query, command.title) }))
    .filter((entry): entry is { command: T; index: number; score: number } => entry.score !== null)
    .sort((a, b) => b.score - a.score || a.index - b.index)
    .map((entry) => entry.command);
}

export function isMac(): boolean {
  return typeof navigator !== "undefined" && /Mac|iPhone|iPad/.test(navigator.platform);
}
