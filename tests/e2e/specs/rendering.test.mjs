// Without a GPU the app's own process draws nothing with OpenGL, so it must not load an OpenGL driver: GTK's GLX
// probe and WebKit's EGL probes would each load Mesa's software driver and libLLVM (about 50 MB) only to learn
// that there is no GPU (src-tauri/src/rendering.rs). Read from the app process's memory map in the real window.
import assert from "node:assert/strict";
import { readFile } from "node:fs/promises";
import { after, before, describe, it } from "node:test";
import { appProcesses, copyFixture, drawingOf, launch, quit, removeCopy, waitFor } from "./support.mjs";

// The app decides only when there is no render node and none of the switches is set; elsewhere it loads what
// the machine's drivers need.
const DECIDES = drawingOf() === "cpu (no GPU render node)";

describe("drawing without a GPU", { skip: DECIDES ? false : `the app leaves drawing alone here: ${drawingOf()}` }, () => {
  let browser;
  let workspace;

  before(async () => {
    workspace = await copyFixture("editor-workspace");
    browser = await launch(workspace);
    await waitFor(browser, "the tree", async () => (await browser.$$('[data-testid="skill-item"]')).length, (count) => count > 0);
  });

  after(async () => {
    await quit(browser);
    await removeCopy(workspace);
  });

  it("loads no OpenGL driver into the app's own process", async () => {
    const { app } = await appProcesses();
    assert.ok(app, "the app process was not found");
    const maps = await readFile(`/proc/${app.pid}/maps`, "utf8");
    const loaded = new Set(
      maps
        .split("\n")
        .map((line) => line.split(/\s+/)[5] ?? "")
        .filter((file) => /(libLLVM|_dri\.so|libEGL_mesa|libGLX_mesa)/.test(file)),
    );
    assert.deepEqual([...loaded], [], `the app process (${app.comm}, pid ${app.pid}) maps ${[...loaded].join(", ")}`);
  });
});
