import { describe, expect, it } from "vitest";
import { countLabel, displayLocation, errorTitle, folderHoldingSkill, settle } from "./catalog";

describe("errorTitle", () => {
  it("names every error code", () => {
    expect(errorTitle("not_found")).toBe("Folder not found");
    expect(errorTitle("not_a_directory")).toBe("Not a folder");
    expect(errorTitle("unreadable")).toBe("Folder cannot be read");
    expect(errorTitle("outside_workspace")).toBe("Outside the workspace");
    expect(errorTitle("not_editable")).toBe("File cannot be edited");
    expect(errorTitle("changed_on_disk")).toBe("Changed on disk");
    expect(errorTitle("already_exists")).toBe("Already exists");
    expect(errorTitle("internal")).toBe("Something went wrong");
  });
});

describe("folderHoldingSkill", () => {
  it("is the folder above the skill's folder", () => {
    expect(folderHoldingSkill("/home/me/skills/pdf/SKILL.md")).toBe("/home/me/skills");
    expect(folderHoldingSkill("C:\\Users\\me\\pdf\\SKILL.md")).toBe("C:\\Users\\me");
    expect(folderHoldingSkill("/pdf/SKILL.md")).toBe("/");
  });
});

describe("displayLocation", () => {
  it("shortens locations inside the root", () => {
    expect(displayLocation("/work/skills/pdf/SKILL.md", "/work/skills")).toBe("pdf/SKILL.md");
    expect(displayLocation("/work/skills/pdf/SKILL.md", "/work/skills/")).toBe("pdf/SKILL.md");
  });

  it("keeps locations outside the root, or without one, unchanged", () => {
    expect(displayLocation("/work/skills-old/pdf/SKILL.md", "/work/skills")).toBe("/work/skills-old/pdf/SKILL.md");
    expect(displayLocation("builtin:pdf/SKILL.md", null)).toBe("builtin:pdf/SKILL.md");
  });
});

describe("countLabel", () => {
  it("uses the singular only for one", () => {
    expect(countLabel(0, "skill")).toBe("0 skills");
    expect(countLabel(1, "skill")).toBe("1 skill");
    expect(countLabel(3, "skill")).toBe("3 skills");
  });
});

describe("settle", () => {
  it("passes results through", async () => {
    expect(await settle(async () => ({ status: "ok", data: 1 }))).toEqual({ status: "ok", data: 1 });
  });

  it("turns a rejected call into an internal error", async () => {
    const result = await settle(async () => {
      throw new Error("channel closed");
    });
    expect(result).toEqual({
      status: "error",
      error: { code: "internal", message: "The backend did not answer: channel closed" },
    });
  });
});
