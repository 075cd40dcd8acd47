#!/usr/bin/env bash
# The GitHub Action (action.yml): its metadata against GitHub's action schema, the README's workflow
# against the workflow schema (both from check-jsonschema's bundled SchemaStore copies), and its steps run
# as the runner would (inputs substituted, GITHUB_ACTION_PATH and GITHUB_OUTPUT set) on projects with an
# error, with only a warning and with a missing path, at each fail-level. SKILLFORGE_BIN names the binary
# (else it is built); it stands on PATH, so the install step finds it.
set -euo pipefail

here=$(cd "$(dirname "$0")" && pwd)
repo=$(cd "$here/../.." && pwd)
"$repo/scripts/ensure-tools.sh"
if [ -z "${SKILLFORGE_BIN:-}" ]; then
  source "$repo/bench/lib.sh"
  SKILLFORGE_BIN=$(cd "$repo" && built_executable -p skillforge-cli --bin skillforge)
fi
bin_dir=$(cd "$(dirname "$SKILLFORGE_BIN")" && pwd)
scratch=$(mktemp -d "${TMPDIR:-/tmp}/skillforge-action.XXXXXX")
trap 'rm -rf "$scratch"' EXIT

"$repo/.venv-tools/bin/python" - "$repo" "$bin_dir" "$scratch" <<'PY'
import json, os, re, subprocess, sys
from pathlib import Path
from ruamel.yaml import YAML

repo, bin_dir, scratch = Path(sys.argv[1]), sys.argv[2], Path(sys.argv[3])
check_jsonschema = repo / ".venv-tools/bin/check-jsonschema"
passed, failed = 0, 0

def check(condition, what):
    global passed, failed
    if condition:
        passed += 1
    else:
        failed += 1
        print(f"FAIL action: {what}")

def schema_ok(schema, path):
    run = subprocess.run([str(check_jsonschema), "--builtin-schema", schema, str(path)],
                         capture_output=True, text=True)
    return run.returncode == 0, run.stdout + run.stderr

ok, said = schema_ok("vendor.github-actions", repo / "action.yml")
check(ok, f"action.yml against GitHub's action metadata schema: {said}")

readme = (repo / "README.md").read_text(encoding="utf-8")
found = re.search(r"<!-- action-workflow -->\s*```yaml\n(.*?)```", readme, re.S)
check(found is not None, "README shows the action's workflow between <!-- action-workflow --> and a yaml block")
if found:
    workflow = scratch / "workflow.yml"
    workflow.write_text(found.group(1))
    ok, said = schema_ok("vendor.github-workflows", workflow)
    check(ok, f"README's workflow against GitHub's workflow schema: {said}")
    check("upload-sarif" in found.group(1), "the README's workflow uploads the SARIF file")

action = YAML(typ="safe").load((repo / "action.yml").read_text())
defaults = {name: str(spec.get("default", "")) for name, spec in action["inputs"].items()}

def run_action(project, **inputs):
    """Every step of the composite action in `project`, as the runner runs it; (status, stdout, outputs)."""
    values = {**defaults, **{name.replace("_", "-"): value for name, value in inputs.items()}}
    output_file = scratch / "github-output"
    output_file.write_text("")
    env = {"PATH": f"{bin_dir}:/usr/local/bin:/usr/bin:/bin", "HOME": str(scratch),
           "GITHUB_ACTION_PATH": str(repo), "GITHUB_OUTPUT": str(output_file)}
    substitute = lambda text: re.sub(r"\$\{\{\s*inputs\.([\w-]+)\s*\}\}", lambda m: values[m.group(1)], text)
    stdout = ""
    for step in action["runs"]["steps"]:
        step_env = {**env, **{key: substitute(str(value)) for key, value in (step.get("env") or {}).items()}}
        done = subprocess.run(["bash", "--noprofile", "--norc", "-eo", "pipefail", "-c", substitute(step["run"])],
                              cwd=project, env=step_env, capture_output=True, text=True, timeout=300)
        stdout += done.stdout
        if done.returncode != 0:
            return done.returncode, stdout + done.stderr, output_file.read_text()
    return 0, stdout, output_file.read_text()

def project(name, skill_text):
    folder = scratch / name / "skills" / "pdf-tools"
    folder.mkdir(parents=True)
    (folder / "SKILL.md").write_text(skill_text)
    return scratch / name

bad = project("bad", "---\nname: PDF-Tools\ndescription: Extracts text from PDF files. Use when the user asks about PDFs.\n---\nBody.\n")
status, stdout, outputs = run_action(bad)
check(status == 1, f"an error fails at fail-level error (exit {status}): {stdout[-400:]}")
check("::error" in stdout and "SF203" in stdout, "the pull request gets annotations")
sarif_path = bad / "skillforge.sarif"
check("sarif-file=skillforge.sarif" in outputs, f"the output names the report: {outputs!r}")
if sarif_path.exists():
    report = json.loads(sarif_path.read_text())
    rules = {result["ruleId"] for run in report["runs"] for result in run["results"]}
    check(report["version"] == "2.1.0" and "SF203" in rules, f"the SARIF report holds the finding: {rules}")
else:
    check(False, "the SARIF report was written")
status, _, _ = run_action(bad, fail_level="never")
check(status == 0, f"fail-level never reports only (exit {status})")
status, _, _ = run_action(bad, fail_level="sometimes")
check(status == 2, f"an unknown fail-level is refused (exit {status})")
(bad / "taken").write_text("a file where a folder would be")
status, _, _ = run_action(bad, sarif_file="taken/out.sarif")
check(status == 2, f"a SARIF path that cannot be written fails as such (exit {status})")
status, _, outputs = run_action(bad, sarif_file="reports/out.sarif", paths="skills", profiles="spec codex")
check(status == 1 and (bad / "reports/out.sarif").exists() and "sarif-file=reports/out.sarif" in outputs,
      f"paths, profiles and sarif-file are passed on (exit {status}, {outputs!r})")

# Paths over several lines (a YAML block), an option-like folder name, a glob in profiles.
multi = project("multi", "---\nname: pdf-tools\ndescription: Extracts text from PDF files. Use when the user asks about PDFs.\n---\nBody.\n")
bad_folder = multi / "-dash" / "pdf-tools"
bad_folder.mkdir(parents=True)
(bad_folder / "SKILL.md").write_text("---\nname: PDF-Tools\ndescription: Bad. Use when testing.\n---\n")
before = (bad_folder / "SKILL.md").read_text()
status, stdout, _ = run_action(multi, paths="skills\n-dash --fix\n")
check(status == 2, f"every listed path is linted, `--fix` as a path is not an option (exit {status}): {stdout[-300:]}")
check((bad_folder / "SKILL.md").read_text() == before, "nothing was rewritten")
status, stdout, _ = run_action(multi, paths="skills\n-dash\n")
check(status == 1 and "SF203" in stdout, f"a folder named like an option is linted (exit {status}): {stdout[-300:]}")
status, stdout, _ = run_action(multi, profiles="*")
check(status == 2, f"a glob in profiles is a profile name, refused as such (exit {status})")

warned = project("warned", "---\nname: pdf-tools\ndescription: Extracts text from PDF files. Use when the user asks about PDFs.\n---\nSee [the guide](references/guide.md).\n")
status, stdout, _ = run_action(warned, profiles="spec")
check(status == 0, f"a warning passes at fail-level error (exit {status}): {stdout[-400:]}")
status, stdout, _ = run_action(warned, profiles="spec", fail_level="warning")
check(status == 1 and "warnings, and fail-level is warning" in stdout, f"a warning fails at fail-level warning (exit {status})")

status, stdout, _ = run_action(warned, paths="missing-folder", fail_level="never")
check(status == 2, f"a path that does not exist fails whatever the level (exit {status})")

print(f"action: {passed} passed, {failed} failed")
sys.exit(1 if failed else 0)
PY
