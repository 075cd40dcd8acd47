// Shared helpers for the e2e specs: start the app on a workspace, poll for a state, save screenshots.
import { spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, readdirSync, writeFileSync } from "node:fs";
import { mkdir, readFile, readdir, stat } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { remote } from "webdriverio";

const required = (name) => {
  const value = process.env[name];
  if (!value) throw new Error(`${name} is not set; run the specs through tests/e2e/run.sh`);
  return value;
};

export const repo = required("E2E_REPO");
export const fixtureWorkspace = path.join(repo, "tests/fixtures/e2e-workspace");
/** The CLI built from the same sources as the app: it answers for the engine where a spec needs an expected value. */
export const cli = required("E2E_CLI");
/** The Python of .venv-peers, where the real peer libraries (nagents, 10xgraph, skills-ref) are installed. */
export const peersPython = required("E2E_PEERS_PYTHON");

/**
 * Runs a program to completion and returns its output; fails unless it exits with one of `statuses`.
 * (`skillforge lint` exits 1 when it reports errors, which a spec may well expect.)
 */
export function runProgram(program, args, { statuses = [0], input } = {}) {
  const done = spawnSync(program, args, { encoding: "utf8", maxBuffer: 64 * 1024 * 1024, input });
  if (done.error) throw done.error;
  if (!statuses.includes(done.status)) {
    throw new Error(`${program} ${args.join(" ")} exited with ${done.status}:\n${done.stderr}${done.stdout}`);
  }
  return done.stdout;
}

/** `skillforge ARGS…`; see runProgram for `statuses`. */
export function runCli(args, options) {
  return runProgram(cli, args, options);
}

/**
 * Every regular file under `folder`, by its `/`-separated path relative to it, in path order: its bytes and
 * whether any execute bit is set. Links and other special files fail the call (the fixtures hold none).
 */
export async function filesUnder(folder) {
  const found = new Map();
  const walk = async (relative) => {
    const entries = await readdir(path.join(folder, relative), { withFileTypes: true });
    for (const entry of entries) {
      const child = relative ? `${relative}/${entry.name}` : entry.name;
      if (entry.isDirectory()) await walk(child);
      else if (entry.isFile()) {
        const full = path.join(folder, child);
        found.set(child, { bytes: await readFile(full), executable: ((await stat(full)).mode & 0o111) !== 0 });
      } else throw new Error(`${path.join(folder, child)} is neither a file nor a folder`);
    }
  };
  await walk("");
  return new Map([...found].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
}

/**
 * The members of a zip archive as Python's zipfile reads them (it checks each member's CRC): name, the Unix
 * mode kept in the external attributes, compression method, and the bytes.
 */
export function zipMembers(archive) {
  const script = [
    "import base64, json, sys, zipfile",
    "with zipfile.ZipFile(sys.argv[1]) as z:",
    "    print(json.dumps([{'name': i.filename, 'mode': i.external_attr >> 16, 'method': i.compress_type,",
    "                       'data': base64.b64encode(z.read(i)).decode()} for i in z.infolist()]))",
  ].join("\n");
  return JSON.parse(runProgram(peersPython, ["-c", script, archive])).map((member) => ({
    ...member,
    bytes: Buffer.from(member.data, "base64"),
  }));
}

/** How long any expected state may take to appear; the wait returns as soon as it does. */
export const STATE_TIMEOUT_MS = 20_000;
const POLL_INTERVAL_MS = 100;

// The app remembers recent folders in its config folder; every run gets its own, never the real home's.
let runConfigDir;
function defaultConfigDir() {
  runConfigDir ??= mkdtempSync(path.join(tmpdir(), "skillforge-e2e-config-"));
  return runConfigDir;
}

/** A shell word that stands for `text` exactly. */
const shellQuote = (text) => `'${String(text).replaceAll("'", `'\\''`)}'`;

/**
 * The app started with `env` added to its environment: tauri-driver starts the program it is given with its own
 * environment, so a small script sets the variables and then becomes the app.
 */
function appWithEnvironment(env) {
  const folder = mkdtempSync(path.join(tmpdir(), "skillforge-e2e-app-"));
  const script = path.join(folder, "skillforge-app");
  const exports = Object.entries(env).map(([name, value]) => `export ${name}=${shellQuote(value)}`);
  writeFileSync(script, ["#!/bin/sh", ...exports, `exec ${shellQuote(required("E2E_APP"))} "$@"`, ""].join("\n"), { mode: 0o755 });
  return script;
}

/**
 * Starts the real app through tauri-driver, opened on `workspace` (a folder, or a list of folders opened side by
 * side; none shows the builtin skills). `configDir` is where it keeps its settings (a folder private to this run
 * unless given); `env` holds variables added to the app's environment.
 */
export async function launch(workspace, { configDir = defaultConfigDir(), env } = {}) {
  const folders = workspace === undefined ? [] : [workspace].flat();
  const args = [...folders.flatMap((folder) => ["--workspace", folder]), "--config-dir", configDir];
  const application = env ? appWithEnvironment(env) : required("E2E_APP");
  return remote({
    hostname: "127.0.0.1",
    port: Number(required("E2E_WEBDRIVER_PORT")),
    logLevel: "error",
    connectionRetryCount: 0,
    capabilities: {
      alwaysMatch: {
        "tauri:options": { application, args },
      },
    },
  });
}

export async function quit(browser) {
  if (browser) await browser.deleteSession().catch(() => {});
}

/**
 * Polls `read` until `accept` holds for what it returned, and returns that value. On timeout the error shows the
 * last value read, so a failure says what the window showed instead.
 */
export async function waitFor(browser, description, read, accept, { timeout = STATE_TIMEOUT_MS } = {}) {
  let last;
  try {
    await browser.waitUntil(
      async () => {
        last = await read();
        return accept(last);
      },
      { timeout, interval: POLL_INTERVAL_MS },
    );
  } catch (error) {
    const shown = await visibleText(browser).catch(() => "(window text unavailable)");
    const slug = description.replace(/[^a-z0-9]+/gi, "-").replace(/^-|-$/g, "").toLowerCase();
    const picture = await screenshot(browser, `timeout-${slug}`).catch(() => "(no screenshot)");
    throw new Error(
      `timed out waiting for ${description}\nlast value: ${JSON.stringify(last)}\nwindow text:\n${shown}\n` +
        `screenshot: ${picture}\n(${error.message})`,
    );
  }
  return last;
}

export async function visibleText(browser) {
  return (await browser.$("body").getText()).slice(0, 2000);
}

/** The skills the window lists, in order, as the user sees them. */
export async function listedSkills(browser) {
  const items = await browser.$$('[data-testid="skill-item"]');
  const skills = [];
  for (const item of items) {
    skills.push({
      name: await item.getAttribute("data-skill-name"),
      shownName: await item.$('[data-testid="skill-name"]').getText(),
      // A card clamps a long description to three lines (the whole text shows on hover): read all of it.
      description: await item.$('[data-testid="skill-description"]').getProperty("textContent"),
      location: await item.$('[data-testid="skill-location"]').getText(),
    });
  }
  return skills;
}

/** Saves a screenshot of the window under target/e2e-artifacts/NAME.png and returns its path. */
export async function screenshot(browser, name) {
  const directory = process.env.E2E_ARTIFACTS ?? path.join(repo, "target/e2e-artifacts");
  await mkdir(directory, { recursive: true });
  const file = path.join(directory, `${name}.png`);
  // WebKitWebDriver takes the picture after the page's next frame. Without a GPU the app draws without
  // compositing (see src-tauri/src/rendering.rs), and there a page that is not changing draws no frame, so the
  // screenshot would wait forever: a one-pixel, all but transparent spot changes until the picture is taken.
  await browser.execute(() => {
    const spot = document.createElement("div");
    spot.dataset.e2eFrameSpot = "";
    spot.style.cssText = "position:fixed;left:0;top:0;width:1px;height:1px;pointer-events:none;z-index:2147483647";
    document.body.append(spot);
    let odd = false;
    const timer = setInterval(() => {
      odd = !odd;
      spot.style.background = odd ? "rgba(0,0,0,0.01)" : "rgba(0,0,0,0.02)";
    }, 10);
    window.__e2eStopFrameSpot = () => (clearInterval(timer), spot.remove());
  });
  try {
    await browser.saveScreenshot(file);
  } finally {
    await browser.execute(() => window.__e2eStopFrameSpot?.()).catch(() => {});
  }
  return file;
}

/** Copies a fixture folder to a fresh temporary directory, so specs never touch committed files. */
export async function copyFixture(name) {
  const { cp, mkdtemp } = await import("node:fs/promises");
  const { tmpdir } = await import("node:os");
  const base = await mkdtemp(path.join(tmpdir(), "skillforge-e2e-"));
  const copy = path.join(base, name);
  await cp(path.join(repo, "tests/fixtures", name), copy, { recursive: true });
  return copy;
}

export async function removeCopy(copy) {
  const { rm } = await import("node:fs/promises");
  if (copy) await rm(path.dirname(copy), { recursive: true, force: true });
}

/** The editor's lines as the window shows them (the fixtures are small enough that every line is rendered). */
export async function editorText(browser) {
  return browser.execute(() =>
    Array.from(document.querySelectorAll('[data-testid="editor"] .cm-line'), (line) => line.textContent).join("\n"),
  );
}

/** Waits until the skill is listed, then opens it in the editor. */
export async function openSkill(browser, name) {
  const item = browser.$(`[data-testid="skill-item"][data-skill-name="${name}"]`);
  await waitFor(browser, `the skill ${name} in the tree`, () => item.isExisting(), Boolean);
  await item.click();
  const editorPath = browser.$('[data-testid="editor-path"]');
  await waitFor(
    browser,
    `${name} open in the editor`,
    async () => ((await editorPath.isExisting()) ? editorPath.getText() : null),
    (text) => typeof text === "string" && text.endsWith("SKILL.md") && text.includes(name.split("<")[0]),
  );
  await waitFor(browser, "the editor's text", () => editorText(browser), (text) => text.length > 0);
}

/** The problems list rows: code, message and whether they come from the unsaved buffer. */
export async function problems(browser) {
  return browser.execute(() =>
    Array.from(document.querySelectorAll('[data-testid="problem"]'), (row) => ({
      code: row.getAttribute("data-code"),
      live: row.getAttribute("data-live") === "true",
      message: row.querySelector('[data-testid="problem-message"]')?.textContent ?? "",
      fix: row.querySelector('[data-testid="problem-fix"]')?.textContent ?? null,
    })),
  );
}

/** Polls a file on disk until `accept` holds for its text (null when it does not exist). */
export async function waitForDisk(browser, description, file, accept) {
  return waitFor(browser, description, () => readFile(file, "utf8").catch(() => null), accept);
}

/**
 * Presses keys one after another. (webdriverio's `keys([...])` presses a whole array as one chord, so a repeated
 * key or a repeated letter in a word would register once.) A string is typed character by character.
 */
export async function press(browser, ...keys) {
  for (const key of keys) {
    for (const single of key.length > 1 && !KEY_NAMES.has(key) ? [...key] : [key]) {
      try {
        await browser.keys(single);
      } catch (error) {
        throw await keyFailure(browser, single, error);
      }
    }
  }
}
const KEY_NAMES = new Set(["Backspace", "Delete", "Enter", "Home", "End", "ArrowUp", "ArrowDown", "ArrowLeft", "ArrowRight", "Tab"]);

/** A key the driver refused, with what the window showed then: the focused element, its text and a screenshot. */
async function keyFailure(browser, key, error) {
  const focused = await browser
    .execute(() => {
      const element = document.activeElement;
      if (!element) return "(nothing)";
      const testid = element.getAttribute("data-testid");
      return `<${element.tagName.toLowerCase()}${testid ? ` data-testid="${testid}"` : ""}> value ${JSON.stringify(element.value ?? null)}`;
    })
    .catch((reason) => `(unavailable: ${reason.message})`);
  const shown = await visibleText(browser).catch(() => "(window text unavailable)");
  const picture = await screenshot(browser, "key-refused").catch(() => "(no screenshot)");
  return new Error(
    `the driver refused the key ${JSON.stringify(key)}: ${error.name}: ${error.message}\nfocused: ${focused}\n` +
      `window text:\n${shown}\nscreenshot: ${picture}`,
    { cause: error },
  );
}

/** Which build of the app the benchmark figures are for. */
export function buildOf(app = "") {
  return app.includes("/release/") ? "release" : "debug (the engine optimised, the app not)";
}

/**
 * How the window is drawn, as the app decides it (src-tauri/src/rendering.rs): WebKit's OpenGL compositing, or the
 * CPU without it when there is no GPU render node and none of WebKit's drawing switches is set.
 */
export function drawingOf() {
  const chosen = ["WEBKIT_DISABLE_COMPOSITING_MODE", "WEBKIT_DISABLE_DMABUF_RENDERER", "WEBKIT_WEB_RENDER_DEVICE_FILE"]
    .filter((name) => process.env[name] !== undefined)
    .map((name) => `${name}=${process.env[name]}`);
  if (chosen.length > 0) return `as WebKit's switches say (${chosen.join(", ")})`;
  let nodes = [];
  try {
    nodes = readdirSync("/dev/dri").filter((name) => name.startsWith("renderD"));
  } catch {
    // No /dev/dri: no GPU.
  }
  return nodes.length > 0 ? `composited (GPU ${nodes.join(", ")})` : "cpu (no GPU render node)";
}

/**
 * The app and the WebKit processes it started, as `{ pid, ppid, rss, comm }` (rss in KB). Only the apps this run's
 * tauri-driver started count (E2E_DRIVER_PID, set by run.sh): another run on the same machine is not ours; without
 * it, every process named skillforge-app counts. `app` is the app's own process (the first, if several).
 */
export async function appProcesses() {
  const { execFile } = await import("node:child_process");
  const table = await new Promise((resolve, reject) =>
    execFile("ps", ["-e", "-o", "pid=,ppid=,rss=,comm="], (error, stdout) => (error ? reject(error) : resolve(stdout))),
  );
  const rows = table.trim().split("\n").map((line) => {
    const [pid, ppid, rss, ...comm] = line.trim().split(/\s+/);
    return { pid, ppid, rss: Number(rss), comm: comm.join(" ") };
  });
  const descendants = (roots) => {
    const found = new Set(roots);
    for (let grew = true; grew; ) {
      grew = false;
      for (const row of rows) if (found.has(row.ppid) && !found.has(row.pid)) (found.add(row.pid), (grew = true));
    }
    return found;
  };
  // Under tauri-driver: what its WebKitWebDriver started (the app, whatever its file is called) and below.
  const driver = process.env.E2E_DRIVER_PID;
  const drivers = driver ? descendants([driver]) : new Set();
  const webDrivers = new Set(rows.filter((row) => row.ppid === driver).map((row) => row.pid));
  const apps = driver
    ? rows.filter((row) => webDrivers.has(row.ppid) && drivers.has(row.pid))
    : rows.filter((row) => row.comm.startsWith("skillforge-app"));
  const ours = descendants(apps.map((row) => row.pid));
  return { app: apps[0], processes: rows.filter((row) => ours.has(row.pid)) };
}

/**
 * Resident memory of the app and the WebKit processes it started, in MB, in total and per process name. The
 * resident sizes count the WebKit and GTK library pages all three processes map once per process; `pss` splits
 * each shared page among the processes that map it (another WebKit program running on the machine takes its
 * share too), so it is the fairer sum but moves with what else runs.
 */
export async function appMemoryMb() {
  const { processes } = await appProcesses();
  const byProcess = {};
  const pss = {};
  for (const row of processes) {
    byProcess[row.comm] = (byProcess[row.comm] ?? 0) + Math.round(row.rss / 1024);
    pss[row.comm] = (pss[row.comm] ?? 0) + Math.round(proportionalKb(row.pid) / 1024);
  }
  const sum = (values) => Object.values(values).reduce((total, mb) => total + mb, 0);
  return { total: sum(byProcess), byProcess, pss: { total: sum(pss), byProcess: pss } };
}

/** A process's proportional set size in KB (0 when it is gone or unreadable). */
function proportionalKb(pid) {
  try {
    const line = readFileSync(`/proc/${pid}/smaps_rollup`, "utf8").split("\n").find((row) => row.startsWith("Pss:"));
    return line ? Number(line.split(/\s+/)[1]) : 0;
  } catch {
    return 0;
  }
}
