import { cleanup, fireEvent, render, screen, waitFor } from "@testing-library/svelte";
import { afterEach, describe, expect, it } from "vitest";
import CommandPalette from "./CommandPalette.svelte";
import { PreferencesStore } from "../lib/preferences.svelte";
import { fakeBackend } from "../test/fakeBackend";
import type { Command } from "../lib/shortcuts";

afterEach(cleanup);

function commands(ran: string[]): Command[] {
  return [
    { id: "open-folder", title: "Open folder…", keys: ["Mod+O"], run: () => ran.push("open-folder") },
    { id: "next-problem", title: "Next problem", keys: ["F8"], run: () => ran.push("next-problem") },
    { id: "theme-dark", title: "Theme: dark", run: () => ran.push("theme-dark") },
    { id: "save", title: "Save file", keys: ["Mod+S"], enabled: () => false, run: () => ran.push("save") },
  ];
}

const shown = () => screen.queryAllByTestId("palette-item").map((item) => item.getAttribute("data-command-id"));

describe("the command palette", () => {
  it("filters by name as the author types and runs the highlighted command with Enter", async () => {
    const ran: string[] = [];
    let closed = 0;
    render(CommandPalette, { commands: commands(ran), onclose: () => closed++ });
    expect(shown()).toEqual(["open-folder", "next-problem", "theme-dark", "save"]);
    const input = screen.getByTestId("palette-input");
    await fireEvent.input(input, { target: { value: "tdk" } });
    expect(shown()).toEqual(["theme-dark"]);
    await fireEvent.keyDown(input, { key: "Enter" });
    await waitFor(() => expect(ran).toEqual(["theme-dark"]));
    expect(closed).toBe(1);
  });

  it("moves with the arrows, skips nothing, and never runs a disabled command", async () => {
    const ran: string[] = [];
    render(CommandPalette, { commands: commands(ran), onclose: () => {} });
    const input = screen.getByTestId("palette-input");
    await fireEvent.keyDown(input, { key: "ArrowUp" });
    await fireEvent.keyDown(input, { key: "Enter" });
    expect(ran).toEqual([]);
    await fireEvent.keyDown(input, { key: "ArrowUp" });
    await fireEvent.keyDown(input, { key: "Enter" });
    await waitFor(() => expect(ran).toEqual(["theme-dark"]));
  });

  it("says when nothing matches, and Escape closes it", async () => {
    let closed = 0;
    render(CommandPalette, { commands: commands([]), onclose: () => closed++ });
    const input = screen.getByTestId("palette-input");
    await fireEvent.input(input, { target: { value: "zzz" } });
    expect(screen.getByTestId("palette-empty").textContent).toContain("zzz");
    await fireEvent.keyDown(input, { key: "Escape" });
    expect(closed).toBe(1);
  });
});

describe("the remembered settings", () => {
  it("reads the theme and the welcome, and saves a new choice", async () => {
    const backend = fakeBackend({ preferences: { theme: "dark", welcome_dismissed: false } });
    const preferences = new PreferencesStore(backend);
    await preferences.start();
    expect(preferences.theme).toBe("dark");
    expect(preferences.shown).toBe("dark");
    expect(preferences.welcomeDismissed).toBe(false);
    await preferences.setTheme("system");
    await preferences.dismissWelcome();
    const again = new PreferencesStore(backend);
    await again.start();
    expect(again.theme).toBe("system");
    expect(again.welcomeDismissed).toBe(true);
    // jsdom has no colour-scheme preference: the system's is light.
    expect(again.shown).toBe("light");
  });
});
