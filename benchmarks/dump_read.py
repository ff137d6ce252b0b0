"""Reading realistic cluster dumps: how long `load_manifests` takes, and its peak memory.

The dumps are `dump_gen.py`'s (managedFields, status blocks, DaemonSet and
ReplicaSet pods, finished pods, PVCs; one `kind: List`), at 500, 5,000 and
15,000 nodes, in YAML and JSON, written once to a cache folder and reused.
Each read runs in a fresh subprocess, so its peak resident memory is its own:

    read_seconds   wall time of `load_manifests(path)` (what `kubesched simulate` does
                   before the first pod is scheduled)
    read_cpu_seconds  its CPU time, steadier than wall time on a shared machine
    peak_rss_mib   the subprocess's peak resident memory, interpreter included
    objects_per_second  the dump's objects divided by read_seconds

    uv run python benchmarks/dump_read.py                  # 500 and 5,000 nodes
    uv run python benchmarks/dump_read.py --nodes 15000    # the largest
    uv run python benchmarks/dump_read.py --quick          # 100 nodes, for CI

Prints JSON and writes it to benchmarks/results/dump_read.json.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import statistics
import subprocess
import sys
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).parent))

from dump_gen import ensure

RESULTS = Path(__file__).parent / "results" / "dump_read.json"
CACHE = Path(__file__).parent / "results" / "dumps"
_READ = """
import json, resource, sys, time
from kubesched.api._manifests import load_manifests
start, cpu = time.perf_counter(), time.process_time()
objects = load_manifests(sys.argv[1])
seconds, cpu = time.perf_counter() - start, time.process_time() - cpu
kept = len(objects.nodes) + len(objects.pods) + len(objects.persistent_volume_claims)
kept += len(objects.namespaces) + len(objects.workloads)
peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
print(json.dumps({"seconds": seconds, "cpu": cpu, "kept": kept, "peak_kib": peak}))
"""


def _load_average() -> list[float]:
    return [round(value, 2) for value in os.getloadavg()]


def read_once(path: Path) -> dict[str, Any]:
    """One read of `path` in a fresh interpreter."""
    done = subprocess.run(
        [sys.executable, "-c", _READ, str(path)], capture_output=True, text=True, check=True
    )
    result: dict[str, Any] = json.loads(done.stdout.strip().splitlines()[-1])
    return result


def run(nodes: int, form: str, seed: int, repeat: int, cache: Path) -> dict[str, Any]:
    path, objects = ensure(nodes, seed, form, cache)
    load_before = _load_average()
    reads = [read_once(path) for _ in range(max(repeat, 1))]
    seconds = statistics.median(r["seconds"] for r in reads)
    return {
        "name": f"DumpRead/{nodes}Nodes/{form.upper()}",
        "nodes": nodes,
        "format": form,
        "bytes": path.stat().st_size,
        "objects": objects,
        "objects_kept": reads[0]["kept"],
        "read_seconds": round(seconds, 2),
        "runs_seconds": [round(r["seconds"], 2) for r in reads],
        "read_cpu_seconds": round(statistics.median(r["cpu"] for r in reads), 2),
        "peak_rss_mib": round(max(r["peak_kib"] for r in reads) / 1024),
        "objects_per_second": round(objects / seconds),
        "load_average_before": load_before,
        "load_average_after": _load_average(),
    }


def main(argv: list[str] | None = None) -> dict[str, Any]:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="100 nodes only, for CI")
    parser.add_argument("--nodes", type=int, action="append", help="dump size (repeatable)")
    parser.add_argument("--format", choices=["yaml", "json"], action="append")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--repeat", type=int, default=1, help="reads per dump (median)")
    parser.add_argument("--cache", type=Path, default=CACHE, help="where dumps are kept")
    parser.add_argument("--output", type=Path, default=RESULTS, help="where to write the JSON")
    args = parser.parse_args(argv)
    sizes = args.nodes or ([100] if args.quick else [500, 5000])
    forms = args.format or ["yaml", "json"]
    results = [run(n, form, args.seed, args.repeat, args.cache) for n in sizes for form in forms]
    report = {
        "benchmark": "dump_read",
        "python": platform.python_version(),
        "machine": platform.machine(),
        "cpus": os.cpu_count(),
        "seed": args.seed,
        "workloads": results,
    }
    text = json.dumps(report, indent=2)
    args.output.parent.mkdir(parents=True, exist_ok=True)
    args.output.write_text(text + "\n")
    print(text)
    return report


if __name__ == "__main__":
    main(sys.argv[1:])
