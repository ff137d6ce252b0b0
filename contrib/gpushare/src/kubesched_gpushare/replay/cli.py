"""`kubesched-openb`: the FGD study's experiment on the OpenB trace, policies x seeds.

    kubesched-openb DATA_DIR [--pods default] [--policies fgd,bestfit] [--seeds 42,43]
                    [--tune 1.3] [--ties first|random] [--until PCT] [--json OUT]
                    [--csv OUT] [--plot OUT.png] [--per-gpu OUT]
    kubesched-openb --from RUNS.json [--from MORE.json ...] [--json OUT] [--csv OUT]
                    [--plot OUT.png]

Prints a table of unallocated GPU % at arrived = 100% (mean, min, max over
seeds) and pods/s per policy; `--json` writes every run's binned series.
The trace is read from DATA_DIR; nothing of it is copied. `--from` runs
nothing: it merges the runs of earlier `--json` documents (one tie rule, one
trace) and prints, writes and plots them as if they had been run together.
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
from pathlib import Path
from typing import Any

from kubesched.framework import default_registry
from kubesched.replay import TIE_RULES, TIES_FIRST
from kubesched_gpushare.floats import mean_in_order
from kubesched_gpushare.frag import target_workload
from kubesched_gpushare.replay.output import per_gpu, plot, table, write_csv
from kubesched_gpushare.replay.profiles import DISTRIBUTIONS, POLICIES, policy_names, score_plugins
from kubesched_gpushare.replay.run import ReplayResult, replay
from kubesched_gpushare.replay.series import frag_amount, frag_ratio, unallocated
from kubesched_gpushare.replay.trace import TraceError, read_nodes, read_pods
from kubesched_gpushare.replay.workload import arrivals, inflate
from kubesched_gpushare.resources import MILLI, node_gpu_count

API_VERSION = "kubesched.io/openb-replay/v1"


def _parser(prog: str = "kubesched-openb") -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(prog=prog, description=__doc__.split("\n")[0])
    p.add_argument("data", type=Path, nargs="?", help="folder with the OpenB CSVs")
    p.add_argument(
        "--from",
        dest="merge",
        type=Path,
        action="append",
        default=[],
        help="merge the runs of this --json document instead of running (repeatable)",
    )
    p.add_argument("--pods", default="default", help="pod list: openb_pod_list_<PODS>.csv")
    p.add_argument("--nodes", default="gpu_node", help="node list: openb_node_list_<NODES>.csv")
    p.add_argument("--policies", default=",".join(POLICIES), help="comma-separated")
    p.add_argument("--seeds", default="42", help="comma-separated seeds")
    p.add_argument("--tune", type=float, default=1.3, help="inflate to this share of capacity")
    p.add_argument(
        "--ties",
        choices=sorted(TIE_RULES),
        default=TIES_FIRST,
        help="tied best nodes: the first in a seeded node order (the study's) or a random one",
    )
    p.add_argument(
        "--until",
        type=int,
        help="stop each run once the arrived workload passes this %% of capacity (+2); "
        "the series stop there",
    )
    p.add_argument("--json", type=Path, help="write every run's series here")
    p.add_argument("--csv", type=Path, help="write unallocated GPU %% per bin here")
    p.add_argument("--plot", type=Path, help="plot unallocated GPU %% (needs matplotlib)")
    p.add_argument("--per-gpu", type=Path, help="write each node's used milli per GPU here")
    return p


def check_policies(policies: list[str]) -> None:
    """SystemExit naming the first policy that is unknown or whose plugin is not installed."""
    registry = default_registry()
    for policy in policies:
        if policy not in policy_names():
            raise SystemExit(f"unknown policy {policy!r}; known: {', '.join(policy_names())}")
        for plugin, _ in score_plugins(policy):
            if plugin not in registry:
                raise SystemExit(
                    f"policy {policy} needs the {plugin} plugin: install {DISTRIBUTIONS[plugin]}"
                )


def run_all(args: argparse.Namespace) -> dict[str, Any]:
    """Every policy x seed; the document `--json` writes."""
    nodes = read_nodes(args.data / f"openb_node_list_{args.nodes}.csv")
    pods = read_pods(args.data / f"openb_pod_list_{args.pods}.csv")
    capacity = sum(node_gpu_count(n) for n in nodes) * MILLI
    workload = target_workload([p.spec() for p in pods])
    top = round(100 * args.tune) if args.until is None else min(args.until, round(100 * args.tune))
    runs: list[dict[str, Any]] = []
    results: list[ReplayResult] = []
    policies = args.policies.split(",")
    check_policies(policies)
    for policy in policies:
        for seed in (int(s) for s in args.seeds.split(",")):
            order = inflate(arrivals(pods, seed), pods, capacity, args.tune, seed)
            result = replay(nodes, order, policy, workload, seed, args.ties, args.until)
            results.append(result)
            series = unallocated(result, top)
            runs.append(
                {
                    "policy": policy,
                    "seed": seed,
                    "ties": args.ties,
                    "pods": len(order),
                    "scheduled": result.scheduled,
                    "failed": result.failed,
                    "seconds": round(result.seconds, 3),
                    "cpuSeconds": round(result.cpu_seconds, 3),
                    "podsPerSecond": round(result.pods_per_second, 1),
                    "unallocatedAt100": series[100] if len(series) > 100 else None,
                    "unallocatedGpuPercent": series,
                    "fragAmountPercent": frag_amount(result, top),
                    "fragRatioPercent": frag_ratio(result, top),
                }
            )
            print(
                f"{policy} seed {seed} (ties {args.ties}): {len(order)} pods, "
                f"{result.failed} failed, "
                f"{result.seconds:.1f}s ({result.cpu_seconds:.1f}s CPU)",
                file=sys.stderr,
            )
    document = {
        "apiVersion": API_VERSION,
        "trace": {
            "nodes": args.nodes,
            "pods": args.pods,
            "nodeCount": len(nodes),
            "gpus": capacity // MILLI,
            "originalPods": len(pods),
        },
        "tune": args.tune,
        "ties": args.ties,
        "typicalPods": len(workload),
        "runs": runs,
        "summary": summary(runs),
    }
    if args.per_gpu:
        args.per_gpu.write_text(json.dumps(per_gpu(results), indent=1))
    return document


def summary(runs: list[dict[str, Any]]) -> dict[str, dict[str, float | None]]:
    """Per policy: unallocated GPU % at arrived = 100% (mean, median, min, max; None when no
    run reached it) and pods/s."""
    out: dict[str, dict[str, float | None]] = {}
    for policy in dict.fromkeys(r["policy"] for r in runs):
        mine = [r for r in runs if r["policy"] == policy]
        at100 = [r["unallocatedAt100"] for r in mine if r["unallocatedAt100"] is not None]
        rates = [r["podsPerSecond"] for r in mine]
        out[policy] = {
            "seeds": len(mine),
            "mean": round(mean_in_order(at100), 2) if at100 else None,
            "median": round(statistics.median(at100), 2) if at100 else None,
            "min": round(min(at100), 2) if at100 else None,
            "max": round(max(at100), 2) if at100 else None,
            "podsPerSecond": round(statistics.median(rates), 1),
        }
    return out


class MergeError(ValueError):
    """Documents that cannot be merged; the message names the file and the field."""


def merged(paths: list[Path]) -> dict[str, Any]:
    """One document holding the runs of the `--json` documents at `paths`, which must share
    their apiVersion, tie rule, trace and tune."""
    first: dict[str, Any] | None = None
    runs: list[dict[str, Any]] = []
    for path in paths:
        try:
            document = json.loads(path.read_text())
        except OSError as error:
            raise MergeError(f"{path}: {error.strerror}") from None
        except ValueError:
            raise MergeError(f"{path}: not a JSON document") from None
        if not isinstance(document, dict) or document.get("apiVersion") != API_VERSION:
            raise MergeError(f"{path}: apiVersion: not {API_VERSION}")
        if first is None:
            first = document
        for key in ("ties", "trace", "tune"):
            if document.get(key) != first.get(key):
                raise MergeError(
                    f"{path}: {key}: {document.get(key)!r} differs from {paths[0]}'s "
                    f"{first.get(key)!r}"
                )
        runs.extend({"ties": document["ties"], **run} for run in document["runs"])
    assert first is not None
    return {**first, "runs": runs, "summary": summary(runs)}


def main(argv: list[str] | None = None, prog: str = "kubesched-openb") -> int:
    parser = _parser(prog)
    args = parser.parse_args(argv)
    if (args.data is None) == (not args.merge):
        parser.error("give DATA_DIR (to run) or --from (to merge runs), one of the two")
    try:
        document = merged(args.merge) if args.merge else run_all(args)
    except (TraceError, MergeError) as error:
        print(f"error: {error}", file=sys.stderr)
        return 2
    ties = document["ties"]
    if args.json:
        args.json.write_text(json.dumps(document, indent=1))
    if args.csv:
        write_csv(args.csv, document["runs"])
    if args.plot:
        plot(args.plot, document["runs"], ties)
    print(table(document["summary"], ties))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
