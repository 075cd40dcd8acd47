// What to do with an open buffer when its file changes on disk, and how the author's choice resolves it.
// Pure, so every path to "nothing lost" is tested without a window.

export type Conflict =
  /** The file changed on disk while the buffer had unsaved edits (or a save was refused). */
  | { kind: "changed"; theirs: string | null; fingerprint: string | null }
  /** The file was deleted while the buffer had unsaved edits. */
  | { kind: "deleted" };

export interface BufferFacts {
  dirty: boolean;
  /** The fingerprint of the version the buffer was read from or last saved as. */
  fingerprint: string | null;
  conflict: Conflict | null;
}

export type DiskEvent =
  | { kind: "read"; text: string; fingerprint: string }
  | { kind: "missing" }
  | { kind: "save-refused" };

export type Reaction =
  | { kind: "nothing" }
  /** Replace the buffer with the disk's text: it was clean, nothing is lost. */
  | { kind: "reload"; text: string; fingerprint: string }
  /** The file is gone and the buffer was clean: close it. */
  | { kind: "close" }
  | { kind: "conflict"; conflict: Conflict };

export function reactToDisk(buffer: BufferFacts, event: DiskEvent): Reaction {
  switch (event.kind) {
    case "read":
      // Our own save, or a touch that did not change the bytes.
      if (event.fingerprint === buffer.fingerprint) {
        return buffer.conflict?.kind === "deleted" ? { kind: "conflict", conflict: { kind: "changed", theirs: event.text, fingerprint: event.fingerprint } } : { kind: "nothing" };
      }
      if (!buffer.dirty && !buffer.conflict) return { kind: "reload", text: event.text, fingerprint: event.fingerprint };
      return { kind: "conflict", conflict: { kind: "changed", theirs: event.text, fingerprint: event.fingerprint } };
    case "missing":
      if (!buffer.dirty && !buffer.conflict) return { kind: "close" };
      return { kind: "conflict", conflict: { kind: "deleted" } };
    case "save-refused":
      return {
        kind: "conflict",
        conflict:
          buffer.conflict?.kind === "changed" ? buffer.conflict : { kind: "changed", theirs: null, fingerprint: null },
      };
  }
}

export type Resolution = "reload-theirs" | "keep-mine" | "save-again" | "close";

/** The choices the banner offers for a conflict. */
export function resolutions(conflict: Conflict): Resolution[] {
  return conflict.kind === "changed" ? ["reload-theirs", "keep-mine"] : ["save-again", "close"];
}
