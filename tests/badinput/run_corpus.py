"""Rerun the whole bad-input and misbehaving-plugin corpus through the CLI and print totals.

    uv run python tests/badinput/run_corpus.py        # or: nox -s badinput

Four sets: objects an API server refuses (corpus.py), the manifests and configurations
test_bad_input.py holds, inputs that used to crash, hang or leak (hazards.py), and the
FaultInjection plugin misbehaving at every extension point. Each case runs in this process
in a fresh folder; the script prints each failure, one total line per set and the grand
total, and exits 1 when any case did not do what it says.
"""

from __future__ import annotations

import signal
import sys
import tempfile
from collections.abc import Callable, Iterator
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))

from corpus import CASES, manifest
from hazards import (
    HAZARDS,
    PLUGIN_FAULTS,
    PLUGIN_HOOKS,
    check_full_stdout,
    check_hazard,
    check_plugin_fault,
    check_signal,
    run_cli,
)
from test_bad_input import CONFIGS, MANIFESTS

Check = Callable[[Path], "str | None"]


def check_refused(text: str, says: str, exact: bool) -> Check:
    """`simulate` refuses the manifest: exit 2, nothing on stdout, one line that is (or,
    for the older table, contains) `error: <file>: <says>`."""

    def check(folder: Path) -> str | None:
        path = folder / "cluster.yaml"
        path.write_text(text)
        code, out, err = run_cli(["simulate", str(path), "-o", "json"])
        lines = err.splitlines()
        expected = f"error: {path}: {says}"
        ok = code == 2 and not out and len(lines) == 1
        ok = ok and (
            lines[0] == expected
            if exact
            else lines[0].startswith(f"error: {path}: ") and says in lines[0]
        )
        return None if ok else f"exit {code}, stderr {err[:800]!r}; expected {expected!r}"

    return check


def check_config(text: str, says: str) -> Check:
    """`config validate` refuses the configuration: exit 1, one line naming the file."""

    def check(folder: Path) -> str | None:
        path = folder / "scheduler.yaml"
        path.write_text(text)
        code, out, err = run_cli(["config", "validate", str(path)])
        lines = err.splitlines()
        ok = (
            code == 1 and not out and len(lines) == 1 and str(path) in lines[0] and says in lines[0]
        )
        return None if ok else f"exit {code}, stderr {err[:800]!r}; expected {says!r}"

    return check


def sets() -> Iterator[tuple[str, list[tuple[str, Check]]]]:
    """(set name, [(case id, check)])."""
    yield (
        "objects an API server refuses",
        [(cid, check_refused(manifest(objects), says, exact=True)) for cid, objects, says in CASES],
    )
    yield (
        "bad manifests and configurations",
        [
            *((cid, check_refused(text, says, exact=False)) for cid, text, says in MANIFESTS),
            *((cid, check_config(text(), says)) for cid, text, says in CONFIGS),
        ],
    )
    yield (
        "crashes, hangs and leaks",
        [(h.id, lambda folder, h=h: check_hazard(h, folder)) for h in HAZARDS],
    )
    yield (
        "signals and a full disk (child processes)",
        [
            ("sigint", lambda folder: check_signal(signal.SIGINT, folder)),
            ("sigterm", lambda folder: check_signal(signal.SIGTERM, folder)),
            ("stdout-to-a-full-disk", check_full_stdout),
        ],
    )
    yield (
        "misbehaving plugins",
        [
            (f"{hook}-{fault}", lambda folder, h=hook, f=fault: check_plugin_fault(h, f, folder))
            for hook in PLUGIN_HOOKS
            for fault in PLUGIN_FAULTS
        ],
    )


def main() -> int:
    total = passed = 0
    for name, cases in sets():
        ok = 0
        for case_id, check in cases:
            with tempfile.TemporaryDirectory() as folder:
                problem = check(Path(folder))
            if problem is None:
                ok += 1
            else:
                print(f"FAIL {case_id}: {problem}")
        print(f"{name}: {ok}/{len(cases)} as expected")
        total += len(cases)
        passed += ok
    print(f"total: {passed}/{total} as expected")
    return 0 if passed == total else 1


if __name__ == "__main__":
    sys.exit(main())
