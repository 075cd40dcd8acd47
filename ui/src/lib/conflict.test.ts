import { describe, expect, it } from "vitest";
import { reactToDisk, resolutions, type BufferFacts } from "./conflict";

const clean: BufferFacts = { dirty: false, fingerprint: "f1", conflict: null };
const dirty: BufferFacts = { dirty: true, fingerprint: "f1", conflict: null };

describe("reactToDisk", () => {
  it("ignores a change that leaves the bytes as the buffer knows them", () => {
    expect(reactToDisk(dirty, { kind: "read", text: "x", fingerprint: "f1" })).toEqual({ kind: "nothing" });
  });

  it("reloads a clean buffer by itself", () => {
    expect(reactToDisk(clean, { kind: "read", text: "new", fingerprint: "f2" })).toEqual({
      kind: "reload",
      text: "new",
      fingerprint: "f2",
    });
  });

  it("never replaces unsaved edits: a dirty buffer gets a conflict that keeps their text", () => {
    expect(reactToDisk(dirty, { kind: "read", text: "theirs", fingerprint: "f2" })).toEqual({
      kind: "conflict",
      conflict: { kind: "changed", theirs: "theirs", fingerprint: "f2" },
    });
  });

  it("closes a clean buffer whose file was deleted, and keeps a dirty one with a banner", () => {
    expect(reactToDisk(clean, { kind: "missing" })).toEqual({ kind: "close" });
    expect(reactToDisk(dirty, { kind: "missing" })).toEqual({ kind: "conflict", conflict: { kind: "deleted" } });
  });

  it("keeps a buffer in conflict even when it is no longer dirty", () => {
    const inConflict: BufferFacts = { dirty: false, fingerprint: "f1", conflict: { kind: "deleted" } };
    expect(reactToDisk(inConflict, { kind: "read", text: "back", fingerprint: "f3" }).kind).toBe("conflict");
  });

  it("turns a refused save into a changed-on-disk conflict, keeping what is known of theirs", () => {
    expect(reactToDisk(dirty, { kind: "save-refused" })).toEqual({
      kind: "conflict",
      conflict: { kind: "changed", theirs: null, fingerprint: null },
    });
    const known: BufferFacts = { ...dirty, conflict: { kind: "changed", theirs: "t", fingerprint: "f2" } };
    expect(reactToDisk(known, { kind: "save-refused" })).toEqual({ kind: "conflict", conflict: known.conflict });
  });
});

describe("resolutions", () => {
  it("offers reload or keep for a change, save again or close for a deletion", () => {
    expect(resolutions({ kind: "changed", theirs: null, fingerprint: null })).toEqual(["reload-theirs", "keep-mine"]);
    expect(resolutions({ kind: "deleted" })).toEqual(["save-again", "close"]);
  });
});
