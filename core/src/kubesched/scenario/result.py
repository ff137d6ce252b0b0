"""A replay's result: totals, the sampled series, the per-pod log, the observers' summaries;
as a versioned JSON document (`ReplayResult`) and as tables (CSV)."""

from __future__ import annotations

import csv
import io
import os
import tempfile
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from attrs import frozen

from kubesched.scenario.observers import Summary
from kubesched.scenario.options import ReplayOptions
from kubesched.scenario.podlog import POD_STATES, PodRecord
from kubesched.scenario.series import Counters, Sample

RESULT_API_VERSION = "kubesched.io/v1alpha1"
RESULT_KIND = "ReplayResult"
Row = dict[str, float | int | str | None]


@frozen
class RunTotals:
    """The run as a whole. `wall_seconds` and `cpu_seconds` are measurements, left out of
    the document (which a seed makes identical on every run)."""

    events: int
    simulated_seconds: float
    counters: Counters
    latency_p50: float | None
    latency_p90: float | None
    latency_p99: float | None
    wall_seconds: float = 0.0
    cpu_seconds: float = 0.0


@frozen
class ReplayResult:
    """What one replay of a scenario did."""

    scenario: str
    seed: int
    options: ReplayOptions
    totals: RunTotals
    series: Sequence[Sample]
    pods: Sequence[PodRecord]
    observers: Mapping[str, Summary]

    def states(self) -> dict[str, int]:
        """How many pods of the log ended in each state."""
        counts = dict.fromkeys(POD_STATES, 0)
        for record in self.pods:
            counts[record.state] += 1
        return counts

    def series_rows(self) -> list[Row]:
        """The series as table rows (columns: the union over samples, missing ones 0)."""
        rows = [sample.row() for sample in self.series]
        return _filled(rows)

    def pod_rows(self) -> list[Row]:
        """The per-pod log as table rows, in creation order."""
        return [record.row() for record in self.pods]

    def to_document(self) -> dict[str, Any]:
        """The result as a JSON-ready document (`apiVersion`, `kind: ReplayResult`)."""
        totals = self.totals
        counters = totals.counters
        return {
            "apiVersion": RESULT_API_VERSION,
            "kind": RESULT_KIND,
            "scenario": self.scenario,
            "seed": self.seed,
            "ties": self.options.ties,
            "dropUnschedulable": self.options.drop_unschedulable,
            "sampleInterval": self.options.sample_interval,
            "bindLatency": self.options.bind_latency,
            "summary": {
                "events": totals.events,
                "simulatedSeconds": totals.simulated_seconds,
                "created": counters.created,
                "bound": counters.bound,
                "finished": counters.finished,
                "deleted": counters.deleted,
                "attempts": counters.attempts,
                "preemptions": counters.preemptions,
                "evictions": counters.evictions,
                "dropped": counters.dropped,
                "latencyP50": totals.latency_p50,
                "latencyP90": totals.latency_p90,
                "latencyP99": totals.latency_p99,
                "states": self.states() if self.pods else {},
            },
            "observers": {name: dict(summary) for name, summary in self.observers.items()},
            "series": self.series_rows(),
            "pods": self.pod_rows(),
        }


def _filled(rows: list[Row]) -> list[Row]:
    columns: dict[str, None] = {}
    for row in rows:
        columns.update(dict.fromkeys(row))
    return [{c: row.get(c, 0) for c in columns} for row in rows]


def csv_text(rows: Sequence[Mapping[str, Any]]) -> str:
    """Rows as CSV (header first; None as an empty cell)."""
    out = io.StringIO()
    if rows:
        writer = csv.DictWriter(out, fieldnames=list(rows[0]), lineterminator="\n")
        writer.writeheader()
        writer.writerows({k: "" if v is None else v for k, v in row.items()} for row in rows)
    return out.getvalue()


def _file_mode(path: Path) -> int:
    """The mode `path` has, or a new file's (0666 less the umask)."""
    try:
        return path.stat().st_mode & 0o777
    except FileNotFoundError:
        umask = os.umask(0)
        os.umask(umask)
        return 0o666 & ~umask


def write_atomically(path: Path, data: bytes) -> None:
    """Write `data` to `path` whole or not at all (a temporary file renamed over it)."""
    directory = path.parent if str(path.parent) else Path(".")
    fd, tmp = tempfile.mkstemp(dir=directory, prefix=f".{path.name}.", suffix=".tmp")
    try:
        with os.fdopen(fd, "wb") as handle:
            handle.write(data)
        os.chmod(tmp, _file_mode(path))
        os.replace(tmp, path)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise


TABLE_SUFFIXES = (".csv", ".parquet")
"""The table formats `write_table` writes, by file suffix."""


def parquet_bytes(rows: Sequence[Mapping[str, Any]]) -> bytes:
    """Rows as a Parquet file (pyarrow, the `kubesched-core[parquet]` extra)."""
    import pyarrow as pa
    import pyarrow.parquet as pq

    sink = io.BytesIO()
    pq.write_table(pa.Table.from_pylist([dict(row) for row in rows]), sink)
    return sink.getvalue()


def write_table(rows: Sequence[Mapping[str, Any]], path: Path) -> None:
    """Rows to `path`, as CSV (`.csv`) or Parquet (`.parquet`), whole or not at all;
    ValueError for another suffix."""
    if path.suffix == ".csv":
        write_atomically(path, csv_text(rows).encode())
    elif path.suffix == ".parquet":
        write_atomically(path, parquet_bytes(rows))
    else:
        raise ValueError(f"{path}: a table is written as {' or '.join(TABLE_SUFFIXES)}")
