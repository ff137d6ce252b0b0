"""A target workload published in the cluster: a Namespace annotation FGD reads when its
args name no `typicalPods`.

The annotation `gpushare.kubesched.io/target-workload` holds a JSON list of
`{"cpuMilli", "gpuCount", "gpuMilli", "gpuCardModel", "weight"}` objects, the
fields of FGDScoreArgs' `typicalPods` (models joined by `|`). The OpenB trace
formats put the replayed pod list's own target workload on the `default`
Namespace, so one FGD config fits every trace of a sweep; a cluster's manifests
can carry it the same way.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Sequence
from typing import Any

from kubesched.api import Namespace, ObjectMeta
from kubesched_gpushare.frag import TypicalPod
from kubesched_gpushare.resources import GpuRequest

TARGET_WORKLOAD = "gpushare.kubesched.io/target-workload"
"""The Namespace annotation that carries a target workload."""


class PublishedWorkloadError(ValueError):
    """The annotation is not a list of typical pods; the message names the Namespace."""


def workload_json(workload: Sequence[TypicalPod]) -> str:
    """The workload as the annotation's JSON text (weights exact: JSON keeps a float's repr)."""
    return json.dumps(
        [
            {
                "cpuMilli": spec.cpu_milli,
                "gpuCount": spec.request.count,
                "gpuMilli": spec.request.milli,
                "gpuCardModel": "|".join(sorted(spec.request.models)),
                "weight": spec.weight,
            }
            for spec in workload
        ],
        separators=(",", ":"),
    )


def publishing_namespace(workload: Sequence[TypicalPod], name: str = "default") -> Namespace:
    """A Namespace carrying `workload` in its annotation."""
    return Namespace(ObjectMeta(name=name, annotations={TARGET_WORKLOAD: workload_json(workload)}))


def _spec(item: Any, where: str) -> TypicalPod:
    if not isinstance(item, dict):
        raise PublishedWorkloadError(f"{where}: not an object")
    try:
        models = frozenset(m for m in str(item.get("gpuCardModel", "")).split("|") if m)
        request = GpuRequest(int(item.get("gpuCount", 0)), int(item.get("gpuMilli", 0)), models)
        return TypicalPod(int(item["cpuMilli"]), request, float(item["weight"]))
    except (KeyError, TypeError, ValueError) as exc:
        raise PublishedWorkloadError(f"{where}: {exc}") from None


def published_workload(namespaces: Iterable[Namespace]) -> list[TypicalPod] | None:
    """The workload of the first Namespace (by name) carrying the annotation; None if none
    does; PublishedWorkloadError naming the Namespace if its annotation cannot be read."""
    for namespace in sorted(namespaces, key=lambda ns: ns.metadata.name):
        text = namespace.metadata.annotations.get(TARGET_WORKLOAD)
        if text is None:
            continue
        where = f"Namespace {namespace.metadata.name}: annotation {TARGET_WORKLOAD}"
        try:
            items = json.loads(text)
        except ValueError:
            raise PublishedWorkloadError(f"{where}: not JSON") from None
        if not isinstance(items, list):
            raise PublishedWorkloadError(f"{where}: not a list")
        return [_spec(item, f"{where}[{i}]") for i, item in enumerate(items)]
    return None
