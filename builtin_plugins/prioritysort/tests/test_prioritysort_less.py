"""QueueSort, re-expressing upstream's priority_sort_test.go, plus ordering properties."""

from __future__ import annotations

from functools import cmp_to_key

import pytest
from hypothesis import given
from hypothesis import strategies as st

from kubesched.framework import PodInfo, QueuedPodInfo
from kubesched.testing import make_pod
from kubesched_prioritysort import PrioritySort

LOW, HIGH = 10, 100
T1 = 1_000.0
T2 = T1 + 1.0


def queued(priority: int | None, timestamp: float = 0.0, name: str = "p") -> QueuedPodInfo:
    builder = make_pod(name)
    if priority is not None:
        builder = builder.priority(priority)
    return QueuedPodInfo(PodInfo(builder.obj()), timestamp)


def less(a: QueuedPodInfo, b: QueuedPodInfo) -> bool:
    return PrioritySort(None, None).queue_sort_less(pod_info_a=a, pod_info_b=b)


# (name, p1, p2, p1 goes first)
CASES = [
    ("p1.priority less than p2.priority", queued(LOW), queued(HIGH), False),
    ("p1.priority greater than p2.priority", queued(HIGH), queued(LOW), True),
    ("equal priority, p1 queued earlier", queued(HIGH, T1), queued(HIGH, T2), True),
    ("equal priority, p2 queued earlier", queued(HIGH, T2), queued(HIGH, T1), False),
    # Beyond upstream's table.
    ("equal priority and timestamp: neither goes first", queued(HIGH, T1), queued(HIGH, T1), False),
    ("unset priority counts as 0, below a positive one", queued(None), queued(1), False),
    ("unset priority counts as 0, above a negative one", queued(None), queued(-1), True),
    ("higher priority wins even when queued later", queued(HIGH, T2), queued(LOW, T1), True),
]


@pytest.mark.parametrize(
    ("p1", "p2", "expected"), [pytest.param(a, b, want, id=name) for name, a, b, want in CASES]
)
def test_less(p1: QueuedPodInfo, p2: QueuedPodInfo, expected: bool) -> None:
    assert less(p1, p2) is expected


def compare(a: QueuedPodInfo, b: QueuedPodInfo) -> int:
    """A cmp function from `less`: -1 when a goes first, 1 when b does, else 0."""
    if less(a, b):
        return -1
    return 1 if less(b, a) else 0


entries = st.tuples(
    st.one_of(st.none(), st.integers(min_value=-(2**31), max_value=2**31 - 1)),
    st.floats(min_value=0, max_value=1e6, allow_nan=False),
)


@given(st.lists(entries, max_size=30))
def test_sorting_with_less_orders_by_priority_then_timestamp(
    raw: list[tuple[int | None, float]],
) -> None:
    infos = [queued(priority, ts, f"p{i}") for i, (priority, ts) in enumerate(raw)]
    ordered = sorted(infos, key=cmp_to_key(compare))
    keys = [(-(q.pod.spec.priority or 0), q.timestamp) for q in ordered]
    assert keys == sorted(keys)


@given(entries, entries)
def test_less_is_asymmetric(a: tuple[int | None, float], b: tuple[int | None, float]) -> None:
    qa, qb = queued(*a), queued(*b)
    assert not (less(qa, qb) and less(qb, qa))
