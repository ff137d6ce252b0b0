"""The nominator: override, keep-as-is (None), clearing, updates and liveness checks."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from kubesched.api import Pod
from kubesched.framework import PodInfo
from kubesched.scheduler.nominator import Nominator
from kubesched.testing import make_pod


def _names(nominator: Nominator, node: str) -> list[str]:
    return [pi.pod.metadata.name for pi in nominator.nominated_pods_for_node(node)]


def test_override_moves_and_empty_clears() -> None:
    nominator = Nominator()
    p = PodInfo(make_pod("p").obj())
    nominator.add_nominated_pod(p, "n1")
    nominator.add_nominated_pod(PodInfo(make_pod("q").obj()), "n1")
    assert _names(nominator, "n1") == ["p", "q"]
    nominator.add_nominated_pod(p, "n2")
    assert _names(nominator, "n1") == ["q"] and _names(nominator, "n2") == ["p"]
    nominator.add_nominated_pod(p, "")
    assert _names(nominator, "n2") == [] and sorted(nominator.nominated_node_names()) == ["n1"]


def test_none_keeps_the_pods_own_nominated_node_name() -> None:
    nominator = Nominator()
    nominator.add_nominated_pod(PodInfo(make_pod("p").nominated_node_name("n3").obj()), None)
    nominator.add_nominated_pod(PodInfo(make_pod("q").obj()), None)
    assert _names(nominator, "n3") == ["p"] and len(nominator) == 1


def test_pods_gone_or_bound_are_not_nominated() -> None:
    live: dict[str, Pod] = {}
    nominator = Nominator(lambda pod: live.get(pod.uid))
    gone, bound = make_pod("gone").obj(), make_pod("bound").obj()
    live[bound.uid] = make_pod("bound").node("n1").obj()
    nominator.add_nominated_pod(PodInfo(gone), "n1")
    nominator.add_nominated_pod(PodInfo(bound), "n1")
    assert _names(nominator, "n1") == []


def test_update_keeps_an_in_memory_nomination_the_update_lacks() -> None:
    nominator = Nominator()
    old = make_pod("p").obj()
    nominator.add_nominated_pod(PodInfo(old), "n1")
    new = make_pod("p").label("a", "b").obj()
    nominator.update_nominated_pod(old, PodInfo(new))
    [info] = nominator.nominated_pods_for_node("n1")
    assert info.pod is new
    moved = make_pod("p").nominated_node_name("n2").obj()
    nominator.update_nominated_pod(new, PodInfo(moved))
    assert _names(nominator, "n1") == [] and _names(nominator, "n2") == ["p"]


_PODS = [PodInfo(make_pod(f"p{i}").priority(i % 3).obj()) for i in range(6)]
_NODES = ["n1", "n2", "n3"]


@settings(max_examples=150, deadline=None)
@given(
    st.lists(
        st.tuples(st.integers(0, len(_PODS) - 1), st.sampled_from([*_NODES, ""])), max_size=12
    ),
    st.integers(0, len(_PODS) - 1),
    st.integers(-1, 3),
)
def test_counted_for_is_every_nodes_filtered_nominations_after_any_changes(
    moves: list[tuple[int, str]], asking: int, priority: int
) -> None:
    """`counted_for` (cached between changes) equals, node by node, the nominated pods of
    priority at least the asking pod's, the pod itself left out."""
    nominator = Nominator()
    pods = [*_PODS, PodInfo(make_pod("other").priority(priority).obj())]
    for pod, node in moves:
        nominator.counted_for(pods[asking].pod)  # filled, then invalidated by the change
        nominator.add_nominated_pod(_PODS[pod], node)
    for asker in (pods[asking].pod, pods[-1].pod):
        expected = {
            node: [
                p
                for p in nominator.nominated_pods_for_node(node)
                if p.priority >= asker.priority and p.uid != asker.uid
            ]
            for node in _NODES
        }
        counted = nominator.counted_for(asker)
        assert {n: counted.get(n, []) for n in _NODES} == expected
        assert all(counted.values())  # nodes with none are left out
