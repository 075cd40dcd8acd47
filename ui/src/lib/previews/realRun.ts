// What a run on a real client shows per row of the trigger table, and where it disagrees with the mock router.
import type { Plan, QueryOutcome, RunOutcome } from "../backend";

/** One row's runs on the real client, counted. */
export interface RealCell {
  /** Runs that completed (neither failed nor timed out). */
  completed: number;
  /** Completed runs in which the skill under test was used. */
  triggered: number;
  /** Runs per query asked for. */
  runs: number;
  /** Other skills the model used, most runs first. */
  others: { name: string; runs: number }[];
  /** Messages of failed runs, and "timed out" for runs that timed out. */
  errors: string[];
  /** Completed runs that used no skill at all. */
  none: number;
  /** Whether the row passed (in at least half of its completed runs); null until it has a completed run. */
  passed: boolean | null;
}

/** Counts `runs` (those made so far) of a query for the skill under test `skill`, out of `perQuery` asked. */
export function realCell(runs: RunOutcome[], skill: string, perQuery: number, outcome: QueryOutcome | null = null): RealCell {
  let triggered = 0;
  let none = 0;
  const others = new Map<string, number>();
  const errors: string[] = [];
  for (const run of runs) {
    if (run.outcome === "skill") {
      if (run.name === skill) triggered += 1;
      else others.set(run.name, (others.get(run.name) ?? 0) + 1);
    } else if (run.outcome === "no-skill") none += 1;
    else if (run.outcome === "error") errors.push(run.message);
    else errors.push("timed out");
  }
  const completed = runs.length - errors.length;
  return {
    completed,
    triggered,
    runs: perQuery,
    others: [...others].map(([name, count]) => ({ name, runs: count })).sort((a, b) => b.runs - a.runs || a.name.localeCompare(b.name)),
    errors,
    none,
    passed: outcome && outcome.completed > 0 ? outcome.passed * 2 >= outcome.completed : null,
  };
}

/** The skills the real client used most often in the completed runs (null: no skill); several when tied. */
export function mostUsed(cell: RealCell, skill: string): (string | null)[] {
  const counts: [string | null, number][] = [[skill, cell.triggered], [null, cell.none], ...cell.others.map((other): [string, number] => [other.name, other.runs])];
  const top = Math.max(...counts.map(([, count]) => count));
  if (top === 0) return [];
  return counts.filter(([, count]) => count === top).map(([name]) => name);
}

/**
 * Whether the mock router's pick (`predicted`, null for none) differs from what the real client did most often.
 * Undefined when either side has nothing to say (no mock run, or no completed real run).
 */
export function disagrees(predicted: string | null | undefined, cell: RealCell | null, skill: string): boolean | undefined {
  if (predicted === undefined || !cell || cell.completed === 0) return undefined;
  return !mostUsed(cell, skill).includes(predicted);
}

/** "Query i of n, run j of K" for run `number` (from 1) on query `queryIndex` (from 0). */
export function progressText(plan: Plan, number: number, queryIndex: number): string {
  const perQuery = Math.max(1, plan.runs_per_query);
  const run = ((number - 1) % perQuery) + 1;
  return `Query ${queryIndex + 1} of ${plan.queries}, run ${run} of ${perQuery} (${number} of ${plan.runs} runs)`;
}

/** US dollars as the CLI prints them: four decimals under a cent. */
export function dollars(amount: number | null): string {
  if (amount === null || !Number.isFinite(amount)) return "—";
  return amount > 0 && amount < 0.01 ? `$${amount.toFixed(4)}` : `$${amount.toFixed(2)}`;
}

/**
 * The Codex settings field's text as the lines the backend checks and keeps: every line, blank ones included, so
 * the line a refusal names is the line the field shows.
 */
export function settingsLines(text: string): string[] {
  return text.trim() === "" ? [] : text.split(/\r\n|\r|\n/);
}

/** Saved Codex settings as the field shows them: one per line. */
export function settingsText(lines: readonly string[] | undefined): string {
  return (lines ?? []).join("\n");
}
