"""GPU sharing for kubesched: the GpuShare plugin (Filter, Reserve on per-device milli), the
model the FGD study's six score policies share (each policy is its own distribution,
`kubesched-gpushare-<policy>`), and the OpenB trace replay."""

from kubesched_gpushare.devices import device_free
from kubesched_gpushare.frag import TypicalPod, node_fragment, target_workload
from kubesched_gpushare.plugin import GpuShare
from kubesched_gpushare.resources import (
    GPU_COUNT,
    GPU_INDEX,
    GPU_MILLI,
    GPU_MODEL,
    MILLI,
    GpuRequest,
    GpuRequestError,
    gpu_request,
)

__all__ = [
    "GPU_COUNT",
    "GPU_INDEX",
    "GPU_MILLI",
    "GPU_MODEL",
    "MILLI",
    "GpuRequest",
    "GpuRequestError",
    "GpuShare",
    "TypicalPod",
    "device_free",
    "gpu_request",
    "node_fragment",
    "target_workload",
]
