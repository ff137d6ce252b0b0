"""InterPodAffinity PreScore, Score and NormalizeScore: upstream's TestPreferredAffinity and
TestPreferredAffinityWithHardPodAffinitySymmetricWeight tables (exact scores).

Each case also runs the batch Score, which must give the same raw scores.
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
    weighted,
)

from kubesched.api import Node, Pod
from kubesched.errors import PluginError
from kubesched.testing import assert_batch_agrees, run_score
from kubesched_interpodaffinity import InterPodAffinity, InterPodAffinityArgs

S1 = {"security": "S1"}
S2 = {"security": "S2"}
CHINA = {"region": "China"}
INDIA = {"region": "India"}
AZ1 = {"az": "az1"}
AZ2 = {"az": "az2"}
CHINA_AZ1 = {"region": "China", "az": "az1"}


def _sec(op: str, *values: str) -> tuple[str, str, list[str]]:
    return ("security", op, list(values))


WITH_S1_IN_REGION = affinity(preferred=[weighted(5, term("region", _sec(IN, "S1")))])
WITH_S2_IN_REGION = affinity(preferred=[weighted(6, term("region", _sec(IN, "S2")))])
AFFINITY3 = affinity(
    preferred=[
        weighted(8, term("region", _sec(NOT_IN, "S1"), _sec(IN, "S2"))),
        weighted(2, term("region", _sec(EXISTS), ("wrongkey", DOES_NOT_EXIST, []))),
    ]
)
HARD = affinity(
    [
        term("region", _sec(IN, "S1", "value2")),
        term("region", _sec(EXISTS), ("wrongkey", DOES_NOT_EXIST, [])),
    ]
)
AWAY_FROM_S1_IN_AZ = affinity(preferred_anti=[weighted(5, term("az", _sec(IN, "S1")))])
AWAY_FROM_S2_IN_AZ = affinity(preferred_anti=[weighted(5, term("az", _sec(IN, "S2")))])
WITH_S1_AWAY_FROM_S2 = affinity(
    preferred=[weighted(8, term("region", _sec(IN, "S1")))],
    preferred_anti=[weighted(5, term("az", _sec(IN, "S2")))],
)
NS_TERM = term("region", _sec(IN, "S1"), namespaces=["subteam2.team2"], namespace_selector=TEAM1)
NS_AFFINITY = affinity(preferred=[weighted(5, NS_TERM)])
NS_ANTI_AFFINITY = affinity(preferred_anti=[weighted(5, NS_TERM)])
SKIPPED: dict[str, int] = {}


class Case(NamedTuple):
    pod: Pod
    pods: list[Pod]
    nodes: list[Node]
    want: dict[str, int]
    ignore_existing: bool = False


def _nodes(*labels: dict[str, str]) -> list[Node]:
    return [node(f"node{i}", lab) for i, lab in enumerate(labels, start=1)]


def _scores(*values: int) -> dict[str, int]:
    return {f"node{i}": v for i, v in enumerate(values, start=1)}


TEAM_PODS = [
    pod(S1, node_name="node1", namespace="subteam1.team1"),
    pod(S1, node_name="node1", namespace="subteam1.team1"),
]

PREFERRED = {
    "no affinity anywhere: skipped": Case(pod(S1), [], _nodes(CHINA, INDIA, AZ1), SKIPPED),
    "affinity: the matching domain scores high": Case(
        pod(S1, aff=WITH_S1_IN_REGION),
        [pod(S1, node_name="node1"), pod(S2, node_name="node2"), pod(S1, node_name="node3")],
        _nodes(CHINA, INDIA, AZ1),
        _scores(100, 0, 0),
    ),
    "affinity: every node of the domain scores the same": Case(
        pod(aff=WITH_S1_IN_REGION),
        [pod(S1, node_name="node1")],
        _nodes(CHINA, CHINA_AZ1, INDIA),
        _scores(100, 100, 0),
    ),
    "affinity: the domain with more matches scores high": Case(
        pod(S1, aff=WITH_S2_IN_REGION),
        [pod(S2, node_name=f"node{i}") for i in (1, 1, 2, 3, 4, 5)],
        _nodes(CHINA, INDIA, CHINA, CHINA, INDIA),
        _scores(100, 0, 100, 100, 0),
    ),
    "affinity: operators and partial matches": Case(
        pod(S1, aff=AFFINITY3),
        [pod(S1, node_name="node1"), pod(S2, node_name="node2"), pod(S1, node_name="node3")],
        _nodes(CHINA, INDIA, AZ1),
        _scores(20, 100, 0),
    ),
    "symmetry: existing pods' preferred affinity": Case(
        pod(S2),
        [
            pod(S1, node_name="node1", aff=WITH_S1_IN_REGION),
            pod(S2, node_name="node2", aff=WITH_S2_IN_REGION),
        ],
        _nodes(CHINA, INDIA, AZ1),
        _scores(0, 100, 0),
    ),
    "symmetry: affinity with a namespace selector": Case(
        pod(S1, namespace="subteam1.team1"),
        [
            pod(S1, node_name="node1", aff=NS_AFFINITY),
            pod(S2, node_name="node2", aff=WITH_S2_IN_REGION),
        ],
        _nodes(CHINA, INDIA, AZ1),
        _scores(100, 0, 0),
    ),
    "symmetry: anti-affinity with a namespace selector": Case(
        pod(S1, namespace="subteam1.team1"),
        [
            pod(S1, node_name="node1", aff=NS_ANTI_AFFINITY),
            pod(S2, node_name="node2", aff=WITH_S2_IN_REGION),
        ],
        _nodes(CHINA, INDIA, AZ1),
        _scores(0, 100, 100),
    ),
    "symmetry: existing pods' required affinity": Case(
        pod(S1),
        [pod(S1, node_name="node1", aff=HARD), pod(S2, node_name="node2", aff=HARD)],
        _nodes(CHINA, INDIA, AZ1),
        _scores(100, 100, 0),
    ),
    "anti-affinity: a node without matching pods scores high": Case(
        pod(S1, aff=AWAY_FROM_S1_IN_AZ),
        [pod(S1, node_name="node1"), pod(S2, node_name="node2")],
        _nodes(AZ1, CHINA),
        _scores(0, 100),
    ),
    "anti-affinity: a node without the topology key scores high": Case(
        pod(S1, aff=AWAY_FROM_S1_IN_AZ),
        [pod(S1, node_name="node1"), pod(S1, node_name="node2")],
        _nodes(AZ1, CHINA),
        _scores(0, 100),
    ),
    "anti-affinity: more matches score lower": Case(
        pod(S1, aff=AWAY_FROM_S1_IN_AZ),
        [pod(S1, node_name="node1"), pod(S1, node_name="node1"), pod(S2, node_name="node2")],
        _nodes(AZ1, INDIA),
        _scores(0, 100),
    ),
    "anti-affinity symmetry": Case(
        pod(S2),
        [
            pod(S1, node_name="node1", aff=AWAY_FROM_S2_IN_AZ),
            pod(S2, node_name="node2", aff=AWAY_FROM_S1_IN_AZ),
        ],
        _nodes(AZ1, AZ2),
        _scores(0, 100),
    ),
    "affinity and anti-affinity": Case(
        pod(S1, aff=WITH_S1_AWAY_FROM_S2),
        [pod(S1, node_name="node1"), pod(S1, node_name="node2")],
        _nodes(CHINA, AZ1),
        _scores(100, 0),
    ),
    "affinity and anti-affinity, same labels on both sides": Case(
        pod(S1, aff=WITH_S1_AWAY_FROM_S2),
        [pod(S1, node_name=f"node{i}") for i in (1, 1, 2, 3, 3, 4, 5)],
        _nodes(CHINA_AZ1, INDIA, CHINA, CHINA, INDIA),
        _scores(100, 0, 100, 100, 0),
    ),
    "affinity, anti-affinity and symmetry": Case(
        pod(S1, aff=WITH_S1_AWAY_FROM_S2),
        [
            pod(S1, node_name="node1"),
            pod(S2, node_name="node2"),
            pod(node_name="node3", aff=WITH_S1_AWAY_FROM_S2),
            pod(node_name="node4", aff=AWAY_FROM_S1_IN_AZ),
        ],
        _nodes(CHINA, AZ1, INDIA, AZ2),
        _scores(100, 0, 100, 0),
    ),
    "only some nodes of a domain have pods with affinity": Case(
        pod(S1),
        [pod(S1, node_name="node1"), pod(node_name="node2", aff=WITH_S1_AWAY_FROM_S2)],
        _nodes(CHINA, CHINA),
        _scores(0, 0),
    ),
    "affinity with pods matching the namespaceSelector": Case(
        pod(S1, namespace="subteam1.team1", aff=NS_AFFINITY),
        [
            *TEAM_PODS,
            pod(S1, node_name="node1", namespace="subteam1.team2"),
            pod(S1, node_name="node2", namespace="subteam2.team1"),
        ],
        _nodes(CHINA, INDIA),
        _scores(100, 0),
    ),
    "affinity with pods matching namespaceSelector and namespaces": Case(
        pod(S1, namespace="subteam1.team1", aff=NS_AFFINITY),
        [
            *TEAM_PODS,
            pod(S1, node_name="node1", namespace="subteam2.team2"),
            pod(S1, node_name="node2", namespace="subteam2.team1"),
        ],
        _nodes(CHINA, INDIA),
        _scores(100, 0),
    ),
    "anti-affinity with pods matching the namespaceSelector": Case(
        pod(S1, namespace="subteam1.team1", aff=NS_ANTI_AFFINITY),
        [
            *TEAM_PODS,
            pod(S1, node_name="node1", namespace="subteam1.team2"),
            pod(S1, node_name="node2", namespace="subteam2.team1"),
        ],
        _nodes(CHINA, INDIA),
        _scores(0, 100),
    ),
    "ignore preferred terms of existing pods: skipped": Case(
        pod(S2),
        [
            pod(S1, node_name="node1", aff=WITH_S1_AWAY_FROM_S2),
            pod(S2, node_name="node2", aff=WITH_S2_IN_REGION),
        ],
        _nodes(CHINA, INDIA),
        SKIPPED,
        ignore_existing=True,
    ),
    "do not ignore preferred terms of existing pods": Case(
        pod(S2),
        [
            pod(S1, node_name="node1", aff=WITH_S1_AWAY_FROM_S2),
            pod(S2, node_name="node2", aff=WITH_S2_IN_REGION),
        ],
        _nodes(CHINA, INDIA),
        _scores(0, 100),
    ),
    "no nodes to score: skipped": Case(pod(S2), [], [], SKIPPED),
}


@pytest.mark.parametrize("case", PREFERRED.values(), ids=PREFERRED.keys())
def test_preferred_affinity(case: Case) -> None:
    args = InterPodAffinityArgs(1, case.ignore_existing)
    kwargs = {"pods": case.pods, "namespaces": NAMESPACES}
    assert run_score(InterPodAffinity, case.pod, case.nodes, args, **kwargs) == case.want
    if case.want:
        assert_batch_agrees(InterPodAffinity, case.pod, case.nodes, args, **kwargs)


@pytest.mark.parametrize("anti", [False, True], ids=["affinity", "anti-affinity"])
def test_invalid_preferred_terms_fail_pre_score(anti: bool) -> None:
    bad = weighted(8, term("region", _sec(IN, "{{.bad-value.}}")))
    aff = affinity(preferred_anti=[bad]) if anti else affinity(preferred=[bad])
    with pytest.raises(PluginError, match="bad-value"):
        run_score(InterPodAffinity, pod(aff=aff), _nodes(CHINA, CHINA))


HARD_NS = affinity(
    [
        term(
            "region",
            ("service", IN, ["S1"]),
            namespaces=["", "subteam2.team2"],
            namespace_selector=TEAM1,
        )
    ]
)
SERVICE_S1 = {"service": "S1"}

HARD_WEIGHT = {
    "default weight": (1, "", _scores(100, 100, 0)),
    "zero weight: skipped": (0, "", SKIPPED),
    "no matching namespace: skipped": (1, "subteam1.team2", SKIPPED),
    "matching namespaceSelector": (1, "subteam1.team1", _scores(100, 100, 0)),
    "matching namespaces": (1, "subteam2.team2", _scores(100, 100, 0)),
}


@pytest.mark.parametrize(("weight", "namespace", "want"), HARD_WEIGHT.values(), ids=HARD_WEIGHT)
def test_hard_pod_affinity_weight(weight: int, namespace: str, want: dict[str, int]) -> None:
    pods = [pod(node_name="node1", aff=HARD_NS), pod(node_name="node2", aff=HARD_NS)]
    incoming = pod(SERVICE_S1, namespace=namespace)
    args = InterPodAffinityArgs(hard_pod_affinity_weight=weight)
    got = run_score(
        InterPodAffinity,
        incoming,
        _nodes(CHINA, INDIA, AZ1),
        args,
        pods=pods,
        namespaces=NAMESPACES,
    )
    assert got == want
