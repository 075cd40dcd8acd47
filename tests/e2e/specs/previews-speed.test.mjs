// A benchmark, not a timed test: from a keystroke in a SKILL.md to the repainted nagents manifest preview in a
// 5,000-skill workspace (bench/generate.py), read from the performance measures the previews record.
import { execFileSync } from "node:child_process";
import { mkdir, mkdtemp, readdir, rename, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { after, before, describe, it } from "node:test";
import { appMemoryMb, buildOf, drawingOf, launch, openSkill, quit, repo, screenshot, waitFor } from "./support.mjs";

const SKILLS = 5000;
const KEYSTROKES = 25;
const LONG_MS = 300_000;

const percentile = (values, p) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)];
};

// Opt-in (E2E_PREVIEWS_SPEED=1): generating and discovering the tree takes minutes on two cores.
describe("previews speed", { timeout: 900_000, skip: process.env.E2E_PREVIEWS_SPEED !== "1" }, () => {
  let browser;
  let base;

  before(async () => {
    base = await mkdtemp(path.join(tmpdir(), "skillforge-e2e-"));
    execFileSync("python3", [path.join(repo, "bench/generate.py"), path.join(base, "generated"), String(SKILLS)]);
    // Discovery walks at most 10,000 entries, which the generated bundled files and category folders would spend
    // on 1,2xx skills: keep each generated SKILL.md, one folder per skill at the top, so all 5,000 are listed.
    const tree = path.join(base, "tree");
    await mkdir(tree);
    for (const category of await readdir(path.join(base, "generated"))) {
      for (const skill of await readdir(path.join(base, "generated", category))) {
        await mkdir(path.join(tree, skill));
        await rename(path.join(base, "generated", category, skill, "SKILL.md"), path.join(tree, skill, "SKILL.md"));
      }
    }
    await rm(path.join(base, "generated"), { recursive: true, force: true });
  });

  after(async () => {
    await quit(browser);
    if (base) await rm(base, { recursive: true, force: true });
  });

  it("records keystroke-to-preview times over 5,000 skills", async () => {
    browser = await launch(path.join(base, "tree"));
    // The tree's bundled files count against discovery's entry limit, so the window may list fewer than SKILLS.
    let listed = "";
    await browser.waitUntil(
      async () => {
        const status = browser.$('[data-testid="status-skills"]');
        listed = (await status.isExisting()) ? await status.getText() : "";
        return /^[1-9]\d* skills$/.test(listed);
      },
      { timeout: LONG_MS, interval: 250, timeoutMsg: "the workspace never finished loading" },
    );
    await openSkill(browser, "skill-00000");
    await browser.$('[data-testid="previews-toggle"]').click();
    await browser.waitUntil(
      async () => (await browser.execute(() => document.querySelector('[data-testid="catalog-text"]')?.textContent ?? "")).includes("skill-00000"),
      { timeout: LONG_MS, interval: 250 },
    );

    const content = browser.$('[data-testid="editor"] .cm-content');
    await content.click();
    await browser.keys(["Control", "Home"]);
    await browser.keys("ArrowDown");
    await browser.keys("ArrowDown");
    await browser.keys("Home");
    for (let index = 0; index < "description: ".length; index++) await browser.keys("ArrowRight");
    await browser.execute(() => performance.clearMeasures());
    let typed = "";
    for (let index = 0; index < KEYSTROKES; index++) {
      const key = "abcdefghijklmnopqrstuvwxy"[index];
      typed += key;
      await browser.keys(key);
      await waitFor(
        browser,
        `the preview with "${typed}"`,
        () => browser.execute(() => document.querySelector('[data-testid="catalog-text"]')?.textContent ?? ""),
        (text) => text.includes(`skill-00000/SKILL.md">${typed}Use when`),
      );
    }
    const measures = await browser.execute(() => ({
      refresh: performance.getEntriesByName("previews-catalog-refresh").map((entry) => entry.duration),
      backend: performance.getEntriesByName("previews-catalog-backend").map((entry) => entry.duration),
    }));
    const summary = (values) => ({
      count: values.length,
      p50_ms: Math.round(percentile(values, 50)),
      p95_ms: Math.round(percentile(values, 95)),
      max_ms: Math.round(Math.max(...values)),
    });
    const figures = {
      generated_skills: SKILLS,
      listed,
      catalog_entries: await browser.execute(() => document.querySelectorAll('[data-testid="catalog-entry"]').length),
      keystrokes: KEYSTROKES,
      keystroke_to_painted_preview: summary(measures.refresh),
      catalog_preview_round_trip: summary(measures.backend),
      // With the previews panel open on the whole workspace, settled a moment after the last keystroke.
      memory_mb: await new Promise((resolve) => setTimeout(resolve, 2000)).then(appMemoryMb),
      // The binary under test (run.sh passes SKILLFORGE_APP on as E2E_APP).
      build: buildOf(process.env.E2E_APP),
      drawing: drawingOf(),
    };
    console.log(`previews timings: ${JSON.stringify(figures)}`);
    const directory = process.env.E2E_ARTIFACTS ?? path.join(repo, "target/e2e-artifacts");
    await writeFile(path.join(directory, "previews-timings.json"), `${JSON.stringify(figures, null, 2)}\n`);
    await screenshot(browser, "previews-5000-skills");
  });
});
