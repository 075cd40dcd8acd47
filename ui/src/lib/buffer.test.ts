import { ChangeSet, EditorState, type Text } from "@codemirror/state";
import { describe, expect, it } from "vitest";
import type { BufferReply, EditorEdit, ProfileId, Result } from "./backend";
import { BufferSync, toEdits, type BufferBackend, type BufferLinted } from "./buffer";
import { detectLineSeparator } from "./offsets";

function state(text: string): EditorState {
  return EditorState.create({ doc: text, extensions: EditorState.lineSeparator.of(detectLineSeparator(text)) });
}

/** The backend's way of applying edits: UTF-16 offsets into the exact file text, all relative to the text before. */
function applyEdits(text: string, edits: EditorEdit[]): string {
  let result = text;
  for (const edit of [...edits].reverse()) result = result.slice(0, edit.from) + edit.insert + result.slice(edit.to);
  return result;
}

describe("toEdits", () => {
  it.each([
    ["LF", "---\nname: a\n---\nbody\n"],
    ["CRLF", "---\r\nname: a\r\n---\r\nbody\r\n"],
    ["BOM, CRLF and astral characters", "\uFEFF---\r\nname: 😀a\r\n---\r\n😀 body 😀\r\nend"],
    ["a lone LF in a CRLF file", "a\r\nb\nc\r\nd"],
  ])("turns CodeMirror changes into edits of the file text (%s)", (_label, text) => {
    let current = state(text);
    let fileText = text;
    // Several changes at once (like a multi-cursor edit), each touching line breaks and astral characters.
    const specs = [
      (doc: Text) => [
        { from: 0, to: 0, insert: "x" },
        { from: Math.min(5, doc.length), to: Math.min(8, doc.length), insert: "😀\nnew line" },
        { from: doc.length, insert: "\ntail" },
      ],
      (doc: Text) => [{ from: doc.line(2).from, to: doc.line(Math.min(3, doc.lines)).to, insert: "" }],
      (doc: Text) => [{ from: doc.line(1).to, to: Math.min(doc.line(1).to + 1, doc.length), insert: "\n\n" }],
    ];
    for (const spec of specs) {
      const transaction = current.update({ changes: spec(current.doc) });
      const edits = toEdits(transaction.changes, current.doc, current.lineBreak === "\r\n" ? "\r\n" : "\n");
      fileText = applyEdits(fileText, edits);
      current = transaction.state;
      expect(fileText).toBe(current.sliceDoc());
    }
  });
});

type Call = { kind: "open"; text: string } | { kind: "edit"; id: number; version: number; edits: EditorEdit[] };

/** A backend that holds buffers like the real one, answers when the test says, and can lose an update. */
function heldBackend() {
  const calls: Call[] = [];
  const held = new Map<number, { text: string; version: number }>();
  const waiting: (() => void)[] = [];
  let nextId = 0;
  let manual = false;
  const reply = (id: number, text: string, version: number): Result<BufferReply> => ({
    status: "ok",
    data: { id, answer: { kind: "linted", version, lint: { diagnostics: [], verdicts: [{ profile: "spec", outcome: "skipped", reason: text }] } }, backend_ms: 1 },
  });
  const answer = <T>(value: () => T): Promise<T> =>
    manual ? new Promise((resolve) => waiting.push(() => resolve(value()))) : Promise.resolve(value());
  const backend: BufferBackend = {
    openBuffer: (_path: string, text: string, _profiles: ProfileId[]) => {
      calls.push({ kind: "open", text });
      return answer(() => {
        const id = ++nextId;
        held.set(id, { text, version: 0 });
        return reply(id, text, 0);
      });
    },
    editBuffer: (id: number, version: number, edits: EditorEdit[], _profiles: ProfileId[]) => {
      calls.push({ kind: "edit", id, version, edits });
      return answer((): Result<BufferReply> => {
        const buffer = held.get(id);
        if (!buffer || buffer.version !== version) {
          return { status: "ok", data: { id, answer: { kind: "resend", message: "version mismatch" }, backend_ms: 0 } };
        }
        buffer.text = applyEdits(buffer.text, edits);
        buffer.version++;
        return reply(id, buffer.text, buffer.version);
      });
    },
    closeBuffer: async (id: number) => {
      held.delete(id);
      return { status: "ok", data: null };
    },
  };
  return {
    backend,
    calls,
    held,
    hold: () => {
      manual = true;
    },
    /** Answers the oldest waiting request. */
    answerNext: async () => {
      waiting.shift()?.();
      await settle();
    },
  };
}

async function settle() {
  for (let round = 0; round < 5; round++) await new Promise((resolve) => setTimeout(resolve, 0));
}

function setup(text: string) {
  const server = heldBackend();
  let current = state(text);
  const linted: BufferLinted[] = [];
  const sync = new BufferSync({
    path: "/s/a/SKILL.md",
    doc: current.doc,
    lineBreak: detectLineSeparator(text),
    backend: server.backend,
    profiles: () => ["spec"],
    active: () => true,
    linted: (answer) => linted.push(answer),
  });
  const type = (from: number, to: number, insert: string) => {
    const transaction = current.update({ changes: { from, to, insert } });
    sync.changed(transaction.changes, current.doc, transaction.state.doc);
    current = transaction.state;
  };
  return { server, sync, type, linted, current: () => current };
}

/** What the backend says it linted (the fake puts the text in the verdict). */
function lintedText(answer: BufferLinted): string {
  const verdict = answer.lint.verdicts[0];
  return verdict.outcome === "skipped" ? verdict.reason : "";
}

describe("BufferSync", () => {
  it("sends the whole text once, then only the changes", async () => {
    const { server, sync, type, linted, current } = setup("---\r\nname: a\r\n---\r\n");
    sync.relint();
    await settle();
    type(11, 11, "b\r\nc");
    await settle();
    expect(server.calls.map((call) => call.kind)).toEqual(["open", "edit"]);
    expect(server.calls[1]).toEqual({ kind: "edit", id: 1, version: 0, edits: [{ from: 12, to: 12, insert: "b\r\nc" }] });
    expect(server.held.get(1)?.text).toBe(current().sliceDoc());
    expect(linted.map(lintedText)).toEqual(["---\r\nname: a\r\n---\r\n", current().sliceDoc()]);
    expect(linted[1].doc).toBe(current().doc);
  });

  it("keeps one request in flight and sends the edits made meanwhile together", async () => {
    const { server, sync, type, linted, current } = setup("name: a\n");
    sync.relint();
    await settle();
    server.hold();
    type(7, 7, "b");
    await settle();
    type(8, 8, "c");
    type(9, 9, "d");
    await settle();
    expect(server.calls.length).toBe(2);
    await server.answerNext();
    expect(server.calls.length).toBe(3);
    expect(server.calls[2]).toEqual({ kind: "edit", id: 1, version: 1, edits: [{ from: 8, to: 8, insert: "cd" }] });
    await server.answerNext();
    expect(server.held.get(1)?.text).toBe("name: abcd\n");
    expect(linted.at(-1)?.doc).toBe(current().doc);
  });

  it("sends the whole text again when the backend's copy is at another version", async () => {
    const { server, sync, type, linted, current } = setup("name: a\n");
    sync.relint();
    await settle();
    // An update lost on the way: the backend's copy moved on without the editor knowing.
    const held = server.held.get(1)!;
    held.version = 7;
    held.text = "something else";
    type(7, 7, "b");
    await settle();
    expect(server.calls.map((call) => call.kind)).toEqual(["open", "edit", "open"]);
    expect(server.calls[2]).toEqual({ kind: "open", text: "name: ab\n" });
    expect(server.held.get(2)?.text).toBe(current().sliceDoc());
    expect(lintedText(linted.at(-1)!)).toBe("name: ab\n");
    // And carries on with changes from the resent text.
    type(8, 8, "c");
    await settle();
    expect(server.calls.at(-1)).toEqual({ kind: "edit", id: 2, version: 0, edits: [{ from: 8, to: 8, insert: "c" }] });
    expect(server.held.get(2)?.text).toBe("name: abc\n");
  });

  it("starts over with the whole text after a failed request", async () => {
    const { server, sync, type, current } = setup("name: a\n");
    sync.relint();
    await settle();
    const edit = server.backend.editBuffer;
    server.backend.editBuffer = async () => ({ status: "error", error: { code: "internal", message: "gone" } });
    type(7, 7, "b");
    await settle();
    server.backend.editBuffer = edit;
    type(8, 8, "c");
    await settle();
    expect(server.calls.at(-1)).toEqual({ kind: "open", text: "name: abc\n" });
    expect(server.held.get(2)?.text).toBe(current().sliceDoc());
  });

  it("waits while its document is not shown, and catches up when asked", async () => {
    const server = heldBackend();
    let shown = false;
    let current = state("a");
    const sync = new BufferSync({
      path: "/s/a/SKILL.md",
      doc: current.doc,
      lineBreak: "\n",
      backend: server.backend,
      profiles: () => ["spec"],
      active: () => shown,
      linted: () => {},
    });
    const transaction = current.update({ changes: ChangeSet.of({ from: 1, insert: "b" }, 1) });
    sync.changed(transaction.changes, current.doc, transaction.state.doc);
    current = transaction.state;
    await settle();
    expect(server.calls).toEqual([]);
    shown = true;
    sync.relint();
    await settle();
    expect(server.calls).toEqual([{ kind: "open", text: "ab" }]);
  });
});
