// A benchmark, not a timed test: keystroke-to-squiggles on a 300 KB SKILL.md, measured by performance entries the
// editor records (keystroke → diagnostics painted, including the lint debounce). Figures go to
// target/e2e-artifacts/editor-timings.json and the test log; only their presence is asserted.
import assert from "node:assert/strict";
import { mkdir, writeFile } from "node:fs/promises";
import path from "node:path";
import { after, before, describe, it } from "node:test";
import { copyFixture, launch, openSkill, quit, removeCopy, repo, screenshot, waitFor } from "./support.mjs";

const KEYSTROKES = 40;

function percentile(values, fraction) {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil(fraction * sorted.length) - 1)];
}

describe("editor speed on a 300 KB SKILL.md", { timeout: 300_000 }, () => {
  let browser;
  let workspace;
  let launchToTree;

  before(async () => {
    workspace = await copyFixture("editor-workspace");
    const paragraph = "Each step says what to check, why it matters and how to tell that it worked. ".repeat(4);
    let body = "";
    for (let section = 0; body.length < 300_000; section++) body += `\n## Step ${section}\n\n${paragraph}\n`;
    await mkdir(path.join(workspace, "large-skill"), { recursive: true });
    await writeFile(
      path.join(workspace, "large-skill", "SKILL.md"),
      `---\nname: large-skill\ndescription: A very long skill for timing the editor. Use when measuring.\n---\n${body}`,
    );
    const started = performance.now();
    browser = await launch(workspace);
    await waitFor(browser, "the tree", async () => (await browser.$$('[data-testid="skill-item"]')).length, (count) => count === 3);
    launchToTree = performance.now() - started;
    await openSkill(browser, "large-skill");
  });

  after(async () => {
    await quit(browser);
    await removeCopy(workspace);
  });

  it("records keystroke-to-squiggles for each keystroke", async () => {
    await browser.$('[data-testid="editor"] .cm-content').click();
    await browser.keys(["Control", "Home"]);
    await browser.keys("ArrowDown");
    await browser.keys("End");
    const count = () => browser.execute(() => performance.getEntriesByName("keystroke-to-squiggles").length);
    for (let index = 0; index < KEYSTROKES; index++) {
      const before = await count();
      // Alternate between breaking and repairing the name, so the squiggles really change.
      await browser.keys(index % 2 === 0 ? ["X"] : ["Backspace"]);
      await waitFor(browser, `timing ${index + 1}`, count, (after) => after > before);
    }
    const timings = await browser.execute(() => ({
      keystroke: performance.getEntriesByName("keystroke-to-squiggles").map((entry) => entry.duration),
      lint: performance.getEntriesByName("lint-round-trip").map((entry) => entry.duration),
      backend: performance.getEntriesByName("lint-backend").map((entry) => entry.duration),
    }));
    // For comparison: the IPC round trip of reading the same 300 KB file (no linting), ten times.
    const ipcRead = await browser.executeAsync((file, done) => {
      const times = [];
      const next = () => {
        if (times.length === 10) return done(times);
        const start = performance.now();
        window.__TAURI_INTERNALS__.invoke("read_file", { path: file }).then(
          () => (times.push(performance.now() - start), next()),
          (error) => done(String(error?.message ?? error)),
        );
      };
      next();
    }, path.join(workspace, "large-skill", "SKILL.md"));
    const figures = {
      file_bytes: 300_000,
      keystrokes: timings.keystroke.length,
      keystroke_to_squiggles_ms: { p50: percentile(timings.keystroke, 0.5), p95: percentile(timings.keystroke, 0.95) },
      lint_request_to_paint_ms: { p50: percentile(timings.lint, 0.5), p95: percentile(timings.lint, 0.95) },
      lint_command_ms: { p50: percentile(timings.backend, 0.5), p95: percentile(timings.backend, 0.95) },
      debounce_ms: 150,
      ipc_read_300kb_ms: Array.isArray(ipcRead) ? { p50: percentile(ipcRead, 0.5), p95: percentile(ipcRead, 0.95) } : ipcRead,
      build: "debug (unoptimized)",
      launch_to_tree_ms: Math.round(launchToTree),
    };
    console.log(`editor timings: ${JSON.stringify(figures)}`);
    const directory = process.env.E2E_ARTIFACTS ?? path.join(repo, "target/e2e-artifacts");
    await writeFile(path.join(directory, "editor-timings.json"), `${JSON.stringify(figures, null, 2)}\n`);
    assert.ok(timings.keystroke.length >= KEYSTROKES);
    await screenshot(browser, "editor-large-file");
  });
});
