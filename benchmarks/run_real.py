"""`kubesched run` and upstream's kube-scheduler side by side on the same real API server.

One etcd and one kube-apiserver on 127.0.0.1 (`kubesched.testing.realserver`,
from the binaries `KUBESCHED_REAL_APISERVER` and `KUBESCHED_REAL_ETCD` name)
serve every run; `KUBESCHED_REAL_SCHEDULER` names upstream's kube-scheduler.
For each shape and each scheduler, in one sitting: the nodes (API objects only,
no kubelets; upstream's SchedulingBasic node: 4 CPUs, 32 GiB, 110 pods) and the
pending pods (SchedulingBasic's pod: 100m CPU, 500 MiB) are created, then the
scheduler starts (as the user system:kube-scheduler unless `--user admin`)
with qps 1,000, burst 2,000 and leader election off, and the clock runs from
its process start until a watch has seen every pod bound. Reported per run: seconds, pods/s, and the
CPU seconds the scheduler process used by then (user + system). Everything is
deleted between runs. With `--repeat N` the schedulers alternate N times per
shape and the report gives each one's medians.

kubesched runs with its bytecode cached, as an installed scheduler does (pip compiles
it at install, `uv sync --compile-bytecode` too): the runs write and read their `.pyc`
files under a folder of the sitting (`PYTHONPYCACHEPREFIX`), filled by one small
unmeasured run first. `--cold` keeps the environment as it is (with
`PYTHONDONTWRITEBYTECODE` set, every start compiles every module from source).

    uv run python benchmarks/run_real.py                 # 500 nodes + 2,000 pods, 1,000 + 5,000
    uv run python benchmarks/run_real.py --quick         # 100 nodes + 300 pods
    uv run python benchmarks/run_real.py --repeat 3      # alternate three times, medians
    uv run python benchmarks/run_real.py --kubesched-src OTHER/core/src
                         # also kubesched with its core from another checkout, in the same sitting

Prints JSON and writes it to benchmarks/results/run_real.json. Without the
binaries it prints why it was skipped and exits 0.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import ssl
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

from kubesched.testing.realserver import (
    ADMIN_TOKEN,
    AdminClient,
    ControlPlane,
    ControlPlaneBinaries,
    free_port,
)

SHAPES = [(500, 2000), (1000, 5000)]
QUICK = [(100, 300)]
QPS, BURST = 1000, 2000
SCHEDULER_NAME = "default-scheduler"
PODS = "/api/v1/namespaces/default/pods"
RESULTS = Path(__file__).parent / "results" / "run_real.json"


def config(kubeconfig: Path) -> str:
    """One KubeSchedulerConfiguration that both schedulers read."""
    return json.dumps(
        {
            "apiVersion": "kubescheduler.config.k8s.io/v1",
            "kind": "KubeSchedulerConfiguration",
            "clientConnection": {"kubeconfig": str(kubeconfig), "qps": QPS, "burst": BURST},
            "leaderElection": {"leaderElect": False},
            "profiles": [{"schedulerName": SCHEDULER_NAME}],
        }
    )


def node(i: int) -> dict[str, Any]:
    capacity = {"cpu": "4", "memory": "32Gi", "pods": "110"}
    return {
        "apiVersion": "v1",
        "kind": "Node",
        "metadata": {"name": f"scheduler-perf-{i}"},
        "status": {"capacity": capacity, "allocatable": capacity},
    }


def pod(i: int) -> dict[str, Any]:
    resources = {"cpu": "100m", "memory": "500Mi"}
    container = {
        "name": "pause",
        "image": "registry.k8s.io/pause:3.10.1",
        "resources": {"requests": resources, "limits": resources},
        "ports": [{"containerPort": 80}],
    }
    return {
        "apiVersion": "v1",
        "kind": "Pod",
        "metadata": {"name": f"pod-{i}", "namespace": "default"},
        "spec": {"schedulerName": SCHEDULER_NAME, "containers": [container]},
    }


def create_all(plane: ControlPlane, path: str, objects: list[dict[str, Any]]) -> None:
    clients = [plane.admin() for _ in range(8)]
    try:
        with ThreadPoolExecutor(len(clients)) as pool:
            list(
                pool.map(
                    lambda io: clients[io[0] % len(clients)].request("POST", path, io[1]),
                    enumerate(objects),
                )
            )
    finally:
        for client in clients:
            client.close()


def clean(admin: AdminClient) -> None:
    """Delete every pod and node; a deletion of thousands may outlast the client's timeout
    (the server goes on with it), so what counts is the wait for both lists to be empty."""
    for path, params in ((PODS, {"gracePeriodSeconds": "0"}), ("/api/v1/nodes", {})):
        try:
            admin.request("DELETE", path, **params)
        except Exception as exc:  # the transport's timeout (httpx), whatever its type
            print(f"deleting {path}: {exc!r}; waiting for it", file=sys.stderr)
    admin.wait_for(lambda: not admin.items(PODS) and not admin.items("/api/v1/nodes"), 600, 1.0)


class BindWatch:
    """Counts the pods a watch sees bound; `done` is set when every one is."""

    def __init__(self, plane: ControlPlane, since: str, expected: int) -> None:
        self.plane, self.since, self.expected = plane, since, expected
        self.bound: set[str] = set()
        self.done = threading.Event()
        self.finished_at = 0.0
        self._thread = threading.Thread(target=self._run, daemon=True)
        self._thread.start()

    def _run(self) -> None:
        import httpx

        headers = {"Authorization": f"Bearer {ADMIN_TOKEN}"}
        version = self.since
        with httpx.Client(
            verify=ssl.create_default_context(cafile=str(self.plane.ca)),
            headers=headers,
            timeout=None,
        ) as http:
            while not self.done.is_set():
                params = {"watch": "true", "resourceVersion": version, "timeoutSeconds": "600"}
                with http.stream("GET", f"{self.plane.url}{PODS}", params=params) as response:
                    for line in response.iter_lines():
                        if not line.strip():
                            continue
                        event = json.loads(line)
                        obj = event.get("object") or {}
                        version = (obj.get("metadata") or {}).get("resourceVersion") or version
                        if (obj.get("spec") or {}).get("nodeName"):
                            self.bound.add(obj["metadata"]["name"])
                            if len(self.bound) >= self.expected:
                                self.finished_at = time.monotonic()
                                self.done.set()
                                return


def cpu_seconds(pid: int) -> float:
    """User + system CPU seconds of a running process (and its waited-for children)."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    ticks = os.sysconf("SC_CLK_TCK")
    used = int(fields[11]) + int(fields[12]) + int(fields[13]) + int(fields[14])
    return used / ticks


def command(which: str, binaries: ControlPlaneBinaries, cfg: Path) -> list[str]:
    if which == "kube-scheduler":
        return [
            binaries.scheduler,
            f"--config={cfg}",
            "--bind-address=127.0.0.1",
            f"--secure-port={free_port()}",
            "--v=0",
        ]
    kubesched = str(Path(sys.executable).with_name("kubesched"))
    return [kubesched, "run", "--config", str(cfg), "--bind-address", "127.0.0.1", "--port", "0"]


def measure(
    plane: ControlPlane,
    binaries: ControlPlaneBinaries,
    which: str,
    nodes: int,
    pods: int,
    workdir: Path,
    timeout: float,
    kubesched_src: Path | None = None,
    user: str = "scheduler",
    pycache: Path | None = None,
) -> dict[str, Any]:
    admin = plane.admin()
    try:
        clean(admin)
        create_all(plane, "/api/v1/nodes", [node(i) for i in range(nodes)])
        create_all(plane, PODS, [pod(i) for i in range(pods)])
        since = admin.request("GET", PODS, limit="1")["metadata"]["resourceVersion"]
        cfg = workdir / "scheduler-config.yaml"
        cfg.write_text(config(plane.kubeconfig(user)))
        watch = BindWatch(plane, since, pods)
        tag = f"{which}-{len(str(kubesched_src or ''))}"
        log = (workdir / f"{tag}-{nodes}-{pods}.log").open("wb")
        env = dict(os.environ)
        if which == "kubesched" and kubesched_src is not None:
            env["PYTHONPATH"] = str(kubesched_src)
        if which == "kubesched" and pycache is not None:
            env.pop("PYTHONDONTWRITEBYTECODE", None)
            env["PYTHONPYCACHEPREFIX"] = str(pycache)
        started = time.monotonic()
        process = subprocess.Popen(
            command(which, binaries, cfg), stdout=log, stderr=subprocess.STDOUT, env=env
        )
        try:
            finished = watch.done.wait(timeout)
            elapsed = (watch.finished_at if finished else time.monotonic()) - started
            cpu = cpu_seconds(process.pid)
        finally:
            process.terminate()
            try:
                process.wait(30)
            except subprocess.TimeoutExpired:
                process.kill()
                process.wait()
            log.close()
        return {
            "scheduler": which,
            "kubeschedSrc": str(kubesched_src or "") if which == "kubesched" else "",
            "nodes": nodes,
            "pods": pods,
            "bound": len(watch.bound),
            "finished": finished,
            "seconds": round(elapsed, 2),
            "podsPerSecond": round(len(watch.bound) / elapsed, 1),
            "cpuSeconds": round(cpu, 2),
        }
    finally:
        admin.close()


def load_average() -> list[float]:
    return [round(x, 2) for x in os.getloadavg()]


def medians(runs: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Per shape and scheduler (and kubesched source): the medians of its runs."""
    groups: dict[tuple[Any, ...], list[dict[str, Any]]] = {}
    for run in runs:
        key = (run["nodes"], run["pods"], run["scheduler"], run["kubeschedSrc"])
        groups.setdefault(key, []).append(run)
    return [
        {
            "nodes": nodes,
            "pods": pods,
            "scheduler": which,
            "kubeschedSrc": src,
            "runs": len(group),
            "seconds": round(statistics.median(r["seconds"] for r in group), 2),
            "podsPerSecond": round(statistics.median(r["podsPerSecond"] for r in group), 1),
            "cpuSeconds": round(statistics.median(r["cpuSeconds"] for r in group), 2),
            "allFinished": all(r["finished"] for r in group),
        }
        for (nodes, pods, which, src), group in groups.items()
    ]


def main(argv: list[str] | None = None) -> dict[str, Any]:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="100 nodes and 300 pods only")
    parser.add_argument(
        "--only",
        choices=["kube-scheduler", "kubesched"],
        help="Measure one scheduler only (both by default; kube-scheduler needs its binary).",
    )
    parser.add_argument("--timeout", type=float, default=600.0, help="Seconds a run may take.")
    parser.add_argument("--output", type=Path, default=RESULTS)
    parser.add_argument(
        "--kubesched-src",
        type=Path,
        action="append",
        default=[],
        help="Also measure kubesched with its core imported from this source folder (another "
        "checkout's core/src; repeatable); the installed plugins are used as they are.",
    )
    parser.add_argument("--label", default="", help="A label for this sitting, in the JSON.")
    parser.add_argument(
        "--repeat", type=int, default=1, help="Runs per shape and scheduler, alternating."
    )
    parser.add_argument(
        "--cold",
        action="store_true",
        help="Run kubesched in the environment as it is (no bytecode cache of the sitting).",
    )
    parser.add_argument(
        "--user",
        choices=["scheduler", "admin"],
        default="scheduler",
        help="Who both schedulers are: system:kube-scheduler with upstream's roles (default), "
        "or an admin (system:masters: every request allowed, exempt from API priority and "
        "fairness; a kubesched older than its least-privilege support needs it).",
    )
    args = parser.parse_args(argv)
    binaries = ControlPlaneBinaries.from_environment()
    if isinstance(binaries, str):
        report: dict[str, Any] = {"benchmark": "run_real", "skipped": binaries}
        print(json.dumps(report, indent=2))
        return report
    schedulers: list[tuple[str, Path | None]] = []
    if args.only != "kubesched":
        if binaries.scheduler:
            schedulers.append(("kube-scheduler", None))
        else:
            print("no KUBESCHED_REAL_SCHEDULER: kubesched only", file=sys.stderr)
    if args.only != "kube-scheduler":
        schedulers += [("kubesched", None)] + [("kubesched", src) for src in args.kubesched_src]
    runs = []
    with tempfile.TemporaryDirectory(prefix="kubesched-real-") as tmp:
        workdir = Path(tmp)
        pycache = None if args.cold else workdir / "pycache"
        with ControlPlane(binaries, workdir / "control-plane") as plane:
            if pycache is not None:  # fill the bytecode cache: a small run, not measured
                for which, src in schedulers:
                    if which == "kubesched":
                        measure(
                            plane, binaries, which, 10, 20, workdir, 300, src, args.user, pycache
                        )
            for nodes, pods in QUICK if args.quick else SHAPES:
                for _ in range(max(1, args.repeat)):
                    for which, src in schedulers:
                        before = load_average()
                        run = measure(
                            plane,
                            binaries,
                            which,
                            nodes,
                            pods,
                            workdir,
                            args.timeout,
                            src,
                            args.user,
                            pycache,
                        )
                        run["loadAverage"] = {"before": before, "after": load_average()}
                        print(json.dumps(run), file=sys.stderr)
                        runs.append(run)
    report = {
        "benchmark": "run_real",
        "label": args.label,
        "user": args.user,
        "qps": QPS,
        "burst": BURST,
        "bytecodeCached": not args.cold,
        "machine": {"cpus": os.cpu_count(), "python": platform.python_version()},
        "runs": runs,
        "medians": medians(runs),
    }
    args.output.parent.mkdir(parents=True, exist_ok=True)
    args.output.write_text(json.dumps(report, indent=2) + "\n")
    print(json.dumps(report, indent=2))
    return report


if __name__ == "__main__":
    main()
