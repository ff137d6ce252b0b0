"""GpuShareArgs: the GpuShare plugin's pluginConfig args."""

from __future__ import annotations

from attrs import frozen


@frozen
class GpuShareArgs:
    """`narrowNodes`: PreFilter narrows the nodes to those with room for the pod's GPUs
    (computed for all nodes at once), so Filter never visits the others. Much faster on
    large clusters; a failure message then counts the other nodes as "didn't satisfy
    plugin(s) [GpuShare]" instead of giving GpuShare's reason for each. Off by default."""

    narrow_nodes: bool = False

    def validate(self, path: str) -> list[str]:
        return []
