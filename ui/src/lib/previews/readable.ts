// A transcript message as an author reads it. A client hands a skill to the model as JSON (nagents'
// `{"name": …, "location": …, "content": "---\nname: …"}`), so the exact text shows the skill's line breaks as
// `\n`; the readable form decodes that JSON and shows the skill's text with its own lines.

export interface Readable {
  text: string;
  /** The text was decoded from JSON (the exact text differs and is worth offering). */
  decoded: boolean;
}

export function readableContent(text: string): Readable {
  const start = text.indexOf("{");
  if (start === -1 || !text.trimEnd().endsWith("}")) return { text, decoded: false };
  let value: unknown;
  try {
    value = JSON.parse(text.slice(start));
  } catch {
    return { text, decoded: false };
  }
  if (value === null || typeof value !== "object" || Array.isArray(value)) return { text, decoded: false };
  const lines: string[] = [];
  const prefix = text.slice(0, start).trimEnd();
  if (prefix) lines.push(prefix);
  let body: string | null = null;
  for (const [key, field] of Object.entries(value)) {
    if (key === "content" && typeof field === "string") body = field;
    else lines.push(`${key}: ${typeof field === "string" ? field : JSON.stringify(field)}`);
  }
  return { text: body === null ? lines.join("\n") : `${lines.join("\n")}\n\n${body}`, decoded: true };
}
