"""What every fidelity driver shares: counting checks, printing a readable difference, listing the
deviations a suite keeps on purpose, and refusing to pass when fewer cases ran than the suite commits to."""

import subprocess
import sys


def shorten(value: object, limit: int = 2000) -> str:
    text = repr(value)
    return text if len(text) < limit else text[:limit] + "…"


class Results:
    """Counts passed and failed comparisons; a failure prints both sides, shortened."""

    def __init__(self) -> None:
        self.passed = 0
        self.failed = 0
        self.deviations = 0

    def check(self, label: str, expected: object, actual: object) -> None:
        if expected == actual:
            self.passed += 1
            return
        self.failed += 1
        print(f"FAIL {label}", file=sys.stderr)
        print(f"  expected: {shorten(expected)}", file=sys.stderr)
        print(f"  actual:   {shorten(actual)}", file=sys.stderr)

    def fail(self, label: str, detail: object = None) -> None:
        """A failure that is not a comparison (a peer or the CLI crashed, a case could not be built)."""
        self.failed += 1
        print(f"FAIL {label}", file=sys.stderr)
        if detail is not None:
            print(f"  {shorten(detail)}", file=sys.stderr)

    def deviation(self, label: str, reason: str) -> None:
        """Announces a documented, deliberate difference from a peer. The caller still checks that the
        difference holds exactly as listed (so the list cannot go stale); this only makes it visible."""
        self.deviations += 1
        print(f"deviation {label}: {reason}")

    def finish(self, suite: str, minimum: int) -> int:
        """Prints the summary and returns the exit code: failure on any failed check, and also when fewer
        checks ran than `minimum` (a case list that silently shrank, a tree that vanished)."""
        total = self.passed + self.failed
        print(f"{suite}: {self.passed} passed, {self.failed} failed")
        print(f"{suite}: {total} cases (minimum {minimum}), {self.deviations} documented deviations")
        if total < minimum:
            print(f"FAIL {suite}: only {total} cases ran; the suite commits to at least {minimum}", file=sys.stderr)
            return 1
        return 1 if self.failed else 0


def run_cli(binary, arguments, cwd=None, env=None) -> subprocess.CompletedProcess:
    """Runs skillforge with bytes in and out (never decoded leniently), bounded in time."""
    return subprocess.run([str(binary), *arguments], cwd=cwd, env=env, capture_output=True, timeout=300)


def utf8(data: bytes, label: str, results: Results) -> str | None:
    """Strict UTF-8 decoding of CLI output; invalid bytes are a failure, not replacement characters."""
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as error:
        results.fail(f"{label}: output is not UTF-8", error)
        return None
