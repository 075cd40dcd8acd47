import { describe, expect, it } from "vitest";
import { launch, PROFILES } from "./settings";
import manifest from "../package.json";
import { readFileSync } from "node:fs";

describe("launch", () => {
  it("starts skillforge lsp from PATH with the configured profiles", () => {
    expect(launch({ path: "skillforge", profiles: ["spec", "codex"] })).toEqual({
      command: "skillforge",
      args: ["lsp"],
      initializationOptions: { profiles: ["spec", "codex"] },
      problems: [],
    });
  });

  it("takes a path, trimmed, and drops repeated profiles", () => {
    const started = launch({ path: "  /opt/bin/skillforge ", profiles: ["codex", "codex"] });
    expect(started.command).toBe("/opt/bin/skillforge");
    expect(started.initializationOptions.profiles).toEqual(["codex"]);
  });

  it("says what is wrong with the settings and keeps what is valid", () => {
    const started = launch({ path: 42, profiles: ["spec", "vscode", 7] });
    expect(started.command).toBe("skillforge");
    expect(started.initializationOptions.profiles).toEqual(["spec"]);
    expect(started.problems).toEqual([
      "skillforge.path must be a string; using skillforge from PATH",
      'unknown profile "vscode"; known: ' + PROFILES.join(", "),
      "unknown profile 7; known: " + PROFILES.join(", "),
    ]);
    expect(launch({ path: undefined, profiles: "spec" }).problems).toEqual([
      "skillforge.profiles must be a list of profile names",
    ]);
  });

  it("offers in its settings exactly the profiles it accepts", () => {
    const offered = manifest.contributes.configuration.properties["skillforge.profiles"].items.enum;
    expect(offered).toEqual([...PROFILES]);
  });

  it("knows the engine's profiles (generated from the engine into the app's bindings)", () => {
    const bindings = readFileSync(new URL("../../../ui/src/lib/bindings.gen.ts", import.meta.url), "utf8");
    const declared = /export const PROFILE_IDS = (\[[^\]]*\])/.exec(bindings);
    expect(declared).not.toBeNull();
    expect(JSON.parse(declared![1])).toEqual([...PROFILES]);
  });
});
