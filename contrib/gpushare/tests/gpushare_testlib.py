"""Builders for GPU nodes and pods, and a profile with GpuShare and one policy."""

from __future__ import annotations

from typing import Any

from kubesched.api import Node, Pod
from kubesched.testing import make_node, make_pod
from kubesched_gpushare import GPU_COUNT, GPU_INDEX, GPU_MILLI, GPU_MODEL


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
