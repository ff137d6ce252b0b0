"""Generate the web/batch day: a 300-node cluster and a day of arrivals and departures.

    uv run python examples/scenarios/web-batch-day/generate.py

writes cluster.yaml and scenario.json next to this script (JSON, one event a line:
quicker to read than YAML at this size, and the same format). Everything is drawn from
one seeded generator, so the files are the same on every run.

- 300 nodes in 3 zones: 200 general nodes (8 CPU, 32 GiB) and 100 batch nodes
  (16 CPU, 64 GiB, labelled pool=batch).
- Web: pods of 1 CPU / 2 GiB that follow the day, about 400 at night and 1,400 at
  the afternoon peak, created and deleted every 10 minutes (the newest go first).
- Batch: jobs of 4 CPU / 8 GiB that arrive all day, 2 a minute at night and 1 by
  day, and run for 20 minutes to 2 hours; half of them ask for the batch pool. At
  01:00 a nightly wave of 400 more jobs arrives at once, more than the cluster has
  room for: they wait, and start as earlier jobs finish.
"""

from __future__ import annotations

import json
import math
import random
from pathlib import Path
from typing import Any

import yaml

HERE = Path(__file__).parent
DAY = 24 * 3600
STEP = 600
SEED = 29
WAVE = 400
WAVE_AT = 3600.0


def node(name: str, cpu: int, memory_gi: int, zone: str, pool: str) -> dict[str, Any]:
    labels = {"topology.kubernetes.io/zone": zone, "pool": pool, "kubernetes.io/hostname": name}
    allocatable = {"cpu": str(cpu), "memory": f"{memory_gi}Gi", "pods": "110"}
    return {
        "apiVersion": "v1",
        "kind": "Node",
        "metadata": {"name": name, "labels": labels},
        "status": {"capacity": allocatable, "allocatable": allocatable},
    }


def pod(name: str, app: str, cpu: str, memory: str, pool: str | None = None) -> dict[str, Any]:
    requests = {"cpu": cpu, "memory": memory}
    spec: dict[str, Any] = {
        "containers": [{"name": app, "image": f"{app}:1", "resources": {"requests": requests}}]
    }
    if pool is not None:
        spec["nodeSelector"] = {"pool": pool}
    return {"metadata": {"name": name, "labels": {"app": app}}, "spec": spec}


def web_replicas(t: float) -> int:
    """The web tier's size at `t`: low at night, peaking mid-afternoon."""
    hour = t / 3600
    return round(900 - 500 * math.cos(2 * math.pi * (hour - 3) / 24))


def batch_rate(t: float) -> float:
    """Batch jobs per second at `t`: 2 a minute at night, 1 a minute by day."""
    hour = t / 3600
    return (2.0 if hour < 7 or hour >= 20 else 1.0) / 60


def events(rng: random.Random) -> list[dict[str, Any]]:
    out: list[tuple[float, int, dict[str, Any]]] = []
    order = 0
    web: list[str] = []
    made = 0
    for step in range(DAY // STEP):
        t = float(step * STEP)
        target = web_replicas(t)
        while len(web) < target:
            name = f"web-{made}"
            made += 1
            web.append(name)
            event = {"at": t, "kind": "PodCreated", "pod": pod(name, "web", "1", "2Gi")}
            out.append((t, order, event))
            order += 1
        while len(web) > target:
            out.append((t, order, {"at": t, "kind": "PodDeleted", "pod": web.pop()}))
            order += 1
    t, job = 0.0, 0
    while True:
        t += rng.expovariate(batch_rate(t))
        if t >= DAY:
            break
        pool = "batch" if rng.random() < 0.5 else None
        duration = round(rng.uniform(1200, 7200))
        created = pod(f"job-{job}", "batch", "4", "8Gi", pool)
        at = round(t, 1)
        out.append(
            (at, order, {"at": at, "kind": "PodCreated", "pod": created, "duration": duration})
        )
        order += 1
        job += 1
    for wave in range(WAVE):
        pool = "batch" if wave % 2 else None
        created = pod(f"wave-{wave}", "batch", "4", "8Gi", pool)
        duration = round(rng.uniform(1200, 7200))
        event = {"at": WAVE_AT, "kind": "PodCreated", "pod": created, "duration": duration}
        out.append((WAVE_AT, order, event))
        order += 1
    out.sort(key=lambda item: (item[0], item[1]))
    return [event for _, _, event in out]


def main() -> None:
    rng = random.Random(SEED)
    zones = ["zone-a", "zone-b", "zone-c"]
    nodes = [node(f"general-{i:03d}", 8, 32, zones[i % 3], "general") for i in range(200)]
    nodes += [node(f"batch-{i:03d}", 16, 64, zones[i % 3], "batch") for i in range(100)]
    cluster = {"apiVersion": "v1", "kind": "List", "items": nodes}
    (HERE / "cluster.yaml").write_text(yaml.safe_dump(cluster, sort_keys=False))
    head = {
        "apiVersion": "kubesched.io/v1alpha1",
        "kind": "Scenario",
        "metadata": {"name": "web-batch-day"},
        "cluster": "cluster.yaml",
    }
    lines = [json.dumps(head)[:-1] + ', "events": [']
    lines += [json.dumps(e, separators=(",", ":")) + "," for e in events(rng)]
    lines[-1] = lines[-1].rstrip(",")
    lines.append("]}")
    (HERE / "scenario.json").write_text("\n".join(lines) + "\n")


if __name__ == "__main__":
    main()
