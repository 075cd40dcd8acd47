// The open files, the active editor, the author's profile and everything the engine says about them.
import type { EditorState, Text } from "@codemirror/state";
import type { EditorView, ViewUpdate } from "@codemirror/view";
import { isolateHistory } from "@codemirror/commands";
import type {
  AppError,
  Backend,
  EditorDiagnostic,
  FileLint,
  ProfileId,
  Result,
  SaveGuard,
  Verdict,
} from "./backend";
import { PROFILES } from "./backend";
import { settle } from "./catalog";
import { BufferSync, type BufferLinted } from "./buffer";
import {
  applyFix,
  createEditorState,
  editorTheme,
  editorThemeCompartment,
  setEditorTheme,
  isSkillFile,
  sameFindings,
  showDiagnostics,
  showsAlready,
  type EditorHooks,
  type LintedText,
} from "./codemirror";
import { reactToDisk, type Conflict, type Resolution } from "./conflict";
import type { ConfirmStore } from "./confirm.svelte";
import { debounce } from "./debounce";
import { languageOf } from "./languages";
import { DocOffsets, detectLineSeparator } from "./offsets";
import { afterPaint } from "./frames";
import type { Theme } from "./theme";

/** One file open in the editor; its EditorState (text, selection, undo history) survives switching files. */
export class OpenDocument {
  readonly path: string;
  readonly readOnly: boolean;
  state: EditorState;
  /** The text as last read or saved, to tell whether the buffer is dirty. */
  savedDoc: Text;
  fingerprint: string | null = $state(null);
  dirty: boolean = $state(false);
  conflict: Conflict | null = $state(null);
  /** Why the last save did not happen while a conflict waits for the author's choice (shown in the banner). */
  saveRefused: string | null = $state(null);
  /** The backend's copy of a SKILL.md buffer, which the linter reads; null for files that are not linted. */
  sync: BufferSync | null = null;

  constructor(path: string, readOnly: boolean, state: EditorState, fingerprint: string) {
    this.path = path;
    this.readOnly = readOnly;
    this.state = state;
    this.savedDoc = state.doc;
    this.fingerprint = fingerprint;
  }
}

function lineBreakOf(state: EditorState): "\r\n" | "\n" {
  return state.lineBreak === "\r\n" ? "\r\n" : "\n";
}

export interface Compare {
  path: string;
  mine: string;
  theirs: string;
}

/** Timings the e2e suite reads (performance entries with these names). */
export const TIMING = {
  /** From the key event to the frame that shows the findings for the text it produced. */
  keystrokeToSquiggles: "keystroke-to-squiggles",
  /** From sending the change to that frame. */
  lintRoundTrip: "lint-round-trip",
  /** The command as the UI sees it: IPC both ways plus the backend's work. */
  lintBackend: "lint-backend",
  /** The backend's work alone: applying the change and linting. */
  lintEngine: "lint-engine",
  /** Handing the findings to CodeMirror (squiggles and gutter markers drawn into the DOM). */
  lintDispatch: "lint-dispatch",
  /** From the key event to sending the change that carries it (CodeMirror's input handling, update listeners). */
  keystrokeToSend: "keystroke-to-send",
  /** From the answer's arrival to the next frame, and from that frame's start to after its paint. */
  answerToFrame: "answer-to-frame",
  frameToPaint: "frame-to-paint",
  workspaceLint: "workspace-lint",
} as const;

// The preview and the verdicts are refreshed only while shown, and less often for big files, so that while the
// author types the backend spends its time on the diagnostics.
const PREVIEW_DELAY_MS = 200;
const VERDICT_DELAY_MS = 400;
const EXTRA_DELAY_MS_PER_KB = 1;

export type SideTab = "preview" | "clients" | "rule";

export class EditorStore {
  // Raw: documents are compared by identity, and the array is always replaced, never mutated.
  documents: OpenDocument[] = $state.raw([]);
  activePath: string | null = $state(null);
  readonly active: OpenDocument | null = $derived(this.documents.find((doc) => doc.path === this.activePath) ?? null);
  profile: ProfileId = $state("spec");

  /** Diagnostics of the active buffer, as last linted. */
  bufferDiagnostics: EditorDiagnostic[] = $state.raw([]);
  /** Problems of every file of the workspace, as saved. */
  workspaceFiles: FileLint[] = $state.raw([]);
  verdicts: Verdict[] = $state.raw([]);
  preview: { path: string; html: string } | null = $state.raw(null);
  rule: { rule: string; html: string } | null = $state.raw(null);
  sideTab: SideTab = $state("preview");
  compare: Compare | null = $state.raw(null);
  /** The last failure worth telling the author about. */
  notice: { title: string; message: string } | null = $state.raw(null);
  /** Counts files created, renamed or deleted from the app, so views of a skill's files can reload. */
  filesChangedHere = $state(0);
  /** Counts edits to any buffer, so views of the unsaved text can follow the typing. */
  edits = $state(0);
  /** When the key was pressed that made the last edit (performance.now() time); null when no key made it. */
  inputAt: number | null = null;

  readonly #backend: Backend;
  readonly #confirm: ConfirmStore;
  #view: EditorView | null = null;
  #linted: LintedText | null = null;
  /** The last key event in the editor, until the change it makes arrives. */
  #keydownAt: number | null = null;
  /** Times of the keystrokes whose findings are not on screen yet. */
  #keystrokes: number[] = [];
  #workspaceTicket = 0;
  readonly #hooks: EditorHooks;
  readonly #schedulePreview = debounce(() => this.#refreshPreview(), () => PREVIEW_DELAY_MS + this.#sizeDelay());
  readonly #scheduleVerdicts = debounce(() => this.#refreshVerdicts(), () => VERDICT_DELAY_MS + this.#sizeDelay());

  constructor(backend: Backend, confirm: ConfirmStore) {
    this.#backend = backend;
    this.#confirm = confirm;
    this.#hooks = {
      save: (path) => void this.save(path),
      showRule: (rule) => void this.showRule(rule),
      changed: (path, update) => this.#changed(path, update),
      changing: (path, changes, before, after) => this.document(path)?.sync?.changed(changes, before, after),
      keydown: (time) => {
        this.#keydownAt = time;
      },
      linted: () => this.#linted,
      createFile: (relative) => {
        if (this.activePath) void this.createLinkTarget(this.activePath, relative);
      },
    };
  }

  /** The editor view shows the active document; the store swaps states in and out of it. */
  attach(view: EditorView | null): void {
    this.#view = view;
    if (view && this.active) view.setState(this.active.state);
  }

  get hasDirty(): boolean {
    return this.documents.some((doc) => doc.dirty || doc.conflict !== null);
  }

  document(path: string): OpenDocument | null {
    return this.documents.find((doc) => doc.path === path) ?? null;
  }

  /** Opens a file (or shows it if already open); asks first when the active buffer has unsaved edits. */
  async open(path: string, at?: { offset: number }): Promise<boolean> {
    const current = this.active;
    if (current && current.path !== path && current.dirty) {
      const choice = await this.#confirm.ask("Unsaved changes", `${current.path} has unsaved changes.`, [
        { id: "save", label: "Save" },
        { id: "keep", label: "Keep unsaved" },
        { id: "cancel", label: "Cancel" },
      ]);
      if (choice === "cancel") return false;
      if (choice === "save" && !(await this.save(current.path))) return false;
    }
    let doc = this.document(path);
    if (!doc) {
      const read = await settle(() => this.#backend.readFile(path));
      if (read.status === "error") {
        this.#fail(`Cannot open ${path}`, read.error);
        return false;
      }
      doc = new OpenDocument(
        path,
        path.startsWith("package:"),
        createEditorState(path, read.data.text, path.startsWith("package:"), this.#hooks),
        read.data.fingerprint,
      );
      doc.sync = this.#bufferSync(doc);
      this.documents = [...this.documents, doc];
    }
    this.#activate(doc);
    if (at && this.#view) {
      // Offsets are into the text that was linted: the live buffer's, or the saved file's for other files.
      const state = this.#view.state;
      const map = this.#linted?.doc === state.doc ? this.#linted.map : new DocOffsets(state.doc, lineBreakOf(state));
      const position = Math.min(map.toPosition(at.offset), state.doc.length);
      this.#view.dispatch({ selection: { anchor: position }, scrollIntoView: true });
      this.#view.focus();
    }
    return true;
  }

  /** Saves the buffer: only over the version it was read from, unless `guard` says otherwise. */
  async save(path: string, guard?: SaveGuard): Promise<boolean> {
    const doc = this.document(path);
    if (!doc || doc.readOnly) return false;
    if (doc.conflict && !guard) {
      // A plain save would be refused again; the banner's choices are the way out, so say which they are.
      doc.saveRefused =
        doc.conflict.kind === "changed"
          ? "Not saved: the file changed on disk. Choose above: Reload theirs, Keep mine (save over), or Compare first."
          : "Not saved: the file was deleted on disk. Choose above: Save again to write your version, or Close.";
      return false;
    }
    const state = doc.state;
    const text = state.sliceDoc();
    const chosen: SaveGuard = guard ?? (doc.fingerprint ? { kind: "unchanged", fingerprint: doc.fingerprint } : { kind: "new" });
    const saved = await settle(() => this.#backend.saveFile(path, text, chosen));
    if (saved.status === "error") {
      if (saved.error.code === "changed_on_disk" || saved.error.code === "already_exists") {
        this.#react(doc, { kind: "save-refused" });
      } else if (saved.error.code === "not_found" && chosen.kind === "unchanged") {
        // Deleted before the watcher told us: the same banner as a reported deletion.
        doc.conflict = { kind: "deleted" };
      } else {
        this.#fail(`Could not save ${path}`, saved.error);
      }
      return false;
    }
    doc.fingerprint = saved.data;
    doc.savedDoc = state.doc;
    doc.dirty = doc.state.doc !== state.doc && !doc.state.doc.eq(state.doc);
    doc.conflict = null;
    doc.saveRefused = null;
    if (this.compare?.path === path) this.compare = null;
    void this.refreshWorkspaceLint();
    return true;
  }

  /** Carries out the author's choice in a conflict banner. */
  async resolve(path: string, resolution: Resolution): Promise<void> {
    const doc = this.document(path);
    if (!doc) return;
    doc.saveRefused = null;
    switch (resolution) {
      case "keep-mine":
        await this.save(path, { kind: "overwrite" });
        return;
      case "save-again":
        doc.fingerprint = null;
        await this.save(path, { kind: "new" });
        return;
      case "close":
        this.close(path);
        return;
      case "reload-theirs": {
        const read = await settle(() => this.#backend.readFile(path));
        if (read.status === "error") {
          if (read.error.code === "not_found") doc.conflict = { kind: "deleted" };
          else this.#fail(`Cannot reload ${path}`, read.error);
          return;
        }
        // Replaced in one undoable step: Ctrl+Z brings the author's version back.
        this.#replaceText(doc, read.data.text, read.data.fingerprint);
        doc.conflict = null;
        if (this.compare?.path === path) this.compare = null;
      }
    }
  }

  /** Opens the side-by-side view of the buffer and the file on disk. */
  async showCompare(path: string): Promise<void> {
    const doc = this.document(path);
    if (!doc) return;
    const read = await settle(() => this.#backend.readFile(path));
    const theirs = read.status === "ok" ? read.data.text : doc.conflict?.kind === "changed" ? (doc.conflict.theirs ?? "") : "";
    this.compare = { path, mine: doc.state.sliceDoc(), theirs };
  }

  close(path: string): void {
    const doc = this.document(path);
    if (!doc) return;
    doc.sync?.close();
    this.documents = this.documents.filter((other) => other !== doc);
    if (this.compare?.path === path) this.compare = null;
    if (this.activePath === path) {
      this.activePath = null;
      this.bufferDiagnostics = [];
      this.verdicts = [];
      this.preview = null;
      this.#linted = null;
      const next = this.documents[this.documents.length - 1];
      if (next) this.#activate(next);
    }
  }

  /** Closes a file as the author asked (a tab's ×, Ctrl+W): unsaved edits are saved or let go first. */
  async closeFile(path: string): Promise<boolean> {
    const doc = this.document(path);
    if (!doc) return false;
    if (doc.dirty || doc.conflict) {
      const choice = await this.#confirm.ask("Unsaved changes", `${path} has unsaved changes. Close it?`, [
        { id: "save", label: "Save" },
        { id: "discard", label: "Discard", destructive: true },
        { id: "cancel", label: "Cancel" },
      ]);
      if (choice === "cancel") return false;
      if (choice === "save" && !(await this.save(path))) return false;
    }
    this.close(path);
    return true;
  }

  /** Shows the next (1) or previous (-1) open file. */
  async cycleFile(step: 1 | -1): Promise<void> {
    const count = this.documents.length;
    if (count < 2) return;
    const index = this.documents.findIndex((doc) => doc.path === this.activePath);
    await this.open(this.documents[(index + step + count) % count].path);
  }

  /**
   * Moves to the next (1) or previous (-1) problem: in the open file from the caret on, then in the other files
   * of the problems list, round again.
   */
  async goToProblem(step: 1 | -1): Promise<boolean> {
    const active = this.activePath;
    const view = this.#view;
    const live = [...(active ? this.bufferDiagnostics : [])].sort((a, b) => a.from - b.from);
    const others = this.workspaceFiles
      .filter((file) => file.path !== active)
      .flatMap((file) => file.diagnostics.map((diagnostic) => ({ path: file.path, from: diagnostic.from })));
    let caret = -1;
    if (view && this.#linted && this.#linted.doc === view.state.doc) caret = this.#linted.map.toOffset(view.state.selection.main.head);
    let target: { path: string; from: number } | undefined;
    if (active && step === 1) {
      const after = live.find((diagnostic) => diagnostic.from > caret);
      target = after ? { path: active, from: after.from } : (others[0] ?? (live[0] && { path: active, from: live[0].from }));
    } else if (active) {
      const before = live.filter((diagnostic) => diagnostic.from < caret).pop();
      const last = live[live.length - 1];
      target = before ? { path: active, from: before.from } : (others[others.length - 1] ?? (last && { path: active, from: last.from }));
    } else {
      target = step === 1 ? others[0] : others[others.length - 1];
    }
    if (!target) return false;
    return this.open(target.path, { offset: target.from });
  }

  /** Shows every editor in the colour theme `theme`. */
  setTheme(theme: Theme): void {
    setEditorTheme(theme);
    const effects = editorThemeCompartment.reconfigure(editorTheme(theme));
    for (const doc of this.documents) {
      if (doc.path === this.activePath && this.#view) this.#view.dispatch({ effects });
      else doc.state = doc.state.update({ effects }).state;
    }
  }

  closeAll(): void {
    for (const doc of this.documents) doc.sync?.close();
    this.documents = [];
    this.activePath = null;
    this.bufferDiagnostics = [];
    this.verdicts = [];
    this.preview = null;
    this.compare = null;
    this.#linted = null;
  }

  /** Before the workspace or the window goes away: true when nothing unsaved is left or the author let it go. */
  async mayDiscardAll(action: string): Promise<boolean> {
    const unsaved = this.documents.filter((doc) => doc.dirty || doc.conflict);
    if (unsaved.length === 0) return true;
    const names = unsaved.map((doc) => doc.path).join(", ");
    const choice = await this.#confirm.ask("Unsaved changes", `Unsaved changes in ${names}. ${action}?`, [
      { id: "save", label: "Save all" },
      { id: "discard", label: "Discard", destructive: true },
      { id: "cancel", label: "Cancel" },
    ]);
    if (choice === "cancel") return false;
    if (choice === "discard") return true;
    for (const doc of unsaved) if (!(await this.save(doc.path))) return false;
    return true;
  }

  /** Applies a diagnostic's fix to the active buffer as one undoable transaction (or creates the file it names). */
  fix(diagnostic: EditorDiagnostic): boolean {
    if (diagnostic.fix?.creates && this.activePath) {
      void this.createLinkTarget(this.activePath, diagnostic.fix.creates);
      return true;
    }
    if (!this.#view || !this.#linted || !diagnostic.fix) return false;
    return applyFix(this.#view, diagnostic.fix, this.#linted);
  }

  /** Creates the missing file a link of the skill at `skillPath` names; the engine refuses a path outside the skill or one that exists. */
  async createLinkTarget(skillPath: string, relative: string): Promise<boolean> {
    const created = await settle(() => this.#backend.createLinkTarget(skillPath, relative));
    if (created.status === "error") {
      this.#fail(`Cannot create ${relative}`, created.error);
      return false;
    }
    this.filesChangedHere++;
    this.document(skillPath)?.sync?.relint();
    // The preview marks links to missing files: this one exists now.
    if (this.activePath === skillPath) void this.#refreshPreview();
    void this.refreshWorkspaceLint();
    return true;
  }

  /** Shows a side panel; the preview and the verdicts catch up with the buffer when they come into view. */
  showTab(tab: SideTab): void {
    this.sideTab = tab;
    if (tab === "preview") void this.#refreshPreview();
    if (tab === "clients") void this.#refreshVerdicts();
  }

  setProfile(profile: ProfileId): void {
    this.profile = profile;
    this.active?.sync?.relint();
    void this.refreshWorkspaceLint();
  }

  async showRule(rule: string): Promise<void> {
    const answer = await settle(() => this.#backend.ruleDocumentation(rule));
    if (answer.status === "error") {
      this.#fail(`No documentation for ${rule}`, answer.error);
      return;
    }
    this.rule = { rule, html: answer.data.html };
    this.sideTab = "rule";
  }

  async refreshWorkspaceLint(): Promise<void> {
    const ticket = ++this.#workspaceTicket;
    const started = performance.now();
    const answer = await settle(() => this.#backend.lintWorkspace([this.profile]));
    if (ticket !== this.#workspaceTicket) return;
    try {
      performance.measure(TIMING.workspaceLint, { start: started, end: performance.now() });
    } catch {
      // Timings are optional.
    }
    this.workspaceFiles = answer.status === "ok" ? answer.data.files : [];
  }

  /** The watcher saw changes: reload clean buffers, flag dirty ones, refresh the problems. */
  async filesChanged(paths: string[]): Promise<void> {
    const touched = this.documents.filter((doc) =>
      paths.some((changed) => changed === doc.path || doc.path.startsWith(`${changed}/`)),
    );
    for (const doc of touched) {
      const read = await settle(() => this.#backend.readFile(doc.path));
      if (read.status === "ok") this.#react(doc, { kind: "read", text: read.data.text, fingerprint: read.data.fingerprint });
      else if (read.error.code === "not_found") this.#react(doc, { kind: "missing" });
    }
    await this.refreshWorkspaceLint();
  }

  #react(doc: OpenDocument, event: Parameters<typeof reactToDisk>[1]): void {
    const reaction = reactToDisk({ dirty: doc.dirty, fingerprint: doc.fingerprint, conflict: doc.conflict }, event);
    switch (reaction.kind) {
      case "nothing":
        return;
      case "reload":
        this.#replaceText(doc, reaction.text, reaction.fingerprint);
        return;
      case "close":
        this.close(doc.path);
        return;
      case "conflict":
        doc.conflict = reaction.conflict;
    }
  }

  #replaceText(doc: OpenDocument, text: string, fingerprint: string): void {
    const separator = detectLineSeparator(text);
    if (separator !== lineBreakOf(doc.state)) {
      doc.state = createEditorState(doc.path, text, doc.readOnly, this.#hooks);
      if (this.activePath === doc.path) this.#view?.setState(doc.state);
      doc.sync?.replaced(doc.state.doc, separator);
    } else {
      // Its own undo step, never merged with the author's typing: one Ctrl+Z brings their version back.
      const spec = {
        changes: { from: 0, to: doc.state.doc.length, insert: text },
        userEvent: "input.reload",
        annotations: isolateHistory.of("full"),
      };
      if (this.activePath === doc.path && this.#view) this.#view.dispatch(spec);
      else doc.state = doc.state.update(spec).state;
    }
    doc.savedDoc = doc.state.doc;
    doc.fingerprint = fingerprint;
    doc.dirty = false;
    if (this.activePath === doc.path) {
      this.#schedulePreview();
      this.#scheduleVerdicts();
    }
  }

  #activate(doc: OpenDocument): void {
    if (this.activePath === doc.path) return;
    this.activePath = doc.path;
    this.bufferDiagnostics = [];
    this.#linted = null;
    this.rule = null;
    this.#keystrokes = [];
    this.#view?.setState(doc.state);
    doc.sync?.relint();
    this.#schedulePreview.flush();
    void this.#refreshPreview();
    void this.#refreshVerdicts();
  }

  #changed(path: string, update: ViewUpdate): void {
    const doc = this.document(path);
    if (!doc) return;
    doc.state = update.state;
    if (!update.docChanged) return;
    doc.dirty = !update.state.doc.eq(doc.savedDoc);
    this.edits++;
    this.inputAt = null;
    if (path === this.activePath && update.transactions.some((tr) => tr.isUserEvent("input") || tr.isUserEvent("delete"))) {
      // From the key event when there was one just before (typing); otherwise (paste, drop) from now.
      const now = performance.now();
      const keydown = this.#keydownAt;
      this.inputAt = keydown !== null && now - keydown < 1000 ? keydown : now;
      this.#keystrokes.push(this.inputAt);
      this.#keydownAt = null;
    }
    if (path === this.activePath) {
      this.#schedulePreview();
      this.#scheduleVerdicts();
    }
  }

  #bufferSync(doc: OpenDocument): BufferSync | null {
    if (!isSkillFile(doc.path)) return null;
    return new BufferSync({
      path: doc.path,
      doc: doc.state.doc,
      lineBreak: lineBreakOf(doc.state),
      backend: this.#backend,
      profiles: () => [this.profile],
      active: () => this.activePath === doc.path,
      linted: (answer) => this.#showLint(doc, answer),
    });
  }

  /** Puts the findings on screen, if they are about the text shown; otherwise newer ones are on their way. */
  #showLint(doc: OpenDocument, answer: BufferLinted): void {
    const view = this.#view;
    if (doc.path !== this.activePath || !view || view.state.doc !== answer.doc) return;
    const diagnostics = answer.lint.diagnostics;
    const map = new DocOffsets(answer.doc, lineBreakOf(view.state));
    this.#linted = { doc: answer.doc, map, diagnostics };
    const dispatching = performance.now();
    // The same findings as on screen (typing mostly leaves them as they were): CodeMirror already carried the
    // squiggles along with the edits, and tooltip fixes read `#linted`.
    if (!showsAlready(view.state, diagnostics, map)) view.dispatch(showDiagnostics(view.state, diagnostics, map, this.#hooks));
    const dispatched = performance.now();
    // Unchanged (typing after the last finding): the problems list, the tree's badges and the status bar stay as
    // they are, and their fix buttons still fit the text, the offsets being the same.
    if (!sameFindings(this.bufferDiagnostics, diagnostics)) this.bufferDiagnostics = diagnostics;
    const keystrokes = this.#keystrokes;
    this.#keystrokes = [];
    afterPaint((frameAt) => {
      const painted = performance.now();
      try {
        performance.measure(TIMING.answerToFrame, { start: answer.answeredAt, end: frameAt });
        performance.measure(TIMING.frameToPaint, { start: frameAt, end: painted });
        performance.measure(TIMING.lintBackend, { start: answer.sentAt, end: answer.answeredAt });
        performance.measure(TIMING.lintEngine, { start: answer.sentAt, duration: answer.backendMs });
        performance.measure(TIMING.lintDispatch, { start: dispatching, end: dispatched });
        performance.measure(TIMING.lintRoundTrip, { start: answer.sentAt, end: painted });
        for (const keystroke of keystrokes) {
          performance.measure(TIMING.keystrokeToSquiggles, { start: keystroke, end: painted });
          if (keystroke <= answer.sentAt) performance.measure(TIMING.keystrokeToSend, { start: keystroke, end: answer.sentAt });
        }
      } catch {
        // Timings are for the benchmark only; an engine without User Timing Level 3 just has none.
      }
    });
  }

  #sizeDelay(): number {
    return Math.round(((this.active?.state.doc.length ?? 0) / 1024) * EXTRA_DELAY_MS_PER_KB);
  }

  async #refreshPreview(): Promise<void> {
    const doc = this.active;
    if (!doc || this.sideTab !== "preview") return;
    // Only Markdown has a rendered preview: a script or a data file shown as Markdown would mislead.
    if (!isSkillFile(doc.path) && languageOf(doc.path) !== "markdown") {
      this.preview = null;
      return;
    }
    const text = doc.state.sliceDoc();
    const answer = await settle(() => this.#backend.renderPreview(doc.path, text));
    if (this.activePath !== doc.path) return;
    this.preview = answer.status === "ok" ? { path: doc.path, html: answer.data.html } : null;
  }

  async #refreshVerdicts(): Promise<void> {
    const doc = this.active;
    if (!doc || this.sideTab !== "clients") return;
    if (!isSkillFile(doc.path)) {
      this.verdicts = [];
      return;
    }
    const answer = await settle(() => this.#backend.lintBuffer(doc.path, doc.state.sliceDoc(), PROFILES));
    if (this.activePath !== doc.path) return;
    this.verdicts = answer.status === "ok" ? answer.data.verdicts : [];
  }

  #fail(title: string, error: AppError): void {
    this.notice = { title, message: error.message };
  }
}

export type { Result };
