// jsdom lays nothing out; CodeMirror measures text ranges, so give ranges the empty geometry jsdom gives elements.
if (typeof Range !== "undefined" && !Range.prototype.getClientRects) {
  const empty = { length: 0, item: () => null, [Symbol.iterator]: function* () {} } as unknown as DOMRectList;
  Range.prototype.getClientRects = () => empty;
  Range.prototype.getBoundingClientRect = () => new DOMRect(0, 0, 0, 0);
}
