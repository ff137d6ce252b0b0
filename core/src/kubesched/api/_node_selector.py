"""Whether a node matches a NodeSelector: upstream's `nodeaffinity.NodeSelector.Match`
(component-helpers), for plugins that meet selectors outside a pod's affinity
(a volume's node affinity, a ResourceSlice's or an allocation's node selector).

Any term may match; an empty term matches no node, and so does a term that does
not parse (upstream's lazy-error selector): a key that is no label key, an In or
NotIn without values, a value that is no label value, Exists or DoesNotExist
with values, Gt or Lt without exactly one Go int64, a field requirement other
than In or NotIn with one value. Gt and Lt read a node's label as Go's
`strconv.ParseInt(value, 10, 64)` does; a label it refuses never compares.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from functools import lru_cache

from kubesched.api._names import label_value_errors, qualified_name_errors
from kubesched.api._node import Node
from kubesched.api._pod import NodeSelector, NodeSelectorRequirement, NodeSelectorTerm

NODE_NAME_FIELD = "metadata.name"
"""The one node field a matchFields requirement can select on."""

_GO_INT = re.compile(r"[+-]?[0-9]+")
_INT64_MIN, _INT64_MAX = -(2**63), 2**63 - 1


def parse_go_int64(text: str) -> int | None:
    """`text` as Go's `strconv.ParseInt(text, 10, 64)` reads it, or None where Go fails:
    an optional sign and decimal digits only, within int64."""
    if not _GO_INT.fullmatch(text):
        return None
    value = int(text)
    return value if _INT64_MIN <= value <= _INT64_MAX else None


@lru_cache(maxsize=4096)
def _is_label_key(text: str) -> bool:
    return not qualified_name_errors(text)


@lru_cache(maxsize=4096)
def _is_label_value(text: str) -> bool:
    return not label_value_errors(text)


def _label_requirement_parses(req: NodeSelectorRequirement) -> bool:
    """Would upstream's labels.NewRequirement accept it?"""
    op, values = req.operator, req.values
    if not _is_label_key(req.key) or not all(map(_is_label_value, values)):
        return False
    if op in ("In", "NotIn"):
        return bool(values)
    if op in ("Exists", "DoesNotExist"):
        return not values
    if op in ("Gt", "Lt"):
        return len(values) == 1 and parse_go_int64(values[0]) is not None
    return False


def _field_requirement_parses(req: NodeSelectorRequirement) -> bool:
    return req.operator in ("In", "NotIn") and len(req.values) == 1


def _requirement_matches(req: NodeSelectorRequirement, value: str | None) -> bool:
    op = req.operator
    if op == "In":
        return value is not None and value in req.values
    if op == "NotIn":
        return value is None or value not in req.values
    if op == "Exists":
        return value is not None
    if op == "DoesNotExist":
        return value is None
    have = None if value is None else parse_go_int64(value)
    if have is None:
        return False
    bound = parse_go_int64(req.values[0])
    assert bound is not None  # the requirement parsed
    return have > bound if op == "Gt" else have < bound


def _term_matches(term: NodeSelectorTerm, labels: Mapping[str, str], name: str) -> bool:
    if not term.match_expressions and not term.match_fields:
        return False  # an empty term matches no node
    if not all(map(_label_requirement_parses, term.match_expressions)):
        return False
    if not all(map(_field_requirement_parses, term.match_fields)):
        return False
    if not all(_requirement_matches(r, labels.get(r.key)) for r in term.match_expressions):
        return False
    return all(
        _requirement_matches(r, name if r.key == NODE_NAME_FIELD else None)
        for r in term.match_fields
    )


def node_selector_matches(selector: NodeSelector, node: Node) -> bool:
    """Does `node` match any of the selector's terms?"""
    labels, name = node.metadata.labels, node.metadata.name
    return any(_term_matches(t, labels, name) for t in selector.node_selector_terms)
