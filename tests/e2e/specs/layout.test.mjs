// The window at 1200×800 and at 1920×1080: the header (on the builtin skills too), the catalog compared side by
// side and the trigger tests fit their containers, nothing overflowing or cut; a screenshot of each.
import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { copyFixture, launch, openSkill, quit, removeCopy, screenshot, waitFor } from "./support.mjs";

const SIZES = [
  [1200, 800],
  [1920, 1080],
];

/**
 * The elements under `selector` that are wider than their box (content scrolled or cut where nothing scrolls) or
 * that stick out of the container's right or left edge. Text that ends in an ellipsis on purpose is allowed.
 */
async function overflowing(browser, selector) {
  return browser.execute((selector) => {
    const container = document.querySelector(selector);
    if (!container) return [`${selector} is missing`];
    const box = container.getBoundingClientRect();
    const found = [];
    const name = (element) =>
      `${element.tagName.toLowerCase()}${element.dataset.testid ? `[${element.dataset.testid}]` : ""}${element.className && typeof element.className === "string" ? `.${element.className.split(" ")[0]}` : ""}`;
    for (const element of [container, ...container.querySelectorAll("*")]) {
      const style = getComputedStyle(element);
      if (style.display === "none" || style.visibility === "hidden") continue;
      const rect = element.getBoundingClientRect();
      if (rect.width === 0 && rect.height === 0) continue;
      const scrolls = ["auto", "scroll"].includes(style.overflowX);
      if (!scrolls && style.textOverflow !== "ellipsis" && element.scrollWidth > element.clientWidth + 1 && element.clientWidth > 0) {
        found.push(`${name(element)} is ${element.scrollWidth}px wide in a ${element.clientWidth}px box`);
      }
      if (element !== container && (rect.right > box.right + 1 || rect.left < box.left - 1)) {
        found.push(`${name(element)} spans ${Math.round(rect.left)}–${Math.round(rect.right)} outside ${Math.round(box.left)}–${Math.round(box.right)}`);
      }
    }
    return found.slice(0, 12);
  }, selector);
}

async function resize(browser, width, height) {
  await browser.setWindowSize(width, height);
  await waitFor(browser, `a ${width}×${height} window`, () => browser.execute(() => [window.innerWidth, window.innerHeight]), ([w]) => Math.abs(w - width) <= 2);
}

describe("the layout at common window sizes", { timeout: 300_000 }, () => {
  let browser;
  let workspace;

  before(async () => {
    workspace = await copyFixture("previews-workspace");
    browser = await launch(workspace);
    await openSkill(browser, "skill-a");
  });

  after(async () => {
    await quit(browser);
    await removeCopy(workspace);
  });

  for (const [width, height] of SIZES) {
    it(`fits the compared catalogs and the trigger tests at ${width}×${height}`, async () => {
      await resize(browser, width, height);
      if (!(await browser.$('[data-testid="previews-panel"]').isExisting())) await browser.$('[data-testid="previews-toggle"]').click();
      await browser.$('[data-testid="previews-tab-catalog"]').click();
      const compare = browser.$('[data-testid="catalog-compare"]');
      if (!(await compare.isSelected())) await compare.click();
      await waitFor(browser, "two catalogs", () => browser.$('[data-testid="catalog-other"]').isExisting(), Boolean);
      await screenshot(browser, `layout-${width}x${height}-compare`);
      assert.deepEqual(await overflowing(browser, '[data-testid="previews-panel"]'), [], "the compared catalogs fit");
      await compare.click();

      await browser.$('[data-testid="previews-tab-triggers"]').click();
      await waitFor(browser, "the trigger table", () => browser.$('[data-testid="trigger-query"]').isExisting(), Boolean);
      await browser.$('[data-testid="trigger-query"]').setValue("clean the csv export and merge two spreadsheets on a shared key column");
      await screenshot(browser, `layout-${width}x${height}-triggers`);
      assert.deepEqual(await overflowing(browser, '[data-testid="previews-panel"]'), [], "the trigger tests fit");
      const query = await browser.execute(() => document.querySelector('[data-testid="trigger-query"]').getBoundingClientRect().width);
      assert.ok(query >= 140, `the query column leaves room to read a query: ${query}px`);
      assert.deepEqual(await overflowing(browser, "header"), [], "the header fits");
    });
  }

  for (const [width, height] of SIZES) {
    it(`fits the header of the builtin skills at ${width}×${height}`, async () => {
      await resize(browser, width, height);
      if (!(await browser.$('[data-testid="workspace-label"]').getText()).toLowerCase().includes("builtin")) {
        await browser.$('[data-testid="open-builtin"]').click();
        await waitFor(browser, "the builtin skills", () => browser.$('[data-testid="workspace-label"]').getText(), (label) => label.toLowerCase().includes("builtin"));
      }
      await screenshot(browser, `layout-${width}x${height}-builtin-header`);
      assert.deepEqual(await overflowing(browser, "header"), [], "the builtin header fits");
      const cut = await browser.execute(() => {
        const header = document.querySelector("header").getBoundingClientRect();
        return Array.from(document.querySelectorAll("header button, header summary, header select, header .badge"))
          .filter((element) => {
            const rect = element.getBoundingClientRect();
            return rect.right > header.right + 1 || rect.left < header.left - 1 || rect.width < 8;
          })
          .map((element) => element.textContent.trim());
      });
      assert.deepEqual(cut, [], "every header control is whole and inside the window");
    });
  }
});
