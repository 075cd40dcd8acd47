import { describe, expect, it } from "vitest";
import { resolveBundled } from "./links";

describe("resolveBundled", () => {
  const from = "/work/skills/csv/SKILL.md";
  it("resolves inside the skill folder", () => {
    expect(resolveBundled(from, "references/notes.md")).toBe("/work/skills/csv/references/notes.md");
    expect(resolveBundled(from, "./a/../b%20c.md#part")).toBe("/work/skills/csv/b c.md");
  });
  it("refuses anything that leaves the folder or is not a relative path", () => {
    for (const target of ["../other/SKILL.md", "/etc/passwd", "javascript:alert(1)", "file:///etc", "", "#top"]) {
      expect(resolveBundled(from, target)).toBeNull();
    }
  });
});
