"""The NodeResourcesFit plugin: resource requests against allocatable (Filter and Score)."""

from kubesched_noderesourcesfit.args import (
    LEAST_ALLOCATED,
    MOST_ALLOCATED,
    REQUESTED_TO_CAPACITY_RATIO,
    NodeResourcesFitArgs,
    RequestedToCapacityRatioParam,
    ResourceSpec,
    ScoringStrategy,
    UtilizationShapePoint,
)
from kubesched_noderesourcesfit.fit import InsufficientResource, compute_fit_request, fits_request
from kubesched_noderesourcesfit.plugin import NodeResourcesFit

__all__ = [
    "LEAST_ALLOCATED",
    "MOST_ALLOCATED",
    "REQUESTED_TO_CAPACITY_RATIO",
    "InsufficientResource",
    "NodeResourcesFit",
    "NodeResourcesFitArgs",
    "RequestedToCapacityRatioParam",
    "ResourceSpec",
    "ScoringStrategy",
    "UtilizationShapePoint",
    "compute_fit_request",
    "fits_request",
]
