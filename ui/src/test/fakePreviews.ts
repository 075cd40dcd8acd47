// Stand-ins for the preview commands: small, predictable imitations of the engine's catalog, load, simulation and
// trigger reports, computed from the fake's files with the unsaved buffers laid over them.
import type {
  Buffer,
  CatalogDialect,
  CatalogEntry,
  CatalogLimits,
  CatalogPage,
  CatalogPreview,
  Dialect,
  EvalQuery,
  LoadPreview,
  PlaygroundModel,
  SkillScore,
  Transcript,
  TriggerReport,
} from "../lib/backend";

const encoder = new TextEncoder();
const bytesOf = (text: string) => encoder.encode(text).length;
const tokensOf = (text: string) => Math.ceil(bytesOf(text) / 4);

interface FakeSkill {
  name: string;
  description: string;
  location: string;
  body: string;
}

/** Every SKILL.md of `files`, with `buffers` in place of their files, in name order. */
export function fakeSkills(files: Map<string, string>, buffers: Buffer[]): FakeSkill[] {
  const texts = new Map(files);
  for (const buffer of buffers) texts.set(buffer.path, buffer.text);
  const skills: FakeSkill[] = [];
  for (const [location, text] of texts) {
    if (!location.endsWith("/SKILL.md")) continue;
    const name = /^name:[ \t]*(.*?)[ \t]*$/m.exec(text)?.[1] ?? location.split("/").slice(-2)[0];
    const description = /^description:[ \t]*(.*?)[ \t]*$/m.exec(text)?.[1] ?? "";
    const body = text.replace(/^---\n[\s\S]*?\n---\n?/, "");
    skills.push({ name, description, location, body });
  }
  return skills.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
}

const HEADER = "Available skills:\n<available_skills>\n";
const FOOTER = "</available_skills>";

/** A catalog shaped like nagents' manifest: entries in name order until the first that does not fit the cap. */
export function fakeCatalog(skills: FakeSkill[], dialect: CatalogDialect, limits: CatalogLimits): CatalogPreview {
  const capBytes = dialect === "nagents" ? (limits.manifest_tokens ?? 10_000) * 4 : null;
  let text = HEADER;
  const entries: CatalogEntry[] = [];
  const omitted: string[] = [];
  for (const skill of skills) {
    const line = `<skill name="${skill.name}" location="${skill.location}">${skill.description}</skill>\n`;
    const fits = capBytes === null || (omitted.length === 0 && bytesOf(text + line + FOOTER) <= capBytes);
    if (!fits) {
      omitted.push(skill.name);
      entries.push({ name: skill.name, location: skill.location, included: false, shortened: false, start_utf16: 0, end_utf16: 0, bytes: 0, share: 0 });
      continue;
    }
    const start = text.length;
    text += line;
    entries.push({ name: skill.name, location: skill.location, included: true, shortened: false, start_utf16: start, end_utf16: start + line.length, bytes: bytesOf(line), share: null });
  }
  text += FOOTER;
  const notice = omitted.length ? `\n[Skill catalog truncated: ${omitted.length} additional descriptors omitted.]` : null;
  if (notice) text += notice;
  const total = bytesOf(text);
  for (const entry of entries) entry.share = entry.included ? entry.bytes / total : 0;
  return {
    dialect,
    text,
    bytes: total,
    estimated_tokens: Math.ceil(total / 4),
    budget: capBytes === null ? null : { unit: "bytes", limit: capBytes, used: total, basis: `${capBytes / 4} tokens × 4 bytes` },
    entries,
    omitted,
    notice,
    notes: dialect === "nagents" ? [] : ["This client bounds nothing."],
    problems: [],
  };
}

/** A load cut at `tokenLimit × 4` UTF-16 units (the real engine counts bytes; the fake keeps to ASCII). */
export function fakeLoad(path: string, text: string, tokenLimit: number): LoadPreview {
  const name = /^name:[ \t]*(.*?)[ \t]*$/m.exec(text)?.[1] ?? "skill";
  const limit = tokenLimit * 4;
  const truncated = text.length > limit;
  const content = truncated ? text.slice(0, limit) : text;
  const line = content.split("\n").length;
  return {
    nagents: {
      result: { name, location: path, content, truncated, estimated_tokens: tokensOf(content), token_limit: tokenLimit },
      cut: truncated ? { utf16_offset: limit, byte_offset: limit, line } : null,
      problem: null,
    },
    tenxgraph: {
      name,
      output: { content: `<skill_content name="${name}">\n${text}\n</skill_content>`, is_error: false },
      files: ["references/guide.md"],
      files_truncated: false,
      diagnostics: [],
    },
  };
}

function score(skill: FakeSkill, query: string): SkillScore {
  const words = query.toLowerCase().split(/\W+/).filter(Boolean);
  const haystack = `${skill.name} ${skill.description}`.toLowerCase();
  const matched = words.filter((word) => haystack.includes(word));
  return { name: skill.name, score: matched.length, matched_terms: matched };
}

function rank(skills: FakeSkill[], query: string): SkillScore[] {
  return skills.map((skill) => score(skill, query)).sort((a, b) => (b.score ?? 0) - (a.score ?? 0));
}

/** The page the backend sends: the first `rows` entries plus the current skill's, with counts over all. */
export function fakePage(preview: CatalogPreview, currentPath: string | null, currentName: string | null, rows = 300): CatalogPage {
  const all = preview.entries;
  let current = all.findIndex((entry) => entry.location === currentPath);
  if (current < 0 && currentPath && currentName) current = all.findIndex((entry) => !entry.location && entry.name === currentName);
  const entries = all.slice(0, rows);
  if (current >= rows) entries.push(all[current]);
  return {
    preview: { ...preview, entries },
    entry_count: all.length,
    included_count: all.filter((entry) => entry.included).length,
    shortened: all.filter((entry) => entry.shortened).map((entry) => entry.name),
  };
}

/** One request with the catalog, the user's message and one activation message per `$name`, sharing the budget. */
export function fakeSimulate(
  skills: FakeSkill[],
  message: string,
  dialect: Dialect,
  model: PlaygroundModel,
  tokenLimit: number,
  systemPrompt: string | null,
): Transcript {
  const referenced = [...message.matchAll(/\$([a-z0-9-]+)/g)].map((match) => match[1]);
  const known = referenced.filter((name) => skills.some((skill) => skill.name === name));
  const messages: Transcript["rounds"][number]["messages"] = [];
  const push = (role: string, origin: Transcript["rounds"][number]["messages"][number]["origin"], content: string) =>
    messages.push({ role, origin, content, estimated_tokens: tokensOf(content) });
  if (systemPrompt) push("system", "system_prompt", systemPrompt);
  push("system", "catalog", fakeCatalog(skills, "nagents", {}).text);
  push("user", "user", message);
  let used = 0;
  for (const name of known) {
    const body = skills.find((skill) => skill.name === name)?.body ?? "";
    const share = Math.max(0, tokenLimit - used);
    const content = `[skill ${name}] ${body.slice(0, share * 4)}`;
    used += tokensOf(content);
    push("system", "activation", content);
  }
  const scores = rank(skills, message);
  const router = typeof model === "object" && model.router ? { threshold: model.router.threshold ?? 0.5 } : null;
  const best = scores[0]?.score ?? 0;
  const chosen = router && best > 0 && best >= router.threshold ? scores[0].name : null;
  return {
    dialect,
    model: typeof model === "string" ? model : model.router ? "router" : `script:${model.script}`,
    skills: skills.map((skill) => skill.name),
    rounds: [
      {
        index: 0,
        messages,
        tools: [],
        estimated_tokens: messages.reduce((sum, m) => sum + m.estimated_tokens, 0),
        action: chosen
          ? { kind: "tool_calls", calls: [{ id: "call-1", name: "skill", arguments: { name: chosen } }] }
          : { kind: "text", text: "Done." },
        tool_results: chosen ? [{ call_id: "call-1", name: "skill", content: `loaded ${chosen}`, is_error: false, estimated_tokens: 3 }] : [],
      },
    ],
    final_text: "Done.",
    router: router ? { threshold: router.threshold, scores, chosen } : null,
    budget: { token_limit: tokenLimit, used, loaded: known },
    totals: { rounds: 1, tool_calls: chosen ? 1 : 0, request_tokens: 0, final_request_tokens: 0 },
    warnings: referenced
      .filter((name) => !known.includes(name))
      .map((name) => ({ kind: "unknown_reference" as const, message: `$${name} names no skill` })),
  };
}

export function fakeTriggers(skills: FakeSkill[], queries: EvalQuery[], threshold = 0.5): TriggerReport {
  const results = queries.map((query) => {
    const ranking = rank(skills, query.query);
    const best = ranking[0]?.score ?? 0;
    const predicted = best > 0 && best >= threshold ? ranking[0].name : null;
    const expected = query.should_trigger ?? null;
    return { query: query.query, expected, predicted, correct: predicted === expected, ranking };
  });
  return {
    threshold,
    queries: results,
    skills: skills.map((skill) => {
      const tp = results.filter((r) => r.predicted === skill.name && r.expected === skill.name).length;
      const fp = results.filter((r) => r.predicted === skill.name && r.expected !== skill.name).length;
      const fn = results.filter((r) => r.expected === skill.name && r.predicted !== skill.name).length;
      return {
        name: skill.name,
        true_positives: tp,
        false_positives: fp,
        false_negatives: fn,
        precision: tp + fp ? tp / (tp + fp) : null,
        recall: tp + fn ? tp / (tp + fn) : null,
      };
    }),
    competing: [],
    unknown_expectations: results
      .filter((r) => r.expected !== null && !skills.some((skill) => skill.name === r.expected))
      .map((r) => r.query),
  };
}
