// The previews panel in the window, against the fake backend.
import { cleanup, fireEvent, render, screen, waitFor } from "@testing-library/svelte";
import { EditorView } from "@codemirror/view";
import { afterEach, describe, expect, it } from "vitest";
import App from "../../App.svelte";
import { fakeBackend, ok } from "../../test/fakeBackend";
import { engineView, engineWorkspace } from "../../test/engineAnswers";

afterEach(cleanup);

const A = "/work/skills/alpha/SKILL.md";
// The fixture the engine answered about (engine-questions.json): alpha has a long non-ASCII description and a
// bundled file, zeta a description full of markup.
const files = engineWorkspace("previews").files;

async function setup() {
  const backend = fakeBackend({
    initial: ok(engineView("previews")),
    refresh: () => ok(engineView("previews")),
    files: { ...files },
  });
  render(App, { backend });
  const alpha = (await screen.findAllByTestId("skill-item")).find((item) => item.dataset.skillName === "alpha");
  await fireEvent.click(alpha!);
  await waitFor(() => expect(screen.getByTestId("editor-path").textContent).toBe("alpha/SKILL.md"));
  await fireEvent.click(screen.getByTestId("previews-toggle"));
  return backend;
}

function editor(): EditorView {
  const dom = document.querySelector(".cm-editor");
  const found = dom instanceof HTMLElement ? EditorView.findFromDOM(dom) : null;
  if (!found) throw new Error("no editor");
  return found;
}

const text = (id: string) => screen.getByTestId(id).textContent;

describe("catalog preview", () => {
  it("shows the exact text as text, the current skill highlighted, and every entry's share", async () => {
    await setup();
    await waitFor(() => expect(text("catalog-text")).toContain('<skill name="alpha"'));
    // nagents escapes a description's markup in its manifest; the panel shows that text as text.
    expect(text("catalog-text")).toContain(
      '<skill name="zeta" location="/work/skills/zeta/SKILL.md">&lt;script&gt;alert(1)&lt;/script&gt; &amp; &lt;img src=x onerror=&quot;x&quot;&gt;</skill>',
    );
    expect(document.querySelector("script")).toBeNull();
    expect(document.querySelector("img")).toBeNull();
    expect(text("catalog-current")).toMatch(/^<skill name="alpha"/);
    const rows = screen.getAllByTestId("catalog-entry");
    expect(rows.map((row) => row.dataset.name)).toEqual(["alpha", "beta", "zeta"]);
    expect(rows[0].getAttribute("aria-current")).toBe("true");
    expect(screen.getByTestId("catalog-meter").dataset.over).toBe("false");
  });

  it("lists the backend's page of a large catalog, with counts over all of it", async () => {
    const backend = fakeBackend({
      initial: ok(engineView("previews")),
      files: { ...files },
      previewRows: 1,
    });
    render(App, { backend });
    const beta = (await screen.findAllByTestId("skill-item")).find((item) => item.dataset.skillName === "beta");
    await fireEvent.click(beta!);
    await waitFor(() => expect(screen.getByTestId("editor-path").textContent).toBe("beta/SKILL.md"));
    await fireEvent.click(screen.getByTestId("previews-toggle"));
    await waitFor(() => expect(text("catalog-fitted")).toBe("3 of 3 skills shown"));
    const rows = screen.getAllByTestId("catalog-entry");
    expect(rows.map((row) => row.dataset.name)).toEqual(["alpha", "beta"]);
    expect(rows[1].getAttribute("aria-current")).toBe("true");
    expect(screen.getByText("1 more skills not listed here.")).toBeTruthy();
    // The catalog's text is whole: only the rows are cut.
    expect(text("catalog-text")).toContain('<skill name="zeta"');
  });

  it("omits skills when the manifest budget is lowered, with the notice and the count", async () => {
    await setup();
    await waitFor(() => expect(text("catalog-fitted")).toBe("3 of 3 skills shown"));
    const field = screen.getByTestId("catalog-manifest-tokens-number") as HTMLInputElement;
    await fireEvent.input(field, { target: { value: "40" } });
    await waitFor(() => expect(screen.getByTestId("catalog-omitted-count").textContent).toMatch(/omitted$/));
    // 40 tokens are 160 bytes, less than nagents' header and footer alone: every descriptor is left out.
    expect(text("catalog-notice")).toContain("[Skill catalog truncated: 3 additional descriptors omitted");
    expect(screen.getAllByTestId("catalog-entry").map((row) => row.dataset.included)).toEqual(["false", "false", "false"]);
  });

  it("follows the unsaved buffer", async () => {
    await setup();
    await waitFor(() => expect(text("catalog-text")).toContain('SKILL.md">Merges sheets. Fusionne'));
    const view = editor();
    const at = view.state.doc.toString().indexOf("Merges sheets.");
    view.dispatch({ changes: { from: at, to: at + "Merges".length, insert: "Joins" }, userEvent: "input.type" });
    await waitFor(() => expect(text("catalog-text")).toContain('SKILL.md">Joins sheets. Fusionne'));
  });

  it("compares two clients side by side", async () => {
    const backend = await setup();
    await fireEvent.click(screen.getByTestId("catalog-compare"));
    await waitFor(() => expect(screen.getByTestId("catalog-other").dataset.dialect).toBe("claude-code"));
    await waitFor(() => expect(backend.calls).toContain("catalogPreview claude-code"));
    await waitFor(() => expect(screen.getByTestId("catalog-other-text").textContent).toContain("alpha"));
  });
});

describe("load budget", () => {
  it("marks the cut and the line it falls on", async () => {
    await setup();
    await fireEvent.click(screen.getByTestId("previews-tab-load"));
    await fireEvent.input(screen.getByTestId("token-limit-number"), { target: { value: "20" } });
    await waitFor(() => expect(screen.getByTestId("load-cut-marker")).toBeTruthy());
    expect(screen.getByTestId("load-truncated").dataset.truncated).toBe("true");
    expect(text("load-cut-line")).toMatch(/^cut on line 3\b/);
    const shown = screen.getByTestId("load-text").textContent ?? "";
    // The text around the marker is the file's text, unchanged.
    const marker = screen.getByTestId("load-cut-marker").textContent ?? "";
    expect(shown.replace(marker, "")).toBe(files[A]);
    // nagents keeps 20 tokens × 4 bytes; in the description's accented letters that is fewer characters.
    const kept = shown.slice(0, shown.indexOf(marker));
    expect(new TextEncoder().encode(kept).length).toBe(80);
    expect(kept.length).toBe(78);
    expect(kept).toBe(files[A].slice(0, 78));
    expect(text("tenx-files")).toContain("references/guide.md");
  });
});

describe("activation playground", () => {
  it("completes $names from the catalog and shows each activation", async () => {
    await setup();
    await waitFor(() => expect(text("catalog-text")).toContain("alpha"));
    await fireEvent.click(screen.getByTestId("previews-tab-playground"));
    const box = screen.getByTestId("playground-message") as HTMLTextAreaElement;
    box.value = "use $al";
    box.setSelectionRange(7, 7);
    await fireEvent.input(box);
    const options = await screen.findAllByTestId("playground-completion");
    expect(options.map((option) => option.textContent)).toEqual(["$alpha"]);
    await fireEvent.mouseDown(options[0]);
    await waitFor(() => expect(box.value).toBe("use $alpha "));
    box.value = "use $alpha and $beta and $nope";
    await fireEvent.input(box);
    await fireEvent.click(screen.getByTestId("playground-run"));
    await waitFor(() => expect(screen.getAllByTestId("transcript-message").length).toBeGreaterThan(0));
    const activations = screen.getAllByTestId("transcript-message").filter((row) => row.dataset.origin === "activation");
    expect(activations).toHaveLength(2);
    expect(screen.getAllByTestId("transcript-warning")[0].dataset.kind).toBe("unknown_reference");
  });

  it("shows every skill's router score", async () => {
    await setup();
    await fireEvent.click(screen.getByTestId("previews-tab-playground"));
    const box = screen.getByTestId("playground-message") as HTMLTextAreaElement;
    box.value = "merges sheets";
    await fireEvent.input(box);
    const model = screen.getByTestId("playground-model") as HTMLSelectElement;
    model.value = "router";
    await fireEvent.change(model);
    await fireEvent.click(screen.getByTestId("playground-run"));
    await waitFor(() => expect(screen.getAllByTestId("router-score")).toHaveLength(3));
    expect(screen.getAllByTestId("transcript-action")[0].dataset.kind).toBe("tool_calls");
  });

  it("sends the router threshold the author sets, shared with the trigger tests", async () => {
    const backend = await setup();
    await fireEvent.click(screen.getByTestId("previews-tab-playground"));
    const box = screen.getByTestId("playground-message") as HTMLTextAreaElement;
    box.value = "merges sheets";
    await fireEvent.input(box);
    const model = screen.getByTestId("playground-model") as HTMLSelectElement;
    model.value = "router";
    await fireEvent.change(model);
    const threshold = screen.getByTestId("playground-threshold") as HTMLInputElement;
    expect(threshold.value).toBe("0.5");

    // Not a usable threshold: flagged, and the last good one is still sent.
    await fireEvent.input(threshold, { target: { value: "-2" } });
    expect(threshold.getAttribute("aria-invalid")).toBe("true");
    await fireEvent.click(screen.getByTestId("playground-run"));
    await waitFor(() => expect(backend.calls).toContain('simulate nagents {"router":{"threshold":0.5}}'));

    await fireEvent.input(threshold, { target: { value: "1000" } });
    expect(threshold.getAttribute("aria-invalid")).toBe("false");
    await fireEvent.click(screen.getByTestId("playground-run"));
    await waitFor(() => expect(backend.calls).toContain('simulate nagents {"router":{"threshold":1000}}'));
    await waitFor(() => expect(screen.getAllByTestId("transcript-action")[0].dataset.kind).toBe("text"));

    await fireEvent.click(screen.getByTestId("previews-tab-triggers"));
    expect((screen.getByTestId("triggers-threshold") as HTMLInputElement).value).toBe("1000");
    await fireEvent.input(screen.getByTestId("trigger-query"), { target: { value: "merges sheets" } });
    await fireEvent.click(screen.getByTestId("triggers-run"));
    await waitFor(() => expect(backend.calls).toContain("runTriggers 1 1000"));
  });
});

describe("trigger tests", () => {
  it("runs the table, saves evals.json beside the skill and refuses to clobber a changed file", async () => {
    const backend = await setup();
    await fireEvent.click(screen.getByTestId("previews-tab-triggers"));
    await waitFor(() => expect(text("triggers-path")).toBe("alpha/evals/evals.json"));
    await fireEvent.input(screen.getByTestId("trigger-query"), { target: { value: "merges sheets" } });
    await fireEvent.input(screen.getByTestId("trigger-expected"), { target: { value: "alpha" } });
    await fireEvent.click(screen.getByTestId("triggers-run"));
    await waitFor(() => expect(screen.getAllByTestId("trigger-metric").length).toBeGreaterThan(0));
    expect(screen.getByTestId("trigger-row").dataset.correct).toBe("true");

    await fireEvent.click(screen.getByTestId("triggers-save"));
    const path = "/work/skills/alpha/evals/evals.json";
    await waitFor(() => expect(backend.files.get(path)).toContain('"should_trigger": true'));
    expect(backend.calls).toContain(`saveTriggerQueries ${A} new`);

    // Someone else edits the file; the next save must not replace it silently.
    backend.files.set(path, "[]\n");
    await fireEvent.click(screen.getByTestId("triggers-save"));
    await waitFor(() => expect(screen.getByTestId("triggers-conflict")).toBeTruthy());
    expect(backend.files.get(path)).toBe("[]\n");
    await fireEvent.click(screen.getByTestId("triggers-conflict-overwrite"));
    await waitFor(() => expect(backend.files.get(path)).toContain("merges sheets"));
    expect(screen.queryByTestId("triggers-conflict")).toBeNull();
    // The overwrite kept the file's new fingerprint: saving again replaces it as unchanged, with no conflict.
    await fireEvent.click(screen.getByTestId("triggers-save"));
    await waitFor(() =>
      expect(backend.calls.filter((call) => call.startsWith("saveTriggerQueries"))).toEqual([
        `saveTriggerQueries ${A} new`,
        `saveTriggerQueries ${A} unchanged`,
        `saveTriggerQueries ${A} overwrite`,
        `saveTriggerQueries ${A} unchanged`,
      ]),
    );
    expect(screen.queryByTestId("triggers-conflict")).toBeNull();
  });

  it("reads an existing evals.json into the table", async () => {
    const backend = fakeBackend({
      initial: ok(engineView("previews-evals")),
      // alpha alone, with an evals.json beside it.
      files: { ...engineWorkspace("previews-evals").files },
    });
    render(App, { backend });
    await fireEvent.click((await screen.findAllByTestId("skill-item"))[0]);
    await waitFor(() => expect(screen.getByTestId("editor-path").textContent).toBe("alpha/SKILL.md"));
    await fireEvent.click(screen.getByTestId("previews-toggle"));
    await fireEvent.click(screen.getByTestId("previews-tab-triggers"));
    await waitFor(() => expect((screen.getByTestId("trigger-query") as HTMLInputElement).value).toBe("join two sheets"));
    expect((screen.getByTestId("trigger-expected") as HTMLInputElement).value).toBe("alpha");
  });
});
