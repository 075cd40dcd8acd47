import { describe, expect, it } from "vitest";
import type { WorkspaceNotice } from "./backend";
import { groupNotices, noticesByPath } from "./notices";

const notice = (group: string, path: string | null, severity: WorkspaceNotice["severity"] = "warning"): WorkspaceNotice => ({
  severity,
  group,
  client: "nagents",
  path,
  message: `about ${path}`,
});

describe("workspace notices", () => {
  it("groups by kind, worst group first, keeping the order within a group", () => {
    const groups = groupNotices([
      notice("unreadable", "/w/a/SKILL.md"),
      notice("hidden", "/w/b/SKILL.md", "info"),
      notice("unreadable", "/w/c/SKILL.md"),
      notice("refused", null, "error"),
    ]);
    expect(groups.map((group) => [group.title, group.severity, group.notices.length])).toEqual([
      ["refused", "error", 1],
      ["unreadable", "warning", 2],
      ["hidden", "info", 1],
    ]);
    expect(groups[1].notices.map((each) => each.path)).toEqual(["/w/a/SKILL.md", "/w/c/SKILL.md"]);
  });

  it("finds the notices about each skill file", () => {
    const byPath = noticesByPath([notice("unreadable", "/w/a/SKILL.md"), notice("refused", null), notice("limits", "/w/a/SKILL.md")]);
    expect(byPath.get("/w/a/SKILL.md")?.map((each) => each.group)).toEqual(["unreadable", "limits"]);
    expect(byPath.size).toBe(1);
  });
});
