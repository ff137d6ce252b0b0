"""Node selector parsing and matching: upstream's component-helpers nodeaffinity tests
(TestNodeSelectorMatch, TestPreferredSchedulingTermsScore,
TestNodeSelectorRequirementsAsSelector, TestPodMatchesNodeSelectorAndAffinityTerms)."""

from __future__ import annotations

import pytest

from kubesched.api import Node, NodeSelector, Pod, PreferredSchedulingTerm
from kubesched.api import NodeAffinity as Spec
from kubesched.api import NodeSelectorRequirement as R
from kubesched.api import NodeSelectorTerm as T
from kubesched.testing import make_node, make_pod
from kubesched_nodeaffinity.pod_affinity import required_node_affinity
from kubesched_nodeaffinity.requirements import LabelRequirement, parse_label_requirement
from kubesched_nodeaffinity.selectors import (
    SelectorParseError,
    parse_node_selector,
    parse_node_selector_strict,
    parse_preferred_terms,
)

NAME = "metadata.name"
KEY_NAME_PART = (
    "name part must consist of alphanumeric characters, '-', '_' or '.', and must start and "
    "end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex "
    "used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]')"
)


def node(name: str = "", labels: dict[str, str] | None = None) -> Node:
    return make_node(name).labels(labels or {}).obj()


# TestNodeSelectorMatch


def test_a_selector_without_terms_matches_no_node() -> None:
    assert not parse_node_selector_strict(NodeSelector()).matches(Node())


def test_node_selector_reports_every_parse_error() -> None:
    selector = NodeSelector(
        [
            T(match_fields=[R(NAME, "In", ["host_1", "host_2"])]),
            T([R("label_1", "In", ["label_1_val"])], [R(NAME, "In", ["host_1"])]),
            T([R("invalid key", "In", ["label_value"])]),
        ]
    )
    with pytest.raises(SelectorParseError) as raised:
        parse_node_selector_strict(selector)
    assert [str(e) for e in raised.value.errors] == [
        "nodeSelectorTerms[0].matchFields[0].values: Invalid value: "
        '[]string{"host_1", "host_2"}: must have one element',
        'nodeSelectorTerms[2].matchExpressions[0].key: Invalid value: "invalid key": '
        + KEY_NAME_PART,
    ]
    assert str(raised.value) == "[" + ", ".join(str(e) for e in raised.value.errors) + "]"


@pytest.mark.parametrize(
    ("terms", "target", "want"),
    [
        pytest.param(
            [T([R("label_1", "In", ["label_1_val"])], [R(NAME, "In", ["host_1"])])],
            node("host_1"),
            False,
            id="node matches field selector, but not labels",
        ),
        pytest.param(
            [T([R("label_1", "In", ["label_1_val"])], [R(NAME, "In", ["host_1"])])],
            node("host_1", {"label_1": "label_1_val"}),
            True,
            id="node matches field selector and label selector",
        ),
        pytest.param(
            [T([R("label_1", "In", ["label_1_val"])]), T(match_fields=[R(NAME, "In", ["host_1"])])],
            node("host_1"),
            True,
            id="second term matches",
        ),
    ],
)
def test_node_selector_match(terms: list[T], target: Node, want: bool) -> None:
    assert parse_node_selector_strict(NodeSelector(terms)).matches(target) is want


def test_lazy_selector_reports_errors_only_when_no_term_matches() -> None:
    selector = parse_node_selector(
        NodeSelector([T([R("invalid key", "Exists")]), T([R("a", "Exists")])])
    )
    assert selector.evaluate(node("n", {"a": "1"})) == (True, ())
    matched, errors = selector.evaluate(node("n"))
    assert not matched
    assert [e.path for e in errors] == ["nodeSelectorTerms[0].matchExpressions[0].key"]


def test_field_requirements_are_ignored_for_a_node_without_name() -> None:
    selector = parse_node_selector_strict(NodeSelector([T(match_fields=[R(NAME, "In", ["x"])])]))
    assert selector.matches(node(""))
    assert not selector.matches(node("y"))


def test_field_requirements_on_other_fields_see_an_empty_value() -> None:
    def matches(op: str, value: str) -> bool:
        term = T(match_fields=[R("spec.other", op, [value])])
        return parse_node_selector_strict(NodeSelector([term])).matches(node("n"))

    assert (matches("In", ""), matches("In", "n"), matches("NotIn", "n")) == (True, False, True)


# TestPreferredSchedulingTermsScore


def test_preferred_terms_report_every_parse_error() -> None:
    terms = [
        PreferredSchedulingTerm(1, T(match_fields=[R(NAME, "In", ["host_1", "host_2"])])),
        PreferredSchedulingTerm(
            1, T([R("label_1", "In", ["label_1_val"])], [R(NAME, "In", ["host_1"])])
        ),
        PreferredSchedulingTerm(1, T([R("invalid key", "In", ["label_value"])])),
    ]
    with pytest.raises(SelectorParseError) as raised:
        parse_preferred_terms(terms)
    assert [str(e) for e in raised.value.errors] == [
        '[0].matchFields[0].values: Invalid value: []string{"host_1", "host_2"}: '
        "must have one element",
        '[2].matchExpressions[0].key: Invalid value: "invalid key": ' + KEY_NAME_PART,
    ]


def test_preferred_term_without_weight_is_not_parsed() -> None:
    terms = [PreferredSchedulingTerm(0, T(match_fields=[R(NAME, "In", ["host_1", "host_2"])]))]
    assert parse_preferred_terms(terms).score(node("host_1")) == 0


def test_preferred_terms_score_the_weights_of_matching_terms() -> None:
    terms = [
        PreferredSchedulingTerm(5, T(match_fields=[R(NAME, "In", ["host_1"])])),
        PreferredSchedulingTerm(7, T([R("unknown_label", "In", ["unknown_label_val"])])),
        PreferredSchedulingTerm(11, T([R("label_1", "In", ["label_1_val"])])),
    ]
    target = node("host_1", {"label_1": "label_1_val"})
    assert parse_preferred_terms(terms).score(target) == 16


# TestNodeSelectorRequirementsAsSelector


def test_exists_with_values_does_not_parse() -> None:
    parsed = parse_label_requirement(R("foo", "Exists", ["bar", "baz"]), "root[0]")
    assert isinstance(parsed, list)
    assert [str(e) for e in parsed] == [
        'root[0].values: Invalid value: []string{"bar", "baz"}: '
        "values set must be empty for exists and does not exist"
    ]


@pytest.mark.parametrize(
    ("requirement", "parsed"),
    [
        (R("foo", "In", ["bar", "baz"]), LabelRequirement("foo", "In", frozenset({"bar", "baz"}))),
        (R("foo", "Gt", ["1"]), LabelRequirement("foo", "Gt", frozenset({"1"}), 1)),
        (R("bar", "Lt", ["7"]), LabelRequirement("bar", "Lt", frozenset({"7"}), 7)),
    ],
)
def test_valid_requirements_parse(requirement: R, parsed: LabelRequirement) -> None:
    assert parse_label_requirement(requirement, "root[0]") == parsed


# TestPodMatchesNodeSelectorAndAffinityTerms


def required(*terms: T) -> Spec:
    return Spec(required_during_scheduling_ignored_during_execution=NodeSelector(list(terms)))


def pod(affinity: Spec | None = None, selector: dict[str, str] | None = None) -> Pod:
    builder = make_pod("p").node_selector(selector or {})
    return (builder.node_affinity(affinity) if affinity else builder).obj()


@pytest.mark.parametrize(
    ("target_pod", "labels", "node_name", "want"),
    [
        pytest.param(pod(), {}, "", True, id="no selector"),
        pytest.param(pod(selector={"foo": "bar"}), {}, "", False, id="missing labels"),
        pytest.param(pod(selector={"foo": "bar"}), {"foo": "bar"}, "", True, id="same labels"),
        pytest.param(
            pod(selector={"foo": "bar"}),
            {"foo": "bar", "baz": "blah"},
            "",
            True,
            id="node labels are superset",
        ),
        pytest.param(
            pod(selector={"foo": "bar", "baz": "blah"}),
            {"foo": "bar"},
            "",
            False,
            id="node labels are subset",
        ),
        pytest.param(
            pod(required(T([R("foo", "In", ["bar", "value2"])]))),
            {"foo": "bar"},
            "",
            True,
            id="In operator that matches",
        ),
        pytest.param(
            pod(required(T([R("kernel-version", "Gt", ["0204"])]))),
            {"kernel-version": "0206"},
            "",
            True,
            id="Gt operator that matches",
        ),
        pytest.param(
            pod(required(T([R("mem-type", "NotIn", ["DDR", "DDR2"])]))),
            {"mem-type": "DDR3"},
            "",
            True,
            id="NotIn operator that matches",
        ),
        pytest.param(
            pod(required(T([R("GPU", "Exists")]))),
            {"GPU": "NVIDIA-GRID-K1"},
            "",
            True,
            id="Exists operator that matches",
        ),
        pytest.param(
            pod(required(T([R("foo", "In", ["value1", "value2"])]))),
            {"foo": "bar"},
            "",
            False,
            id="affinity that doesn't match node's labels",
        ),
        pytest.param(
            pod(required()),
            {"foo": "bar"},
            "",
            False,
            id="no NodeSelectorTerms (nil or empty) match nothing",
        ),
        pytest.param(
            pod(required(T(match_expressions=[]))),
            {"foo": "bar"},
            "",
            False,
            id="empty MatchExpressions match nothing",
        ),
        pytest.param(pod(), {"foo": "bar"}, "", True, id="no Affinity"),
        pytest.param(
            pod(Spec(required_during_scheduling_ignored_during_execution=None)),
            {"foo": "bar"},
            "",
            True,
            id="Affinity but nil NodeSelector",
        ),
        pytest.param(
            pod(required(T([R("GPU", "Exists"), R("GPU", "NotIn", ["AMD", "INTER"])]))),
            {"GPU": "NVIDIA-GRID-K1"},
            "",
            True,
            id="multiple matchExpressions ANDed that match",
        ),
        pytest.param(
            pod(required(T([R("GPU", "Exists"), R("GPU", "In", ["AMD", "INTER"])]))),
            {"GPU": "NVIDIA-GRID-K1"},
            "",
            False,
            id="multiple matchExpressions ANDed that don't match",
        ),
        pytest.param(
            pod(
                required(
                    T([R("foo", "In", ["bar", "value2"])]),
                    T([R("diffkey", "In", ["wrong", "value2"])]),
                )
            ),
            {"foo": "bar"},
            "",
            True,
            id="multiple NodeSelectorTerms ORed",
        ),
        pytest.param(
            pod(required(T([R("foo", "Exists")])), selector={"foo": "bar"}),
            {"foo": "bar"},
            "",
            True,
            id="Affinity and nodeSelector both satisfied",
        ),
        pytest.param(
            pod(required(T([R("foo", "Exists")])), selector={"foo": "bar"}),
            {"foo": "barrrrrr"},
            "",
            False,
            id="nodeSelector not satisfied",
        ),
        pytest.param(
            pod(required(T([R("foo", "NotIn", ["invalid value: ___@#$%^"])]))),
            {"foo": "bar"},
            "",
            False,
            id="invalid value in Affinity term",
        ),
        pytest.param(
            pod(required(T(match_fields=[R(NAME, "In", ["node_1"])]))),
            {},
            "node_1",
            True,
            id="matchFields In that matches",
        ),
        pytest.param(
            pod(required(T(match_fields=[R(NAME, "In", ["node_1"])]))),
            {},
            "node_2",
            False,
            id="matchFields In that does not match",
        ),
        pytest.param(
            pod(
                required(
                    T(match_fields=[R(NAME, "In", ["node_1"])]),
                    T([R("foo", "In", ["bar"])]),
                )
            ),
            {"foo": "bar"},
            "node_2",
            True,
            id="two terms: matchFields does not match, but matchExpressions matches",
        ),
        pytest.param(
            pod(required(T([R("foo", "In", ["bar"])], [R(NAME, "In", ["node_1"])]))),
            {"foo": "bar"},
            "node_2",
            False,
            id="one term: matchFields does not match, but matchExpressions matches",
        ),
        pytest.param(
            pod(required(T([R("foo", "In", ["bar"])], [R(NAME, "In", ["node_1"])]))),
            {"foo": "bar"},
            "node_1",
            True,
            id="one term: both matchFields and matchExpressions match",
        ),
        pytest.param(
            pod(
                required(
                    T(match_fields=[R(NAME, "In", ["node_1"])]),
                    T([R("foo", "In", ["not-match-to-bar"])]),
                )
            ),
            {"foo": "bar"},
            "node_2",
            False,
            id="two terms: both matchFields and matchExpressions do not match",
        ),
    ],
)
def test_pod_matches_node_selector_and_affinity_terms(
    target_pod: Pod, labels: dict[str, str], node_name: str, want: bool
) -> None:
    assert required_node_affinity(target_pod).matches(node(node_name, labels)) is want
