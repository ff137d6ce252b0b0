"""Whether any node runs pods whose terms matter to others, read from NodeTable columns
the snapshot keeps current (upstream's HavePodsWithAffinityList and
HavePodsWithRequiredAntiAffinityList), so a cluster without such pods costs nothing."""

from __future__ import annotations

import numpy as np
from numpy.typing import NDArray

from kubesched.framework import NodeInfo, NodeTable
from kubesched_interpodaffinity.counts import scores_others


def _has_pods_scoring_others(node_info: NodeInfo) -> bool:
    """Whether a pod on the node has terms of its own that can add to another pod's score
    (required anti-affinity alone cannot)."""
    return any(scores_others(p.affinity_terms) for p in node_info.pods_with_affinity)


def _has_required_anti_affinity_pods(node_info: NodeInfo) -> bool:
    return bool(node_info.pods_with_required_anti_affinity)


def _scoring_others(table: NodeTable) -> NDArray[np.bool_]:
    return table.column("InterPodAffinity/podsScoringOthers", _has_pods_scoring_others, np.bool_)


def _required_anti_affinity(table: NodeTable) -> NDArray[np.bool_]:
    return table.column(
        "InterPodAffinity/podsWithRequiredAntiAffinity", _has_required_anti_affinity_pods, np.bool_
    )


def any_pods_scoring_others(table: NodeTable) -> bool:
    """Whether some node runs a pod whose own terms can score other pods."""
    return bool(_scoring_others(table).any())


def any_required_anti_affinity_pods(table: NodeTable) -> bool:
    """Whether some node runs a pod with required pod anti-affinity."""
    return bool(_required_anti_affinity(table).any())
