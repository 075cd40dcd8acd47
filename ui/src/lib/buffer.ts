// Keeps the backend's copy of one editor buffer in step with CodeMirror: the whole text once, then only the
// changes of each edit. One request is in flight at a time; edits made meanwhile are composed and sent as one,
// so a slow answer never queues up stale work, and an idle editor answers a keystroke at once (no debounce).
import type { ChangeSet, Text } from "@codemirror/state";
import type { Backend, BufferLint, EditorEdit, ProfileId } from "./backend";
import { DocOffsets } from "./offsets";

export type BufferBackend = Pick<Backend, "openBuffer" | "editBuffer" | "closeBuffer">;

/** The backend's findings about one version of the text. */
export interface BufferLinted {
  /** The document the findings are about (compare by identity with the editor's). */
  doc: Text;
  lint: BufferLint;
  /** When the request left and its answer came back (performance.now()), and the backend's own share. */
  sentAt: number;
  answeredAt: number;
  backendMs: number;
}

/** CodeMirror's changes as the backend's edits: UTF-16 offsets into the file's text before the changes. */
export function toEdits(changes: ChangeSet, before: Text, lineBreak: "\r\n" | "\n"): EditorEdit[] {
  const offsets = new DocOffsets(before, lineBreak);
  const edits: EditorEdit[] = [];
  changes.iterChanges((fromA, toA, _fromB, _toB, inserted) => {
    edits.push({
      from: offsets.toOffset(fromA),
      to: offsets.toOffset(toA),
      // Line breaks as the file writes them, like the text that is saved.
      insert: inserted.sliceString(0, inserted.length, lineBreak),
    });
  });
  return edits;
}

export interface BufferSyncOptions {
  path: string;
  doc: Text;
  lineBreak: "\r\n" | "\n";
  backend: BufferBackend;
  profiles: () => ProfileId[];
  /** Only the shown buffer is linted; the others catch up when shown. */
  active: () => boolean;
  linted: (answer: BufferLinted) => void;
}

/** After this many refusals in a row, stop resending until the next edit (the backend keeps refusing). */
const MAX_RESENDS = 3;

export class BufferSync {
  readonly #options: BufferSyncOptions;
  #lineBreak: "\r\n" | "\n";
  /** The editor's text now. */
  #doc: Text;
  /** The text the backend holds (or is being sent): changes go from here. */
  #base: Text;
  /** The changes from `#base` to `#doc`, or null when there are none. */
  #changes: ChangeSet | null = null;
  /** The backend's buffer holding `#base` once it answered; null means the next request sends the whole text. */
  #held: { id: number; version: number } | null = null;
  #whole = true;
  #wanted = true;
  #busy = false;
  #scheduled = false;
  #closed = false;
  #resends = 0;

  constructor(options: BufferSyncOptions) {
    this.#options = options;
    this.#doc = options.doc;
    this.#base = options.doc;
    this.#lineBreak = options.lineBreak;
  }

  /** The editor applies `changes`, turning `before` into `after`; when idle, the change leaves at once. */
  changed(changes: ChangeSet, before: Text, after: Text): void {
    if (!this.#whole && before === this.#doc) {
      this.#changes = this.#changes ? this.#changes.compose(changes) : changes;
    } else {
      this.#whole = true;
      this.#changes = null;
    }
    this.#doc = after;
    this.#resends = 0;
    if (this.#busy) return;
    // At once rather than after the editor's update: the request travels while the editor redraws.
    void this.#send();
  }

  /** The text was replaced by other means than a change (a new editor state): send it whole. */
  replaced(doc: Text, lineBreak: "\r\n" | "\n"): void {
    this.#doc = doc;
    this.#lineBreak = lineBreak;
    this.#whole = true;
    this.#changes = null;
    this.#schedule();
  }

  /** Lints the current text again (another profile, or the buffer is shown again). */
  relint(): void {
    this.#wanted = true;
    this.#schedule();
  }

  close(): void {
    this.#closed = true;
    if (this.#held) void this.#options.backend.closeBuffer(this.#held.id);
    this.#held = null;
  }

  #schedule(): void {
    if (this.#scheduled || this.#closed) return;
    this.#scheduled = true;
    // After the current task's other transactions, so that they travel together.
    queueMicrotask(() => {
      this.#scheduled = false;
      void this.#send();
    });
  }

  async #send(): Promise<void> {
    if (this.#busy || this.#closed || !this.#options.active()) return;
    const whole = this.#whole || this.#held === null;
    if (!whole && !this.#changes && !this.#wanted) return;
    const { backend, path } = this.#options;
    const doc = this.#doc;
    const profiles = this.#options.profiles();
    const held = this.#held;
    const edits = !whole && this.#changes ? toEdits(this.#changes, this.#base, this.#lineBreak) : [];
    this.#base = doc;
    this.#changes = null;
    this.#whole = false;
    this.#wanted = false;
    this.#busy = true;
    const sentAt = performance.now();
    let reply;
    try {
      reply =
        whole || held === null
          ? await backend.openBuffer(path, doc.sliceString(0, doc.length, this.#lineBreak), profiles)
          : await backend.editBuffer(held.id, held.version, edits, profiles);
    } catch (error) {
      reply = { status: "error" as const, error: { code: "internal" as const, message: String(error) } };
    }
    const answeredAt = performance.now();
    this.#busy = false;
    if (this.#closed) {
      if (reply.status === "ok") void backend.closeBuffer(reply.data.id);
      return;
    }
    if (reply.status === "error") {
      // The backend may or may not hold `doc`: start over with the whole text at the next edit.
      this.#held = null;
      this.#whole = true;
      this.#changes = null;
      return;
    }
    const { id, answer, backend_ms } = reply.data;
    if (answer.kind === "resend") {
      this.#held = null;
      this.#whole = true;
      this.#changes = null;
      if (++this.#resends <= MAX_RESENDS) this.#schedule();
      return;
    }
    this.#resends = 0;
    this.#held = { id, version: answer.version };
    this.#options.linted({ doc, lint: answer.lint, sentAt, answeredAt, backendMs: backend_ms ?? 0 });
    if (this.#changes || this.#whole || this.#wanted) this.#schedule();
  }
}
