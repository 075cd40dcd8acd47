// Which highlighting a file gets in the editor, chosen by its name: SKILL.md and other Markdown with the
// frontmatter grammar, scripts and data files with their own language, anything else as plain text.
import { json } from "@codemirror/lang-json";
import { markdown } from "@codemirror/lang-markdown";
import { python } from "@codemirror/lang-python";
import { yaml } from "@codemirror/lang-yaml";
import { StreamLanguage } from "@codemirror/language";
import { shell } from "@codemirror/legacy-modes/mode/shell";
import { toml } from "@codemirror/legacy-modes/mode/toml";
import type { Extension } from "@codemirror/state";
import { frontmatter } from "./frontmatter";

export type LanguageName = "markdown" | "python" | "shell" | "json" | "yaml" | "toml" | "plain";

const BY_EXTENSION: Record<string, LanguageName> = {
  md: "markdown",
  markdown: "markdown",
  mdx: "markdown",
  py: "python",
  pyw: "python",
  sh: "shell",
  bash: "shell",
  zsh: "shell",
  json: "json",
  jsonl: "json",
  yaml: "yaml",
  yml: "yaml",
  toml: "toml",
};

/** The language of the file at `path`, by its extension; a script without one by its `#!` line. */
export function languageOf(path: string, text = ""): LanguageName {
  const name = path.slice(Math.max(path.lastIndexOf("/"), path.lastIndexOf("\\")) + 1);
  const dot = name.lastIndexOf(".");
  if (dot > 0) {
    const known = BY_EXTENSION[name.slice(dot + 1).toLowerCase()];
    if (known) return known;
  }
  const firstLine = text.slice(0, text.indexOf("\n") === -1 ? text.length : text.indexOf("\n"));
  if (firstLine.startsWith("#!")) {
    if (/python/.test(firstLine)) return "python";
    if (/\b(ba|z|k|da)?sh\b/.test(firstLine)) return "shell";
  }
  return "plain";
}

/** The CodeMirror extension that highlights `language`. */
export function languageExtension(language: LanguageName): Extension {
  switch (language) {
    case "markdown":
      return markdown({ extensions: [frontmatter] });
    case "python":
      return python();
    case "shell":
      return StreamLanguage.define(shell);
    case "json":
      return json();
    case "yaml":
      return yaml();
    case "toml":
      return StreamLanguage.define(toml);
    case "plain":
      return [];
  }
}
