"""Builders for tests of GpuShare and of the policies: GPU nodes and pods, a profile with
GpuShare and one score policy, and small random clusters for property tests."""

from __future__ import annotations

import contextlib
import io
import json
import os
import random
from pathlib import Path
from typing import Any

from kubesched.api import Node, Pod
from kubesched.testing import assert_batch_agrees, make_node, make_pod
from kubesched_gpushare.resources import GPU_COUNT, GPU_INDEX, GPU_MILLI, GPU_MODEL


def gpu_node(name: str, gpus: int, model: str = "G2", cpu: str = "96") -> Node:
    builder = make_node(name).capacity(
        {"cpu": cpu, "memory": "512Gi", "pods": 110, GPU_COUNT: gpus, GPU_MILLI: gpus * 1000}
    )
    return builder.label(GPU_MODEL, model).obj()


def gpu_pod(
    name: str,
    count: int = 1,
    milli: int = 1000,
    *,
    cpu: str = "1",
    models: str = "",
    node: str = "",
    index: str = "",
) -> Pod:
    builder = make_pod(name).uid(name).req(cpu=cpu, memory="1Gi")
    if count:
        builder = builder.annotation(GPU_COUNT, str(count)).annotation(GPU_MILLI, str(milli))
    if models:
        builder = builder.annotation(GPU_MODEL, models)
    if index:
        builder = builder.annotation(GPU_INDEX, index)
    if node:
        builder = builder.node(node)
    return builder.obj()


def profile(policy: str | None = None, *, narrow: bool = False, **args: Any) -> dict[str, Any]:
    """GpuShare on top of the default filters, `policy` as the only score plugin."""
    plugins: dict[str, Any] = {
        "preFilter": {"enabled": [{"name": "GpuShare"}]},
        "filter": {"enabled": [{"name": "GpuShare"}]},
        "reserve": {"enabled": [{"name": "GpuShare"}]},
        "postFilter": {"disabled": [{"name": "*"}]},
    }
    if policy is not None:
        plugins["preScore"] = {"disabled": [{"name": "*"}]}
        if policy == "RandomScore":
            plugins["preScore"]["enabled"] = [{"name": policy}]
        plugins["score"] = {"disabled": [{"name": "*"}], "enabled": [{"name": policy}]}
    config: list[dict[str, Any]] = [{"name": "GpuShare", "args": {"narrowNodes": narrow}}]
    if args:
        config.append({"name": policy, "args": args})
    return {
        "percentageOfNodesToScore": 100,
        "profiles": [
            {"schedulerName": "default-scheduler", "plugins": plugins, "pluginConfig": config}
        ],
    }


def random_cluster(rng: random.Random) -> tuple[list[Node], list[Pod]]:
    """1 to 7 nodes of 0 to 8 GPUs (G2 or T4), with a few shares already bound."""
    nodes: list[Node] = []
    running: list[Pod] = []
    for i in range(rng.randrange(1, 8)):
        gpus = rng.choice([0, 1, 2, 4, 8])
        nodes.append(gpu_node(f"n{i}", gpus, rng.choice(["G2", "T4"])))
        free = [1000] * gpus
        for j in range(rng.randrange(4)):
            if not gpus:
                break
            k = rng.randrange(gpus)
            milli = rng.choice([100, 250, 500, 1000])
            if free[k] >= milli:
                free[k] -= milli
                running.append(gpu_pod(f"n{i}-{j}", 1, milli, node=f"n{i}", index=str(k)))
    return nodes, running


def random_gpu_pod(rng: random.Random) -> Pod:
    """A pod asking for no GPU, a share, or whole GPUs, of any or some models."""
    count = rng.choice([0, 1, 1, 2, 4, 8])
    milli = rng.choice([100, 300, 500, 900, 1000]) if count == 1 else 1000
    return gpu_pod("p", count, milli, models=rng.choice(["", "T4", "G2|T4"]))


def listed_plugin(name: str) -> dict[str, Any]:
    """The `kubesched plugins -o json` entry of the plugin called `name`."""
    from kubesched.cli import main

    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        main(["plugins", "--output", "json"])
    [entry] = [p for p in json.loads(out.getvalue())["plugins"] if p["name"] == name]
    return dict(entry)


def assert_listed_out_of_tree(name: str, distribution: str, points: list[str]) -> None:
    """`kubesched plugins` lists `name` as loaded, out of tree, from `distribution`, at
    these extension points."""
    entry = listed_plugin(name)
    assert (entry["distribution"], entry["source"], entry["loaded"]) == (
        distribution,
        "out-of-tree",
        True,
    )
    assert entry["extensionPoints"] == points


def assert_batch_agrees_on_random_cluster(plugin: type, seed: int) -> None:
    """The plugin's batch Score equals its per-node Score on the random cluster of `seed`."""
    rng = random.Random(seed)
    nodes, running = random_cluster(rng)
    assert_batch_agrees(plugin, random_gpu_pod(rng), nodes, pods=running)


NODE_HEADER = "sn,cpu_milli,memory_mib,gpu,model\n"
POD_HEADER = (
    "name,cpu_milli,memory_mib,num_gpu,gpu_milli,gpu_spec,qos,pod_phase,"
    "creation_time,deletion_time,scheduled_time\n"
)


def write_openb_trace(folder: Path, seed: int = 1) -> Path:
    """A small OpenB-shaped trace in `folder`: 7 nodes (one CPU-only, which the replay
    leaves out; 19 GPUs) and 40 pods of every kind, drawn with `seed`."""
    rng = random.Random(seed)
    nodes = [
        ("openb-node-0000", 32000, 131072, 4, "V100M16"),
        ("openb-node-0001", 96000, 393216, 8, "G2"),
        ("openb-node-0002", 104000, 524288, 2, "T4"),
        ("openb-node-0003", 104000, 524288, 2, "T4"),
        ("openb-node-0004", 16000, 122880, 2, "P100"),
        ("openb-node-0005", 8000, 32768, 1, "V100M16"),
        ("openb-node-0006", 32000, 262144, 0, ""),
    ]
    (folder / "openb_node_list_gpu_node.csv").write_text(
        NODE_HEADER + "".join(",".join(map(str, n)) + "\n" for n in nodes)
    )
    rows = []
    for i in range(40):
        kind = rng.choice(["cpu", "share", "share", "one", "multi"])
        count, milli = {
            "cpu": (0, 0),
            "share": (1, rng.choice([250, 460, 500])),
            "one": (1, 1000),
            "multi": (rng.choice([2, 4]), 1000),
        }[kind]
        spec = rng.choice(["", "", "", "V100M16|V100M32"]) if count else ""
        rows.append(
            f"openb-pod-{i:04d},{rng.choice([2000, 4000, 8000])},8192,{count},{milli},{spec},"
            f"LS,Running,{i * 10},{i * 10 + 500},{i * 10}\n"
        )
    (folder / "openb_pod_list_default.csv").write_text(POD_HEADER + "".join(rows))
    return folder


def openb_trace_dir(start: Path) -> Path | None:
    """The real OpenB trace folder for tests: `OPENB_DATA` when set, else the first
    `shared/data/openb` beside `start` or beside one of its parents (a checkout or a
    worktree under it); None when the trace is not on this machine."""
    if "OPENB_DATA" in os.environ:
        folder = Path(os.environ["OPENB_DATA"])
        return folder if (folder / "openb_pod_list_default.csv").exists() else None
    for parent in start.resolve().parents:
        folder = parent / "shared" / "data" / "openb"
        if (folder / "openb_pod_list_default.csv").exists():
            return folder
    return None
