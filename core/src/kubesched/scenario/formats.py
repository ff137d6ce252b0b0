"""Scenario and trace formats: the entry-point group `kubesched.scenarios`.

A format is a callable `(path, options) -> Scenario`: `path` is what the user named,
`options` the `--format-option KEY=VALUE` pairs (strings, the format checks them and
raises ScenarioError naming the key). A distribution adds one with

    [project.entry-points."kubesched.scenarios"]
    mytrace = "my_package.trace:read_trace"

The scenario file format (`scenario`) is the first one, shipped by kubesched-core.
A trace format should stream its events (a generator function as `Scenario.events`)
so a long trace is never held whole, and may attach the observers its study records
(`Scenario.observers`).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from importlib.metadata import EntryPoint, entry_points
from pathlib import Path

from kubesched.scenario.errors import ScenarioError
from kubesched.scenario.loader import load_scenario
from kubesched.scenario.model import Scenario

GROUP = "kubesched.scenarios"
"""The entry-point group of scenario formats."""
DEFAULT_FORMAT = "scenario"

ScenarioFormat = Callable[[Path, Mapping[str, str]], Scenario]
"""Turns a path and the format's options into a scenario."""


def read_scenario_file(path: Path, options: Mapping[str, str]) -> Scenario:
    """The `scenario` format: a scenario file (`kind: Scenario`); it takes no options."""
    if options:
        key = sorted(options)[0]
        raise ScenarioError(f"format scenario takes no option {key!r}", file=str(path))
    return load_scenario(path)


def scenario_formats() -> dict[str, EntryPoint]:
    """Every installed format, by name (entry points are not loaded here)."""
    return {ep.name: ep for ep in entry_points(group=GROUP)}


def load_format(name: str) -> ScenarioFormat:
    """The format `name`; ScenarioError naming the installed ones when there is none, or
    naming its distribution when it does not load."""
    found = scenario_formats().get(name)
    if found is None:
        known = ", ".join(sorted(scenario_formats())) or "none"
        raise ScenarioError(f"no scenario format {name!r} is installed (installed: {known})")
    try:
        loaded = found.load()
    except Exception as exc:  # a broken distribution is named, never a traceback
        dist = found.dist.name if found.dist is not None else "?"
        raise ScenarioError(
            f"scenario format {name!r} of {dist} does not load: {type(exc).__name__}: {exc}"
        ) from None
    if not callable(loaded):
        raise ScenarioError(f"scenario format {name!r} ({found.value}) is not callable")
    fmt: ScenarioFormat = loaded
    return fmt


def read_scenario(
    path: str | Path,
    format: str = DEFAULT_FORMAT,
    options: Mapping[str, str] | None = None,
) -> Scenario:
    """The scenario at `path` in `format` (an installed `kubesched.scenarios` entry)."""
    return load_format(format)(Path(path), dict(options or {}))
