// The whole skill in the real window: the files of the selected skill, opened with highlighting by type, created,
// renamed and deleted on disk; a binary file shown as such; the quick fix that creates a missing link target; the
// skill folder renamed with its name; and New skill… proposing the selected skill's folder.
import assert from "node:assert/strict";
import { mkdir, mkdtemp, readFile, rm, stat, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { after, before, describe, it } from "node:test";
import { editorText, launch, openSkill, press, problems, quit, screenshot, waitFor, waitForDisk } from "./support.mjs";

const PDF_SKILL = `---
name: pdf-tools
description: Fills PDF forms and reads their fields. Use when the user asks to fill or check a PDF form.
---

# PDF tools

Run \`scripts/fill.py\`. Field names are listed in [the form guide](references/forms.md).
`;

const SCRIPT = `#!/usr/bin/env python3
def fill(form):
    return {"done": True}
`;

// A PNG signature and a few bytes with NULs: not text by any reading.
const PNG = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0x00, 0x00, 0x00, 0x0d, 0x49, 0x48, 0x44, 0x52]);

async function exists(file) {
  return stat(file).then(
    () => true,
    () => false,
  );
}

/** The entries of the skill file tree as the window lists them: [relative path, kind]. */
async function treeEntries(browser) {
  return browser.execute(() =>
    Array.from(document.querySelectorAll('[data-testid="resource-entry"]'), (row) => [row.getAttribute("data-relative"), row.getAttribute("data-kind")]),
  );
}

function entry(browser, relative) {
  return browser.$(`[data-testid="resource-entry"][data-relative="${relative}"]`);
}

/** Types `text` into the name form after clearing it, and submits it. */
async function submitName(browser, text) {
  const input = browser.$('[data-testid="resource-name"]');
  await waitFor(browser, "the name form", () => input.isExisting(), Boolean);
  await input.click();
  await browser.keys(["Control", "a"]);
  await press(browser, "Backspace", text);
  await browser.$('[data-testid="resource-submit"]').click();
}

async function editorPath(browser) {
  const shown = browser.$('[data-testid="editor-path"]');
  return (await shown.isExisting()) ? shown.getText() : null;
}

describe("the files of a skill", { timeout: 300_000 }, () => {
  let browser;
  let base;
  let root;
  let skill;

  before(async () => {
    base = await mkdtemp(path.join(tmpdir(), "skillforge-e2e-resources-"));
    root = path.join(base, "skills");
    skill = path.join(root, "group", "pdf-tools");
    await mkdir(path.join(skill, "scripts"), { recursive: true });
    await mkdir(path.join(skill, "assets"), { recursive: true });
    await writeFile(path.join(skill, "SKILL.md"), PDF_SKILL);
    await writeFile(path.join(skill, "scripts", "fill.py"), SCRIPT);
    await writeFile(path.join(skill, "assets", "logo.png"), PNG);
    await mkdir(path.join(root, "other"), { recursive: true });
    await writeFile(path.join(root, "other", "SKILL.md"), "---\nname: other\ndescription: Does other things. Use when asked.\n---\n# Other\n");
    browser = await launch(root);
    await openSkill(browser, "pdf-tools");
  });

  after(async () => {
    await quit(browser);
    if (base) await rm(base, { recursive: true, force: true });
  });

  it("lists the skill's folders and files, and shows a binary file as binary without opening it", async () => {
    const listed = await waitFor(browser, "the skill's files", () => treeEntries(browser), (rows) => rows.length === 4);
    assert.deepEqual(listed, [
      ["assets", "folder"],
      ["assets/logo.png", "binary"],
      ["scripts", "folder"],
      ["scripts/fill.py", "text"],
    ]);
    const tag = await entry(browser, "assets/logo.png").$('[data-testid="resource-binary"]').getText();
    assert.equal(tag, `binary · ${PNG.length} bytes`);
    await entry(browser, "assets/logo.png").$("button.open").click();
    const message = await waitFor(browser, "the binary file's note", async () => {
      const shown = browser.$('[data-testid="resource-message"]');
      return (await shown.isExisting()) ? shown.getText() : null;
    }, Boolean);
    assert.equal(message, `assets/logo.png: binary file, ${PNG.length} bytes`);
    assert.equal(await editorPath(browser), "group/pdf-tools/SKILL.md", "the SKILL.md stays open; the binary file is never opened as text");
    await screenshot(browser, "resources-binary-file");
  });

  it("opens a script with Python highlighting", async () => {
    await entry(browser, "scripts/fill.py").$("button.open").click();
    await waitFor(browser, "the script open", () => editorPath(browser), (shown) => shown === "group/pdf-tools/scripts/fill.py");
    await waitFor(browser, "the script's text", () => editorText(browser), (text) => text.startsWith("#!/usr/bin/env python3\ndef fill(form):"));
    // Highlighted: `def` is a token of its own, drawn in another colour than the function's name.
    const colours = await waitFor(
      browser,
      "highlighted tokens",
      () =>
        browser.execute(() => {
          const line = Array.from(document.querySelectorAll('[data-testid="editor"] .cm-line')).find((candidate) => candidate.textContent?.startsWith("def "));
          const keyword = Array.from(line?.querySelectorAll("span") ?? []).find((span) => span.textContent === "def");
          return keyword && line ? { keyword: getComputedStyle(keyword).color, line: getComputedStyle(line).color } : null;
        }),
      Boolean,
    );
    assert.notEqual(colours.keyword, colours.line, JSON.stringify(colours));
    // A script has no Markdown preview: the panel says what has one instead of rendering the code as prose.
    await waitFor(browser, "no Markdown preview of the script", () => browser.$('[data-testid="preview"]').isExisting(), (shown) => !shown);
    await screenshot(browser, "resources-python-highlighted");
  });

  it("creates a file that opens in the editor, and refuses one that exists", async () => {
    await browser.$('[data-testid="resource-new-file"]').click();
    await submitName(browser, "references/guide.md");
    const created = path.join(skill, "references", "guide.md");
    await waitForDisk(browser, "the new file on disk", created, (text) => text === "");
    await waitFor(browser, "the new file open", () => editorPath(browser), (shown) => shown === "group/pdf-tools/references/guide.md");
    await waitFor(browser, "the new file in the tree", () => treeEntries(browser), (rows) => rows.some(([relative]) => relative === "references/guide.md"));
    await screenshot(browser, "resources-created");

    await browser.$('[data-testid="resource-new-file"]').click();
    await submitName(browser, "scripts/fill.py");
    const refusal = await waitFor(browser, "the refusal", async () => {
      const shown = browser.$('[data-testid="resource-message"]');
      return (await shown.isExisting()) ? shown.getText() : null;
    }, (text) => Boolean(text) && text.includes("already exists"));
    assert.ok(refusal.includes("scripts/fill.py"), refusal);
    assert.equal(await readFile(path.join(skill, "scripts", "fill.py"), "utf8"), SCRIPT, "the existing script is untouched");
    await browser.$('[data-testid="resource-form"] button[type="button"]').click();
  });

  it("renames a file, and refuses a name that leaves the skill folder", async () => {
    await entry(browser, "references/guide.md").moveTo();
    await entry(browser, "references/guide.md").$('[data-testid="resource-rename"]').click();
    await submitName(browser, "references/style.md");
    await waitFor(browser, "the renamed file on disk", async () => [await exists(path.join(skill, "references", "guide.md")), await exists(path.join(skill, "references", "style.md"))], ([old, renamed]) => !old && renamed);
    await waitFor(browser, "the renamed file open", () => editorPath(browser), (shown) => shown === "group/pdf-tools/references/style.md");
    await screenshot(browser, "resources-renamed");

    await entry(browser, "references/style.md").moveTo();
    await entry(browser, "references/style.md").$('[data-testid="resource-rename"]').click();
    const input = browser.$('[data-testid="resource-name"]');
    await input.click();
    await browser.keys(["Control", "a"]);
    await press(browser, "Backspace", "../../escaped.md");
    const problem = await waitFor(browser, "the name problem", async () => {
      const shown = browser.$('[data-testid="resource-name-problem"]');
      return (await shown.isExisting()) ? shown.getText() : null;
    }, Boolean);
    assert.ok(problem.includes("inside the skill folder"), problem);
    assert.equal(await browser.$('[data-testid="resource-submit"]').isEnabled(), false);
    await browser.$('[data-testid="resource-form"] button[type="button"]').click();
    assert.equal(await exists(path.join(root, "escaped.md")), false);
  });

  it("refuses to delete a file with unsaved edits, then deletes it after asking", async () => {
    await browser.$('[data-testid="editor"] .cm-content').click();
    await press(browser, "Unsaved words");
    await entry(browser, "references/style.md").moveTo();
    await entry(browser, "references/style.md").$('[data-testid="resource-delete"]').click();
    const refusal = await waitFor(browser, "the unsaved refusal", async () => {
      const shown = browser.$('[data-testid="resource-message"]');
      return (await shown.isExisting()) ? shown.getText() : null;
    }, (text) => Boolean(text) && text.includes("unsaved edits"));
    assert.ok(refusal.includes("style.md"), refusal);
    assert.equal(await exists(path.join(skill, "references", "style.md")), true);
    await screenshot(browser, "resources-delete-refused");

    await browser.keys(["Control", "s"]);
    await waitForDisk(browser, "the saved words", path.join(skill, "references", "style.md"), (text) => text === "Unsaved words");
    await waitFor(browser, "the buffer saved", () => browser.$('[data-testid="editor-state"]').getAttribute("data-dirty"), (dirty) => dirty === "false");
    await entry(browser, "references").moveTo();
    await entry(browser, "references").$('[data-testid="resource-delete"]').click();
    const question = await waitFor(browser, "the delete question", async () => {
      const shown = browser.$('[data-testid="confirm-message"]');
      return (await shown.isExisting()) ? shown.getText() : null;
    }, Boolean);
    assert.ok(question.includes("references and everything in it"), question);
    await screenshot(browser, "resources-delete-confirm");
    await browser.$('[data-testid="confirm-delete"]').click();
    await waitFor(browser, "the folder gone from disk", () => exists(path.join(skill, "references")), (present) => !present);
    await waitFor(browser, "the folder gone from the tree", () => treeEntries(browser), (rows) => rows.every(([relative]) => !relative.startsWith("references")));
    await screenshot(browser, "resources-deleted");
  });

  it("creates a missing link target with the quick fix", async () => {
    await openSkill(browser, "pdf-tools");
    const row = await waitFor(
      browser,
      "the missing link target finding with its fix",
      async () => (await problems(browser)).find((candidate) => candidate.live && candidate.code === "SF503"),
      (found) => Boolean(found?.fix),
    );
    assert.equal(row.fix.trim(), "Create `references/forms.md`");
    await browser.$('[data-testid="problem"][data-code="SF503"][data-live="true"] [data-testid="problem-fix"]').click();
    await waitForDisk(browser, "the link target on disk", path.join(skill, "references", "forms.md"), (text) => text === "# forms\n");
    await waitFor(browser, "the finding gone", async () => (await problems(browser)).filter((candidate) => candidate.code === "SF503").length, (count) => count === 0);
    await waitFor(browser, "the created file in the tree", () => treeEntries(browser), (rows) => rows.some(([relative]) => relative === "references/forms.md"));
    await screenshot(browser, "resources-link-target-created");
  });

  it("proposes the selected skill's folder for a new skill, whose placeholder description is flagged", async () => {
    await browser.$('[data-testid="new-skill"]').click();
    const location = browser.$('[data-testid="new-skill-location"]');
    await waitFor(browser, "the new skill dialog", () => location.isExisting(), Boolean);
    assert.equal(await location.getValue(), path.join(root, "group"));
    await browser.$('[data-testid="new-skill-name"]').click();
    await press(browser, "form-checker");
    await screenshot(browser, "resources-new-skill-location");
    await browser.$('[data-testid="new-skill-create"]').click();
    const created = path.join(root, "group", "form-checker", "SKILL.md");
    await waitForDisk(browser, "the new skill beside pdf-tools", created, (text) => Boolean(text?.includes("name: form-checker")));
    await waitFor(browser, "the new skill open", () => editorPath(browser), (shown) => shown === "group/form-checker/SKILL.md");
    const placeholder = await waitFor(
      browser,
      "the placeholder finding",
      async () => (await problems(browser)).find((candidate) => candidate.live && candidate.code === "SF307"),
      Boolean,
    );
    assert.ok(placeholder.message.includes("placeholder"), placeholder.message);
    await screenshot(browser, "resources-new-skill-placeholder");
  });

  it("renames the skill folder together with its name", async () => {
    await openSkill(browser, "pdf-tools");
    await browser.$('[data-testid="skill-rename"]').click();
    await submitName(browser, "pdf-forms");
    const renamed = path.join(root, "group", "pdf-forms", "SKILL.md");
    // The folder moves first and its SKILL.md takes the new name a moment later: wait for both.
    const text = await waitForDisk(browser, "the renamed skill on disk", renamed, (written) => Boolean(written?.includes("name: pdf-forms")));
    assert.equal(text, PDF_SKILL.replace("name: pdf-tools", "name: pdf-forms"));
    assert.equal(await exists(skill), false);
    assert.equal(await exists(path.join(root, "group", "pdf-forms", "scripts", "fill.py")), true);
    await waitFor(browser, "the renamed skill open", () => editorPath(browser), (shown) => shown === "group/pdf-forms/SKILL.md");
    await waitFor(browser, "the renamed skill in the tree", () => browser.$('[data-testid="skill-item"][data-skill-name="pdf-forms"]').isExisting(), Boolean);
    await screenshot(browser, "resources-skill-renamed");

    // A folder of that name already exists: refused, nothing moves.
    await browser.$('[data-testid="skill-rename"]').click();
    await submitName(browser, "form-checker");
    const refusal = await waitFor(browser, "the rename refusal", async () => {
      const shown = browser.$('[data-testid="resource-message"]');
      return (await shown.isExisting()) ? shown.getText() : null;
    }, (message) => Boolean(message) && message.includes("already exists"));
    assert.ok(refusal.includes("form-checker"), refusal);
    assert.equal(await exists(renamed), true);
    assert.ok((await readFile(path.join(root, "group", "form-checker", "SKILL.md"), "utf8")).includes("name: form-checker"));
    await screenshot(browser, "resources-skill-rename-refused");
  });
});
