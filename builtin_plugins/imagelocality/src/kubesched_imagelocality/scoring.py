"""The ImageLocality score, as upstream computes it.

Each container of the pod (init containers too) whose image the node has
adds the image's size scaled by its spread: the share of all nodes that
have it, so an image every node has counts fully and one on a single node of
many counts little (spreading pods instead of piling them where a rare image
is). The sum is clamped between 23 MiB and 1000 MiB per container and mapped
linearly onto 0..100.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping

import numpy as np
from numpy.typing import NDArray

from kubesched.api import Node, Pod
from kubesched.framework import MAX_NODE_SCORE

MB = 1024 * 1024
MIN_THRESHOLD = 23 * MB
"""Below this many (scaled) bytes a node scores 0."""
MAX_CONTAINER_THRESHOLD = 1000 * MB
"""Per container: at this many (scaled) bytes times the containers a node scores 100."""


def normalized_image_name(name: str) -> str:
    """The name as container runtimes report it: `:latest` added when the reference has no
    tag (a `:` after the last `/`); digests and tags are kept."""
    if name.rfind(":") <= name.rfind("/"):
        return name + ":latest"
    return name


def pod_image_names(pod: Pod) -> tuple[str, ...]:
    """The normalised image of every init container, then every container, in order."""
    containers = (*pod.spec.init_containers, *pod.spec.containers)
    return tuple(normalized_image_name(c.image) for c in containers)


def node_images(node: Node) -> dict[str, int]:
    """Each name the node reports an image under, with that image's size (the first
    image listing a name gives its size)."""
    sizes: dict[str, int] = {}
    for image in node.status.images:
        for name in image.names:
            sizes.setdefault(name, image.size_bytes)
    return sizes


def sizes_on(images: Mapping[str, int], names: Iterable[str]) -> list[int]:
    """The size of each named image on a node with these `images`; 0 where it has none."""
    return [images.get(name, 0) for name in names]


def image_scores(
    sizes: NDArray[np.int64], holders: NDArray[np.int64], total_nodes: int
) -> NDArray[np.int64]:
    """Node scores from the pod's images: `sizes[i, j]` is the size of container i's image
    on node j (0 without it), `holders[i]` the number of nodes that have it."""
    containers, nodes = sizes.shape  # no containers: every node scores 0
    summed = np.zeros(nodes, dtype=np.int64)
    for row, count in zip(sizes, holders.tolist(), strict=True):
        spread = float(count) / float(total_nodes) if total_nodes else 0.0
        summed += (row.astype(np.float64) * spread).astype(np.int64)
    maximum = MAX_CONTAINER_THRESHOLD * containers
    clamped = np.where(summed < MIN_THRESHOLD, MIN_THRESHOLD, np.minimum(summed, maximum))
    scores: NDArray[np.int64] = (
        MAX_NODE_SCORE * (clamped - MIN_THRESHOLD) // (maximum - MIN_THRESHOLD)
    )
    return scores
