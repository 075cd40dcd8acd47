"""What every fidelity driver shares: counting checks and printing a readable difference."""

import sys


def shorten(value: object, limit: int = 2000) -> str:
    text = repr(value)
    return text if len(text) < limit else text[:limit] + "…"


class Results:
    """Counts passed and failed comparisons; a failure prints both sides, shortened."""

    def __init__(self) -> None:
        self.passed = 0
        self.failed = 0

    def check(self, label: str, expected: object, actual: object) -> None:
        if expected == actual:
            self.passed += 1
            return
        self.failed += 1
        print(f"FAIL {label}", file=sys.stderr)
        print(f"  expected: {shorten(expected)}", file=sys.stderr)
        print(f"  actual:   {shorten(actual)}", file=sys.stderr)
