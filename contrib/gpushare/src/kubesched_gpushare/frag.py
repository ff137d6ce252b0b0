"""The FGD study's fragmentation measure, in GPU milli.

The target workload M is the most popular pod specs (CPU milli, GPU count,
GPU milli, accepted models) covering `coverage` % of a pod list, each with
weight p_m = its pods / the pods of the kept specs. For a node n and a spec m, the fragment
F_n(m) is all of n's idle GPU milli when m cannot use it (m asks no GPU; n's
model is not accepted; m does not fit for CPU, or for too few devices with
enough milli free), and otherwise the idle milli on the devices with less
free than m's milli. F_n(M) = sum_m p_m F_n(m); the cluster's is the sum over
nodes.
"""

from __future__ import annotations

import functools
from collections import Counter
from collections.abc import Iterable, Sequence

import numpy as np
from attrs import frozen
from numpy.typing import NDArray

from kubesched_gpushare.floats import add_in_order
from kubesched_gpushare.resources import GpuRequest

DEFAULT_COVERAGE = 95


@frozen
class TypicalPod:
    """One spec of the target workload and its weight p_m."""

    cpu_milli: int
    request: GpuRequest
    weight: float


def target_workload(
    specs: Iterable[tuple[int, GpuRequest]], coverage: float = DEFAULT_COVERAGE
) -> list[TypicalPod]:
    """The most popular (cpu milli, GPU request) specs, until they cover `coverage` % of
    the pods; ties in popularity keep the spec order of first appearance. Weights are the
    specs' shares of the pods they cover (so they sum to 1), as the study's artifact
    renormalises them."""
    counts = Counter(specs)
    total = sum(counts.values())
    kept: list[tuple[int, GpuRequest, int]] = []
    covered = 0
    for (cpu, request), n in sorted(counts.items(), key=lambda kv: -kv[1]):
        if covered * 100 >= coverage * total:
            break
        kept.append((cpu, request, n))
        covered += n
    return [TypicalPod(cpu, request, n / covered) for cpu, request, n in kept]


def spec_fragment(free: Sequence[int], cpu_free: int, model: str, spec: TypicalPod) -> int:
    """F_n(m) for one node and one spec."""
    idle = sum(free)
    request = spec.request
    if request.count == 0 or not request.accepts(model) or cpu_free < spec.cpu_milli:
        return idle
    if sum(1 for f in free if f >= request.milli) < request.count:
        return idle
    return sum(f for f in free if f < request.milli)


def node_fragment(
    free: Sequence[int], cpu_free: int, model: str, workload: Sequence[TypicalPod]
) -> float:
    """F_n(M): the node's fragment against the target workload, the weighted fragments
    added left to right in float64 from 0.0, in the workload's order (as the study's Go
    code adds them, and as `fragments` does column-wise)."""
    return add_in_order(
        spec.weight * spec_fragment(free, cpu_free, model, spec) for spec in workload
    )


def fragments(
    free: NDArray[np.int64],
    cpu_free: NDArray[np.int64],
    models: NDArray[np.object_],
    workload: Sequence[TypicalPod],
) -> NDArray[np.float64]:
    """F_n(M) for many node states at once: `free` is states x devices (0 past a node's
    GPUs), `cpu_free` and `models` one entry per state. Per state the weighted fragments
    are added in the workload's order from 0.0 (`np.add.accumulate` adds strictly left to
    right), so each entry equals `node_fragment` bit for bit; the only other numpy
    reductions are sums of integers, which are exact in any order."""
    idle = free.sum(axis=1)
    if not workload:
        return np.zeros(len(idle), dtype=np.float64)
    specs = _spec_columns(tuple(workload))
    fits = np.empty((len(idle), len(specs.millis)), dtype=np.int64)
    stranded = np.empty_like(fits)
    for g, milli in enumerate(specs.millis):
        enough = free >= milli
        fits[:, g] = enough.sum(axis=1)
        stranded[:, g] = idle - np.where(enough, free, 0).sum(axis=1)
    usable = cpu_free[:, None] >= specs.cpu
    usable &= fits[:, specs.milli_group] >= specs.count
    for column, accepted in specs.model_rules:
        usable[:, column] &= np.isin(models, accepted)
    weighted = np.where(usable, stranded[:, specs.milli_group], idle[:, None]) * specs.weight
    total: NDArray[np.float64] = np.add.accumulate(weighted, axis=1)[:, -1]
    return total


@frozen
class _SpecColumns:
    """A target workload as columns, one entry per spec in the workload's order; specs
    asking the same milli share one column of `fits`/`stranded` (`milli_group`)."""

    weight: NDArray[np.float64]
    cpu: NDArray[np.int64]
    count: NDArray[np.int64]
    millis: tuple[int, ...]
    milli_group: NDArray[np.intp]
    model_rules: tuple[tuple[int, list[str]], ...]


@functools.lru_cache(maxsize=64)
def _spec_columns(workload: tuple[TypicalPod, ...]) -> _SpecColumns:
    millis = tuple(sorted({spec.request.milli for spec in workload}))
    return _SpecColumns(
        weight=np.array([spec.weight for spec in workload], dtype=np.float64),
        cpu=np.array([spec.cpu_milli for spec in workload], dtype=np.int64),
        # A spec asking no GPU is never usable: its fragment is all the idle milli.
        count=np.array(
            [spec.request.count or np.iinfo(np.int64).max for spec in workload], dtype=np.int64
        ),
        millis=millis,
        milli_group=np.array(
            [millis.index(spec.request.milli) for spec in workload], dtype=np.intp
        ),
        model_rules=tuple(
            (column, sorted(spec.request.models))
            for column, spec in enumerate(workload)
            if spec.request.models
        ),
    )
