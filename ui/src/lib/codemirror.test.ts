import { forEachDiagnostic } from "@codemirror/lint";
import { EditorView } from "@codemirror/view";
import { afterEach, describe, expect, it } from "vitest";
import type { EditorDiagnostic } from "./backend";
import { createEditorState, sameFindings, showDiagnostics, showsAlready, type EditorHooks, type LintedText } from "./codemirror";
import { DocOffsets } from "./offsets";

const TEXT = "---\nname: Big-Name\ndescription: d\n---\nBody\n";

/** The engine's finding on `name`'s value in `text`, with its fix. */
function nameFinding(text: string, message = "`name` must be lowercase"): EditorDiagnostic {
  const from = text.indexOf("Big-Name");
  return {
    code: "SF203",
    rule: "name-not-lowercase",
    severity: "error",
    message,
    from,
    to: from + "Big-Name".length,
    line: 2,
    column: 7,
    profiles: ["spec"],
    fix: { title: "Rename to `big-name`", applicability: "unsafe", edits: [{ from, to: from + "Big-Name".length, insert: "big-name" }], creates: null },
  };
}

let view: EditorView | null = null;
afterEach(() => {
  view?.destroy();
  view = null;
});

function setup() {
  let linted: LintedText | null = null;
  const hooks: EditorHooks = {
    save: () => {},
    showRule: () => {},
    changed: () => {},
    changing: () => {},
    keydown: () => {},
    linted: () => linted,
    createFile: () => {},
  };
  view = new EditorView({ state: createEditorState("skill/SKILL.md", TEXT, false, hooks), parent: document.body });
  const current = view;
  /** Shows the findings the way the store does: only when they differ from what is drawn. */
  const show = (list: EditorDiagnostic[]): boolean => {
    const map = new DocOffsets(current.state.doc, "\n");
    linted = { doc: current.state.doc, map, diagnostics: list };
    if (showsAlready(current.state, list, map)) return false;
    current.dispatch(showDiagnostics(current.state, list, map, hooks));
    return true;
  };
  return { view: current, show };
}

describe("showsAlready", () => {
  it("is false before the findings are drawn and true after", () => {
    const { view, show } = setup();
    const map = new DocOffsets(view.state.doc, "\n");
    expect(showsAlready(view.state, [nameFinding(TEXT)], map)).toBe(false);
    expect(show([nameFinding(TEXT)])).toBe(true);
    expect(showsAlready(view.state, [nameFinding(TEXT)], map)).toBe(true);
    expect(showsAlready(view.state, [], map)).toBe(false);
  });

  it("follows the squiggles CodeMirror carried through an edit, and tells a changed finding apart", () => {
    const { view, show } = setup();
    show([nameFinding(TEXT)]);
    // Typing before the finding moves it; the engine reports it at the new place.
    view.dispatch({ changes: { from: TEXT.indexOf("name:"), insert: "x" } });
    view.dispatch({ changes: { from: TEXT.indexOf("name:"), to: TEXT.indexOf("name:") + 1 } });
    view.dispatch({ changes: { from: TEXT.indexOf("Body"), insert: "More " } });
    const text = view.state.doc.toString();
    expect(show([nameFinding(text)])).toBe(false);
    expect(show([nameFinding(text, "another message")])).toBe(true);
  });
});

describe("a finding whose text was deleted", () => {
  it("is drawn again (its gutter marker removed) even though no squiggle is left to compare", () => {
    const { view, show } = setup();
    show([nameFinding(TEXT)]);
    const markers = () => view.dom.querySelectorAll(".cm-lint-marker-error").length;
    expect(markers()).toBe(1);
    // Deleting the finding's text collapses its squiggle away; the gutter keeps the marker until redrawn.
    const from = TEXT.indexOf("Big-Name");
    view.dispatch({ changes: { from, to: from + "Big-Name".length } });
    expect(show([])).toBe(true);
    expect(markers()).toBe(0);
  });
});

describe("quick fix in the tooltip", () => {
  it("applies the fix of the findings shown last, when the squiggle was carried along rather than redrawn", () => {
    const { view, show } = setup();
    show([nameFinding(TEXT)]);
    // An edit before the finding: the old fix's offsets no longer fit the text.
    view.dispatch({ changes: { from: 4, insert: "# c\n" } });
    const text = view.state.doc.toString();
    expect(show([nameFinding(text)])).toBe(false);
    let applied = 0;
    forEachDiagnostic(view.state, (diagnostic, from, to) => {
      diagnostic.actions?.[0]?.apply(view, from, to);
      applied++;
    });
    expect(applied).toBe(1);
    expect(view.state.doc.toString()).toBe(text.replace("Big-Name", "big-name"));
  });

  it("does nothing when the text changed since the last findings", () => {
    const { view, show } = setup();
    show([nameFinding(TEXT)]);
    view.dispatch({ changes: { from: 4, insert: "# c\n" } });
    forEachDiagnostic(view.state, (diagnostic, from, to) => diagnostic.actions?.[0]?.apply(view, from, to));
    expect(view.state.doc.toString()).toBe(`---\n# c\n${TEXT.slice(4)}`);
  });
});

describe("sameFindings", () => {
  it("compares whole findings, offsets and fixes included", () => {
    const finding = nameFinding(TEXT);
    expect(sameFindings([finding], [nameFinding(TEXT)])).toBe(true);
    expect(sameFindings([], [])).toBe(true);
    expect(sameFindings([finding], [])).toBe(false);
    expect(sameFindings([finding], [{ ...finding, from: finding.from + 1 }])).toBe(false);
    expect(sameFindings([finding], [{ ...finding, column: 8 }])).toBe(false);
    const otherFix = { ...finding, fix: finding.fix && { ...finding.fix, edits: [{ from: 0, to: 1, insert: "" }] } };
    expect(sameFindings([finding], [otherFix])).toBe(false);
  });
});
