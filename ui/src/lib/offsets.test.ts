import { EditorState } from "@codemirror/state";
import { describe, expect, it } from "vitest";
import { DocOffsets, OffsetMap, detectLineSeparator } from "./offsets";

function editorState(text: string): EditorState {
  return EditorState.create({ doc: text, extensions: EditorState.lineSeparator.of(detectLineSeparator(text)) });
}

describe("detectLineSeparator", () => {
  it("follows the first line break", () => {
    expect(detectLineSeparator("a\r\nb\nc")).toBe("\r\n");
    expect(detectLineSeparator("a\nb\r\nc")).toBe("\n");
    expect(detectLineSeparator("no break")).toBe("\n");
    expect(detectLineSeparator("\n")).toBe("\n");
  });
});

describe("the editor keeps the file byte for byte", () => {
  it.each([
    ["LF", "---\nname: a\n---\nbody\n"],
    ["CRLF", "---\r\nname: a\r\n---\r\nbody\r\n"],
    ["BOM and CRLF", "\uFEFF---\r\nname: a\r\n---\r\n"],
    ["a lone CR in an LF file", "a\rb\nc"],
    ["mixed endings", "a\r\nb\nc\r\n"],
    ["astral characters", "😀\r\nx😀\r\n"],
  ])("%s", (_label, text) => {
    // sliceDoc joins lines with the state's separator; doc.toString() would always use "\n".
    expect(editorState(text).sliceDoc()).toBe(text);
  });
});

describe("OffsetMap", () => {
  it("is the identity for LF text", () => {
    const map = new OffsetMap("a\nbc\n");
    for (let offset = 0; offset <= 5; offset++) {
      expect(map.toPosition(offset)).toBe(offset);
      expect(map.toOffset(offset)).toBe(offset);
    }
  });

  it("maps every character of a CRLF file to the same character in the editor", () => {
    const text = "\uFEFF---\r\nname: Ab😀\r\n---\r\n\r\nbody\nline\r\nend";
    const state = editorState(text);
    const map = new OffsetMap(text);
    for (let offset = 0; offset < text.length; offset++) {
      if (text[offset] === "\n" && text[offset - 1] === "\r") continue;
      if (text[offset] === "\r" && text[offset + 1] === "\n") {
        // The "\r\n" pair is the line end.
        expect(state.doc.lineAt(map.toPosition(offset)).to).toBe(map.toPosition(offset));
        continue;
      }
      const position = map.toPosition(offset);
      expect(state.sliceDoc(position, position + 1)).toBe(text[offset]);
      expect(map.toOffset(position)).toBe(offset);
    }
    expect(map.toPosition(text.length)).toBe(state.doc.length);
    expect(map.toOffset(state.doc.length)).toBe(text.length);
  });

  it("puts an offset between CR and LF at the line end", () => {
    const map = new OffsetMap("ab\r\ncd");
    expect(map.toPosition(2)).toBe(2);
    expect(map.toPosition(3)).toBe(2);
    expect(map.toPosition(4)).toBe(3);
  });
});

describe("DocOffsets", () => {
  it.each([
    ["LF", "---\nname: a\n---\nbody\n"],
    ["CRLF", "---\r\nname: a\r\n---\r\nbody\r\n"],
    ["BOM, CRLF and astral characters", "\uFEFF---\r\nname: 😀\r\n\r\n😀😀\r\nend"],
    ["a lone LF in a CRLF file", "a\r\nb\nc\r\n"],
  ])("agrees with OffsetMap at every offset and position (%s)", (_label, text) => {
    const state = editorState(text);
    const separator = detectLineSeparator(text);
    const scanned = new OffsetMap(text, separator);
    const asked = new DocOffsets(state.doc, separator);
    for (let offset = 0; offset <= text.length; offset++) expect(asked.toPosition(offset)).toBe(scanned.toPosition(offset));
    for (let position = 0; position <= state.doc.length; position++) {
      expect(asked.toOffset(position)).toBe(scanned.toOffset(position));
    }
  });
});
