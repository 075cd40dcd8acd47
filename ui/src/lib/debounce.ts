/** A function that runs `action` once, `delayMs` after the last call; `flush` runs a pending call now. */
export interface Debounced<Args extends unknown[]> {
  (...args: Args): void;
  cancel(): void;
  flush(): void;
}

/** `delayMs` may be a function, asked on every call (a delay that grows with the size of the input). */
export function debounce<Args extends unknown[]>(
  action: (...args: Args) => void,
  delayMs: number | (() => number),
): Debounced<Args> {
  let timer: ReturnType<typeof setTimeout> | null = null;
  let pending: Args | null = null;
  const run = () => {
    timer = null;
    const args = pending;
    pending = null;
    if (args) action(...args);
  };
  const debounced = (...args: Args) => {
    pending = args;
    if (timer !== null) clearTimeout(timer);
    timer = setTimeout(run, typeof delayMs === "function" ? delayMs() : delayMs);
  };
  debounced.cancel = () => {
    if (timer !== null) clearTimeout(timer);
    timer = null;
    pending = null;
  };
  debounced.flush = () => {
    if (timer !== null) clearTimeout(timer);
    run();
  };
  return debounced;
}
