"""The unschedulable pods: every entry in arrival order, the gated ones indexed apart."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from kubesched.framework import Code, Status
from kubesched.framework._types import PodInfo
from kubesched.scheduler.entry import QueueEntry
from kubesched.scheduler.unschedulable import UnschedulablePods
from kubesched.testing import make_pod


def _entry(name: str, gate: str | None = None) -> QueueEntry:
    entry = QueueEntry(PodInfo(make_pod(name).obj()), 0.0)
    _gate(entry, gate)
    return entry


def _gate(entry: QueueEntry, gate: str | None) -> None:
    status = None if gate is None else Status(Code.UNSCHEDULABLE_AND_UNRESOLVABLE, "", plugin=gate)
    entry.set_gating(status)


def test_gated_and_rejected_pods_are_kept_apart() -> None:
    pods = UnschedulablePods()
    held = {n: _entry(n, g) for n, g in [("a", None), ("b", "Gate"), ("c", None), ("d", "Other")]}
    for entry in held.values():
        pods.put(entry)
    assert [e.pod.metadata.name for e in pods] == ["a", "b", "c", "d"]
    assert [e.pod.metadata.name for e in pods.rejected()] == ["a", "c"]
    assert pods.gated_count() == 2 and len(pods) == 4
    keys = sorted(pods.gating_keys())
    assert keys == [("default-scheduler", "Gate"), ("default-scheduler", "Other")]
    uid = held["b"].uid
    assert pods.pop(uid) is held["b"] and pods.pop(uid) is None
    assert pods.gating_keys() == [("default-scheduler", "Other")]
    assert uid not in pods and held["a"].uid in pods


def test_an_entry_whose_gating_changed_is_indexed_anew() -> None:
    pods = UnschedulablePods()
    entry = _entry("a")
    pods.put(entry)
    _gate(entry, "Gate")
    pods.put_if_absent(_entry("a"))  # the entry already held is kept, indexed as it is now
    assert pods.get(entry.uid) is entry
    assert pods.rejected() == [] and pods.gated_count() == 1
    _gate(entry, None)
    pods.put(entry)
    assert pods.rejected() == [entry] and pods.gating_keys() == []


OPS = st.lists(
    st.tuples(
        st.sampled_from(["put", "put_if_absent", "pop"]),
        st.sampled_from("abcdef"),
        st.sampled_from([None, "Gate", "Other"]),
    ),
    max_size=40,
)


@given(OPS)
def test_the_indexes_agree_with_the_entries_held(ops: list[tuple[str, str, str | None]]) -> None:
    pods = UnschedulablePods()
    model: dict[str, QueueEntry] = {}
    made = {name: _entry(name) for name in "abcdef"}
    for op, name, gate in ops:
        uid = made[name].uid
        if op == "pop":
            assert pods.pop(uid) is model.pop(uid, None)
            continue
        entry = model.get(uid) or _entry(name)
        _gate(entry, gate)
        if op == "put":
            pods.put(entry)
        else:
            pods.put_if_absent(entry)
        model[uid] = entry
    assert list(pods) == list(model.values())
    assert {e.uid for e in pods.rejected()} == {u for u, e in model.items() if not e.gated}
    assert pods.gated_count() == sum(1 for e in model.values() if e.gated)
    keys = {("default-scheduler", e.gating_plugin) for e in model.values() if e.gated}
    assert set(pods.gating_keys()) == keys
