// The editor keeps the file's exact text, but CodeMirror counts a line break as one position even when it is
// "\r\n". The backend reports UTF-16 offsets into the exact text, so in a CRLF file every earlier "\r\n" shifts
// an offset by one. This module is the only place that knows it.

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
