import { describe, expect, it, vi } from "vitest";
import { refresher } from "./refresh";

function gate() {
  let open!: () => void;
  const promise = new Promise<void>((resolve) => (open = resolve));
  return { promise, open };
}

describe("refresher", () => {
  it("runs once for the requests of one task, after that task", async () => {
    const run = vi.fn(async () => {});
    const live = refresher(run);
    live.request();
    live.request();
    live.request();
    expect(run).not.toHaveBeenCalled();
    await live.idle();
    expect(run).toHaveBeenCalledTimes(1);
  });

  it("never overlaps runs, and runs once more for requests made during a run", async () => {
    const gates = [gate(), gate()];
    let started = 0;
    const run = vi.fn(() => gates[started++].promise);
    const live = refresher(run);
    live.request();
    await vi.waitFor(() => expect(run).toHaveBeenCalledTimes(1));
    live.request();
    live.request();
    await Promise.resolve();
    expect(run).toHaveBeenCalledTimes(1);
    gates[0].open();
    await vi.waitFor(() => expect(run).toHaveBeenCalledTimes(2));
    gates[1].open();
    await live.idle();
    expect(run).toHaveBeenCalledTimes(2);
  });

  it("passes the earliest change time it answers", async () => {
    const run = vi.fn(async (_since: number) => {});
    const live = refresher(run);
    live.request(50);
    live.request(20);
    live.request(70);
    await live.idle();
    expect(run.mock.calls).toEqual([[20]]);
    const before = performance.now();
    live.request();
    await live.idle();
    expect(run.mock.calls[1][0]).toBeGreaterThanOrEqual(before);
  });

  it("drops a queued run on cancel, and one asked for during a run", async () => {
    const run = vi.fn(async () => {});
    const live = refresher(run);
    live.request();
    live.cancel();
    await live.idle();
    await Promise.resolve();
    expect(run).not.toHaveBeenCalled();

    const first = gate();
    const held = vi.fn(() => first.promise);
    const other = refresher(held);
    other.request();
    await vi.waitFor(() => expect(held).toHaveBeenCalledTimes(1));
    other.request();
    other.cancel();
    first.open();
    await other.idle();
    expect(held).toHaveBeenCalledTimes(1);
  });
});
