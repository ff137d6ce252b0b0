"""InterPodAffinity through the scheduler: the default profile spreads replicas with
required anti-affinity, co-locates pods with required affinity, and preemption's dry run
sees a victim's anti-affinity go away (RemovePod)."""

from __future__ import annotations

from kubesched.api import LabelSelector, Node, Pod
from kubesched.testing import make_node, make_pod, simulate

HOSTNAME = "kubernetes.io/hostname"
ZONE = "topology.kubernetes.io/zone"
WEB = {"app": "web"}


def _nodes(count: int, zones: int = 1) -> list[Node]:
    return [
        make_node(f"n{i}")
        .label(HOSTNAME, f"n{i}")
        .label(ZONE, f"z{i % zones}")
        .capacity(cpu="4", memory="8Gi")
        .obj()
        for i in range(count)
    ]


def _replica(i: int, priority: int = 0) -> Pod:
    return (
        make_pod(f"web-{i}")
        .namespace("default")
        .labels(WEB)
        .req(cpu="100m")
        .priority(priority)
        .pod_anti_affinity(HOSTNAME, LabelSelector(match_labels=WEB))
        .obj()
    )


def test_required_anti_affinity_spreads_replicas_one_per_node() -> None:
    run = simulate(_nodes(4), [_replica(i) for i in range(6)])
    placed = [node for node in run.placements.values() if node is not None]
    assert sorted(placed) == ["n0", "n1", "n2", "n3"]
    unplaced = [key for key, node in run.placements.items() if node is None]
    assert len(unplaced) == 2
    message = run.outcome(unplaced[0]).message
    assert message.startswith(
        "0/4 nodes are available: 4 node(s) didn't match pod anti-affinity rules."
    )


def test_required_affinity_follows_the_first_pod_into_its_zone() -> None:
    cache = make_pod("cache").namespace("default").labels({"app": "cache"}).req(cpu="1").obj()
    followers = [
        make_pod(f"api-{i}")
        .namespace("default")
        .req(cpu="100m")
        .pod_affinity(ZONE, LabelSelector(match_labels={"app": "cache"}))
        .obj()
        for i in range(5)
    ]
    run = simulate(_nodes(6, zones=3), [cache, *followers])
    cache_node = run.placements["default/cache"]
    assert cache_node is not None
    zone = f"z{int(cache_node[1:]) % 3}"
    for i in range(5):
        node = run.placements[f"default/api-{i}"]
        assert node is not None and f"z{int(node[1:]) % 3}" == zone


def test_preemption_removes_a_victim_whose_anti_affinity_blocks_the_pod() -> None:
    blocker = (
        make_pod("blocker")
        .namespace("default")
        .node("n0")
        .labels({"role": "blocker"})
        .req(cpu="100m")
        .priority(0)
        .pod_anti_affinity(HOSTNAME, LabelSelector(match_labels={"team": "x"}))
        .obj()
    )
    incoming = (
        make_pod("important")
        .namespace("default")
        .labels({"team": "x"})
        .req(cpu="100m")
        .priority(1000)
        .obj()
    )
    run = simulate(_nodes(1), [blocker, incoming])
    outcome = run.outcome("default/important")
    assert outcome.victims == ["default/blocker"]
    assert outcome.nominated_node == "n0"


def test_matching_pod_in_another_namespace_does_not_block() -> None:
    other = make_pod("other").namespace("tenant-b").node("n0").labels(WEB).req(cpu="100m").obj()
    pod = (
        make_pod("web")
        .namespace("default")
        .labels(WEB)
        .req(cpu="100m")
        .pod_anti_affinity(HOSTNAME, LabelSelector(match_labels=WEB))
        .obj()
    )
    run = simulate(_nodes(1), [other, pod])
    assert run.placements["default/web"] == "n0"
