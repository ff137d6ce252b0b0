"""Distinct node image lists as small integer ids, for the batch Score and the spread.

A node's images go into a `NodeTable` column as the id of its distinct
(name -> size) mapping. For one image name the index keeps, per id, the
image's size and whether the set has it at all; a pod's sizes on every row
are then one numpy gather, and the number of nodes holding the image a count
over that gather. Ids never change and the index only grows, so every plugin
instance can share it (it is process-wide, like the ids stored in columns).
"""

from __future__ import annotations

import threading

import numpy as np
from numpy.typing import NDArray

from kubesched.framework import NodeInfo
from kubesched_imagelocality.scoring import node_images

NO_NODE = -1
"""The id of a row whose NodeInfo has no node: it has no images and is no node to count."""

_Key = tuple[tuple[str, int], ...]
_CACHE_LIMIT = 4096


class ImageSetIndex:
    """Ids for distinct node image sets, and per image name their sizes by id."""

    def __init__(self) -> None:
        self._ids: dict[_Key, int] = {(): 0}
        self._sets: list[dict[str, int]] = [{}]
        self._lock = threading.Lock()
        self._by_name: dict[str, tuple[NDArray[np.int64], NDArray[np.bool_]]] = {}

    def id_of(self, node_info: NodeInfo) -> int:
        """The id of the node's image set (a `NodeTable` column extractor)."""
        node = node_info.node
        if node is None:
            return NO_NODE
        images = node_images(node)
        if not images:
            return 0
        key = tuple(sorted(images.items()))
        found = self._ids.get(key)
        if found is not None:
            return found
        with self._lock:
            found = self._ids.get(key)
            if found is None:
                self._sets.append(images)
                found = self._ids[key] = len(self._sets) - 1
            return found

    def by_id(self, name: str) -> tuple[NDArray[np.int64], NDArray[np.bool_]]:
        """(size, present) of the image `name` for every known id, then for NO_NODE (so
        id -1 reads the last entry: size 0, absent). Read the column first, so every id
        in it is known here."""
        known = len(self._sets)
        cached = self._by_name.get(name)
        if cached is not None and len(cached[0]) == known + 1:
            return cached
        start = 0 if cached is None else len(cached[0]) - 1
        sizes = np.zeros(known + 1, dtype=np.int64)
        present = np.zeros(known + 1, dtype=np.bool_)
        if cached is not None:  # ids only grow: keep what is known, look at the new sets
            sizes[:start], present[:start] = cached[0][:start], cached[1][:start]
        for i in range(start, known):
            size = self._sets[i].get(name)
            if size is not None:
                sizes[i], present[i] = size, True
        sizes.flags.writeable = present.flags.writeable = False
        if len(self._by_name) >= _CACHE_LIMIT:
            self._by_name.clear()
        self._by_name[name] = (sizes, present)
        return sizes, present
