"""The fragmentation measure and the target workload, against hand-computed cases."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from kubesched_gpushare import GpuRequest, TypicalPod, node_fragment, target_workload
from kubesched_gpushare.floats import add_in_order, mean_in_order
from kubesched_gpushare.frag import fragments, spec_fragment

CPU_ONLY = TypicalPod(4000, GpuRequest(), 0.5)
SHARE_500 = TypicalPod(1000, GpuRequest(1, 500), 0.3)
TWO_WHOLE = TypicalPod(1000, GpuRequest(2, 1000), 0.2)
WORKLOAD = [CPU_ONLY, SHARE_500, TWO_WHOLE]


@pytest.mark.parametrize(
    ("free", "cpu_free", "model", "spec", "expected"),
    [
        # A CPU-only task can use no GPU: every idle milli is a fragment.
        ((1000, 300), 8000, "A", CPU_ONLY, 1300),
        # It fits (device 0); device 1's 300 milli are too little for it.
        ((1000, 300), 8000, "A", SHARE_500, 300),
        # Too few fully free devices for two whole GPUs: all idle milli.
        ((1000, 300), 8000, "A", TWO_WHOLE, 1300),
        ((1000, 1000, 300), 8000, "A", TWO_WHOLE, 300),
        # Not enough CPU: all idle milli.
        ((1000, 300), 500, "A", SHARE_500, 1300),
        # The wrong card model: all idle milli.
        ((1000, 300), 8000, "A", TypicalPod(0, GpuRequest(1, 500, frozenset({"B"})), 1), 1300),
        ((1000, 300), 8000, "B", TypicalPod(0, GpuRequest(1, 500, frozenset({"B"})), 1), 300),
        # No GPU on the node: nothing to fragment.
        ((), 8000, "", SHARE_500, 0),
    ],
)
def test_spec_fragment(
    free: tuple[int, ...], cpu_free: int, model: str, spec: TypicalPod, expected: int
) -> None:
    assert spec_fragment(free, cpu_free, model, spec) == expected


def test_node_fragment_weighs_each_spec() -> None:
    # 0.5 x 1300 + 0.3 x 300 + 0.2 x 1300
    assert node_fragment((1000, 300), 8000, "A", WORKLOAD) == pytest.approx(1000.0)
    assert node_fragment((0, 0), 8000, "A", WORKLOAD) == 0


def test_target_workload_keeps_the_popular_specs_up_to_the_coverage() -> None:
    a, b, c = (1000, GpuRequest(1, 500)), (2000, GpuRequest()), (8000, GpuRequest(8, 1000))
    specs = [a] * 6 + [b] * 3 + [c]
    workload = target_workload(specs, coverage=90)
    assert [(t.cpu_milli, t.request, t.weight) for t in workload] == [
        (1000, GpuRequest(1, 500), 6 / 9),
        (2000, GpuRequest(), 3 / 9),
    ]
    assert len(target_workload(specs, coverage=91)) == 3
    assert len(target_workload(specs, coverage=60)) == 1


spec_strategy = st.builds(
    lambda cpu, count, milli, model, weight: (
        TypicalPod(
            cpu,
            GpuRequest(count, milli if count == 1 else 1000) if count else GpuRequest(),
            weight,
        )
        if not model
        else TypicalPod(cpu, GpuRequest(max(count, 1), 1000, frozenset({model})), weight)
    ),
    st.integers(0, 16000),
    st.sampled_from([0, 1, 1, 2, 4]),
    st.integers(1, 1000),
    st.sampled_from(["", "A", "B"]),
    st.floats(0, 1),
)


@settings(max_examples=80, deadline=None)
@given(
    st.lists(
        st.tuples(
            st.lists(st.integers(0, 1000), min_size=8, max_size=8),
            st.integers(0, 16),
            st.integers(0, 16000),
            st.sampled_from(["A", "B"]),
        ),
        min_size=1,
        max_size=6,
    ),
    st.lists(spec_strategy, max_size=6),
)
def test_vectorised_fragments_equal_the_per_node_sum(
    nodes: list[tuple[list[int], int, int, str]], workload: list[TypicalPod]
) -> None:
    free = np.array(
        [[f if i < gpus else 0 for i, f in enumerate(row)] for row, gpus, _, _ in nodes]
    )
    cpu = np.array([c for _, _, c, _ in nodes])
    models = np.array([m for *_, m in nodes], dtype=object)
    expected = [node_fragment(tuple(row[:gpus]), c, m, workload) for row, gpus, c, m in nodes]
    assert fragments(free, cpu, models, workload).tolist() == expected


def test_floats_are_added_left_to_right_on_every_python() -> None:
    # Ten 0.1s added one by one give 0.9999999999999999; Python 3.12's compensated sum()
    # gives 1.0. A node fragment must be the former on every Python.
    assert add_in_order([0.1] * 10) == 0.9999999999999999
    assert add_in_order([1e16, 1.0, -1e16]) == 0.0  # no compensation: the 1.0 is lost
    tenths = [TypicalPod(0, GpuRequest(), 0.1)] * 10
    assert node_fragment((1,), 0, "A", tenths) == 0.9999999999999999
    assert mean_in_order([1.0, 2.0]) == 1.5 and str(mean_in_order([])) == "nan"


@settings(max_examples=60, deadline=None)
@given(st.lists(st.floats(-1e6, 1e6), max_size=12))
def test_add_in_order_is_a_left_fold(values: list[float]) -> None:
    total = 0.0
    for value in values:
        total = total + value
    assert add_in_order(values) == total
    assert add_in_order(iter(values)) == total
