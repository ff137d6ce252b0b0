"""The OpenB CSVs as kubesched objects.

Node list `sn,cpu_milli,memory_mib,gpu,model`: one Node each, allocatable cpu,
memory, 1001 pods (never binding), `alibabacloud.com/gpu-count` and
`-gpu-milli`, the model as label `alibabacloud.com/gpu-card-model`. Pod list
`name,cpu_milli,memory_mib,num_gpu,gpu_milli[,gpu_spec,...]`: one pending Pod
each, cpu/memory requests equal to limits, the GPU demand in annotations; qos and
phase are not used, and the timestamps only by the `openb` scenario format
(`read_times`).
"""

from __future__ import annotations

import csv
from pathlib import Path

from attrs import frozen

from kubesched.api import (
    CPU,
    MEMORY,
    PODS,
    Container,
    Node,
    NodeStatus,
    ObjectMeta,
    Pod,
    PodSpec,
    ResourceRequirements,
)
from kubesched_gpushare.resources import GPU_COUNT, GPU_MILLI, GPU_MODEL, MILLI, GpuRequest

MIB = 1 << 20
NODE_COLUMNS = ("sn", "cpu_milli", "memory_mib", "gpu", "model")
POD_COLUMNS = ("name", "cpu_milli", "memory_mib", "num_gpu", "gpu_milli")


class TraceError(ValueError):
    """A trace file that cannot be read; the message names the file, row and column."""


@frozen
class TracePod:
    """One pod row: its name, CPU milli, memory MiB and GPU request."""

    name: str
    cpu_milli: int
    memory_mib: int
    request: GpuRequest

    def spec(self) -> tuple[int, GpuRequest]:
        """The target-workload spec: CPU milli and GPU request (memory is not part)."""
        return self.cpu_milli, self.request


def _rows(path: Path, columns: tuple[str, ...]) -> list[dict[str, str]]:
    try:
        with path.open(newline="", encoding="utf-8") as handle:
            reader = csv.DictReader(handle)
            missing = [c for c in columns if c not in (reader.fieldnames or ())]
            if missing:
                raise TraceError(f"{path}: missing column(s) {', '.join(missing)}")
            return list(reader)
    except OSError as error:
        raise TraceError(f"{path}: {error.strerror}") from None


def _int(path: Path, line: int, row: dict[str, str], column: str) -> int:
    raw = row.get(column) or "0"
    try:
        return int(raw)
    except ValueError:
        raise TraceError(f"{path}:{line}: column {column}: not an integer: {raw!r}") from None


def read_nodes(path: Path) -> list[Node]:
    """The nodes of a node list; nodes without GPUs are left out, as the study does."""
    nodes = []
    for line, row in enumerate(_rows(path, NODE_COLUMNS), start=2):
        gpus = _int(path, line, row, "gpu")
        if gpus == 0:
            continue
        allocatable = {
            CPU: _int(path, line, row, "cpu_milli"),
            MEMORY: _int(path, line, row, "memory_mib") * MIB,
            PODS: 1001,
            GPU_COUNT: gpus,
            GPU_MILLI: gpus * MILLI,
        }
        meta = ObjectMeta(name=row["sn"], labels={GPU_MODEL: row["model"]})
        nodes.append(Node(metadata=meta, status=NodeStatus(dict(allocatable), allocatable)))
    return nodes


def read_pods(path: Path) -> list[TracePod]:
    """The pod rows of a pod list, milli clamped to [0, 1000]."""
    pods = []
    for line, row in enumerate(_rows(path, POD_COLUMNS), start=2):
        count = _int(path, line, row, "num_gpu")
        milli = max(0, min(MILLI, _int(path, line, row, "gpu_milli")))
        models = frozenset(m for m in (row.get("gpu_spec") or "").split("|") if m)
        request = GpuRequest(count, milli, models) if count and milli else GpuRequest()
        pods.append(
            TracePod(
                row["name"],
                _int(path, line, row, "cpu_milli"),
                _int(path, line, row, "memory_mib"),
                request,
            )
        )
    return pods


TIME_COLUMNS = ("creation_time", "deletion_time")


def read_times(path: Path) -> list[tuple[int, int | None]]:
    """Each pod row's creation and deletion time in seconds from the trace's start (None: the
    pod is never deleted); TraceError when the list has no times (the multigpu lists)."""
    times: list[tuple[int, int | None]] = []
    for line, row in enumerate(_rows(path, TIME_COLUMNS), start=2):
        created = _int(path, line, row, "creation_time")
        deleted = _int(path, line, row, "deletion_time") if row.get("deletion_time") else None
        if deleted is not None and deleted < created:
            raise TraceError(
                f"{path}:{line}: column deletion_time: {deleted} is before creation_time {created}"
            )
        times.append((created, deleted))
    return times


def to_pod(trace_pod: TracePod, uid: str) -> Pod:
    """A pending Pod for the row; `uid` (and name) tell copies apart."""
    request = trace_pod.request
    annotations = {}
    if request.count:
        annotations[GPU_COUNT] = str(request.count)
        annotations[GPU_MILLI] = str(request.milli)
        if request.models:
            annotations[GPU_MODEL] = "|".join(sorted(request.models))
    resources = {CPU: trace_pod.cpu_milli, MEMORY: trace_pod.memory_mib * MIB}
    container = Container(
        name="main",
        resources=ResourceRequirements(requests=dict(resources), limits=dict(resources)),
    )
    meta = ObjectMeta(name=uid, namespace="default", uid=uid, annotations=annotations)
    return Pod(metadata=meta, spec=PodSpec(containers=[container], priority=0))
