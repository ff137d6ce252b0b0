"""What a node event does to the node: cordon, taints, labels."""

from __future__ import annotations

from attrs import evolve

from kubesched.api import Node
from kubesched.scenario.model import (
    Event,
    NodeCordoned,
    NodeLabelled,
    NodeTainted,
    NodeUncordoned,
    NodeUntainted,
)


def changed_node(node: Node, event: Event) -> Node:
    """The node after a node event other than NodeAdded and NodeRemoved."""
    spec, meta = node.spec, node.metadata
    if isinstance(event, NodeCordoned | NodeUncordoned):
        return evolve(node, spec=evolve(spec, unschedulable=isinstance(event, NodeCordoned)))
    if isinstance(event, NodeTainted):
        new = {(t.key, t.effect) for t in event.taints}
        kept = [t for t in spec.taints if (t.key, t.effect) not in new]
        return evolve(node, spec=evolve(spec, taints=[*kept, *event.taints]))
    if isinstance(event, NodeUntainted):
        kept = [t for t in spec.taints if t.key not in event.keys]
        return evolve(node, spec=evolve(spec, taints=kept))
    assert isinstance(event, NodeLabelled)
    labels = dict(meta.labels)
    for key, value in event.labels.items():
        if value is None:
            labels.pop(key, None)
        else:
            labels[key] = value
    return evolve(node, metadata=evolve(meta, labels=labels))
