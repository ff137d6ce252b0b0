"""What Filter found over many nodes (`FilterOutcome`), and the small helpers that
turn plugin results into statuses and masks."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np
from attrs import define, field
from numpy.typing import NDArray

from kubesched.framework._plugin_calls import PluginCall, as_status, quote, wrap_error
from kubesched.framework._status import Code, Status

Mask = NDArray[np.bool_]

Step = tuple[Any, "Mask | None", PluginCall]
"""One Filter plugin as the visit asks it: its per-node form, its mask (or None), its call."""


@define
class FilterOutcome:
    """What Filter found: feasible rows in visiting order and the rejected nodes' statuses.

    `error` is set when a plugin failed (not rejected): the cycle must stop.
    """

    rows: NDArray[np.intp]
    statuses: dict[str, Status] = field(factory=dict)
    processed: int = 0
    error: Status | None = None
    unexplained: NDArray[np.intp] = field(factory=lambda: np.empty(0, dtype=np.intp))
    """Rejected rows, in visiting order, whose statuses are not worked out yet (only with
    `find_feasible_nodes(reasons=False)`); `explain_rejected` works them out."""
    _explain: Callable[[list[int]], FilterOutcome] | None = field(default=None)

    @property
    def rejected(self) -> int:
        """How many visited nodes were rejected, explained or not."""
        return len(self.statuses) + len(self.unexplained)

    def explain_rejected(self) -> None:
        """Work out the statuses of the unexplained rows (the per-node forms' reasons), in
        visiting order; a per-node form that disagrees with its mask sets `error`."""
        rows, explain = self.unexplained, self._explain
        if not len(rows) or explain is None:
            return
        self.unexplained, self._explain = rows[:0], None
        found = explain(rows.tolist())
        if found.error is not None:
            self.rows, self.statuses, self.error = self.rows[:0], {}, found.error
            return
        self.statuses.update(found.statuses)


def _filter_status(call: PluginCall, value: object) -> Status | None:
    """One Filter result: rejections keep their code, anything else is an Error."""
    status = as_status(value, call.plugin, call.hook)
    if status is None or status.code == Code.SUCCESS:
        return None
    if not status.is_rejected():
        status = wrap_error(f"running {quote(call.plugin)} filter plugin", status, call.plugin)
    return status.with_plugin(call.plugin)


def _as_mask(value: object, rows: int) -> Mask | None:
    """A filter_batch result as a mask over `rows` rows, or None when it is not one."""
    if isinstance(value, Status):
        return None
    try:
        mask = np.asarray(value, dtype=bool)
    except (TypeError, ValueError):
        return None
    return mask if mask.shape == (rows,) else None


def _describe(value: object) -> str:
    if isinstance(value, np.ndarray):
        return f"an array of shape {value.shape}"
    return type(value).__name__


def _no_node_left(plugins: set[str]) -> str:
    """Upstream's message when PreFilter results intersect to no node."""
    names = sorted(plugins)
    if len(names) == 1:
        return f"node(s) didn't satisfy plugin {names[0]}"
    return f"node(s) didn't satisfy plugin(s) [{' '.join(names)}] simultaneously"
