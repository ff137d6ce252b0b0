"""InterPodAffinity PreFilter and Filter: upstream's TestRequiredAffinitySingleNode and
TestRequiredAffinityMultipleNodes tables (reason strings and codes).

Each case also runs the batch Filter, which must pass exactly the nodes Filter passes.
"""

from __future__ import annotations

from typing import NamedTuple

import pytest
from ipa_testlib import (
    DOES_NOT_EXIST,
    EXISTS,
    IN,
    NAMESPACES,
    NOT_IN,
    TEAM1,
    affinity,
    node,
    pod,
    term,
)

from kubesched.api import Affinity, LabelSelector, Node, Pod
from kubesched.framework import Code, CycleState, NodeInfo, Status
from kubesched.testing import PluginHarness, assert_batch_agrees
from kubesched_interpodaffinity import InterPodAffinity

AFF = Status(Code.UNSCHEDULABLE_AND_UNRESOLVABLE, "node(s) didn't match pod affinity rules")
ANTI = Status(Code.UNSCHEDULABLE, "node(s) didn't match pod anti-affinity rules")
EXISTING = Status(Code.UNSCHEDULABLE, "node(s) didn't satisfy existing pods anti-affinity rules")
SKIP = "skip"

SERVICE = {"service": "securityscan"}
S1 = {"security": "S1"}
NODE1 = node("node1", {"region": "r1", "zone": "z11"})
ON_NODE1 = pod(SERVICE, node_name="node1")


def svc_in(key: str, *values: str) -> tuple[str, str, list[str]]:
    return (key, IN, list(values))


def exists(key: str) -> tuple[str, str, list[str]]:
    return (key, EXISTS, [])


class Case(NamedTuple):
    pod: Pod
    pods: list[Pod]
    nodes: list[Node]
    want: list[Status | None] | str


SINGLE = {
    "no required rules, no pods: skipped": Case(pod(), [], [NODE1], SKIP),
    "affinity In matches the existing pod": Case(
        pod(S1, aff=affinity([term("region", svc_in("service", "securityscan", "value2"))])),
        [ON_NODE1],
        [NODE1],
        [None],
    ),
    "affinity NotIn matches the existing pod": Case(
        pod(S1, aff=affinity([term("region", ("service", NOT_IN, ["securityscan3", "v3"]))])),
        [ON_NODE1],
        [NODE1],
        [None],
    ),
    "affinity in another namespace": Case(
        pod(
            S1,
            aff=affinity(
                [term("", svc_in("service", "securityscan", "value2"), namespaces=["DiffNS"])]
            ),
        ),
        [pod(SERVICE, node_name="node1", namespace="ns")],
        [NODE1],
        [AFF],
    ),
    "affinity selector does not match the existing pod": Case(
        pod(SERVICE, aff=affinity([term("", svc_in("service", "antivirusscan", "value2"))])),
        [ON_NODE1],
        [NODE1],
        [AFF],
    ),
    "several terms with different operators all match": Case(
        pod(
            S1,
            aff=affinity(
                [
                    term("region", exists("service"), ("wrongkey", DOES_NOT_EXIST, [])),
                    term("region", svc_in("service", "securityscan"), ("service", NOT_IN, ["W"])),
                ]
            ),
        ),
        [ON_NODE1],
        [NODE1],
        [None],
    ),
    "requirements are ANDed: one does not match": Case(
        pod(
            S1,
            aff=affinity(
                [
                    term("region", exists("service"), ("wrongkey", DOES_NOT_EXIST, [])),
                    term("region", svc_in("service", "securityscan2"), ("service", NOT_IN, ["W"])),
                ]
            ),
        ),
        [ON_NODE1],
        [NODE1],
        [AFF],
    ),
    "affinity and anti-affinity both satisfied": Case(
        pod(
            S1,
            aff=affinity(
                [term("region", svc_in("service", "securityscan", "value2"))],
                [term("node", svc_in("service", "antivirusscan", "value2"))],
            ),
        ),
        [ON_NODE1],
        [NODE1],
        [None],
    ),
    "affinity satisfied, anti-affinity not": Case(
        pod(
            S1,
            aff=affinity(
                [term("region", svc_in("service", "securityscan", "value2"))],
                [term("zone", svc_in("service", "securityscan", "value2"))],
            ),
        ),
        [ON_NODE1],
        [NODE1],
        [ANTI],
    ),
    "existing pod's anti-affinity selects the pod": Case(
        pod(
            SERVICE,
            aff=affinity(
                [term("region", svc_in("service", "securityscan", "value2"))],
                [term("node", svc_in("service", "antivirusscan", "value2"))],
            ),
        ),
        [
            pod(
                SERVICE,
                node_name="node1",
                aff=affinity(anti=[term("zone", svc_in("service", "securityscan", "value2"))]),
            )
        ],
        [NODE1],
        [EXISTING],
    ),
    "pod does not match its own affinity, the matching pod is elsewhere": Case(
        pod(SERVICE, aff=affinity([term("region", ("service", NOT_IN, ["securityscan", "v2"]))])),
        [pod(SERVICE, node_name="node2")],
        [NODE1],
        [AFF],
    ),
    "existing anti-affinity respected without rules of its own": Case(
        pod(SERVICE),
        [
            pod(
                SERVICE,
                node_name="node1",
                aff=affinity(anti=[term("zone", svc_in("service", "securityscan", "value2"))]),
            )
        ],
        [NODE1],
        [EXISTING],
    ),
    "existing anti-affinity that does not select the pod: skipped": Case(
        pod(SERVICE),
        [
            pod(
                SERVICE,
                node_name="node1",
                aff=affinity(anti=[term("zone", ("service", NOT_IN, ["securityscan", "value2"]))]),
            )
        ],
        [NODE1],
        SKIP,
    ),
    "symmetry a1: partial matches, the incoming pod's anti-affinity rejects": Case(
        pod(
            SERVICE,
            aff=affinity(anti=[term("zone", exists("service")), term("zone", exists("security"))]),
        ),
        [pod(S1, node_name="node1", aff=affinity(anti=[term("zone", exists("security"))]))],
        [NODE1],
        [ANTI],
    ),
    "symmetry a2: partial matches, the existing pod's anti-affinity rejects": Case(
        pod(S1, aff=affinity(anti=[term("zone", exists("security"))])),
        [
            pod(
                SERVICE,
                node_name="node1",
                aff=affinity(
                    anti=[term("zone", exists("service")), term("zone", exists("security"))]
                ),
            )
        ],
        [NODE1],
        [EXISTING],
    ),
    "affinity with a namespaceSelector that matches": Case(
        pod(
            S1,
            aff=affinity(
                [
                    term(
                        "region",
                        svc_in("service", "securityscan", "value2"),
                        namespace_selector=TEAM1,
                    )
                ]
            ),
        ),
        [pod(SERVICE, node_name="node1", namespace="subteam1.team1")],
        [NODE1],
        [None],
    ),
    "affinity with a namespaceSelector that does not match": Case(
        pod(
            S1,
            aff=affinity(
                [
                    term(
                        "region",
                        svc_in("service", "securityscan", "value2"),
                        namespace_selector=TEAM1,
                    )
                ]
            ),
        ),
        [pod(SERVICE, node_name="node1", namespace="subteam1.team2")],
        [NODE1],
        [AFF],
    ),
    "anti-affinity with a namespaceSelector that matches": Case(
        pod(
            S1,
            namespace="subteam1.team1",
            aff=affinity(
                anti=[
                    term(
                        "zone",
                        svc_in("service", "securityscan", "value2"),
                        namespace_selector=TEAM1,
                    )
                ]
            ),
        ),
        [pod(SERVICE, node_name="node1", namespace="subteam2.team1")],
        [NODE1],
        [ANTI],
    ),
    "anti-affinity with an empty namespaceSelector (all namespaces)": Case(
        pod(
            S1,
            namespace="subteam1.team1",
            aff=affinity(
                anti=[
                    term(
                        "zone",
                        svc_in("service", "securityscan", "value2"),
                        namespace_selector=LabelSelector(),
                    )
                ]
            ),
        ),
        [pod(SERVICE, node_name="node1", namespace="subteam2.team1")],
        [NODE1],
        [ANTI],
    ),
    "anti-affinity with a namespaceSelector that does not match": Case(
        pod(
            S1,
            namespace="subteam1.team1",
            aff=affinity(
                anti=[
                    term(
                        "zone",
                        svc_in("service", "securityscan", "value2"),
                        namespace_selector=TEAM1,
                    )
                ]
            ),
        ),
        [pod(SERVICE, node_name="node1", namespace="subteam1.team2")],
        [NODE1],
        [None],
    ),
}

CHINA = {"region": "China"}
CHINA_AZ1 = {"region": "China", "az": "az1"}
INDIA = {"region": "India"}
FOO_BAR = {"foo": "bar"}

MULTIPLE = {
    "nodes sharing the domain of a matching pod pass": Case(
        pod(aff=affinity([term("region", svc_in("foo", "bar"))])),
        [pod(FOO_BAR, node_name="node1")],
        [node("node1", CHINA), node("node2", CHINA_AZ1), node("node3", INDIA)],
        [None, None, AFF],
    ),
    "the first pod of a group is not blocked": Case(
        pod(
            {"foo": "bar", "service": "securityscan"},
            aff=affinity(
                [
                    term("zone", svc_in("foo", "bar")),
                    term("zone", svc_in("service", "securityscan")),
                ]
            ),
        ),
        [pod(FOO_BAR, node_name="nodeA")],
        [node("nodeA", {"zone": "az1", "hostname": "h1"}), node("nodeB", {"zone": "az2"})],
        [None, None],
    ),
    "the first pod of a group needs the topology labels": Case(
        pod(
            {"foo": "bar", "service": "securityscan"},
            aff=affinity(
                [
                    term("zone", svc_in("foo", "bar")),
                    term("zone", svc_in("service", "securityscan")),
                ]
            ),
        ),
        [pod(FOO_BAR, node_name="nodeA")],
        [node("nodeA", {"zoneLabel": "az1"}), node("nodeB", {"zoneLabel": "az2"})],
        [AFF, AFF],
    ),
    "anti-affinity rejects every node of the domain": Case(
        pod(aff=affinity(anti=[term("region", svc_in("foo", "abc"))])),
        [pod({"foo": "abc"}, node_name="nodeA")],
        [node("nodeA", {"region": "r1"}), node("nodeB", {"region": "r1"})],
        [ANTI, ANTI],
    ),
    "any anti-affinity term matching is enough": Case(
        pod(
            aff=affinity(
                anti=[term("region", svc_in("foo", "abc")), term("zone", svc_in("service", "s"))]
            )
        ),
        [pod({"foo": "abc", "service": "s"}, node_name="nodeA")],
        [
            node("nodeA", {"region": "r1", "zone": "z1"}),
            node("nodeB", {"region": "r1", "zone": "z2"}),
        ],
        [ANTI, ANTI],
    ),
    "anti-affinity: other domains pass": Case(
        pod(aff=affinity(anti=[term("region", svc_in("foo", "abc"))])),
        [pod({"foo": "abc"}, node_name="nodeA")],
        [node("nodeA", CHINA), node("nodeB", CHINA_AZ1), node("nodeC", INDIA)],
        [ANTI, ANTI, None],
    ),
    "anti-affinity of a pod in another namespace does not apply": Case(
        pod(
            {"foo": "123"},
            namespace="NS1",
            aff=affinity(anti=[term("region", svc_in("foo", "bar"))]),
        ),
        [
            pod(FOO_BAR, node_name="nodeA", namespace="NS1"),
            pod(
                node_name="nodeC",
                namespace="NS2",
                aff=affinity(anti=[term("region", svc_in("foo", "123"))]),
            ),
        ],
        [node("nodeA", CHINA), node("nodeB", CHINA_AZ1), node("nodeC", INDIA)],
        [ANTI, ANTI, None],
    ),
    "existing anti-affinity on a topology key no node has: skipped": Case(
        pod({"foo": ""}),
        [pod(node_name="nodeA", aff=affinity(anti=[term("invalid-node-label", exists("foo"))]))],
        [node("nodeA", {"region": "r1"}), node("nodeB", {"region": "r1"})],
        SKIP,
    ),
    "incoming anti-affinity on a topology key no node has": Case(
        pod(aff=affinity(anti=[term("invalid-node-label", exists("foo"))])),
        [pod({"foo": ""}, node_name="nodeA")],
        [node("nodeA", {"region": "r1"}), node("nodeB", {"region": "r1"})],
        [None, None],
    ),
    "existing pods' anti-affinity on two keys": Case(
        pod({"foo": "", "bar": ""}),
        [
            pod(node_name="nodeA", aff=affinity(anti=[term("zone", exists("foo"))])),
            pod(node_name="nodeA", aff=affinity(anti=[term("region", exists("bar"))])),
        ],
        [
            node("nodeA", {"region": "r1", "zone": "z1"}),
            node("nodeB", {"region": "r1", "zone": "z2"}),
        ],
        [EXISTING, EXISTING],
    ),
    "affinity terms must match one and the same pod": Case(
        pod(aff=affinity([term("region", exists("foo")), term("zone", exists("bar"))])),
        [pod({"foo": ""}, node_name="nodeA"), pod({"bar": ""}, node_name="nodeB")],
        [
            node("nodeA", {"region": "r1", "zone": "z1"}),
            node("nodeB", {"region": "r1", "zone": "z2"}),
        ],
        [AFF, AFF],
    ),
}


def _plain(status: Status | None) -> tuple[Code, tuple[str, ...]] | None:
    return None if status is None else (status.code, status.reasons)


def _run(case: Case) -> None:
    harness = PluginHarness(
        InterPodAffinity, nodes=case.nodes, pods=case.pods, namespaces=NAMESPACES
    )
    assert harness.pre_filter(case.pod) is None
    skipped = "InterPodAffinity" in harness.state.skip_filter_plugins
    if case.want == SKIP:
        assert skipped
        return
    assert not skipped
    got = {name: _plain(s) for name, s in harness.filter(case.pod).items()}
    want = [_plain(s) for s in case.want]
    assert got == dict(zip([n.metadata.name for n in case.nodes], want, strict=True))
    assert_batch_agrees(
        InterPodAffinity, case.pod, case.nodes, pods=case.pods, namespaces=NAMESPACES
    )


@pytest.mark.parametrize("case", SINGLE.values(), ids=SINGLE.keys())
def test_required_affinity_single_node(case: Case) -> None:
    _run(case)


@pytest.mark.parametrize("case", MULTIPLE.values(), ids=MULTIPLE.keys())
def test_required_affinity_multiple_nodes(case: Case) -> None:
    _run(case)


def test_filter_without_pre_filter_is_an_error() -> None:
    plugin = InterPodAffinity(None, None)  # type: ignore[arg-type]
    status = plugin.filter(CycleState(), NodeInfo(NODE1))
    assert status is not None and status.code == Code.ERROR
    assert status.message == 'error reading "PreFilterInterPodAffinity" from cycleState: not found'


BAD_VALUE = (
    'Invalid value: "{{.bad-value.}}": a valid label must be an empty string or consist of '
    "alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric "
    "character (e.g. 'MyValue',  or 'my_value',  or '12345', regex used for validation is "
    "'(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?')"
)
BAD = "{{.bad-value.}}"

INVALID_SELECTORS = {
    # upstream's TestRequiredAffinitySingleNode: the first term is the bad one
    "PodAffinity fails PreFilter with an invalid affinity label syntax": (
        affinity([term("region", svc_in("service", BAD)), term("node", svc_in("service", "a"))]),
        f"requiredAffinityTerms: values[0][service]: {BAD_VALUE}",
    ),
    # upstream's case of this name builds two affinity terms, the second one bad
    "PodAntiAffinity fails PreFilter with an invalid antiaffinity label syntax": (
        affinity([term("region", svc_in("service", "foo")), term("node", svc_in("service", BAD))]),
        f"requiredAffinityTerms: values[0][service]: {BAD_VALUE}",
    ),
    "a bad anti-affinity term names its own group": (
        affinity(anti=[term("region", svc_in("service", "ok", BAD))]),
        f"requiredAntiAffinityTerms: values[1][service]: {BAD_VALUE}",
    ),
    "several groups join as an aggregate, each at its first bad term": (
        affinity(
            [term("zone", svc_in("service", BAD)), term("zone", ("service", IN, []))],
            anti=[term("zone", ("k", EXISTS, ["x"]))],
        ),
        f"[requiredAffinityTerms: values[0][service]: {BAD_VALUE}, requiredAntiAffinityTerms: "
        'values: Invalid value: []string{"x"}: values set must be empty for exists and does '
        "not exist]",
    ),
    "a bad key and a bad value of one requirement join": (
        affinity([term("zone", ("a b", IN, [BAD]))]),
        'requiredAffinityTerms: [key: Invalid value: "a b": name part must consist of '
        "alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric "
        "character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is "
        "'([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]'), values[0][a b]: " + BAD_VALUE + "]",
    ),
    "an unknown operator": (
        affinity([term("zone", ("k", "Gt", ["1"]))]),
        'requiredAffinityTerms: "Gt" is not a valid label selector operator',
    ),
}


@pytest.mark.parametrize(
    ("aff", "message"), INVALID_SELECTORS.values(), ids=INVALID_SELECTORS.keys()
)
def test_invalid_selector_fails_pre_filter(aff: Affinity, message: str) -> None:
    """Upstream's message: `parsing pod: <group>: <labels.NewRequirement's error>`, the
    requirement's paths relative to it (`values[<i>][<key>]`)."""
    harness = PluginHarness(InterPodAffinity, nodes=[NODE1])
    status = harness.pre_filter(pod(SERVICE, aff=aff))
    assert status == Status(
        Code.UNSCHEDULABLE_AND_UNRESOLVABLE, f"parsing pod: {message}", plugin="InterPodAffinity"
    )
