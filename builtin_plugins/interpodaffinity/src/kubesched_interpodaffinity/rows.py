"""Which of the snapshot's nodes a pass over the cluster visits, read from NodeTable
columns the snapshot keeps current (upstream's HavePodsWithAffinityList and
HavePodsWithRequiredAntiAffinityList): a cycle then walks the nodes that can
matter, not every node."""

from __future__ import annotations

from functools import partial

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


def _has_label(key: str, node_info: NodeInfo) -> bool:
    node = node_info.node
    return node is not None and key in node.metadata.labels


def _pick(table: NodeTable, mask: NDArray[np.bool_]) -> list[NodeInfo]:
    infos = table.node_infos
    return [infos[i] for i in np.flatnonzero(mask).tolist()]


def _scoring_others(table: NodeTable) -> NDArray[np.bool_]:
    return table.column("InterPodAffinity/podsScoringOthers", _has_pods_scoring_others, np.bool_)


def _required_anti_affinity(table: NodeTable) -> NDArray[np.bool_]:
    return table.column(
        "InterPodAffinity/podsWithRequiredAntiAffinity", _has_required_anti_affinity_pods, np.bool_
    )


def with_pods_scoring_others(table: NodeTable) -> list[NodeInfo]:
    """Nodes running a pod whose own affinity terms can score other pods."""
    return _pick(table, _scoring_others(table))


def with_required_anti_affinity_pods(table: NodeTable) -> list[NodeInfo]:
    """Nodes running a pod with required pod anti-affinity."""
    return _pick(table, _required_anti_affinity(table))


def any_pods_scoring_others(table: NodeTable) -> bool:
    """Whether some node runs a pod whose own terms can score other pods."""
    return bool(_scoring_others(table).any())


def any_required_anti_affinity_pods(table: NodeTable) -> bool:
    """Whether some node runs a pod with required pod anti-affinity."""
    return bool(_required_anti_affinity(table).any())


def with_pods_and_label(table: NodeTable, key: str) -> list[NodeInfo]:
    """Nodes that run pods and have label `key`."""
    labelled = table.column(f"InterPodAffinity/has:{key}", partial(_has_label, key), np.bool_)
    return _pick(table, (table.pod_count() > 0) & labelled)
