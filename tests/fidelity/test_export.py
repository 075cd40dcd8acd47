"""Exports proven by installing them: `skillforge export` against the real nagents 0.25.2 and 10xGraph 0.10.3.

* python-package: the wheel skillforge writes (no Python build backend involved) is pip-installed into a
  fresh virtual environment together with nagents==0.25.2 (offline, from a wheelhouse downloaded once).
  A real nagents ``Agent(skill_discoverer=BundledSkillDiscoverer())`` refreshes its skills and loads each
  one; catalog and loads must equal what the same agent code gives over nagents' own
  ``DirectorySkillDiscoverer`` on the source folder, byte for byte (locations aside, which name the
  package resource; a CRLF file arrives as nagents' builtin reader translates it, every field compared). 10xGraph's ``SkillsRegistry`` pointed at the
  installed ``bundled`` folder must load every skill exactly as from the source folder.
* determinism: every target exported twice gives byte-identical files, wheels and archives included.
* skill-archive: zip members, exclusions, timestamps and permissions, contents equal to the source.
* refusals: an invalid skill, a symbolic link, an existing destination and hostile file names.

Run through tests/fidelity/test_export.sh.
"""

import argparse
import asyncio
import base64
import csv
import hashlib
import io
import json
import os
import shutil
import subprocess
import sys
import tempfile
import venv
import zipfile
from pathlib import Path

from nagents.skills import Skill, budget_skill_content
from tenxgraph.core.skills import SkillsRegistry

from fidelity_common import Results

PACKAGE = "acme-skills"
IMPORT = "acme_skills"
NAGENTS = "nagents==0.25.2"

# Checks this suite runs today; fewer means cases were lost. Raise it when cases are added.
MIN_CASES = 61


def skillforge(binary: Path, *args: str) -> subprocess.CompletedProcess:
    return subprocess.run([str(binary), *args], capture_output=True, text=True)


def tree(folder: Path) -> dict[str, bytes]:
    return {
        path.relative_to(folder).as_posix(): path.read_bytes()
        for path in sorted(folder.rglob("*"))
        if path.is_file() and not path.is_symlink()
    }


# --- the installed wheel, driven by the real nagents -------------------------------------------------

AGENT_SCRIPT = r"""
import asyncio, json, sys, tempfile
from pathlib import Path
from nagents import Agent, Provider, ProviderType, SessionManager
from nagents.skills import DirectorySkillDiscoverer, Skill

# argv[1]: "package" (the installed acme_skills wheel's BundledSkillDiscoverer) or a skills folder
# (nagents' own DirectorySkillDiscoverer over it). The same agent code reads both.
where = sys.argv[1]
if where == "package":
    import acme_skills
    discoverer = acme_skills.BundledSkillDiscoverer()
else:
    discoverer = DirectorySkillDiscoverer([where])


async def main():
    # No request is ever sent: skills are refreshed and loaded without running the model loop.
    provider = Provider(ProviderType.OPENAI_COMPATIBLE, api_key="unused", model="m", base_url="http://127.0.0.1:9/v1")
    with tempfile.TemporaryDirectory() as state:
        agent = Agent(provider, SessionManager(Path(state) / "sessions.db"), compaction_strategy=None,
                      skill_discoverer=discoverer)
        catalog = await agent.refresh_skills()
        loads = {name: dict(await agent.load_skill(name)) for name in catalog}
        stale = None
        try:
            await agent.skill_discoverer.load(Skill(name="pdf-forms", description="other", location="x"))
        except ValueError as error:
            stale = str(error)
        await agent.session.close() if hasattr(agent.session, "close") else None
    report = {
        "catalog": [{"name": s.name, "description": s.description, "location": s.location} for s in catalog.values()],
        "loads": loads,
        "stale": stale,
    }
    if where == "package":
        report["bundled"] = str(acme_skills.bundled_folder())
        report["module"] = acme_skills.__file__
    print(json.dumps(report, ensure_ascii=False))

asyncio.run(main())
"""


def run_agent(python: Path, where: str) -> tuple[int, dict | None, str]:
    ran = subprocess.run([str(python), "-c", AGENT_SCRIPT, where], capture_output=True, timeout=300)
    stderr = ran.stderr.decode("utf-8", "backslashreplace")
    if ran.returncode != 0:
        return ran.returncode, None, stderr
    return 0, json.loads(ran.stdout.decode("utf-8")), stderr


def wheelhouse(peers_python: Path, cache: Path) -> Path | None:
    """nagents and its dependencies as wheels, downloaded once from the package index."""
    marker = cache / ".complete"
    if marker.exists():
        return cache
    cache.mkdir(parents=True, exist_ok=True)
    done = subprocess.run(
        [str(peers_python), "-m", "pip", "download", "--quiet", "--dest", str(cache), NAGENTS],
        capture_output=True,
        text=True,
    )
    if done.returncode != 0:
        print(f"note: cannot download {NAGENTS} ({done.stderr.strip()[:200]})", file=sys.stderr)
        return None
    marker.write_text("")
    return cache


def fresh_environment(where: Path, wheel: Path, peers_python: Path, cache: Path) -> Path:
    """A new venv with the exported wheel and nagents installed by pip; returns its python."""
    base = Path(getattr(sys, "_base_executable", sys.executable))
    subprocess.run([str(base), "-m", "venv", str(where)], check=True)
    python = where / "bin" / "python"
    house = wheelhouse(peers_python, cache)
    if house is not None:
        subprocess.run(
            [str(python), "-m", "pip", "install", "--quiet", "--no-index", "--find-links", str(house),
             str(wheel), NAGENTS],
            check=True,
        )
    else:
        # Offline without a wheelhouse: install the wheel alone and borrow nagents from the peers' venv.
        subprocess.run([str(python), "-m", "pip", "install", "--quiet", "--no-deps", str(wheel)], check=True)
        site = next((where / "lib").glob("python3*/site-packages"))
        peers_site = next((peers_python.parent.parent / "lib").glob("python3*/site-packages"))
        (site / "peers.pth").write_text(f"{peers_site}\n")
    return python


def check_record(results: Results, wheel: Path) -> None:
    with zipfile.ZipFile(wheel) as archive:
        names = archive.namelist()
        record_name = next(name for name in names if name.endswith(".dist-info/RECORD"))
        rows = list(csv.reader(io.StringIO(archive.read(record_name).decode("utf-8"))))
        listed = {row[0] for row in rows}
        results.check("RECORD lists every member", sorted(names), sorted(listed))
        bad = []
        for path, digest, size in rows:
            if path == record_name:
                continue
            data = archive.read(path)
            expected = "sha256=" + base64.urlsafe_b64encode(hashlib.sha256(data).digest()).rstrip(b"=").decode()
            if digest != expected or int(size) != len(data):
                bad.append(path)
        results.check("RECORD hashes and sizes", [], bad)
        dates = {info.date_time for info in archive.infolist()}
        results.check("wheel timestamps", {(1980, 1, 1, 0, 0, 0)}, dates)


def python_package_round_trip(results: Results, binary: Path, source: Path, work: Path, peers: Path) -> None:
    out = work / "package"
    done = skillforge(binary, "export", str(source), "--to", "python-package", "--out", str(out),
                      "--package-name", PACKAGE)
    results.check("python-package export exit", 0, done.returncode)
    if done.returncode != 0:
        print(done.stdout, done.stderr, file=sys.stderr)
        return
    results.check("CRLF warning listed", True, "has CR line endings" in done.stdout)
    wheel = out / "dist" / f"{IMPORT}-0.1.0-py3-none-any.whl"
    check_record(results, wheel)

    python = fresh_environment(work / "venv", wheel, peers, peers.parent.parent / "wheelhouse")
    code, installed, stderr = run_agent(python, "package")
    results.check("nagents agent over the installed wheel", 0, code)
    # The expected side: the same agent code over nagents' own directory source on the source folder.
    source_code, direct, source_stderr = run_agent(peers, str(source))
    results.check("nagents agent over the source folder", 0, source_code)
    if installed is None or direct is None:
        print(stderr, source_stderr, file=sys.stderr)
        return
    results.check("installed from site-packages, not the export folder", True,
                  "site-packages" in installed["module"])

    # The one difference nagents itself makes: a bundled skill's location names the package resource.
    def packaged(location: str) -> str:
        return f"package:{IMPORT}/bundled/{Path(location).parent.name}/SKILL.md"

    expected_catalog = [{**skill, "location": packaged(skill["location"])} for skill in direct["catalog"]]
    results.check("catalog: nagents over the package vs nagents over the source folder",
                  expected_catalog, installed["catalog"])
    results.check("catalog: every source skill is exported", sorted(p.parent.name for p in source.glob("*/SKILL.md")),
                  sorted(Path(skill["location"]).parent.name for skill in direct["catalog"]))
    for skill in direct["catalog"]:
        name = skill["name"]
        expected = {**direct["loads"][name], "location": packaged(skill["location"])}
        raw = (source / Path(skill["location"]).parent.name / "SKILL.md").read_bytes()
        if b"\r" in raw:
            # nagents' builtin source reads a resource with importlib.resources' read_text, which
            # translates newlines (Path.read_text does the same); its directory source keeps the bytes.
            # skillforge warned about exactly this at export time. Every field is still compared: the
            # expected load is nagents' budget over the text as that reader returns it.
            text = (source / Path(skill["location"]).parent.name / "SKILL.md").read_text(encoding="utf-8")
            results.check(f"load {name}: the translated text differs from the directory load", True,
                          text != direct["loads"][name]["content"])
            descriptor = Skill(name=name, description=skill["description"], location=expected["location"])
            expected = dict(budget_skill_content(descriptor, text, expected["token_limit"]))
        results.check(f"load {name}: byte for byte",
                      json.dumps(expected, ensure_ascii=False, separators=(",", ":")),
                      json.dumps(installed["loads"].get(name), ensure_ascii=False, separators=(",", ":")))
    results.check("stale descriptor refused with nagents' message",
                  "Skill 'pdf-forms' is not in the bundled catalog; refresh discovery", installed["stale"])
    # The bundled files are the source's bytes (the package adds only its Python modules).
    bundled = Path(installed["bundled"])
    results.check("bundled SKILL.md files equal the source's bytes",
                  {path: data for path, data in tree(source).items() if path.endswith("/SKILL.md")},
                  {path: data for path, data in tree(bundled).items() if path.endswith("/SKILL.md")})

    # 10xGraph reads skill folders from disk: the installed bundled folder must load like the source.
    from_source, from_package = SkillsRegistry(), SkillsRegistry()
    from_source.discover([str(source)])
    from_package.discover([str(bundled)])
    results.check("10xgraph: names", sorted(from_source.names()), sorted(from_package.names()))
    # 10xGraph skips a skill without a `name` (folder-named), from the source and the package alike.
    results.check("10xgraph: skills loaded", ["crlf-notes", "pdf-forms", "release-notes"], sorted(from_package.names()))
    results.check("10xgraph: catalog", from_source.build_catalog(), from_package.build_catalog())
    for name in from_source.names():
        results.check(f"10xgraph: {name} content", from_source.load_content(name), from_package.load_content(name))
        results.check(f"10xgraph: {name} files", from_source.list_files(name), from_package.list_files(name))


# --- determinism, archives, refusals -----------------------------------------------------------------

def determinism(results: Results, binary: Path, source: Path, work: Path) -> None:
    for target, extra in (
        ("python-package", ["--package-name", PACKAGE]),
        ("skill-archive", ["--skills", "pdf-forms,release-notes"]),
        ("client-folder", ["--client", "claude"]),
    ):
        outputs = []
        for attempt in (1, 2):
            out = work / f"{target}-{attempt}"
            done = skillforge(binary, "export", str(source), "--to", target, "--out", str(out), *extra)
            results.check(f"{target} export {attempt} exit", 0, done.returncode)
            outputs.append(tree(out))
        results.check(f"{target}: same input, same bytes", outputs[0], outputs[1])


def archives(results: Results, binary: Path, source: Path, work: Path) -> None:
    out = work / "archives"
    done = skillforge(binary, "export", str(source), "--to", "skill-archive", "--skills", "pdf-forms",
                      "--out", str(out))
    results.check("archive export exit", 0, done.returncode)
    with zipfile.ZipFile(out / "pdf-forms.skill") as archive:
        infos = archive.infolist()
        names = [info.filename for info in infos]
        expected = sorted(
            f"pdf-forms/{path}" for path in tree(source / "pdf-forms")
            if not (path.startswith("evals/") or "__pycache__" in path or path.endswith((".pyc", ".DS_Store")))
        )
        results.check("archive members: folder at the top, evals and junk left out", expected, names)
        results.check("archive compression", {zipfile.ZIP_DEFLATED}, {info.compress_type for info in infos})
        modes = {info.filename: (info.external_attr >> 16) & 0o777 for info in infos}
        results.check("archive permissions", 0o755, modes.get("pdf-forms/scripts/fill.py"))
        results.check("archive permissions (plain)", 0o644, modes.get("pdf-forms/SKILL.md"))
        same = all(archive.read(name) == (source / name).read_bytes() for name in names)
        results.check("archive contents equal the source", True, same)
    manifest = json.loads((out / "bundle.json").read_text())
    listed = {entry["path"]: entry for entry in manifest["files"]}
    data = (out / "pdf-forms.skill").read_bytes()
    results.check("bundle.json lists the archive", {"path": "pdf-forms.skill", "size": len(data),
                  "sha256": hashlib.sha256(data).hexdigest()}, listed.get("pdf-forms.skill"))


def refusals(results: Results, binary: Path, source: Path, work: Path) -> None:
    # An invalid skill for the target profile: extra keys are refused by claude.ai upload.
    invalid = work / "invalid"
    shutil.copytree(source, invalid)
    text = (invalid / "pdf-forms" / "SKILL.md").read_text()
    (invalid / "pdf-forms" / "SKILL.md").write_text(text.replace("license: MIT", "license: MIT\nwhen_to_use: forms"))
    out = work / "refused-invalid"
    done = skillforge(binary, "export", str(invalid), "--to", "skill-archive", "--skills", "pdf-forms",
                      "--out", str(out))
    results.check("invalid skill: exit 1", 1, done.returncode)
    results.check("invalid skill: nothing written", False, out.exists())
    results.check("invalid skill: error listed", True, "error:" in done.stdout and "when_to_use" in done.stdout)

    # A symbolic link inside a skill.
    linked = work / "linked"
    shutil.copytree(source, linked)
    (linked / "release-notes" / "secret.md").symlink_to("/etc/hostname")
    out = work / "refused-link"
    done = skillforge(binary, "export", str(linked), "--to", "python-package", "--out", str(out))
    results.check("symlink: exit 1", 1, done.returncode)
    results.check("symlink: nothing written", False, out.exists())
    done = skillforge(binary, "export", str(linked), "--to", "python-package", "--out", str(out),
                      "--follow-links-inside")
    results.check("symlink outside the skill, even when following links inside: exit 1", 1, done.returncode)

    # An existing destination.
    out = work / "existing"
    out.mkdir()
    (out / "keep.txt").write_text("mine")
    done = skillforge(binary, "export", str(source), "--to", "python-package", "--out", str(out))
    results.check("existing destination: exit 2", 2, done.returncode)
    results.check("existing destination: untouched", {"keep.txt": b"mine"}, tree(out))

    # Hostile names: none may be exported, and nothing may appear outside the destination.
    hostile = work / "hostile" / "skills"
    shutil.copytree(source, hostile)
    for name in ("..\\..\\..\\escaped.txt", "name\nforged: yes", "C:\\evil.txt"):
        (hostile / "pdf-forms" / name).write_text("x")
    before = sorted(p.name for p in work.iterdir())
    for target, extra in (("skill-archive", ["--skills", "pdf-forms"]), ("python-package", []),
                          ("client-folder", ["--client", "claude"])):
        out = work / "hostile" / f"out-{target}"
        done = skillforge(binary, "export", str(hostile), "--to", target, "--out", str(out), *extra)
        results.check(f"hostile names ({target}): exit 1", 1, done.returncode)
        results.check(f"hostile names ({target}): nothing written", False, out.exists())
        results.check(f"hostile names ({target}): three refusals", 3, done.stdout.count("rename it before exporting"))
    results.check("hostile names: nothing escaped", before, sorted(p.name for p in work.iterdir()))
    results.check("hostile names: no file outside", [], [p for p in (work / "hostile").parent.rglob("escaped.txt")])


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--binary", type=Path, required=True)
    parser.add_argument("--fixtures", type=Path, required=True)
    args = parser.parse_args()
    results = Results()
    peers = Path(sys.executable)
    with tempfile.TemporaryDirectory() as temporary:
        work = Path(temporary)
        source = work / "source"
        shutil.copytree(args.fixtures / "export" / "skills", source)
        # Written here rather than committed: git may rewrite line endings and cannot hold caches well.
        (source / "crlf-notes").mkdir()
        (source / "crlf-notes" / "SKILL.md").write_bytes(
            b"---\r\nname: crlf-notes\r\ndescription: Keeps notes with Windows line endings.\r\n---\r\nBody line.\r\n"
        )
        cache = source / "pdf-forms" / "scripts" / "__pycache__"
        cache.mkdir()
        (cache / "fill.cpython-312.pyc").write_bytes(b"\0junk")
        (source / "pdf-forms" / ".DS_Store").write_bytes(b"junk")
        python_package_round_trip(results, args.binary, source, work, peers)
        determinism(results, args.binary, source, work)
        archives(results, args.binary, source, work)
        refusals(results, args.binary, source, work)
    return results.finish("export fidelity", MIN_CASES)


if __name__ == "__main__":
    sys.exit(main())
