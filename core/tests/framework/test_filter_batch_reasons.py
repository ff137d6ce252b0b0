"""`filter_batch_reasons`: the reasons of many rejected nodes in one call, equal to the
per-node form's; when the hook fails or answers wrongly, the per-node form decides."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest
from numpy.typing import NDArray

from kubesched import hookimpl
from kubesched.framework import Code, CycleState, NodeInfo, NodeTable, Status
from kubesched.testing import make_node, make_pod

POD = make_pod("p").uid("p-uid").obj()
TABLE = NodeTable([NodeInfo(make_node(f"n{i}").obj()) for i in range(6)])


def _odd(node_info: NodeInfo) -> bool:
    return int(node_info.name[1:]) % 2 == 1


class OddOut:
    """Rejects the odd-numbered nodes; n5 for good."""

    reasons_calls: list[list[int]]

    def __init__(self, args: object, handle: object) -> None:
        self.reasons_calls = []

    @staticmethod
    def verdict(node_info: NodeInfo) -> Status | None:
        if not _odd(node_info):
            return None
        code = Code.UNSCHEDULABLE_AND_UNRESOLVABLE if node_info.name == "n5" else Code.UNSCHEDULABLE
        return Status(code, f"odd {node_info.name}")

    @hookimpl
    def filter(self, node_info: NodeInfo) -> Status | None:
        return self.verdict(node_info)

    @hookimpl
    def filter_batch(self, table: NodeTable) -> NDArray[np.bool_]:
        return np.array([not _odd(ni) for ni in table.node_infos])

    @hookimpl
    def filter_batch_reasons(self, table: NodeTable, rows: NDArray[np.intp]) -> Any:
        self.reasons_calls.append(rows.tolist())
        return [self.verdict(table.node_infos[r]) for r in rows.tolist()]


def _shown(statuses: dict[str, Status]) -> dict[str, tuple[object, ...]]:
    return {name: (s.code, s.plugin, *s.reasons) for name, s in statuses.items()}


EXPECTED = {
    "n1": (Code.UNSCHEDULABLE, "OddOut", "odd n1"),
    "n3": (Code.UNSCHEDULABLE, "OddOut", "odd n3"),
    "n5": (Code.UNSCHEDULABLE_AND_UNRESOLVABLE, "OddOut", "odd n5"),
}


def test_rejected_nodes_get_their_reasons_in_one_call(make_framework: Any) -> None:
    fw = make_framework({"OddOut": OddOut}, {"filter": ["OddOut"]})
    outcome = fw.find_feasible_nodes(CycleState(), POD, TABLE)
    assert outcome.rows.tolist() == [0, 2, 4]
    assert _shown(outcome.statuses) == EXPECTED
    assert fw.plugins["OddOut"].reasons_calls == [[1, 3, 5]]


@pytest.mark.parametrize(
    "answer",
    [
        pytest.param(lambda self, table, rows: 1 / 0, id="raises"),
        pytest.param(lambda self, table, rows: [], id="wrong-length"),
        pytest.param(lambda self, table, rows: [None] * len(rows), id="no-rejection"),
        pytest.param(lambda self, table, rows: [Status(Code.SUCCESS)] * len(rows), id="success"),
    ],
)
def test_a_failing_or_wrong_answer_falls_back_to_the_per_node_form(
    make_framework: Any, answer: Any
) -> None:
    cls = type(
        "OddOut",
        (OddOut,),
        {"filter_batch_reasons": hookimpl(specname="filter_batch_reasons")(answer)},
    )
    fw = make_framework({"OddOut": cls}, {"filter": ["OddOut"]})
    outcome = fw.find_feasible_nodes(CycleState(), POD, TABLE)
    assert outcome.error is None
    assert _shown(outcome.statuses) == EXPECTED


def test_deferred_reasons_come_from_the_batch_hook_too(make_framework: Any) -> None:
    fw = make_framework({"OddOut": OddOut}, {"filter": ["OddOut"]})
    outcome = fw.find_feasible_nodes(CycleState(), POD, TABLE, reasons=False)
    assert outcome.statuses == {} and outcome.unexplained.tolist() == [1, 3, 5]
    outcome.explain_rejected()
    assert _shown(outcome.statuses) == EXPECTED
