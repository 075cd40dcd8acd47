// Export reports and refusals as the backend sends them, for the export store and dialog tests.
import type { AppError, ExportChoice, ExportReport, Problem } from "../lib/backend";

export function report(choice: ExportChoice, problems: Problem[] = [], written: ExportReport["written"] = []): ExportReport {
  const names = choice.skills ?? ["alpha", "beta"];
  return {
    target: choice.target,
    profiles: ["claude-upload"],
    skills: names.map((name) => ({ name, directory: name, source: "/work/skills", files: 1, bytes: 120 })),
    problems,
    blocked: problems.some((problem) => problem.level === "error"),
    written,
  };
}

export const problem = (level: Problem["level"], skill: string, message: string): Problem => ({
  level,
  skill,
  path: `/work/skills/${skill}/SKILL.md`,
  line: 2,
  code: "SF001",
  message,
});

export const earlierInstall: AppError = {
  code: "already_installed",
  message:
    '/p/.agents/skills/alpha: is an earlier install of "alpha" from /work/skills, unchanged since; this export would update it; replace it explicitly (--force) if that is what you want',
};
export const foreign: AppError = {
  code: "not_replaceable",
  message:
    "/p/.agents/skills/alpha: has no stamp file; it is not replaced, even with --force (remove or rename it yourself if it should go)",
};
