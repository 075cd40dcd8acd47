// The editor's CodeMirror configuration and the translation of engine diagnostics into CodeMirror's.
import { defaultKeymap, history, historyKeymap, indentWithTab } from "@codemirror/commands";
import { HighlightStyle, bracketMatching, defaultHighlightStyle, syntaxHighlighting } from "@codemirror/language";
import { tags } from "@lezer/highlight";
import { forEachDiagnostic, lintGutter, lintKeymap, setDiagnostics, type Action, type Diagnostic } from "@codemirror/lint";
import { highlightSelectionMatches, search, searchKeymap } from "@codemirror/search";
import { Compartment, EditorState, Prec, StateEffect, StateField, type ChangeSet, type Extension, type Text, type TransactionSpec } from "@codemirror/state";
import {
  EditorView,
  drawSelection,
  highlightActiveLine,
  highlightActiveLineGutter,
  highlightSpecialChars,
  keymap,
  lineNumbers,
  type ViewUpdate,
} from "@codemirror/view";
import type { EditorDiagnostic, EditorFix } from "./backend";
import { languageExtension, languageOf } from "./languages";
import { detectLineSeparator, type Offsets } from "./offsets";

/** What the editor needs from the rest of the app for one file. */
export interface EditorHooks {
  save(path: string): void;
  showRule(rule: string): void;
  changed(path: string, update: ViewUpdate): void;
  /**
   * The text is about to change (the transaction exists, the editor has not updated yet): so that the change can
   * leave for the linter while the editor redraws.
   */
  changing(path: string, changes: ChangeSet, before: Text, after: Text): void;
  /** A key went down in the editor, at `time` (performance.now() time), for the keystroke timing. */
  keydown(time: number): void;
  /** The findings last shown, which a quick fix in a tooltip applies from (its offsets fit only that text). */
  linted(): LintedText | null;
  /** A quick fix that creates a missing file (relative to the skill folder of the file shown). */
  createFile(relative: string): void;
}

/** One lint answer, kept so a quick fix applies only to the text it was computed for. */
export interface LintedText {
  doc: Text;
  map: Offsets;
  diagnostics: EditorDiagnostic[];
}

/** The editor's colours: swapped in every open file when the window's theme changes. */
export const editorThemeCompartment = new Compartment();
let currentTheme: "light" | "dark" = "light";

/** The theme new editor states start with (the window's, once it is known). */
export function setEditorTheme(theme: "light" | "dark"): void {
  currentTheme = theme;
}

const darkHighlightStyle = HighlightStyle.define(
  [
    { tag: tags.heading, fontWeight: "bold", color: "#9cc7ff" },
    { tag: [tags.strong], fontWeight: "bold" },
    { tag: [tags.emphasis], fontStyle: "italic" },
    { tag: tags.strikethrough, textDecoration: "line-through" },
    { tag: [tags.link, tags.url], color: "#7fb8ff", textDecoration: "underline" },
    { tag: [tags.keyword, tags.atom, tags.bool], color: "#d7a6ff" },
    { tag: [tags.string, tags.special(tags.string)], color: "#f2b27a" },
    { tag: [tags.number], color: "#b5e3a1" },
    { tag: [tags.comment, tags.meta], color: "#8d99a6" },
    { tag: [tags.propertyName, tags.definition(tags.propertyName)], color: "#7fd4c8" },
    { tag: [tags.monospace], color: "#e8c98a" },
    { tag: [tags.processingInstruction, tags.punctuation], color: "#a3afbb" },
    { tag: tags.invalid, color: "#ff8a80" },
  ],
  { themeType: "dark" },
);

/** CodeMirror's colours for `theme`: the window's colour variables (app.css), and syntax colours that read on them. */
export function editorTheme(theme: "light" | "dark"): Extension {
  return [
    EditorView.theme(
      {
        "&": { backgroundColor: "var(--surface)", color: "var(--text)" },
        ".cm-gutters": { backgroundColor: "var(--surface-sunken)", color: "var(--text-faint)", borderRight: "1px solid var(--border)" },
        ".cm-activeLine": { backgroundColor: "var(--editor-active-line)" },
        ".cm-activeLineGutter": { backgroundColor: "var(--editor-active-line)" },
        ".cm-cursor, .cm-dropCursor": { borderLeftColor: "var(--text)" },
        "&.cm-focused > .cm-scroller > .cm-selectionLayer .cm-selectionBackground, .cm-selectionBackground": {
          backgroundColor: "var(--editor-selection)",
        },
        ".cm-tooltip": { backgroundColor: "var(--surface)", color: "var(--text)", border: "1px solid var(--border-strong)" },
        ".cm-panels": { backgroundColor: "var(--surface-sunken)", color: "var(--text)" },
      },
      { dark: theme === "dark" },
    ),
    theme === "dark" ? syntaxHighlighting(darkHighlightStyle) : syntaxHighlighting(defaultHighlightStyle, { fallback: true }),
  ];
}

export function isSkillFile(path: string): boolean {
  return path === "SKILL.md" || path.endsWith("/SKILL.md") || path.endsWith("\\SKILL.md");
}
const WRAP_LIMIT = 5_000;

function longestLine(text: string): number {
  let longest = 0;
  let start = 0;
  for (let end = text.indexOf("\n"); ; end = text.indexOf("\n", start)) {
    const stop = end === -1 ? text.length : end;
    longest = Math.max(longest, stop - start);
    if (end === -1) return longest;
    start = end + 1;
  }
}

export function createEditorState(path: string, text: string, readOnly: boolean, hooks: EditorHooks): EditorState {
  const extensions: Extension[] = [
    // Keep the file's own line breaks, so the text saved is the text read (a BOM stays the first character).
    EditorState.lineSeparator.of(detectLineSeparator(text)),
    EditorState.readOnly.of(readOnly),
    EditorView.editable.of(!readOnly),
    lineNumbers(),
    highlightActiveLineGutter(),
    highlightSpecialChars(),
    history(),
    drawSelection(),
    highlightActiveLine(),
    highlightSelectionMatches(),
    bracketMatching(),
    search({ top: true }),
    // The theme carries the highlighting style (light or dark).
    editorThemeCompartment.of(editorTheme(currentTheme)),
    drawnFindings,
    // A SKILL.md is Markdown with frontmatter whatever it holds; other files by their name.
    languageExtension(isSkillFile(path) ? "markdown" : languageOf(path, text)),
    // Wrapping lays out a whole line; without it CodeMirror renders only the visible part of a huge line.
    longestLine(text) <= WRAP_LIMIT ? EditorView.lineWrapping : [],
    // Only a SKILL.md is linted (the store pushes the findings); other bundled files (references, scripts) are
    // plain text to the engine.
    isSkillFile(path) ? lintGutter() : [],
    Prec.highest(
      EditorView.domEventHandlers({
        keydown: (event) => {
          hooks.keydown(eventTime(event));
          return false;
        },
      }),
    ),
    keymap.of([
      {
        key: "Mod-s",
        preventDefault: true,
        run: () => {
          hooks.save(path);
          return true;
        },
      },
      ...defaultKeymap,
      ...historyKeymap,
      ...searchKeymap,
      ...lintKeymap,
      indentWithTab,
    ]),
    EditorView.updateListener.of((update) => hooks.changed(path, update)),
    EditorState.transactionExtender.of((transaction) => {
      if (transaction.docChanged) hooks.changing(path, transaction.changes, transaction.startState.doc, transaction.newDoc);
      return null;
    }),
  ];
  return EditorState.create({ doc: text, extensions });
}

/** When the event happened, in performance.now() time; the handler's own time if the engine stamps otherwise. */
function eventTime(event: Event): number {
  const now = performance.now();
  const stamp = event.timeStamp;
  return stamp > 0 && stamp <= now && now - stamp < 1000 ? stamp : now;
}

/** The transaction that shows the engine's findings for `state`'s text as squiggles and gutter markers. */
export function showDiagnostics(
  state: EditorState,
  list: EditorDiagnostic[],
  map: Offsets,
  hooks: Pick<EditorHooks, "showRule" | "linted" | "createFile">,
): TransactionSpec {
  const spec = setDiagnostics(state, toCodeMirror(list, map, state.doc, hooks));
  return { ...spec, effects: [...[spec.effects ?? []].flat(), drawnCount.of(list.length)] };
}

/**
 * How many findings were last drawn. CodeMirror drops a squiggle whose text was deleted (its range collapsed)
 * but keeps its gutter marker: the squiggles left are then fewer than those drawn, and the findings must be
 * drawn again even when the new list matches what is left (else a marker and its hover stay for an error that
 * no longer exists).
 */
const drawnCount = StateEffect.define<number>();
const drawnFindings = StateField.define<number>({
  create: () => 0,
  update: (value, transaction) => {
    for (const effect of transaction.effects) if (effect.is(drawnCount)) return effect.value;
    return value;
  },
});

/** The finding each CodeMirror diagnostic was made from. */
const origins = new WeakMap<Diagnostic, EditorDiagnostic>();

/**
 * Whether `list` would draw exactly what `state` shows already: the findings drawn before, carried along by
 * CodeMirror through the edits since. Typing in the body usually leaves the findings as they were; handing them
 * to CodeMirror again would rebuild the squiggles and the gutter for nothing.
 */
export function showsAlready(state: EditorState, list: EditorDiagnostic[], map: Offsets): boolean {
  const shown: { from: number; to: number; item: EditorDiagnostic }[] = [];
  let unknown = false;
  forEachDiagnostic(state, (diagnostic, from, to) => {
    const item = origins.get(diagnostic);
    if (item) shown.push({ from, to, item });
    else unknown = true;
  });
  if (unknown || shown.length !== list.length || shown.length !== (state.field(drawnFindings, false) ?? shown.length)) return false;
  const wanted = list.map((item) => ({ ...positionsOf(item, map, state.doc), item }));
  const order = (a: { from: number; to: number; item: EditorDiagnostic }, b: typeof a) =>
    a.from - b.from || a.to - b.to || key(a.item).localeCompare(key(b.item));
  shown.sort(order);
  wanted.sort(order);
  return wanted.every(
    (entry, index) => entry.from === shown[index].from && entry.to === shown[index].to && key(entry.item) === key(shown[index].item),
  );
}

/** Whether two answers hold the same findings, offsets and fixes included (then the lists need no redraw). */
export function sameFindings(a: readonly EditorDiagnostic[], b: readonly EditorDiagnostic[]): boolean {
  return a === b || (a.length === b.length && a.every((item, index) => JSON.stringify(item) === JSON.stringify(b[index])));
}

/** Everything of a finding that shows in the editor, but its position. */
function key(item: EditorDiagnostic): string {
  return JSON.stringify([item.code, item.rule, item.severity, item.message, item.fix?.title ?? null, item.fix?.applicability ?? null]);
}

function positionsOf(item: EditorDiagnostic, map: Offsets, doc: Text): { from: number; to: number } {
  const from = Math.min(map.toPosition(item.from), doc.length);
  const to = Math.min(Math.max(map.toPosition(item.to), from), doc.length);
  return { from, to };
}

/** The quick-fix edits as one CodeMirror change set, in editor positions. */
export function fixChanges(fix: EditorFix, map: Offsets) {
  return fix.edits.map((edit) => ({ from: map.toPosition(edit.from), to: map.toPosition(edit.to), insert: edit.insert }));
}

/** Applies a fix as one transaction (one undo step); false when the text changed since the fix was computed. */
export function applyFix(view: EditorView, fix: EditorFix, linted: Pick<LintedText, "doc" | "map">): boolean {
  if (view.state.doc !== linted.doc || fix.applicability === "display-only" || view.state.readOnly) return false;
  view.dispatch({ changes: fixChanges(fix, linted.map), userEvent: "input.quickfix", scrollIntoView: true });
  return true;
}

function toCodeMirror(list: EditorDiagnostic[], map: Offsets, doc: Text, hooks: Pick<EditorHooks, "showRule" | "linted" | "createFile">): Diagnostic[] {
  return list.map((item) => {
    const { from, to } = positionsOf(item, map, doc);
    const actions: Action[] = [];
    const creates = item.fix?.creates;
    if (creates) actions.push({ name: item.fix?.title ?? `Create ${creates}`, apply: () => hooks.createFile(creates) });
    if (item.fix && item.fix.applicability !== "display-only") {
      const fix = item.fix;
      actions.push({
        name: fix.applicability === "unsafe" ? `${fix.title} (unsafe)` : fix.title,
        // From the findings shown last: the squiggle may have been drawn for an older text and carried along
        // since (see showsAlready); its fix's offsets fit only the text it was computed for.
        apply: (view, shownFrom, shownTo) => {
          const current = hooks.linted();
          if (!current) return;
          const same = current.diagnostics.find((candidate) => {
            if (key(candidate) !== key(item) || !candidate.fix) return false;
            const at = positionsOf(candidate, current.map, current.doc);
            return at.from === shownFrom && at.to === shownTo;
          });
          if (same?.fix) applyFix(view, same.fix, current);
        },
      });
    }
    const diagnostic: Diagnostic = {
      from,
      to,
      severity: item.severity,
      message: item.message,
      source: item.code,
      actions,
      // Built with text nodes: a message may quote anything the skill contains.
      renderMessage: () => {
        const box = document.createElement("div");
        box.className = "sf-lint-message";
        const message = document.createElement("span");
        message.textContent = item.message;
        const code = document.createElement("code");
        code.className = "sf-lint-code";
        code.textContent = item.code;
        const docs = document.createElement("button");
        docs.type = "button";
        docs.className = "sf-lint-docs";
        docs.textContent = `About ${item.rule}`;
        docs.addEventListener("click", () => hooks.showRule(item.rule));
        box.append(message, " ", code, " ", docs);
        if (item.fix?.applicability === "display-only" && !item.fix.creates) {
          const hint = document.createElement("div");
          hint.className = "sf-lint-hint";
          hint.textContent = `Suggested: ${item.fix.title}`;
          box.append(hint);
        }
        return box;
      },
    };
    origins.set(diagnostic, item);
    return diagnostic;
  });
}
