"""Filter over many nodes at once without reasons: which rows of a node table pass every
active Filter plugin (preemption's what-if copies of nodes)."""

from __future__ import annotations

import numpy as np

from kubesched.api import Pod
from kubesched.framework._cycle_state import CycleState
from kubesched.framework._filter_outcome import Mask, _filter_status
from kubesched.framework._filtering import FilterPhase
from kubesched.framework._node_table import NodeTable
from kubesched.framework._status import Status


class FeasibleMaskPhase(FilterPhase):
    """`feasible_mask` on top of the Filter phase."""

    def feasible_mask(self, state: CycleState, pod: Pod, table: NodeTable) -> Mask | Status:
        """Which rows of `table` pass every active Filter plugin, nominated pods not
        counted and no reason worked out: batch forms over the table, per-node forms on the
        rows still alive. The table may be any rows (preemption's what-if copies of
        nodes). An Error status when a plugin fails."""
        masks = self._batch_masks(state, pod, table)
        if isinstance(masks, Status):
            return masks
        steps = self._steps(state, masks)
        alive = np.ones(len(table), dtype=bool)
        for _fn, mask, call in steps:
            if mask is not None:  # asked about the rows every plugin before it passed
                self._count(call.plugin, "Filter", int(np.count_nonzero(alive)))
                np.logical_and(alive, mask, out=alive)
        for fn, mask, call in steps:
            if mask is not None:
                continue
            node_infos = table.node_infos  # a what-if table makes its copies here
            self._count(call.plugin, "Filter", int(np.count_nonzero(alive)))
            for r in np.flatnonzero(alive).tolist():
                try:
                    value = fn(state, pod, node_infos[r])
                except KeyboardInterrupt:
                    raise
                except BaseException as exc:
                    return call.failed(exc)
                status = None if value is None else _filter_status(call, value)
                if status is None:
                    continue
                if not status.is_rejected():
                    return status
                alive[r] = False
        return alive
