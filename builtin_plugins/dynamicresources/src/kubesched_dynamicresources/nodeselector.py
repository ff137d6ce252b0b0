"""The node selector an allocation of node-local devices carries."""

from __future__ import annotations

from kubesched.api import (
    NodeSelector,
    NodeSelectorRequirement,
    NodeSelectorTerm,
)


def node_name_selector(name: str) -> NodeSelector:
    """The selector of one node by name (`metadata.name In [name]`), as upstream writes
    into an allocation of node-local devices."""
    requirement = NodeSelectorRequirement(key="metadata.name", operator="In", values=[name])
    return NodeSelector(node_selector_terms=[NodeSelectorTerm(match_fields=[requirement])])
