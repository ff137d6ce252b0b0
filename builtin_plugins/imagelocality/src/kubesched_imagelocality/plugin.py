"""The ImageLocality plugin: favour nodes that already have the pod's container images."""

from __future__ import annotations

import numpy as np
from attrs import frozen
from numpy.typing import NDArray

from kubesched import hookimpl
from kubesched.api import Pod
from kubesched.errors import PluginError
from kubesched.framework import CycleState, Handle, NodeInfo, NodeTable, Status
from kubesched_imagelocality.image_sets import NO_NODE, ImageSetIndex
from kubesched_imagelocality.scoring import (
    image_scores,
    node_images,
    pod_image_names,
    sizes_on,
)

NAME = "ImageLocality"
IMAGES_COLUMN = "ImageLocality/imageSet"
SPREAD_STATE_KEY = "ImageLocality/spread"

_IMAGE_SETS = ImageSetIndex()


@frozen
class _Spread:
    """For one pod and this cycle's snapshot: its image names (one per container), how many
    nodes hold each, and how many nodes there are. Computed on the first Score call."""

    names: tuple[str, ...]
    holders: NDArray[np.int64]
    total_nodes: int

    def clone(self) -> _Spread:
        return self


def _spread(table: NodeTable, pod: Pod) -> _Spread:
    ids = table.column(IMAGES_COLUMN, _IMAGE_SETS.id_of, np.int64, node_only=True)
    names = pod_image_names(pod)
    holders = np.array(
        [int(np.count_nonzero(_IMAGE_SETS.by_id(name)[1][ids])) for name in names],
        dtype=np.int64,
    )
    return _Spread(names, holders, int(np.count_nonzero(ids != NO_NODE)))


class ImageLocality:
    """Scores nodes by the size of the pod's images they already have, scaled by how widely
    each image is spread (upstream's ImageLocality)."""

    name = NAME

    def __init__(self, args: object = None, handle: Handle | None = None) -> None:
        """No args; the handle gives the snapshot, for the number of nodes holding an image."""
        self._handle = handle

    def _read_spread(self, state: CycleState, pod: Pod, table: NodeTable | None = None) -> _Spread:
        """This cycle's spread of the pod's images, over `table` (default: the snapshot's)."""
        if SPREAD_STATE_KEY in state:
            return state.read_as(SPREAD_STATE_KEY, _Spread)
        if table is None:
            if self._handle is None:
                raise PluginError("ImageLocality needs the framework handle to read the snapshot")
            table = self._handle.snapshot_shared_lister().node_table
        spread = _spread(table, pod)
        state.write(SPREAD_STATE_KEY, spread)
        return spread

    @hookimpl
    def score(self, state: CycleState, pod: Pod, node_info: NodeInfo) -> int | Status:
        node = node_info.node
        if node is None:
            return Status.error("invalid nodeInfo")
        spread = self._read_spread(state, pod)
        sizes = np.array([sizes_on(node_images(node), spread.names)], dtype=np.int64)
        return int(image_scores(sizes.reshape(-1, 1), spread.holders, spread.total_nodes)[0])

    @hookimpl
    def score_batch(
        self, state: CycleState, pod: Pod, table: NodeTable, rows: NDArray[np.intp]
    ) -> NDArray[np.int64]:
        spread = self._read_spread(state, pod, table)
        if not spread.holders.any():  # no node has any of the images: every node scores 0
            return np.zeros(len(rows), dtype=np.int64)
        ids = table.column(IMAGES_COLUMN, _IMAGE_SETS.id_of, np.int64, node_only=True)[rows]
        sizes = np.zeros((len(spread.names), len(rows)), dtype=np.int64)
        for i, name in enumerate(spread.names):
            sizes[i] = _IMAGE_SETS.by_id(name)[0][ids]
        return image_scores(sizes, spread.holders, spread.total_nodes)
