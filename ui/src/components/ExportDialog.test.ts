import { cleanup, fireEvent, render, screen, waitFor } from "@testing-library/svelte";
import { afterEach, describe, expect, it } from "vitest";
import ExportDialog from "./ExportDialog.svelte";
import { ExportStore } from "../lib/export.svelte";
import { fakeBackend, type FakeBackendOptions } from "../test/fakeBackend";
import { engineView, engineWorkspace } from "../test/engineAnswers";

afterEach(cleanup);

// The engine exported these fixture workspaces (engine-questions.json): "export" is clean, "export-error" has an
// XML tag in alpha's description and a broken link in beta. Every report and refusal shown is the engine's.
const EXPORTS = "/home/me/exports";
const PROJECT = "/home/me/project";

function open(workspace: string, options: FakeBackendOptions = {}) {
  const backend = fakeBackend({ files: { ...engineWorkspace(workspace).files }, ...options });
  const exporter = new ExportStore(backend);
  exporter.reset(engineView(workspace).report.skills.map((skill) => skill.name));
  render(ExportDialog, { exporter, onclose: () => {} });
  return { backend, exporter };
}

async function typeDestination(path: string) {
  await fireEvent.input(screen.getByTestId("export-destination"), { target: { value: path } });
}

async function checkAndRun() {
  await fireEvent.click(screen.getByTestId("export-check"));
  await screen.findAllByTestId("export-planned-skill");
  const run = screen.getByTestId("export-run") as HTMLButtonElement;
  await waitFor(() => expect(run.disabled).toBe(false));
  await fireEvent.click(run);
}

describe("ExportDialog", () => {
  it("lists the workspace's skills, all checked", () => {
    open("export");
    const boxes = screen.getAllByTestId("export-skill") as HTMLInputElement[];
    expect(boxes.map((box) => [box.dataset.skillName, box.checked])).toEqual([
      ["alpha", true],
      ["beta", true],
    ]);
    expect((screen.getByTestId("export-check") as HTMLButtonElement).disabled).toBe(true);
    expect((screen.getByTestId("export-run") as HTMLButtonElement).disabled).toBe(true);
  });

  it("lists each error with its skill and keeps Export disabled; text stays text", async () => {
    open("export-error");
    await typeDestination(EXPORTS);
    await fireEvent.click(screen.getByTestId("export-check"));
    const rows = await screen.findAllByTestId("export-problem");
    expect(rows.map((row) => row.dataset.level)).toEqual(["error", "warning"]);
    expect(rows[0].textContent).toContain("alpha");
    expect(rows[0].textContent).toContain("SF305");
    // The engine's message quotes the tag; it is shown as text, not made an element.
    expect(rows[0].textContent).toContain("`<b>`");
    expect(rows[0].querySelector("b")).toBeNull();
    expect(rows[1].textContent).toContain("SF503");
    expect(screen.getByTestId("export-verdict").textContent).toMatch(/1 error block/);
    expect((screen.getByTestId("export-run") as HTMLButtonElement).disabled).toBe(true);
  });

  it("checks, exports and shows the paths and artifacts written", async () => {
    const { backend } = open("export");
    await typeDestination(EXPORTS);
    await fireEvent.click(screen.getByTestId("export-check"));
    const planned = await screen.findAllByTestId("export-planned-skill");
    expect(planned.map((row) => row.dataset.skillName)).toEqual(["alpha", "beta"]);
    const run = screen.getByTestId("export-run") as HTMLButtonElement;
    await waitFor(() => expect(run.disabled).toBe(false));
    await fireEvent.click(run);
    expect((await screen.findByTestId("export-written-path")).textContent).toBe(EXPORTS);
    expect(screen.getAllByTestId("export-artifact").map((a) => a.textContent)).toEqual(["alpha.skill", "beta.skill"]);
    expect(backend.calls).toContain(`exportRun skill-archive ${EXPORTS} force=false`);
  });

  it("offers to replace an earlier install and retries with force", async () => {
    const { backend } = open("export", { exportDestination: "earlier-install" });
    await fireEvent.change(screen.getByTestId("export-target"), { target: { value: "client-folder" } });
    await typeDestination(PROJECT);
    await checkAndRun();
    await fireEvent.click(await screen.findByTestId("export-force"));
    const written = await screen.findAllByTestId("export-written");
    expect(written.map((row) => [row.dataset.path, row.textContent?.includes("replaced")])).toEqual([
      [`${PROJECT}/.agents/skills/alpha`, true],
      [`${PROJECT}/.agents/skills/beta`, true],
    ]);
    expect(backend.calls.filter((call) => call.startsWith("exportRun"))).toEqual([
      `exportRun client-folder ${PROJECT} force=false`,
      `exportRun client-folder ${PROJECT} force=true`,
    ]);
  });

  it("explains that a foreign folder is never replaced, without offering force", async () => {
    open("export", { exportDestination: "foreign" });
    await fireEvent.change(screen.getByTestId("export-target"), { target: { value: "client-folder" } });
    await typeDestination(PROJECT);
    await checkAndRun();
    expect((await screen.findByTestId("export-foreign")).textContent).toMatch(/never replaced/);
    expect(screen.getByTestId("export-error-message").textContent).toContain(`${PROJECT}/.agents/skills/alpha`);
    expect(screen.queryByTestId("export-force")).toBeNull();
  });

  it("says an occupied folder is not replaced, without offering force", async () => {
    open("export", { exportDestination: "occupied" });
    await typeDestination(EXPORTS);
    await checkAndRun();
    expect(await screen.findByTestId("export-occupied")).toBeTruthy();
    expect(screen.queryByTestId("export-force")).toBeNull();
  });

  it("shows the client and package fields only for their targets", async () => {
    open("export");
    expect(screen.queryByTestId("export-client")).toBeNull();
    await fireEvent.change(screen.getByTestId("export-target"), { target: { value: "client-folder" } });
    expect(screen.getByTestId("export-client")).toBeTruthy();
    await fireEvent.change(screen.getByTestId("export-target"), { target: { value: "python-package" } });
    expect(screen.queryByTestId("export-client")).toBeNull();
    expect(screen.getByTestId("export-package-name")).toBeTruthy();
  });
});
