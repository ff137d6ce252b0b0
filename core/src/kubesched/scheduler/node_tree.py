"""Node order: zone by zone, round robin (upstream's nodeTree).

Listing takes the first node of every zone, then the second of every zone,
and so on, so the nodes a cycle filters first are spread over zones.
"""

from __future__ import annotations

from kubesched.api import Node

ZONE_LABEL = "topology.kubernetes.io/zone"
REGION_LABEL = "topology.kubernetes.io/region"
BETA_ZONE_LABEL = "failure-domain.beta.kubernetes.io/zone"
BETA_REGION_LABEL = "failure-domain.beta.kubernetes.io/region"


def zone_key(node: Node) -> str:
    """Region and zone of a node, "" when it has neither (upstream's GetZoneKey)."""
    labels = node.metadata.labels
    zone = labels.get(ZONE_LABEL, labels.get(BETA_ZONE_LABEL, ""))
    region = labels.get(REGION_LABEL, labels.get(BETA_REGION_LABEL, ""))
    if not region and not zone:
        return ""
    return f"{region}:\x00:{zone}"


class NodeTree:
    """Node names grouped by zone, zones in the order they first appeared (each zone an
    insertion-ordered dict used as a set: adding and removing a node take constant time)."""

    __slots__ = ("_zones", "num_nodes")

    def __init__(self) -> None:
        self._zones: dict[str, dict[str, None]] = {}
        self.num_nodes = 0

    def add(self, node: Node) -> None:
        names = self._zones.setdefault(zone_key(node), {})
        if node.name not in names:
            names[node.name] = None
            self.num_nodes += 1

    def remove(self, node: Node) -> None:
        zone = zone_key(node)
        names = self._zones.get(zone)
        if names is None or node.name not in names:
            return
        del names[node.name]
        self.num_nodes -= 1
        if not names:
            del self._zones[zone]

    def update(self, old: Node, new: Node) -> None:
        """Move the node if its zone changed."""
        if zone_key(old) != zone_key(new):
            self.remove(old)
            self.add(new)

    def list(self) -> list[str]:
        """Every node name, interleaved across zones."""
        zones = [list(z) for z in self._zones.values()]
        longest = max((len(z) for z in zones), default=0)
        return [z[i] for i in range(longest) for z in zones if i < len(z)]
