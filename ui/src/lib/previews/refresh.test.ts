import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { refresher } from "./refresh";

beforeEach(() => vi.useFakeTimers());
afterEach(() => vi.useRealTimers());

function gate() {
  let open!: () => void;
  const promise = new Promise<void>((resolve) => (open = resolve));
  return { promise, open };
}

describe("refresher", () => {
  it("runs once after a burst of requests", async () => {
    const run = vi.fn(async () => {});
    const live = refresher(run, 50);
    live.request();
    live.request();
    vi.advanceTimersByTime(40);
    live.request();
    vi.advanceTimersByTime(49);
    expect(run).not.toHaveBeenCalled();
    vi.advanceTimersByTime(1);
    expect(run).toHaveBeenCalledTimes(1);
  });

  it("never overlaps runs, and runs once more for requests made during a run", async () => {
    const gates = [gate(), gate()];
    let started = 0;
    const run = vi.fn(() => gates[started++].promise);
    const live = refresher(run, 10);
    live.now();
    live.request();
    live.request();
    vi.advanceTimersByTime(20);
    expect(run).toHaveBeenCalledTimes(1);
    gates[0].open();
    await vi.waitFor(() => expect(run).toHaveBeenCalledTimes(2));
    gates[1].open();
    await live.idle();
    expect(run).toHaveBeenCalledTimes(2);
  });

  it("passes the time of the first request it answers, and cancel drops what is pending", async () => {
    const run = vi.fn(async (_since: number) => {});
    const live = refresher(run, 10);
    live.request();
    live.cancel();
    vi.advanceTimersByTime(20);
    expect(run).not.toHaveBeenCalled();
    live.request();
    vi.advanceTimersByTime(10);
    expect(typeof run.mock.calls[0][0]).toBe("number");
  });
});
