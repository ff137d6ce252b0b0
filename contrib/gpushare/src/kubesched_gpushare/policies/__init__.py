"""The six node-scoring policies of the FGD study, one module each."""

from kubesched_gpushare.policies.bestfit import BestFitScore
from kubesched_gpushare.policies.clustering import GpuClusteringScore
from kubesched_gpushare.policies.dotprod import DotProductScore
from kubesched_gpushare.policies.fgd import FGDScore
from kubesched_gpushare.policies.fgd_args import FGDScoreArgs
from kubesched_gpushare.policies.packing import GpuPackingScore
from kubesched_gpushare.policies.random_pick import RandomScore

__all__ = [
    "BestFitScore",
    "DotProductScore",
    "FGDScore",
    "FGDScoreArgs",
    "GpuClusteringScore",
    "GpuPackingScore",
    "RandomScore",
]
