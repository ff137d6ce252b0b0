"""kubesched.api's `node_selector_matches` (used by VolumeBinding and DynamicResources)
and NodeAffinity's parsed selectors are one semantics on selectors that parse."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from kubesched.api import Node, NodeSelector, node_selector_matches, parse_go_int64
from kubesched.api import NodeSelectorRequirement as R
from kubesched.api import NodeSelectorTerm as T
from kubesched.testing import make_node
from kubesched_nodeaffinity.selectors import parse_node_selector

KEYS = ["zone", "gpu", "example.com/rank"]
VALUES = ["a", "b", "3", "-7", "+5", "007", "1_000", "9223372036854775808"]
NAMES = ["n1", "n2"]


def _label_requirement() -> st.SearchStrategy[R]:
    key = st.sampled_from([*KEYS, "no key!"])
    listed = st.builds(
        R,
        key=key,
        operator=st.sampled_from(["In", "NotIn"]),
        values=st.lists(st.sampled_from(VALUES), min_size=1, max_size=3, unique=True),
    )
    present = st.builds(R, key=key, operator=st.sampled_from(["Exists", "DoesNotExist"]))
    integers = [v for v in VALUES if parse_go_int64(v) is not None]
    compared = st.builds(
        R,
        key=key,
        operator=st.sampled_from(["Gt", "Lt"]),
        values=st.lists(st.sampled_from(integers), min_size=1, max_size=1),
    )
    return st.one_of(listed, present, compared)


_FIELD = st.builds(
    R,
    key=st.just("metadata.name"),
    operator=st.sampled_from(["In", "NotIn", "Exists"]),
    values=st.lists(st.sampled_from(NAMES), min_size=1, max_size=2),
)
_TERMS = st.builds(
    T,
    match_expressions=st.lists(_label_requirement(), max_size=3),
    match_fields=st.lists(_FIELD, max_size=1),
)
_NODES = st.builds(
    lambda name, labels: make_node(name).labels(labels).obj(),
    st.sampled_from(NAMES),
    st.dictionaries(st.sampled_from(KEYS), st.sampled_from(VALUES), max_size=3),
)


@given(st.lists(_TERMS, max_size=3), _NODES)
def test_public_matcher_agrees_with_nodeaffinity(terms: list[T], node: Node) -> None:
    selector = NodeSelector(node_selector_terms=terms)
    assert node_selector_matches(selector, node) is parse_node_selector(selector).matches(node)


def test_gt_reads_labels_as_go_does() -> None:
    """Python's int() reads '1_000' and ' 5'; Go's ParseInt does not, so they never match."""
    gt = NodeSelector(node_selector_terms=[T(match_expressions=[R("rank", "Gt", ["1"])])])
    assert node_selector_matches(gt, make_node("n").labels({"rank": "+5"}).obj())
    assert not node_selector_matches(gt, make_node("n").labels({"rank": "1_000"}).obj())
    assert not node_selector_matches(gt, make_node("n").labels({"rank": " 5"}).obj())
    assert not node_selector_matches(gt, make_node("n").labels({"rank": "0"}).obj())


def test_an_empty_term_matches_no_node() -> None:
    assert not node_selector_matches(NodeSelector(node_selector_terms=[T()]), make_node("n").obj())
