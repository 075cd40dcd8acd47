// Search across the workspace in the real window: Ctrl+Shift+F, results grouped by file with line previews from
// SKILL.md bodies and resource files, binary files passed over, and a result opening its file at its line.
import assert from "node:assert/strict";
import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { after, before, describe, it } from "node:test";
import { launch, openSkill, press, quit, screenshot, waitFor } from "./support.mjs";

// Written out here, so the expected lines come from the files themselves, not from the program.
const FILES = {
  "alpha/SKILL.md": "---\nname: alpha\ndescription: Converts invoices. Use when the user sends an invoice.\n---\n# Alpha\n\nCheck the invoice total.\n",
  "alpha/references/rules.md": "# Rules\n\nLine two.\nAn INVOICE needs a number.\n",
  "beta/SKILL.md": "---\nname: beta\ndescription: Writes release notes. Use when asked for release notes.\n---\n# Beta\r\n",
};

/** The 1-based line number of each occurrence of `word` (any case) in `text`. */
function linesOf(text, word) {
  return text.split("\n").flatMap((line, index) => Array(line.toLowerCase().split(word).length - 1).fill(index + 1));
}

async function results(browser) {
  return browser.execute(() =>
    Array.from(document.querySelectorAll('[data-testid="search-file"]'), (file) => ({
      path: file.getAttribute("data-path"),
      lines: Array.from(file.querySelectorAll('[data-testid="search-result"]'), (row) => Number(row.getAttribute("data-line"))),
      marked: Array.from(file.querySelectorAll("mark"), (mark) => mark.textContent),
    })),
  );
}

describe("searching the workspace", { timeout: 180_000 }, () => {
  let browser;
  let base;
  let root;

  before(async () => {
    base = await mkdtemp(path.join(tmpdir(), "skillforge-e2e-search-"));
    root = path.join(base, "skills");
    for (const [relative, text] of Object.entries(FILES)) {
      await mkdir(path.dirname(path.join(root, relative)), { recursive: true });
      await writeFile(path.join(root, relative), text);
    }
    // A binary file that holds the word: never searched as text.
    await mkdir(path.join(root, "alpha", "assets"), { recursive: true });
    await writeFile(path.join(root, "alpha", "assets", "scan.bin"), Buffer.concat([Buffer.from([0, 1, 2, 0]), Buffer.from("invoice")]));
    browser = await launch(root);
    await openSkill(browser, "beta");
  });

  after(async () => {
    await quit(browser);
    if (base) await rm(base, { recursive: true, force: true });
  });

  it("finds matches in bodies and resource files, grouped by file, and skips binary files", async () => {
    await browser.keys(["Control", "Shift", "f"]);
    const input = browser.$('[data-testid="search-input"]');
    await waitFor(browser, "the search panel", () => input.isExisting(), Boolean);
    await input.click();
    await press(browser, "invoice", "Enter");
    const found = await waitFor(browser, "the search results", () => results(browser), (files) => files.length === 2);
    assert.deepEqual(
      found.map((file) => [path.relative(root, file.path), file.lines]),
      [
        ["alpha/SKILL.md", linesOf(FILES["alpha/SKILL.md"], "invoice")],
        ["alpha/references/rules.md", linesOf(FILES["alpha/references/rules.md"], "invoice")],
      ],
    );
    assert.deepEqual(found[1].marked, ["INVOICE"], "the match is marked as written");
    const summary = await browser.$('[data-testid="search-summary"]').getText();
    assert.ok(summary.startsWith("4 matches in 2 files"), summary);
    assert.ok(summary.includes("1 binary or unreadable file skipped"), summary);
    await screenshot(browser, "search-results");
  });

  it("opens a result's file at its line", async () => {
    const line = linesOf(FILES["alpha/references/rules.md"], "invoice")[0];
    await browser.$(`[data-testid="search-file"][data-path$="rules.md"] [data-testid="search-result"][data-line="${line}"]`).click();
    await waitFor(browser, "the reference open", () => browser.$('[data-testid="editor-path"]').getText(), (shown) => shown === "alpha/references/rules.md");
    const cursorLine = await waitFor(
      browser,
      "the cursor on the result's line",
      () =>
        browser.execute(() => {
          const active = document.querySelector('[data-testid="editor"] .cm-activeLine');
          return active?.textContent ?? null;
        }),
      (text) => text === "An INVOICE needs a number.",
    );
    assert.equal(cursorLine, FILES["alpha/references/rules.md"].split("\n")[line - 1]);
    await screenshot(browser, "search-opened-at-line");
  });

  it("is case-sensitive on request and says when nothing matches", async () => {
    await browser.keys(["Control", "Shift", "f"]);
    await browser.$('[data-testid="search-case"]').click();
    await browser.$('[data-testid="search-run"]').click();
    const found = await waitFor(browser, "the case-sensitive results", () => results(browser), (files) => files.length === 1);
    assert.deepEqual(found[0].lines, [3, 3, 7]);
    const input = browser.$('[data-testid="search-input"]');
    await input.click();
    await browser.keys(["Control", "a"]);
    await press(browser, "Backspace", "no such words", "Enter");
    await waitFor(browser, "no matches", () => browser.$('[data-testid="search-summary"]').getText(), (text) => text.startsWith("No matches."));
    await screenshot(browser, "search-no-matches");
  });
});
