import { cleanup, fireEvent, render, screen, waitFor } from "@testing-library/svelte";
import { afterEach, describe, expect, it } from "vitest";
import ExportDialog from "./ExportDialog.svelte";
import { ExportStore } from "../lib/export.svelte";
import { failure, fakeBackend, ok, type FakeBackendOptions } from "../test/fakeBackend";
import { earlierInstall, foreign, problem, report } from "../test/fakeExport";

afterEach(cleanup);

function open(options: FakeBackendOptions) {
  const backend = fakeBackend(options);
  const exporter = new ExportStore(backend);
  exporter.reset(["alpha", "beta"]);
  render(ExportDialog, { exporter, onclose: () => {} });
  return { backend, exporter };
}

async function typeDestination(path: string) {
  await fireEvent.input(screen.getByTestId("export-destination"), { target: { value: path } });
}

describe("ExportDialog", () => {
  it("lists the workspace's skills, all checked", () => {
    open({});
    const boxes = screen.getAllByTestId("export-skill") as HTMLInputElement[];
    expect(boxes.map((box) => [box.dataset.skillName, box.checked])).toEqual([
      ["alpha", true],
      ["beta", true],
    ]);
    expect((screen.getByTestId("export-check") as HTMLButtonElement).disabled).toBe(true);
    expect((screen.getByTestId("export-run") as HTMLButtonElement).disabled).toBe(true);
  });

  it("lists each error with its skill and keeps Export disabled; text stays text", async () => {
    open({
      exportPlan: (choice) =>
        ok(report(choice, [problem("error", "alpha", "<b>bad</b> name"), problem("warning", "beta", "long description")])),
    });
    await typeDestination("/tmp/out");
    await fireEvent.click(screen.getByTestId("export-check"));
    const rows = await screen.findAllByTestId("export-problem");
    expect(rows.map((row) => row.dataset.level)).toEqual(["error", "warning"]);
    expect(rows[0].textContent).toContain("alpha");
    expect(rows[0].textContent).toContain("<b>bad</b> name");
    expect(rows[0].querySelector("b")).toBeNull();
    expect(screen.getByTestId("export-verdict").textContent).toMatch(/1 error block/);
    expect((screen.getByTestId("export-run") as HTMLButtonElement).disabled).toBe(true);
  });

  it("checks, exports and shows the paths and artifacts written", async () => {
    const { backend } = open({
      exportPlan: (choice) => ok(report(choice)),
      exportRun: (choice) =>
        ok(report(choice, [], [{ path: "/tmp/out", action: "created", files: 3, bytes: 900, artifacts: ["alpha.skill", "beta.skill"], removed: [], kept: [] }])),
    });
    await typeDestination("/tmp/out");
    await fireEvent.click(screen.getByTestId("export-check"));
    const planned = await screen.findAllByTestId("export-planned-skill");
    expect(planned.map((row) => row.dataset.skillName)).toEqual(["alpha", "beta"]);
    const run = screen.getByTestId("export-run") as HTMLButtonElement;
    await waitFor(() => expect(run.disabled).toBe(false));
    await fireEvent.click(run);
    expect((await screen.findByTestId("export-written-path")).textContent).toBe("/tmp/out");
    expect(screen.getAllByTestId("export-artifact").map((a) => a.textContent)).toEqual(["alpha.skill", "beta.skill"]);
    expect(backend.calls).toContain("exportRun skill-archive /tmp/out force=false");
  });

  it("offers to replace an earlier install and retries with force", async () => {
    const { backend } = open({
      exportPlan: (choice) => ok(report(choice)),
      exportRun: (choice) =>
        choice.force
          ? ok(report(choice, [], [{ path: "/p/.agents/skills/alpha", action: "replaced", files: 2, bytes: 10, artifacts: [], removed: [], kept: [] }]))
          : failure(earlierInstall),
    });
    await typeDestination("/p");
    await fireEvent.click(screen.getByTestId("export-check"));
    await screen.findAllByTestId("export-planned-skill");
    await fireEvent.click(screen.getByTestId("export-run"));
    await fireEvent.click(await screen.findByTestId("export-force"));
    expect((await screen.findByTestId("export-written")).textContent).toContain("replaced");
    expect(backend.calls.filter((call) => call.startsWith("exportRun"))).toEqual([
      "exportRun skill-archive /p force=false",
      "exportRun skill-archive /p force=true",
    ]);
  });

  it("explains that a foreign folder is never replaced, without offering force", async () => {
    open({ exportPlan: (choice) => ok(report(choice)), exportRun: () => failure(foreign) });
    await typeDestination("/p");
    await fireEvent.click(screen.getByTestId("export-check"));
    await screen.findAllByTestId("export-planned-skill");
    await fireEvent.click(screen.getByTestId("export-run"));
    expect((await screen.findByTestId("export-foreign")).textContent).toMatch(/never replaced/);
    expect(screen.queryByTestId("export-force")).toBeNull();
  });

  it("shows the client and package fields only for their targets", async () => {
    open({});
    expect(screen.queryByTestId("export-client")).toBeNull();
    await fireEvent.change(screen.getByTestId("export-target"), { target: { value: "client-folder" } });
    expect(screen.getByTestId("export-client")).toBeTruthy();
    await fireEvent.change(screen.getByTestId("export-target"), { target: { value: "python-package" } });
    expect(screen.queryByTestId("export-client")).toBeNull();
    expect(screen.getByTestId("export-package-name")).toBeTruthy();
  });
});
