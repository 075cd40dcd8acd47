import { describe, expect, it } from "vitest";
import { shallowReach } from "./reach";

const skill = (location: string) => ({ name: location.split("/").slice(-2)[0], description: "d", location });
const roots = [{ path: "/w/repo", label: "repo" }];

describe("shallowReach", () => {
  it("is null when every skill sits directly inside an opened folder", () => {
    expect(shallowReach([skill("/w/repo/a/SKILL.md"), skill("/w/repo/b/SKILL.md")], roots)).toBeNull();
  });

  it("counts the skills two levels down and names the folders that hold them, most first", () => {
    const reach = shallowReach(
      [
        skill("/w/repo/top/SKILL.md"),
        skill("/w/repo/skills/a/SKILL.md"),
        skill("/w/repo/skills/b/SKILL.md"),
        skill("/w/repo/plugins/x/skills/c/SKILL.md"),
      ],
      roots,
    );
    expect(reach).toEqual({
      unreached: 3,
      holders: [
        { path: "/w/repo/skills", skills: 2 },
        { path: "/w/repo/plugins/x/skills", skills: 1 },
      ],
    });
  });

  it("takes a folder holding a SKILL.md as one skill, so nothing below it is reached", () => {
    const reach = shallowReach([skill("/w/repo/SKILL.md"), skill("/w/repo/a/SKILL.md")], roots);
    expect(reach).toEqual({ unreached: 1, holders: [{ path: "/w/repo", skills: 1 }] });
  });
});
