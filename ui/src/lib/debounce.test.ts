import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { debounce } from "./debounce";

describe("debounce", () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  it("runs once with the last arguments after the quiet period", () => {
    const seen: number[] = [];
    const call = debounce((value: number) => seen.push(value), 150);
    call(1);
    vi.advanceTimersByTime(100);
    call(2);
    vi.advanceTimersByTime(149);
    expect(seen).toEqual([]);
    vi.advanceTimersByTime(1);
    expect(seen).toEqual([2]);
  });

  it("can be cancelled or flushed", () => {
    const seen: number[] = [];
    const call = debounce((value: number) => seen.push(value), 150);
    call(1);
    call.cancel();
    vi.advanceTimersByTime(500);
    expect(seen).toEqual([]);
    call(3);
    call.flush();
    expect(seen).toEqual([3]);
    call.flush();
    expect(seen).toEqual([3]);
  });

  it("asks a delay function on every call", () => {
    const seen: number[] = [];
    let delay = 100;
    const call = debounce((value: number) => seen.push(value), () => delay);
    call(1);
    vi.advanceTimersByTime(100);
    delay = 300;
    call(2);
    vi.advanceTimersByTime(299);
    expect(seen).toEqual([1]);
    vi.advanceTimersByTime(1);
    expect(seen).toEqual([1, 2]);
  });
});
