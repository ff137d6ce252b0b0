"""`kubesched run` on the wire: how long the first listing takes, and how fast pods are bound,
against the fake API server on 127.0.0.1, run in a process of its own as a real
API server would be (every request a real HTTP round trip).

Nodes and pods from upstream's SchedulingBasic templates; the nodes and the
already running pods are listed at start (sync), then the pending pods are
created at once and bound one by one through pods/binding. Medians of
`--repeat` runs.

    uv run python benchmarks/run_wire.py                  # 500 nodes, 1,000 running, 1,000 pending
    uv run python benchmarks/run_wire.py --quick

Prints JSON and writes it to benchmarks/results/run_wire.json.
"""

from __future__ import annotations

import argparse
import json
import logging
import statistics
import sys
import tempfile
import threading
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).parent))

from _remote_apiserver import RemoteApiServer

from kubesched.api import unstructure
from kubesched.cli.serve import ServeOptions, Server
from kubesched.framework import default_registry
from kubesched.profile import parse_profiles
from kubesched.testing import make_node, make_pod

CONFIG = """
apiVersion: kubescheduler.config.k8s.io/v1
kind: KubeSchedulerConfiguration
leaderElection: {leaderElect: false}
clientConnection: {qps: 0}
profiles: [{schedulerName: bench}]
"""


def once(nodes: int, running: int, pending: int) -> dict[str, float]:
    api = RemoteApiServer()
    pods = "/api/v1/namespaces/default/pods"
    try:
        for i in range(nodes):
            node = make_node(f"n{i}").capacity(cpu="4", memory="32Gi", pods="110").obj()
            api.call("POST", "/api/v1/nodes", unstructure(node))
        for i in range(running):
            pod = make_pod(f"r{i}").node(f"n{i % nodes}").req(cpu="100m", memory="500Mi")
            api.call("POST", pods, unstructure(pod.obj()))
        registry = default_registry()
        cfg, profiles = parse_profiles(CONFIG, registry)
        with tempfile.TemporaryDirectory() as tmp:
            options = ServeOptions(
                kubeconfig=str(api.kubeconfig(Path(tmp) / "kubeconfig")),
                bind_address="127.0.0.1",
                port=0,
                cycle_timeout=None,
            )
            server = Server(cfg, profiles, registry, options)
            start = time.perf_counter()
            thread = threading.Thread(target=server.run, daemon=True)
            thread.start()
            server.scheduling.wait(120)
            synced = time.perf_counter() - start
            start = time.perf_counter()
            for i in range(pending):
                pod = make_pod(f"p{i}").scheduler_name("bench").req(cpu="100m", memory="500Mi")
                api.call("POST", pods, unstructure(pod.obj()))
            while api.call("GET", "/api/v1/pods?fieldSelector=spec.nodeName%3D")["items"]:
                time.sleep(0.1)
            elapsed = time.perf_counter() - start
            server.stop()
            thread.join(30)
    finally:
        api.close()
    return {"sync_seconds": synced, "bind_seconds": elapsed, "pods_per_second": pending / elapsed}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--quick", action="store_true")
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()
    logging.basicConfig(level=logging.WARNING)
    nodes, running, pending = (50, 100, 100) if args.quick else (500, 1000, 1000)
    runs = [once(nodes, running, pending) for _ in range(args.repeat)]
    result: dict[str, Any] = {
        "workload": {"nodes": nodes, "running_pods": running, "pending_pods": pending},
        "repeat": args.repeat,
        **{key: statistics.median(r[key] for r in runs) for key in runs[0]},
    }
    print(json.dumps(result, indent=2))
    out = Path(__file__).parent / "results"
    out.mkdir(exist_ok=True)
    (out / "run_wire.json").write_text(json.dumps(result, indent=2) + "\n")


if __name__ == "__main__":
    main()
