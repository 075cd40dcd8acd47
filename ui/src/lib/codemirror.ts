// The editor's CodeMirror configuration and the translation of engine diagnostics into CodeMirror's.
import { defaultKeymap, history, historyKeymap, indentWithTab } from "@codemirror/commands";
import { markdown } from "@codemirror/lang-markdown";
import { bracketMatching, defaultHighlightStyle, syntaxHighlighting } from "@codemirror/language";
import { lintGutter, lintKeymap, setDiagnostics, type Action, type Diagnostic } from "@codemirror/lint";
import { highlightSelectionMatches, search, searchKeymap } from "@codemirror/search";
import { EditorState, Prec, type ChangeSet, type Extension, type Text, type TransactionSpec } from "@codemirror/state";
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
import { frontmatter } from "./frontmatter";
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
}

/** One lint answer, kept so a quick fix applies only to the text it was computed for. */
export interface LintedText {
  doc: Text;
  map: Offsets;
  diagnostics: EditorDiagnostic[];
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
    syntaxHighlighting(defaultHighlightStyle, { fallback: true }),
    markdown({ extensions: [frontmatter] }),
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
  hooks: Pick<EditorHooks, "showRule">,
): TransactionSpec {
  return setDiagnostics(state, toCodeMirror(list, map, state.doc, hooks));
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

function toCodeMirror(list: EditorDiagnostic[], map: Offsets, doc: Text, hooks: Pick<EditorHooks, "showRule">): Diagnostic[] {
  const linted = { doc, map };
  return list.map((item) => {
    const from = Math.min(map.toPosition(item.from), doc.length);
    const to = Math.min(Math.max(map.toPosition(item.to), from), doc.length);
    const actions: Action[] = [];
    if (item.fix && item.fix.applicability !== "display-only") {
      const fix = item.fix;
      actions.push({
        name: fix.applicability === "unsafe" ? `${fix.title} (unsafe)` : fix.title,
        apply: (view) => {
          applyFix(view, fix, linted);
        },
      });
    }
    return {
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
        if (item.fix?.applicability === "display-only") {
          const hint = document.createElement("div");
          hint.className = "sf-lint-hint";
          hint.textContent = `Suggested: ${item.fix.title}`;
          box.append(hint);
        }
        return box;
      },
    };
  });
}
