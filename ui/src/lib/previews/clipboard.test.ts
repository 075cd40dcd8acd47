import { afterEach, describe, expect, it, vi } from "vitest";
import { copyExactly } from "./clipboard";

afterEach(() => vi.unstubAllGlobals());

describe("copyExactly", () => {
  it("uses the Clipboard API with the exact text", async () => {
    const writeText = vi.fn(async () => {});
    vi.stubGlobal("navigator", { clipboard: { writeText } });
    expect(await copyExactly("a\r\nb <x>")).toBe("copied");
    expect(writeText).toHaveBeenCalledWith("a\r\nb <x>");
  });

  it("falls back to the copy command, but never for text a textarea would change", async () => {
    vi.stubGlobal("navigator", { clipboard: { writeText: async () => Promise.reject(new Error("denied")) } });
    const exec = vi.fn(() => true);
    (document as unknown as { execCommand: unknown }).execCommand = exec;
    expect(await copyExactly("plain\ntext")).toBe("copied-by-selection");
    expect(await copyExactly("crlf\r\ntext")).toBe("refused");
    expect(exec).toHaveBeenCalledTimes(1);
    expect(document.querySelector("textarea")).toBeNull();
  });
});
