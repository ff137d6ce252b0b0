"""The feature gates kube-scheduler knows, as data: name, default, stage, locked.

The table (`kubernetes_v1_35.tsv`, one gate a line) holds every gate the
`--feature-gates` flag of kube-scheduler v1.35 accepts: the Kubernetes gates
of `pkg/features`, the API server's, client-go's, component-base's (logging,
zpages) and the two special gates AllAlpha and AllBeta. For each, the
versioned spec in force at v1.35 (the newest spec whose version is <= 1.35).
"""

from __future__ import annotations

import enum
from collections.abc import Mapping
from importlib.resources import files
from types import MappingProxyType

from attrs import frozen

TRACKED_RELEASE = "v1.35"
"""The kube-scheduler release whose gates, defaults and stages the table holds."""

_TABLE = "kubernetes_v1_35.tsv"


class Stage(enum.Enum):
    """A gate's maturity (upstream's PreRelease)."""

    ALPHA = "Alpha"
    BETA = "Beta"
    GA = "GA"
    DEPRECATED = "Deprecated"


@frozen
class FeatureSpec:
    """One known gate: its default, its stage and whether it is locked to that default."""

    name: str
    default: bool
    stage: Stage
    locked: bool = False


ALL_ALPHA = "AllAlpha"
"""Sets every Alpha gate not named explicitly."""
ALL_BETA = "AllBeta"
"""Sets every Beta gate not named explicitly."""


def _read_table() -> Mapping[str, FeatureSpec]:
    specs: dict[str, FeatureSpec] = {}
    text = files(__package__).joinpath(_TABLE).read_text(encoding="utf-8")
    for line in text.splitlines():
        if not line.strip():
            continue
        name, default, stage, locked = line.split("\t")
        specs[name] = FeatureSpec(name, default == "true", Stage(stage), locked == "locked")
    return MappingProxyType(dict(sorted(specs.items())))


KNOWN_FEATURES: Mapping[str, FeatureSpec] = _read_table()
"""Every gate kube-scheduler's `--feature-gates` accepts, by name, sorted."""
