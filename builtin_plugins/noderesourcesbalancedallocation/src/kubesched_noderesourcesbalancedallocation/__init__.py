"""The NodeResourcesBalancedAllocation plugin. Balanced resource use: PreScore, Score."""

from kubesched_noderesourcesbalancedallocation.args import (
    DEFAULT_RESOURCES,
    NodeResourcesBalancedAllocationArgs,
    ResourceSpec,
)
from kubesched_noderesourcesbalancedallocation.plugin import NodeResourcesBalancedAllocation

__all__ = [
    "DEFAULT_RESOURCES",
    "NodeResourcesBalancedAllocation",
    "NodeResourcesBalancedAllocationArgs",
    "ResourceSpec",
]
