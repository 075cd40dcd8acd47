import { describe, expect, it } from "vitest";
import { SHORTCUTS, commandForKey, filterCommands, formatShortcut, fuzzyScore, matchesShortcut } from "./shortcuts";

const key = (key: string, mods: Partial<Record<"ctrlKey" | "metaKey" | "shiftKey" | "altKey", boolean>> = {}) =>
  ({ key, ctrlKey: false, metaKey: false, shiftKey: false, altKey: false, ...mods }) as KeyboardEvent;

describe("shortcuts", () => {
  it("matches chords exactly, Mod being Ctrl or ⌘", () => {
    expect(matchesShortcut(key("P", { ctrlKey: true, shiftKey: true }), "Mod+Shift+P")).toBe(true);
    expect(matchesShortcut(key("p", { ctrlKey: true }), "Mod+Shift+P")).toBe(false);
    expect(matchesShortcut(key("p", { ctrlKey: true, shiftKey: true }), "Mod+P")).toBe(false);
    expect(matchesShortcut(key("o", { metaKey: true }), "Mod+O", true)).toBe(true);
    expect(matchesShortcut(key("o", { ctrlKey: true }), "Mod+O", true)).toBe(false);
    expect(matchesShortcut(key("F8"), "F8")).toBe(true);
    expect(matchesShortcut(key("F8", { shiftKey: true }), "F8")).toBe(false);
    expect(matchesShortcut(key("F8", { shiftKey: true }), "Shift+F8")).toBe(true);
    expect(matchesShortcut(key("/", { ctrlKey: true }), "Mod+/")).toBe(true);
  });

  it("gives every command its own keys", () => {
    const all = Object.values(SHORTCUTS).flat();
    expect(new Set(all).size).toBe(all.length);
    const commands = Object.entries(SHORTCUTS).map(([id, keys]) => ({ id, keys }));
    expect(commandForKey(commands, key("w", { ctrlKey: true }))?.id).toBe("close-file");
    expect(commandForKey(commands, key("F1"))?.id).toBe("shortcut-sheet");
    expect(commandForKey(commands, key("x", { ctrlKey: true }))).toBeNull();
  });

  it("formats shortcuts for the sheet", () => {
    expect(formatShortcut("Mod+Shift+P")).toBe("Ctrl+Shift+P");
    expect(formatShortcut("Mod+Shift+P", true)).toBe("⇧⌘P");
    expect(formatShortcut("Shift+F8")).toBe("Shift+F8");
    expect(formatShortcut("Ctrl+PageDown")).toBe("Ctrl+PageDown");
  });

  it("filters by letters in order, word starts first", () => {
    const commands = [{ title: "Open folder…" }, { title: "Next problem" }, { title: "New skill…" }, { title: "Toggle dark mode" }];
    expect(filterCommands(commands, "").map((c) => c.title)).toEqual(commands.map((c) => c.title));
    expect(filterCommands(commands, "np").map((c) => c.title)).toEqual(["Next problem"]);
    expect(filterCommands(commands, "ns")[0].title).toBe("New skill…");
    expect(filterCommands(commands, "dark").map((c) => c.title)).toEqual(["Toggle dark mode"]);
    expect(filterCommands(commands, "zz")).toEqual([]);
    expect(fuzzyScore("of", "Open folder…")! > fuzzyScore("of", "Toggle dark mode of")!).toBe(true);
  });
});
