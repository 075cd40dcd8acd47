// When a change is on screen, for the timings the speed benchmarks read.

/**
 * Runs `then` once the current changes are on screen: a task queued from the next frame's callbacks runs after
 * that frame's style, layout and paint. `frameAt` is when the frame began.
 */
export function afterPaint(then: (frameAt: number) => void): void {
  if (typeof requestAnimationFrame === "function") {
    requestAnimationFrame(() => {
      const frameAt = performance.now();
      setTimeout(() => then(frameAt), 0);
    });
  } else setTimeout(() => then(performance.now()), 0);
}

/** Settles once the current changes are painted (see {@link afterPaint}). */
export function painted(): Promise<void> {
  return new Promise((resolve) => afterPaint(() => resolve()));
}
