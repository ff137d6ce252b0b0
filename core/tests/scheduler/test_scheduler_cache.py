"""Cache and snapshot: assume/forget/confirm, ghost nodes, incremental copies, node order."""

from __future__ import annotations

import pytest

from kubesched.api import CPU, Pod
from kubesched.scheduler.cache import Cache, CacheError
from kubesched.scheduler.snapshot import Snapshot
from kubesched.testing import make_node, make_pod


def _bound(name: str, node: str, cpu: str = "100m") -> Pod:
    return make_pod(name).req(cpu=cpu).node(node).obj()


def _cache(*zones: str) -> Cache:
    cache = Cache()
    for i, zone in enumerate(zones):
        node = make_node(f"n{i}").label("topology.kubernetes.io/zone", zone)
        cache.add_node(node.capacity(cpu="4", memory="8Gi", pods=10).obj())
    return cache


def test_assume_then_confirm_then_remove() -> None:
    cache, snapshot = _cache("a"), Snapshot()
    pod = _bound("p", "n0")
    cache.assume_pod(pod)
    assert cache.is_assumed(pod) and cache.num_assumed_pods == 1
    cache.finish_binding(pod)
    assert cache.is_assumed(pod), "assumed pods never expire"
    cache.add_pod(pod)
    assert not cache.is_assumed(pod) and cache.num_pods == 1
    cache.update_snapshot(snapshot)
    info = snapshot.get("n0")
    assert info is not None and info.requested[CPU] == 100
    cache.remove_pod(pod)
    cache.update_snapshot(snapshot)
    info = snapshot.get("n0")
    assert info is not None and info.requested.get(CPU, 0) == 0 and not info.pods


def test_forget_undoes_assume_and_errors_name_the_pod() -> None:
    cache = _cache("a")
    pod = _bound("p", "n0")
    cache.add_pod(pod)
    with pytest.raises(CacheError, match="wasn't assumed"):
        cache.forget_pod(pod)
    with pytest.raises(CacheError, match="already in added state"):
        cache.add_pod(pod)
    cache.remove_pod(pod)
    cache.assume_pod(pod)
    with pytest.raises(CacheError, match="is in the cache, so can't be assumed"):
        cache.assume_pod(pod)
    with pytest.raises(CacheError, match="was assumed on n1 but assigned to n0"):
        cache.forget_pod(_bound("p", "n1"))
    cache.forget_pod(pod)
    assert cache.num_pods == 0
    with pytest.raises(CacheError, match="not found in scheduler cache"):
        cache.remove_pod(pod)


def test_confirm_on_another_node_moves_the_pod() -> None:
    cache, snapshot = _cache("a", "a"), Snapshot()
    cache.assume_pod(_bound("p", "n0"))
    cache.add_pod(_bound("p", "n1"))
    cache.update_snapshot(snapshot)
    assert [len(ni.pods) for ni in snapshot.node_infos()] == [0, 1]


def test_removed_node_with_pods_leaves_the_snapshot_but_keeps_its_pods() -> None:
    cache, snapshot = _cache("a", "b"), Snapshot()
    pod = _bound("p", "n0")
    cache.add_pod(pod)
    node = make_node("n0").label("topology.kubernetes.io/zone", "a").obj()
    cache.remove_node(node)
    cache.update_snapshot(snapshot)
    assert snapshot.node_table.names == ["n1"]
    cache.add_node(node)
    cache.update_snapshot(snapshot)
    info = snapshot.get("n0")
    assert info is not None and len(info.pods) == 1
    with pytest.raises(CacheError, match="node n9 is not found"):
        cache.remove_node(make_node("n9").obj())


def test_snapshot_copies_only_changed_nodes_and_their_table_rows() -> None:
    cache, snapshot = _cache("a", "b", "a", "b"), Snapshot()
    cache.update_snapshot(snapshot)
    assert snapshot.node_table.names == ["n0", "n1", "n2", "n3"]
    table = snapshot.node_table
    requested = table.resource("requested", CPU)
    before = list(snapshot.node_infos())
    cache.add_pod(_bound("p", "n2", cpu="1"))
    cache.update_snapshot(snapshot)
    after = snapshot.node_infos()
    assert snapshot.node_table is table, "no node came or went: the table is kept"
    assert [a is b for a, b in zip(before, after, strict=True)] == [True, True, False, True]
    assert requested.tolist() == [0, 0, 1000, 0]
    cache.add_node(make_node("n4").label("topology.kubernetes.io/zone", "c").obj())
    cache.update_snapshot(snapshot)
    assert snapshot.node_table.names == ["n0", "n1", "n4", "n2", "n3"]
    assert snapshot.node_table.resource("requested", CPU).tolist() == [0, 0, 0, 1000, 0]


def test_snapshot_is_isolated_from_later_cache_changes() -> None:
    cache, snapshot = _cache("a"), Snapshot()
    cache.update_snapshot(snapshot)
    cache.add_pod(_bound("p", "n0"))
    info = snapshot.get("n0")
    assert info is not None and not info.pods
