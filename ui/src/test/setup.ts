// jsdom lays nothing out; CodeMirror measures text ranges, so give ranges the empty geometry jsdom gives elements.
if (typeof Range !== "undefined" && !Range.prototype.getClientRects) {
  const empty = { length: 0, item: () => null, [Symbol.iterator]: function* () {} } as unknown as DOMRectList;
  Range.prototype.getClientRects = () => empty;
  Range.prototype.getBoundingClientRect = () => new DOMRect(0, 0, 0, 0);
}

// The fake backend answers from the engine's recorded answers only; a request they do not cover fails the test
// (with the question to add to engine-questions.json) instead of passing on an invented answer.
import { afterEach, expect } from "vitest";
import { misses } from "./engineAnswers";

afterEach(() => {
  const left = misses.splice(0);
  expect(left, "requests the engine's recorded answers do not cover").toEqual([]);
});
