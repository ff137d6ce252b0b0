"""What an experiment runs its configs on: a cluster's manifests (a file or a directory), or
a scenario (a trace, its format and the format's options).

An input is plain data (kind, path, name) so it travels to another process with
its cell; the manifests are read where the run happens, once per process.
"""

from __future__ import annotations

from functools import lru_cache
from pathlib import Path
from typing import Any

import yaml
from attrs import evolve, field, frozen

from kubesched.api import ClusterObjects
from kubesched.api._manifests import load_manifests
from kubesched.experiment._digest import path_digest

_LOADER = getattr(yaml, "CSafeLoader", yaml.SafeLoader)
CLUSTER = "cluster"
"""An input of Kubernetes manifests, scheduled by `simulate`."""
SCENARIO = "scenario"
"""An input of a scenario (a trace read by a format adapter, with its options), replayed."""
SEED_PLACEHOLDER = "{seed}"
"""In a scenario input's option value, the seed of the run (`seed: "{seed}"`)."""


@frozen
class InputSpec:
    """One input of an experiment: its kind, the file or directory, and a name for tables.
    A scenario also has its `format` (a `kubesched.scenarios` entry point), that format's
    `options`, and `replay`, how it is replayed (`ReplayOptions` fields, camelCase)."""

    kind: str
    path: str
    name: str
    format: str = ""
    options: dict[str, str] = field(factory=dict)
    replay: dict[str, Any] = field(factory=dict)

    @property
    def digest(self) -> str:
        """The digest of the input's bytes, format and options (see `path_digest`)."""
        return path_digest(self.path, self.kind, self.format, self.options, self.replay)


def for_seed(spec: InputSpec, seed: int) -> InputSpec:
    """The input as the run with `seed` reads it: every `{seed}` in an option value replaced
    by the seed (so a trace format's own seed can follow the run's). Unchanged without one."""
    if not any(SEED_PLACEHOLDER in value for value in spec.options.values()):
        return spec
    text = str(seed)
    options = {key: value.replace(SEED_PLACEHOLDER, text) for key, value in spec.options.items()}
    return evolve(spec, options=options)


def cluster_input(path: str | Path, name: str | None = None) -> InputSpec:
    """A cluster input, named `name` or after the file or directory."""
    return InputSpec(CLUSTER, str(path), name or Path(path).name)


@lru_cache(maxsize=8)
def _cluster_objects(path: str, digest: str) -> ClusterObjects:
    return load_manifests(path)


def cluster_objects(spec: InputSpec, digest: str | None = None) -> ClusterObjects:
    """The objects of a cluster input; read once per process and per content (the objects are
    immutable, and every run builds its own in-memory cluster from them). `digest`: the
    input's digest when already known (a cell carries it), so the files are not hashed again."""
    return _cluster_objects(spec.path, digest or spec.digest)


def is_scenario_file(path: str | Path) -> bool:
    """Whether `path` is a scenario file (YAML or JSON whose first document is
    `kind: Scenario`) rather than manifests."""
    file = Path(path)
    if not file.is_file():
        return False
    try:
        with file.open(encoding="utf-8") as handle:
            first = next(yaml.load_all(handle, Loader=_LOADER), None)
    except (OSError, UnicodeDecodeError, yaml.YAMLError):
        return False  # not a scenario; reading it as manifests reports what is wrong
    return isinstance(first, dict) and first.get("kind") == "Scenario"


def scenario_input(
    path: str | Path,
    fmt: str = "scenario",
    options: dict[str, str] | None = None,
    name: str | None = None,
) -> InputSpec:
    """A scenario input: a trace or scenario file in format `fmt` with its options."""
    return InputSpec(SCENARIO, str(path), name or Path(path).name, fmt, dict(options or {}))
