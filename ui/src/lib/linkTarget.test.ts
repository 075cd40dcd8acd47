import { describe, expect, it, vi } from "vitest";
import type { Backend, EditorDiagnostic } from "./backend";
import { ConfirmStore } from "./confirm.svelte";
import { EditorStore } from "./editor.svelte";

function diagnostic(creates: string | null): EditorDiagnostic {
  return {
    code: "SF503",
    rule: "link-target-missing",
    severity: "warning",
    message: "`references/forms.md` does not exist in the skill folder",
    from: 10,
    to: 29,
    line: 8,
    column: 1,
    profiles: ["spec"],
    fix: { title: "Create `references/forms.md`", applicability: "display-only", edits: [], creates },
  } as EditorDiagnostic;
}

function store(answer: { status: "ok"; data: string } | { status: "error"; error: { code: "already_exists"; message: string } }) {
  const calls: string[] = [];
  const backend = {
    createLinkTarget: async (skill: string, target: string) => {
      calls.push(`createLinkTarget ${skill} ${target}`);
      return answer;
    },
    lintWorkspace: async () => ({ status: "ok", data: { files: [] } }),
  } as unknown as Backend;
  const editor = new EditorStore(backend, new ConfirmStore());
  editor.activePath = "/w/pdf/SKILL.md";
  return { editor, calls };
}

describe("the quick fix that creates a missing link target", () => {
  it("asks the engine to create the file for the open skill, and reloads the skill's files", async () => {
    const { editor, calls } = store({ status: "ok", data: "/w/pdf/references/forms.md" });
    const before = editor.filesChangedHere;
    expect(editor.fix(diagnostic("references/forms.md"))).toBe(true);
    await vi.waitFor(() => expect(editor.filesChangedHere).toBe(before + 1));
    expect(calls).toEqual(["createLinkTarget /w/pdf/SKILL.md references/forms.md"]);
    expect(editor.notice).toBeNull();
  });

  it("says why when the engine refuses, and changes nothing", async () => {
    const { editor } = store({ status: "error", error: { code: "already_exists", message: "/w/pdf/references/forms.md: already exists; choose another name" } });
    const before = editor.filesChangedHere;
    expect(await editor.createLinkTarget("/w/pdf/SKILL.md", "references/forms.md")).toBe(false);
    expect(editor.notice?.message).toContain("already exists");
    expect(editor.filesChangedHere).toBe(before);
  });

  it("is not offered as a text edit: a display-only fix without a file to create does nothing", () => {
    const { editor, calls } = store({ status: "ok", data: "" });
    expect(editor.fix(diagnostic(null))).toBe(false);
    expect(calls).toEqual([]);
  });
});
