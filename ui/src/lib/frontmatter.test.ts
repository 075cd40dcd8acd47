import { markdown } from "@codemirror/lang-markdown";
import { ensureSyntaxTree } from "@codemirror/language";
import { EditorState } from "@codemirror/state";
import { describe, expect, it } from "vitest";
import { frontmatter } from "./frontmatter";

function parse(text: string): string {
  const state = EditorState.create({ doc: text, extensions: [markdown({ extensions: [frontmatter] })] });
  return ensureSyntaxTree(state, state.doc.length, 1e9)?.toString() ?? "";
}

function treeAfterEdits(text: string, edits: { from: number; to?: number; insert?: string }[]): { incremental: string; fresh: string } {
  let state = EditorState.create({ doc: text, extensions: [markdown({ extensions: [frontmatter] })] });
  ensureSyntaxTree(state, state.doc.length, 1e9);
  for (const edit of edits) {
    state = state.update({ changes: edit }).state;
    ensureSyntaxTree(state, state.doc.length, 1e9);
  }
  return { incremental: ensureSyntaxTree(state, state.doc.length, 1e9)?.toString() ?? "", fresh: parse(state.doc.toString()) };
}

describe("frontmatter", () => {
  it("parses the leading block as YAML and the rest as Markdown", () => {
    expect(parse("---\nname: x\n---\n# Title\n")).toBe(
      'Document(Frontmatter(FrontmatterMark,Stream(Document(BlockMapping(Pair(Key(Literal),":",Literal)))),FrontmatterMark),ATXHeading1(HeaderMark))',
    );
  });

  it("accepts an empty frontmatter", () => {
    expect(parse("---\n---\nBody\n")).toBe("Document(Frontmatter(FrontmatterMark,FrontmatterMark),Paragraph)");
  });

  it("runs to the end of the text when it is never closed, like yamlFrontmatter", () => {
    expect(parse("---\nname: x\n\n# Title\n")).toMatch(/^Document\(Frontmatter\(FrontmatterMark,Stream\(/);
    expect(parse("---\nname: x\n\n# Title\n")).not.toContain("ATXHeading1");
  });

  it("is only a frontmatter at the very start, on a line of exactly three dashes", () => {
    expect(parse("Intro\n---\nname: x\n---\n")).not.toContain("Frontmatter");
    expect(parse("---  \nname: x\n---\n")).not.toContain("Frontmatter");
    expect(parse("\uFEFF---\nname: x\n---\n")).not.toContain("Frontmatter");
  });

  it("gives after edits the same tree as a fresh parse", () => {
    const body = Array.from({ length: 200 }, (_, index) => `\n## Step ${index}\n\nSome text for step ${index}.\n`).join("");
    const text = `---\nname: large\ndescription: d\n---\n${body}`;
    for (const edits of [
      [{ from: 15, insert: "X" }, { from: 15, to: 16 }],
      // Breaking and repairing the closing line moves the end of the frontmatter.
      [{ from: 31, to: 32 }, { from: 31, insert: "-" }],
      [{ from: 0, to: 1 }],
      [{ from: text.length - 5, insert: "\n---\n" }],
    ]) {
      const { incremental, fresh } = treeAfterEdits(text, edits);
      expect(incremental).toBe(fresh);
    }
    // Unclosed, the frontmatter swallows the body. (The YAML inside may differ in detail from a fresh parse when
    // the incremental one was cut by its time budget: lezer resumes nested parses at other points.)
    const { incremental } = treeAfterEdits(text, [{ from: 31, to: 32 }]);
    expect(incremental).toMatch(/^Document\(Frontmatter\(FrontmatterMark,Stream\(/);
    expect(incremental).not.toContain("ATXHeading");
  });
});
