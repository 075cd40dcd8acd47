// The editor keeps the file's exact text, but CodeMirror counts a line break as one position even when it is
// "\r\n". The backend reports UTF-16 offsets into the exact text, so in a CRLF file every earlier "\r\n" shifts
// an offset by one. This module is the only place that knows it.
import type { Text } from "@codemirror/state";

/** "\r\n" when the file uses Windows line endings (the first line break decides), else "\n". */
export function detectLineSeparator(text: string): "\r\n" | "\n" {
  const newline = text.indexOf("\n");
  return newline > 0 && text[newline - 1] === "\r" ? "\r\n" : "\n";
}

/** Converts between offsets into the file's text and CodeMirror positions for one text. */
export class OffsetMap {
  // Offsets (into the file text) of each "\r\n" that CodeMirror treats as one line break, ascending.
  readonly #breaks: number[];

  constructor(text: string, separator: "\r\n" | "\n" = detectLineSeparator(text)) {
    this.#breaks = [];
    if (separator === "\r\n") {
      for (let at = text.indexOf("\r\n"); at !== -1; at = text.indexOf("\r\n", at + 2)) this.#breaks.push(at);
    }
  }

  /** The CodeMirror position for a UTF-16 offset into the file (an offset between "\r" and "\n" maps to the line end). */
  toPosition(offset: number): number {
    // Each "\r\n" that starts before the offset folds two units into one position; an offset between its
    // "\r" and "\n" lands on the line end.
    return offset - this.#countBefore(offset);
  }

  /** The UTF-16 offset into the file for a CodeMirror position. */
  toOffset(position: number): number {
    // Binary search for the number of breaks whose position (break offset minus earlier breaks) is below `position`.
    let low = 0;
    let high = this.#breaks.length;
    while (low < high) {
      const middle = (low + high) >> 1;
      if (this.#breaks[middle] - middle < position) low = middle + 1;
      else high = middle;
    }
    return position + low;
  }

  #countBefore(offset: number): number {
    let low = 0;
    let high = this.#breaks.length;
    while (low < high) {
      const middle = (low + high) >> 1;
      if (this.#breaks[middle] < offset) low = middle + 1;
      else high = middle;
    }
    return low;
  }
}

/** Converts between file offsets and editor positions; both directions agree with `OffsetMap`. */
export interface Offsets {
  toPosition(offset: number): number;
  toOffset(position: number): number;
}

/**
 * The same conversion as `OffsetMap`, asked of the document's own line tree instead of a scan of the text:
 * nothing is precomputed, and each conversion costs O(log² lines), so a keystroke in a large file converts
 * only the offsets it needs.
 */
export class DocOffsets implements Offsets {
  readonly #doc: Text;
  readonly #crlf: boolean;

  constructor(doc: Text, lineBreak: "\r\n" | "\n") {
    this.#doc = doc;
    this.#crlf = lineBreak === "\r\n";
  }

  toOffset(position: number): number {
    if (!this.#crlf) return position;
    const clamped = Math.max(0, Math.min(position, this.#doc.length));
    // Every line break before the position's line is two units in the file.
    return position + this.#doc.lineAt(clamped).number - 1;
  }

  toPosition(offset: number): number {
    if (!this.#crlf) return offset;
    // The last line whose start (in file offsets: its position plus one unit per earlier break) is at or
    // before the offset; an offset inside a "\r\n" lands on that line's end.
    let low = 1;
    let high = this.#doc.lines;
    while (low < high) {
      const middle = (low + high + 1) >> 1;
      if (this.#doc.line(middle).from + middle - 1 <= offset) low = middle;
      else high = middle - 1;
    }
    const line = this.#doc.line(low);
    const position = offset - (low - 1);
    return low === this.#doc.lines ? position : Math.min(position, line.to);
  }
}
