"""The snapshot as plugins see it: its own module, so that both the Handle (`_interface`)
and the extenders (`_extender`) name it without importing each other."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Protocol

from kubesched.framework._node_table import NodeTable
from kubesched.framework._types import NodeInfo

__all__ = ["SharedLister"]


class SharedLister(Protocol):
    """The snapshot as plugins see it during a scheduling cycle."""

    def node_infos(self) -> Sequence[NodeInfo]: ...

    def get(self, node_name: str) -> NodeInfo | None: ...

    @property
    def node_table(self) -> NodeTable: ...
