// Pure helpers behind the previews: controls, ranges in the model-facing text, `$name` completion, trigger rows.
import type { Buffer, CatalogBudget, CatalogDialect, CatalogEntry, CatalogLimits, EvalQuery, Skill } from "../backend";
import { DIALECT_VERSIONS } from "../backend";

export interface DialectInfo {
  id: CatalogDialect;
  label: string;
  /** Which setting bounds this client's catalog, if any. */
  control: "manifest_tokens" | "context_window" | null;
}

// Each label names the client version the engine reproduces (checked against that release in `make test`).
export const DIALECTS: DialectInfo[] = [
  { id: "nagents", label: `nagents ${DIALECT_VERSIONS.nagents} manifest`, control: "manifest_tokens" },
  { id: "10xgraph", label: `10xGraph ${DIALECT_VERSIONS["10xgraph"]} catalog`, control: null },
  { id: "skills-ref", label: `skills-ref ${DIALECT_VERSIONS["skills-ref"]} to-prompt`, control: null },
  { id: "claude-code", label: `Claude Code ${DIALECT_VERSIONS["claude-code"]} listing`, control: "context_window" },
  { id: "codex", label: `Codex ${DIALECT_VERSIONS.codex} listing`, control: "context_window" },
  // Copilot's budget is its default 15,000 UTF-16 units here (SKILL_CHAR_BUDGET is not a control yet).
  { id: "copilot", label: `GitHub Copilot CLI ${DIALECT_VERSIONS.copilot} listing`, control: null },
  { id: "gemini", label: `Gemini CLI ${DIALECT_VERSIONS.gemini} listing`, control: null },
  { id: "opencode", label: `OpenCode ${DIALECT_VERSIONS.opencode} listing`, control: null },
];

export function dialectInfo(id: CatalogDialect): DialectInfo {
  return DIALECTS.find((dialect) => dialect.id === id) ?? DIALECTS[0];
}

/** Each control's range and the value the client itself uses. */
export const RANGES = {
  manifest_tokens: { min: 1, max: 20_000, initial: 10_000, label: "Manifest budget (tokens)" },
  // 1,000,000 is the default model's window for Claude Code (its 30,000-character listing budget); Codex counts
  // at most 872,000 of a window.
  context_window: { min: 1_000, max: 2_000_000, initial: 1_000_000, label: "Context window (tokens)" },
  token_limit: { min: 1, max: 100_000, initial: 10_000, label: "Load budget (skill_token_limit)" },
} as const;

export type RangeName = keyof typeof RANGES;

/** A router threshold typed by the author: a finite number of at least 0; null for anything else (mid-edit or invalid). */
export function parseThreshold(value: number | string): number | null {
  const text = typeof value === "number" ? String(value) : value.trim();
  if (text === "") return null;
  const number = Number(text);
  return Number.isFinite(number) && number >= 0 ? number : null;
}

/** A whole number within the control's range; null for input that is no number at all (the field is mid-edit). */
export function clampLimit(value: number | string, range: RangeName): number | null {
  const number = typeof value === "number" ? value : Number(String(value).trim().replace(/[,_\s]/g, ""));
  if (!Number.isFinite(number) || (typeof value === "string" && value.trim() === "")) return null;
  const { min, max } = RANGES[range];
  return Math.min(max, Math.max(min, Math.round(number)));
}

export interface CatalogSettings {
  dialect: CatalogDialect;
  manifestTokens: number;
  contextWindow: number;
}

/** What the backend needs for a dialect: only the control that dialect reads. */
export function limitsFor(settings: CatalogSettings): CatalogLimits {
  switch (dialectInfo(settings.dialect).control) {
    case "manifest_tokens":
      return { manifest_tokens: settings.manifestTokens };
    case "context_window":
      return { context_window: settings.contextWindow };
    default:
      return {};
  }
}

export interface Meter {
  /** used / limit, not capped (above 1 means over budget). */
  fraction: number;
  over: boolean;
  label: string;
}

const UNIT_NAMES: Record<CatalogBudget["unit"], string> = {
  bytes: "bytes",
  tokens: "tokens",
  characters: "characters",
  utf16_units: "UTF-16 units",
};

export function meter(budget: CatalogBudget | null): Meter | null {
  if (!budget) return null;
  const fraction = budget.limit > 0 ? budget.used / budget.limit : 1;
  const unit = UNIT_NAMES[budget.unit] ?? budget.unit;
  return {
    fraction,
    over: budget.used > budget.limit,
    label: `${formatCount(budget.used)} of ${formatCount(budget.limit)} ${unit} (${Math.round(fraction * 100)}%)`,
  };
}

export function formatCount(value: number): string {
  return COUNT_FORMAT.format(value);
}
// One formatter for every call: `toLocaleString` builds a new one each time, and a catalog formats hundreds of
// counts per keystroke.
const COUNT_FORMAT = new Intl.NumberFormat("en-US");

/** A fraction as a percentage with one decimal; a dash where there is none. */
export function formatPercent(value: number | null | undefined): string {
  if (value === null || value === undefined || !Number.isFinite(value)) return "—";
  return `${(Math.round(value * 1000) / 10).toFixed(1)}%`;
}

export interface Pieces {
  before: string;
  marked: string;
  after: string;
}

/**
 * A long text as lines, each keeping its line break, so that a view can draw a line per block and an edit redraws
 * only the lines it changed. With a range, the lines holding [start, end) (UTF-16 units, clamped) stay together
 * as `current`, split around the range; `head` and `tail` are the lines before and after them. Joined in order,
 * the pieces are `text` again.
 */
export interface TextLines {
  head: string[];
  current: Pieces | null;
  tail: string[];
}

export function textLines(text: string, range: { start: number; end: number } | null): TextLines {
  if (!range) return { head: splitLines(text), current: null, tail: [] };
  const from = Math.max(0, Math.min(text.length, range.start));
  const to = Math.max(from, Math.min(text.length, range.end));
  const first = text.lastIndexOf("\n", from - 1) + 1;
  // The current lines end after the line break that ends the range's last character (or its position, if empty).
  const breakAt = text.indexOf("\n", to > from ? to - 1 : to);
  const last = breakAt === -1 ? text.length : Math.max(breakAt + 1, to);
  return {
    head: splitLines(text.slice(0, first)),
    current: { before: text.slice(first, from), marked: text.slice(from, to), after: text.slice(to, last) },
    tail: splitLines(text.slice(last)),
  };
}

/** `text` cut after each line feed; a last line without one is kept; no empty strings. */
export function splitLines(text: string): string[] {
  const lines: string[] = [];
  let start = 0;
  for (let end = text.indexOf("\n"); end !== -1; end = text.indexOf("\n", start)) {
    lines.push(text.slice(start, end + 1));
    start = end + 1;
  }
  if (start < text.length) lines.push(text.slice(start));
  return lines;
}

/** The text before and after a cut at `offset` UTF-16 units, clamped to the text. */
export function splitAtCut(text: string, offset: number): { kept: string; cut: string } {
  const at = Math.max(0, Math.min(text.length, offset));
  return { kept: text.slice(0, at), cut: text.slice(at) };
}

/** The SKILL.md the author is working on: the open file if it is one, else the skill whose folder holds it. */
export function currentSkillPath(activePath: string | null, skills: Skill[]): string | null {
  if (!activePath) return null;
  if (activePath.endsWith("/SKILL.md") || activePath === "SKILL.md") return activePath;
  let best: string | null = null;
  for (const skill of skills) {
    const folder = skill.location.slice(0, skill.location.lastIndexOf("/") + 1);
    if (folder && activePath.startsWith(folder) && (!best || folder.length > best.lastIndexOf("/") + 1)) best = skill.location;
  }
  return best;
}

/** The catalog entry of the current skill: by location where the client shows one, else by the skill's name. */
export function entryFor(entries: CatalogEntry[], path: string | null, skills: Skill[]): CatalogEntry | null {
  if (!path) return null;
  const byLocation = entries.find((entry) => entry.location === path);
  if (byLocation) return byLocation;
  const name = skills.find((skill) => skill.location === path)?.name;
  return name === undefined ? null : (entries.find((entry) => entry.name === name && !entry.location) ?? null);
}

/** The unsaved buffers to lay over the workspace. */
export function dirtyBuffers(documents: { path: string; dirty: boolean; text(): string }[]): Buffer[] {
  return documents.filter((doc) => doc.dirty).map((doc) => ({ path: doc.path, text: doc.text() }));
}

export interface Completion {
  /** Where the `$` is. */
  from: number;
  /** The caret. */
  to: number;
  prefix: string;
  options: string[];
}

const NAME_CHARACTER = /[A-Za-z0-9_.:-]/;

/** The `$name` being typed at `caret`, and the skill names that start with it (at most `limit`). */
export function completionAt(message: string, caret: number, names: string[], limit = 8): Completion | null {
  let start = caret;
  while (start > 0 && NAME_CHARACTER.test(message[start - 1])) start--;
  if (start === 0 || message[start - 1] !== "$") return null;
  // `$$name` or `a$name` is not a reference.
  if (start >= 2 && !/\s|[([{"'`,;]/.test(message[start - 2])) return null;
  const prefix = message.slice(start, caret);
  const lower = prefix.toLowerCase();
  const options = names.filter((name) => name.toLowerCase().startsWith(lower) && name !== prefix).slice(0, limit);
  return options.length ? { from: start - 1, to: caret, prefix, options } : null;
}

export function applyCompletion(message: string, completion: Completion, name: string): { text: string; caret: number } {
  const insert = `$${name}`;
  const after = message.slice(completion.to);
  const spacer = after.startsWith(" ") ? "" : " ";
  return { text: message.slice(0, completion.from) + insert + spacer + after, caret: completion.from + insert.length + 1 };
}

/** `evals/evals.json` beside a SKILL.md. */
export function evalsPathFor(skillPath: string): string {
  const slash = skillPath.lastIndexOf("/");
  return `${slash >= 0 ? skillPath.slice(0, slash) : "."}/evals/evals.json`;
}

export interface TriggerRow {
  query: string;
  /** The skill the query should trigger, or null for none. */
  expected: string | null;
}

/**
 * Rows from an `evals/evals.json` (the agentskills.io layout, `should_trigger` true meaning "this skill"); a
 * string names the skill itself. The layout cannot name another skill, so a query expecting one is saved with
 * `should_trigger: false` and that skill's name in `expected_skill` (which other readers ignore).
 * Throws with a readable message for anything else.
 */
export function rowsFromEvals(text: string, skillName: string): TriggerRow[] {
  const parsed: unknown = JSON.parse(text);
  const list = Array.isArray(parsed) ? parsed : (parsed as { evals?: unknown })?.evals;
  if (!Array.isArray(list)) throw new Error("expected a JSON list of {query, should_trigger}");
  return list.map((item, index) => {
    const entry = item as { query?: unknown; should_trigger?: unknown; expected_skill?: unknown };
    if (typeof entry?.query !== "string") throw new Error(`entry ${index + 1} has no query text`);
    const other = typeof entry.expected_skill === "string" && entry.expected_skill.trim() ? entry.expected_skill.trim() : null;
    const expected =
      entry.should_trigger === true
        ? skillName
        : typeof entry.should_trigger === "string"
          ? entry.should_trigger
          : other;
    return { query: entry.query, expected };
  });
}

/** The rows expecting a skill other than `skillName`: evals.json keeps those only in its `expected_skill` field. */
export function rowsExpectingOtherSkills(rows: TriggerRow[], skillName: string | null): TriggerRow[] {
  return rows.filter((row) => row.query.trim() !== "" && row.expected?.trim() && row.expected.trim() !== skillName);
}

/** The rows worth running or saving: blank queries dropped, blank expectations meaning "none". */
export function queriesFrom(rows: TriggerRow[]): EvalQuery[] {
  return rows
    .filter((row) => row.query.trim() !== "")
    .map((row) => ({ query: row.query, should_trigger: row.expected?.trim() ? row.expected.trim() : null }));
}

/**
 * The first `limit` entries, plus the current one wherever it is: thousands of rows would slow every refresh.
 * `total` counts the whole catalog when `entries` is already the backend's page of it.
 */
export function visibleEntries<T>(entries: T[], current: T | null, total = entries.length, limit = 300): { shown: T[]; hidden: number } {
  const shown = entries.slice(0, limit);
  if (current && !shown.includes(current)) shown.push(current);
  return { shown, hidden: Math.max(0, total - shown.length) };
}
