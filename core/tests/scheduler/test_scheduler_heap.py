"""KeyedHeap: ordered pops, update and delete by key."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from kubesched.scheduler.heap import KeyedHeap


def _heap() -> KeyedHeap[tuple[str, int]]:
    return KeyedHeap(lambda item: item[0], lambda a, b: a[1] < b[1])


def test_pops_in_order_and_reports_empty() -> None:
    heap = _heap()
    for item in [("a", 5), ("b", 1), ("c", 3)]:
        heap.add_or_update(item)
    assert heap.peek() == ("b", 1)
    assert [heap.pop(), heap.pop(), heap.pop(), heap.pop()] == [("b", 1), ("c", 3), ("a", 5), None]


def test_update_reorders_and_delete_removes() -> None:
    heap = _heap()
    for item in [("a", 5), ("b", 1), ("c", 3)]:
        heap.add_or_update(item)
    heap.add_or_update(("a", 0))
    assert heap.delete("c") == ("c", 3)
    assert heap.delete("missing") is None
    assert "c" not in heap and heap.get("a") == ("a", 0)
    assert [heap.pop(), heap.pop()] == [("a", 0), ("b", 1)]


@given(st.lists(st.tuples(st.sampled_from("abcdefghij"), st.integers(-50, 50)), max_size=60),
       st.sets(st.sampled_from("abcdefghij")))  # fmt: skip
def test_matches_a_sorted_dict(ops: list[tuple[str, int]], deleted: set[str]) -> None:
    heap = _heap()
    latest: dict[str, int] = {}
    for key, value in ops:
        heap.add_or_update((key, value))
        latest[key] = value
    for key in deleted:
        heap.delete(key)
        latest.pop(key, None)
    assert len(heap) == len(latest)
    popped = [item for _ in range(len(latest)) if (item := heap.pop()) is not None]
    assert [value for _, value in popped] == sorted(latest.values())
    assert dict(popped) == latest and heap.pop() is None
