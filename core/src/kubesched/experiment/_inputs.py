"""What an experiment runs its configs on: a cluster's manifests (a file or a directory), or
a scenario (a trace, its format and the format's options).

An input is plain data (kind, path, name) so it travels to another process with
its cell; the manifests are read where the run happens, once per process.
"""

from __future__ import annotations

from functools import lru_cache
from pathlib import Path
from typing import Any

from attrs import field, frozen

from kubesched.api import ClusterObjects
from kubesched.api._manifests import load_manifests
from kubesched.experiment._digest import path_digest

CLUSTER = "cluster"
"""An input of Kubernetes manifests, scheduled by `simulate`."""
SCENARIO = "scenario"
"""An input of a scenario (a trace read by a format adapter, with its options), replayed."""


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


def cluster_input(path: str | Path, name: str | None = None) -> InputSpec:
    """A cluster input, named `name` or after the file or directory."""
    return InputSpec(CLUSTER, str(path), name or Path(path).name)


@lru_cache(maxsize=8)
def _cluster_objects(path: str, digest: str) -> ClusterObjects:
    return load_manifests(path)


def cluster_objects(spec: InputSpec) -> ClusterObjects:
    """The objects of a cluster input; read once per process and per content (the objects are
    immutable, and every run builds its own in-memory cluster from them)."""
    return _cluster_objects(spec.path, spec.digest)
