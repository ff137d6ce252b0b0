"""Whether a node matches a NodeSelector (a slice's, a device's or an allocation's)."""

from __future__ import annotations

from collections.abc import Mapping

from kubesched.api import Node, NodeSelector, NodeSelectorRequirement, NodeSelectorTerm


def _requirement(req: NodeSelectorRequirement, value: str | None) -> bool:
    op = req.operator
    if op == "In":
        return value is not None and value in req.values
    if op == "NotIn":
        return value is None or value not in req.values
    if op == "Exists":
        return value is not None
    if op == "DoesNotExist":
        return value is None
    if op in ("Gt", "Lt") and value is not None and len(req.values) == 1:
        try:
            have, bound = int(value), int(req.values[0])
        except ValueError:
            return False
        return have > bound if op == "Gt" else have < bound
    return False


def _term(term: NodeSelectorTerm, labels: Mapping[str, str], name: str) -> bool:
    if not term.match_expressions and not term.match_fields:
        return False  # an empty term matches no node
    if not all(_requirement(r, labels.get(r.key)) for r in term.match_expressions):
        return False
    return all(
        _requirement(r, name if r.key == "metadata.name" else None) for r in term.match_fields
    )


def node_matches(selector: NodeSelector, node: Node) -> bool:
    """Upstream's nodeaffinity.NodeSelector.Match: any term matches."""
    labels = node.metadata.labels
    return any(_term(t, labels, node.metadata.name) for t in selector.node_selector_terms)


def node_name_selector(name: str) -> NodeSelector:
    """The selector of one node by name (`metadata.name In [name]`), as upstream writes
    into an allocation of node-local devices."""
    requirement = NodeSelectorRequirement(key="metadata.name", operator="In", values=[name])
    return NodeSelector(node_selector_terms=[NodeSelectorTerm(match_fields=[requirement])])
