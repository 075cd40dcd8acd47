// Keeps one view in step with a stream of edits: runs after a short quiet spell, never two runs at once, and one
// more run when edits arrived during a run, so the last answer always reflects the last edit.

export interface Refresher {
  /** Asks for a run soon. */
  request(): void;
  /** Runs now (a setting changed: no reason to wait). */
  now(): void;
  cancel(): void;
  /** Settles when no run is pending or in flight (for tests). */
  idle(): Promise<void>;
}

/** `run` receives the time of the first request it answers, for timing from the keystroke. */
export function refresher(run: (since: number) => Promise<void>, delayMs: number): Refresher {
  let timer: ReturnType<typeof setTimeout> | null = null;
  let running: Promise<void> | null = null;
  let again = false;
  let since: number | null = null;
  let cancelled = false;
  const waiters: (() => void)[] = [];

  const settleWaiters = () => {
    if (timer === null && running === null && !again) waiters.splice(0).forEach((wake) => wake());
  };

  const start = () => {
    timer = null;
    if (running) {
      again = true;
      return;
    }
    const first = since ?? now();
    since = null;
    running = run(first)
      .catch(() => {})
      .finally(() => {
        running = null;
        if (again && !cancelled) {
          again = false;
          start();
        } else {
          again = false;
          settleWaiters();
        }
      });
  };

  return {
    request() {
      cancelled = false;
      since ??= now();
      if (timer !== null) clearTimeout(timer);
      timer = setTimeout(start, delayMs);
    },
    now() {
      cancelled = false;
      since ??= now();
      if (timer !== null) clearTimeout(timer);
      start();
    },
    cancel() {
      cancelled = true;
      if (timer !== null) clearTimeout(timer);
      timer = null;
      again = false;
      since = null;
      settleWaiters();
    },
    idle() {
      if (timer === null && running === null && !again) return Promise.resolve();
      return new Promise((wake) => waiters.push(wake));
    },
  };
}

function now(): number {
  return typeof performance !== "undefined" ? performance.now() : Date.now();
}
