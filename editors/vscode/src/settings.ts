// How the extension starts the server, from its settings: kept apart from the `vscode` module so it can be
// unit-tested without an editor.

/** The client profiles the engine knows (the values of `skillforge lint --profile`). */
export const PROFILES = [
  "spec",
  "nagents",
  "10xgraph",
  "claude-code",
  "claude-upload",
  "codex",
  "copilot",
  "opencode",
  "gemini",
] as const;

export type Profile = (typeof PROFILES)[number];

export interface Settings {
  path: unknown;
  profiles: unknown;
}

export interface Launch {
  command: string;
  args: string[];
  initializationOptions: { profiles: Profile[] };
  /** What was wrong with the settings, said to the user; the server still starts with what was valid. */
  problems: string[];
}

/** The command line and the initialization options for `skillforge lsp`. */
export function launch(settings: Settings): Launch {
  const problems: string[] = [];
  let command = "skillforge";
  if (typeof settings.path === "string" && settings.path.trim() !== "") {
    command = settings.path.trim();
  } else if (settings.path !== undefined && settings.path !== null && settings.path !== "") {
    problems.push("skillforge.path must be a string; using skillforge from PATH");
  }
  const profiles: Profile[] = [];
  const given = Array.isArray(settings.profiles) ? settings.profiles : [];
  if (settings.profiles !== undefined && !Array.isArray(settings.profiles)) {
    problems.push("skillforge.profiles must be a list of profile names");
  }
  for (const profile of given) {
    if (typeof profile === "string" && (PROFILES as readonly string[]).includes(profile)) {
      if (!profiles.includes(profile as Profile)) profiles.push(profile as Profile);
    } else {
      problems.push(`unknown profile ${JSON.stringify(profile)}; known: ${PROFILES.join(", ")}`);
    }
  }
  return { command, args: ["lsp"], initializationOptions: { profiles }, problems };
}

/** The documents the server is given: SKILL.md files and the files of skill folders, on disk. */
export const DOCUMENTS = [
  { scheme: "file", pattern: "**/SKILL.md" },
  { scheme: "file", pattern: "**/skill.md" },
  { scheme: "file", pattern: "**/{scripts,references,assets}/**" },
];
