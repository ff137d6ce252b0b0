"""How the replay breaks ties between the nodes with the highest score.

Upstream kube-scheduler (and kubesched) draws one of them at random. The FGD
study's simulator changed its vendored scheduler to take the tied node whose
name sorts first, and gives node names a random prefix per seed, so ties go to
the first node of a seeded random order of the cluster: a fixed preference
for the whole run. That is not a detail: a policy whose score is often tied
(FGD gives every node where a pod changes nothing the same score) packs pods
onto the preferred nodes under the study's rule, and spreads them under
upstream's. `TIES_FIRST` is the study's rule, `TIES_RANDOM` upstream's.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any

import attrs
from attrs import define, field

from kubesched.api import Pod
from kubesched.framework import CycleState
from kubesched.scheduler.algorithm import Algorithm, ScheduleResult
from kubesched.scheduler.snapshot import Snapshot

TIES_FIRST = "first"
TIES_RANDOM = "random"
TIES = (TIES_FIRST, TIES_RANDOM)


def node_order(names: Sequence[str], seed: int) -> dict[str, int]:
    """Each node's place in the seed's random order (the study's random name prefix)."""
    shuffled = sorted(names)
    random.Random(f"node-order/{seed}").shuffle(shuffled)
    return {name: i for i, name in enumerate(shuffled)}


@define
class FirstInOrder(Algorithm):
    """upstream's schedulePod, except that a tie goes to the node first in `order`."""

    order: dict[str, int] = field(factory=dict)

    @classmethod
    def replacing(cls, algorithm: Algorithm, order: dict[str, int]) -> FirstInOrder:
        return cls(**attrs.asdict(algorithm, recurse=False), order=order)

    def schedule_pod(
        self, fw: Any, state: CycleState, pod: Pod, snapshot: Snapshot
    ) -> ScheduleResult:
        result = super().schedule_pod(fw, state, pod, snapshot)
        if result.scores is None:
            return result
        totals = result.scores.totals
        if result.extender_totals is not None:
            totals = totals + result.extender_totals
        tied = result.feasible_rows[totals == totals.max()]
        if len(tied) < 2:
            return result
        names = snapshot.node_table.names
        host = min((names[row] for row in tied.tolist()), key=lambda n: self.order.get(n, -1))
        return attrs.evolve(result, host=host)
