// Keeps one view in step with a stream of edits: a request made while nothing runs starts a run at the end of the
// current task (so the requests of one keystroke travel together, and the backend works while the window draws
// the keystroke); never two runs at once; and one more run when requests arrived during a run, so the last
// answer always reflects the last edit.

export interface Refresher {
  /** Asks for a run; `at` is when the change was made (the key event), now unless given. */
  request(at?: number): void;
  cancel(): void;
  /** Settles when no run is pending or in flight (for tests). */
  idle(): Promise<void>;
}

/** `run` receives the time of the first request it answers, for timing from the keystroke. */
export function refresher(run: (since: number) => Promise<void>): Refresher {
  let queued = false;
  let running: Promise<void> | null = null;
  let again = false;
  let since: number | null = null;
  // Bumped by cancel(), so a run queued before it does not start.
  let generation = 0;
  const waiters: (() => void)[] = [];

  const settleWaiters = () => {
    if (!queued && running === null && !again) waiters.splice(0).forEach((wake) => wake());
  };

  const start = () => {
    const first = since ?? now();
    since = null;
    running = run(first)
      .catch(() => {})
      .finally(() => {
        running = null;
        if (again) {
          again = false;
          start();
        } else {
          settleWaiters();
        }
      });
  };

  return {
    request(at) {
      const time = at ?? now();
      since = since === null ? time : Math.min(since, time);
      if (running) {
        again = true;
        return;
      }
      if (queued) return;
      queued = true;
      const queuedIn = generation;
      queueMicrotask(() => {
        queued = false;
        if (queuedIn !== generation) return settleWaiters();
        if (running) again = true;
        else start();
      });
    },
    cancel() {
      generation++;
      again = false;
      since = null;
      settleWaiters();
    },
    idle() {
      if (!queued && running === null && !again) return Promise.resolve();
      return new Promise((wake) => waiters.push(wake));
    },
  };
}

function now(): number {
  return typeof performance !== "undefined" ? performance.now() : Date.now();
}
