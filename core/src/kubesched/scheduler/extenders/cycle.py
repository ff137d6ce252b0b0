"""Extenders in the scheduling and binding cycles (upstream's schedule_one.go parts).

Filter: after the Filter plugins, on the nodes that passed them, each
interested extender in turn narrows the list; the nodes it fails get an
Unschedulable status (UnschedulableAndUnresolvable when it says so, which
wins when it names a node in both maps). Prioritize: each interested
extender's 0..10 scores are scaled to the framework's range and weighted
(`score * weight * MaxNodeScore / MaxExtenderPriority`), then added to the
plugins' totals; a failing prioritize call is ignored. Bind: the first
interested extender with a bind verb binds the pod instead of the Bind
plugins. An ignorable extender's failure skips it everywhere.
"""

from __future__ import annotations

from collections.abc import Sequence

from attrs import define, field

from kubesched.api import Node, Pod
from kubesched.framework import MAX_NODE_SCORE, Code, ExtenderError, Status
from kubesched.scheduler.extenders.http_extender import HTTPExtender
from kubesched.scheduler.extenders.wire import MAX_EXTENDER_PRIORITY

SCALE = MAX_NODE_SCORE // MAX_EXTENDER_PRIORITY
"""An extender score point in framework score points (100 / 10)."""


@define
class ExtenderNodeVerdict:
    """What one extender said of one node: its filter verdict (None: it did not filter
    the node) with reasons, and its 0..10 score and weighted score (None: not scored)."""

    code: Code | None = None
    reasons: tuple[str, ...] = ()
    score: int | None = None
    weighted: int | None = None


@define
class ExtenderVerdicts:
    """What the extenders said in one attempt, for `--explain`: per extender, per node."""

    nodes: dict[str, dict[str, ExtenderNodeVerdict]] = field(factory=dict)
    skipped: dict[str, str] = field(factory=dict)
    """Extenders whose call failed and were skipped (ignorable, or prioritizing), with the
    error."""

    def of(self, extender: str, node: str) -> ExtenderNodeVerdict:
        by_node = self.nodes.setdefault(extender, {})
        verdict = by_node.get(node)
        if verdict is None:
            verdict = by_node[node] = ExtenderNodeVerdict()
        return verdict

    def for_node(self, node: str) -> dict[str, ExtenderNodeVerdict]:
        """Every extender's verdict on `node`, in extender order."""
        return {name: by[node] for name, by in self.nodes.items() if node in by}


def has_filters(extenders: Sequence[HTTPExtender]) -> bool:
    return any(e.is_filter() for e in extenders)


def has_prioritizers(extenders: Sequence[HTTPExtender]) -> bool:
    return any(e.is_prioritizer() for e in extenders)


def weighted_score(score: int, weight: int) -> int:
    """An extender's 0..10 score in the framework's range, times its weight."""
    return score * weight * SCALE


def find_nodes_that_pass_extenders(
    extenders: Sequence[HTTPExtender],
    pod: Pod,
    nodes: list[Node],
    statuses: dict[str, Status],
    verdicts: ExtenderVerdicts,
) -> list[Node]:
    """The nodes every interested extender lets through, in their order; failed nodes'
    statuses go into `statuses`. Raises ExtenderError when a non-ignorable one fails."""
    for extender in extenders:
        if not nodes:
            break
        if not extender.is_interested(pod):
            continue
        try:
            passed, failed, unresolvable = extender.filter(pod, nodes)
        except ExtenderError as err:
            if extender.is_ignorable():
                verdicts.skipped[extender.name] = str(err)
                continue
            raise
        failures = {name: (Code.UNSCHEDULABLE, msg) for name, msg in failed.items()}
        for name, msg in unresolvable.items():  # wins over the same node in `failed`
            failures[name] = (Code.UNSCHEDULABLE_AND_UNRESOLVABLE, msg)
        for name, (code, msg) in failures.items():
            statuses[name] = Status(code, msg)
        if extender.is_filter():
            for node in nodes:
                verdict = verdicts.of(extender.name, node.name)
                verdict.code, reason = failures.get(node.name, (Code.UNSCHEDULABLE, ""))
                verdict.reasons = (reason,) if reason else ()
            for name in passed:
                verdicts.of(extender.name, name).code = Code.SUCCESS
        by_name = {n.name: n for n in nodes}
        nodes = [by_name[name] for name in passed]
    return nodes


def prioritize_with_extenders(
    extenders: Sequence[HTTPExtender],
    pod: Pod,
    nodes: Sequence[Node],
    verdicts: ExtenderVerdicts,
) -> dict[str, int]:
    """Each node's sum of the interested extenders' weighted scores (nodes no extender
    scored are absent); each prioritizer's scores are recorded in `verdicts`."""
    totals: dict[str, int] = {}
    for extender in extenders:
        if not extender.is_interested(pod):
            continue
        try:
            priorities, weight = extender.prioritize(pod, nodes)
        except ExtenderError as err:  # upstream ignores prioritize errors
            verdicts.skipped[extender.name] = str(err)
            continue
        for hp in priorities:
            final = weighted_score(hp.score, weight)
            totals[hp.host] = totals.get(hp.host, 0) + final
            if extender.is_prioritizer():
                verdict = verdicts.of(extender.name, hp.host)
                verdict.score = (verdict.score or 0) + hp.score
                verdict.weighted = (verdict.weighted or 0) + final
    return totals


def extenders_binding(
    extenders: Sequence[HTTPExtender], pod: Pod, node_name: str
) -> tuple[bool, Status | None]:
    """Did an extender take the binding, and how did it go (None: bound)?"""
    for extender in extenders:
        if not extender.is_binder() or not extender.is_interested(pod):
            continue
        try:
            extender.bind(pod, node_name)
        except ExtenderError as err:
            if extender.is_ignorable():
                continue
            return True, Status.error(err)
        return True, None
    return False, None
