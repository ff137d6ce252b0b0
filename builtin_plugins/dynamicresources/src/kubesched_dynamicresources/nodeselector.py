"""Node selectors in allocations: matching (the public `node_selector_matches`) and the
selector of one node by name."""

from __future__ import annotations

from kubesched.api import (
    NodeSelector,
    NodeSelectorRequirement,
    NodeSelectorTerm,
    node_selector_matches,
)

node_matches = node_selector_matches
"""Upstream's nodeaffinity.NodeSelector.Match: any term matches."""


def node_name_selector(name: str) -> NodeSelector:
    """The selector of one node by name (`metadata.name In [name]`), as upstream writes
    into an allocation of node-local devices."""
    requirement = NodeSelectorRequirement(key="metadata.name", operator="In", values=[name])
    return NodeSelector(node_selector_terms=[NodeSelectorTerm(match_fields=[requirement])])
