"""GpuPackingScore: the FGD study's GpuPacking policy (partly used GPUs first)."""

from kubesched_gpushare_packing.plugin import GpuPackingScore, packing_score

__all__ = ["GpuPackingScore", "packing_score"]
