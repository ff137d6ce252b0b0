"""Large clusters: SchedulingBasic's shape at 500 / 5,000 / 15,000 nodes and 10,000 /
50,000 pods, in process and through `kubesched simulate` end to end.

In process: upstream scheduler_perf's node and pod templates (from
scheduling_basic.py), 1,000 init pods scheduled unmeasured, then the measured
pods, default profile; pods/s divides the pods actually scheduled by the time.
End to end: the same cluster as one `kind: List` JSON manifest (from
simulate_cli.py; its 1,000 running pods already bound), and the real command
run twice, with and without the pending pods, pods/s being the pods scheduled
over the difference, as simulate_cli.py does (and over the difference in the
command's CPU time: `pods_per_cpu_second`). `load_seconds` is reading that
manifest with `load_manifests`. Every run is its own process, so
`peak_rss_mib` is that run's peak memory (the CLI's: the whole command's).

500 nodes hold 20,000 of these pods (cpu 4 / 100m each), so 500 x 50,000 is
left out: most of it would be unschedulable, not measured throughput.

    uv run python benchmarks/scale.py                      # all shapes, both ways (long)
    uv run python benchmarks/scale.py --only 15000Nodes --mode inprocess --repeat 1
    uv run python benchmarks/scale.py --quick              # small enough for CI

Prints JSON and writes it to benchmarks/results/scale.json.
"""

from __future__ import annotations

import argparse
import json
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import simulate_cli
from _isolated import isolated
from _measure import measure, median_of, write_report
from attrs import frozen
from scheduling_basic import make_node, make_pod

from kubesched.api._manifests import load_manifests

RESULTS = Path(__file__).parent / "results" / "scale.json"
INIT_PODS = 1000


@frozen
class Shape:
    nodes: int
    pods: int

    @property
    def name(self) -> str:
        return f"{self.nodes}Nodes_{self.pods}Pods"


FULL = [Shape(500, 10000)] + [Shape(n, p) for n in (5000, 15000) for p in (10000, 50000)]
QUICK = [Shape(200, 1000)]

CHILD = (
    "import resource, sys\n"
    "from kubesched.cli import main\n"
    "try:\n"
    "    code = main()\n"
    "finally:\n"
    "    sys.stdout.flush()\n"
    "    use = resource.getrusage(resource.RUSAGE_SELF)\n"
    "    print('usage', use.ru_maxrss, use.ru_utime + use.ru_stime, file=sys.stderr)\n"
    "sys.exit(code)\n"
)
"""`kubesched` that reports its own peak memory (KiB) and CPU seconds last on stderr."""


def selected(shapes: list[Shape], only: str) -> list[Shape]:
    """The shapes whose name starts with `only` (not "contains": 5000Nodes is in 15000Nodes)."""
    return [shape for shape in shapes if shape.name.startswith(only)]


def in_process(shape: Shape) -> dict[str, Any]:
    return measure(
        f"InProcess/{shape.name}",
        [make_node(i) for i in range(shape.nodes)],
        [make_pod("init", i) for i in range(INIT_PODS)],
        lambda: (make_pod("pod", i) for i in range(shape.pods)),
    )


def simulate(path: Path) -> tuple[float, float, int, float]:
    """Wall and CPU time of `kubesched simulate PATH -o json`, the pods it scheduled, its
    peak RSS (MiB)."""
    start = time.perf_counter()
    done = subprocess.run(
        [sys.executable, "-c", CHILD, "simulate", str(path), "-o", "json"],
        capture_output=True,
        text=True,
        check=True,
    )
    seconds = time.perf_counter() - start
    _, peak, cpu = done.stderr.strip().splitlines()[-1].split()
    scheduled = json.loads(done.stdout)["summary"]["scheduled"]
    return seconds, float(cpu), scheduled, round(int(peak) / 1024, 1)


def load(path: Path) -> dict[str, Any]:
    start, cpu_start = time.perf_counter(), time.process_time()
    objects = load_manifests(path)
    return {
        "seconds": time.perf_counter() - start,
        "cpu_seconds": time.process_time() - cpu_start,
        "pods": len(objects.pods),
    }


def end_to_end(shape: Shape, repeat: int, folder: Path) -> dict[str, Any]:
    workload = simulate_cli.Workload(f"CLI/{shape.name}", shape.nodes, INIT_PODS, shape.pods)
    with_pods, without = folder / "with.json", folder / "without.json"
    with_pods.write_text(json.dumps(simulate_cli.manifest(workload, pending=True)))
    without.write_text(json.dumps(simulate_cli.manifest(workload, pending=False)))
    runs = []
    for _ in range(max(repeat, 1)):
        loaded = isolated(load, with_pods)
        seconds, cpu, scheduled, peak = simulate(with_pods)
        baseline, baseline_cpu, _, _ = simulate(without)
        rate = scheduled / max(seconds - baseline, 1e-9)
        cpu_rate = scheduled / max(cpu - baseline_cpu, 1e-9)
        runs.append((rate, seconds, baseline, scheduled, peak, loaded, cpu_rate))
    runs.sort(key=lambda r: r[0])
    rate, seconds, baseline, scheduled, peak, loaded, _ = runs[len(runs) // 2]
    return {
        "name": workload.name,
        "nodes": shape.nodes,
        "running_pods": INIT_PODS,
        "pending_pods": shape.pods,
        "scheduled": scheduled,
        "manifest_bytes": with_pods.stat().st_size,
        "load_seconds": round(statistics.median(r[5]["seconds"] for r in runs), 3),
        "load_cpu_seconds": round(statistics.median(r[5]["cpu_seconds"] for r in runs), 3),
        "load_peak_rss_mib": loaded["peak_rss_mib"],
        "command_seconds": round(seconds, 3),
        "baseline_seconds": round(baseline, 3),
        "pods_per_second": round(rate, 1),
        "pods_per_cpu_second": round(statistics.median(r[6] for r in runs), 1),
        "peak_rss_mib": peak,
        "runs_pods_per_second": [round(r[0], 1) for r in runs],
    }


def main(argv: list[str] | None = None) -> dict[str, Any]:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="a small shape, for CI")
    parser.add_argument("--only", default="", help="run the shapes whose name starts so")
    parser.add_argument(
        "--mode", choices=("both", "inprocess", "cli"), default="both", help="which way to run"
    )
    parser.add_argument("--repeat", type=int, default=3, help="runs per shape (median)")
    parser.add_argument("--output", type=Path, default=RESULTS, help="where to write the JSON")
    args = parser.parse_args(argv)
    shapes = selected(QUICK if args.quick else FULL, args.only)
    inprocess: list[dict[str, Any]] = []
    cli: list[dict[str, Any]] = []
    report: dict[str, Any] = {}
    for shape in shapes:  # the report is rewritten after every shape, so a long run keeps some
        if args.mode in ("both", "inprocess"):
            inprocess.append(median_of(lambda s=shape: isolated(in_process, s), args.repeat))
        if args.mode in ("both", "cli"):
            with tempfile.TemporaryDirectory() as tmp:
                cli.append(end_to_end(shape, args.repeat, Path(tmp)))
        report = write_report(
            "scale",
            args.output,
            repeat=args.repeat,
            init_pods=INIT_PODS,
            in_process=inprocess,
            cli=cli,
        )
    return report


if __name__ == "__main__":
    main(sys.argv[1:])
