"""Which results `simulate` shows: kubectl's `-n` and `-l`, `--only-failed`, `--explain-pod`.

Selection only narrows what is printed: every pending pod is still scheduled,
since pods compete for the same nodes, and the summary counts all of them.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping

import click
from attrs import frozen

from kubesched.api import Pod
from kubesched.api._labels import (
    DOES_NOT_EXIST,
    EQUALS,
    EVERYTHING,
    EXISTS,
    IN,
    NOT_IN,
    Requirement,
    Selector,
)
from kubesched.api._names import validate_label_key, validate_label_value
from kubesched.scheduler.outcome import PREEMPTED, SCHEDULED, PodOutcome

_SET = re.compile(r"^\s*(?P<key>[^\s!=()]+)\s+(?P<op>in|notin)\s+\((?P<values>[^()]*)\)\s*$")
_EQUALITY = re.compile(r"^\s*(?P<key>[^\s!=()]+)\s*(?P<op>==|=|!=)\s*(?P<value>[^\s!=(),]*)\s*$")
_EXISTENCE = re.compile(r"^\s*(?P<not>!?)\s*(?P<key>[^\s!=(),]+)\s*$")


def _split(text: str) -> list[str]:
    """The comma-separated requirements of a selector, commas inside `( )` kept."""
    parts, depth, current = [], 0, ""
    for char in text:
        depth += {"(": 1, ")": -1}.get(char, 0)
        if char == "," and depth == 0:
            parts.append(current)
            current = ""
        else:
            current += char
    return [*parts, current]


def _checked(key: str, values: Iterable[str], text: str) -> tuple[str, frozenset[str]]:
    problems = [*validate_label_key("key", key)]
    for value in values:
        problems += validate_label_value("value", value)
    if problems:
        raise click.UsageError(f"invalid label selector {text!r}: {problems[0].body}")
    return key, frozenset(values)


def _requirement(part: str, text: str) -> Requirement:
    if match := _SET.match(part):
        values = [v.strip() for v in match["values"].split(",")]
        key, allowed = _checked(match["key"], values, text)
        return Requirement(key, IN if match["op"] == "in" else NOT_IN, allowed)
    if match := _EQUALITY.match(part):
        key, allowed = _checked(match["key"], [match["value"]], text)
        return Requirement(key, NOT_IN if match["op"] == "!=" else EQUALS, allowed)
    if match := _EXISTENCE.match(part):
        key, _ = _checked(match["key"], [], text)
        return Requirement(key, DOES_NOT_EXIST if match["not"] else EXISTS)
    raise click.UsageError(f"invalid label selector {text!r}: cannot parse {part.strip()!r}")


def parse_label_selector(text: str) -> Selector:
    """kubectl's `-l` syntax: `a=b`, `a==b`, `a!=b`, `a in (x,y)`, `a notin (x)`, `a`, `!a`,
    comma-separated and ANDed; a usage error naming the selector when it does not parse."""
    if not text.strip():
        return EVERYTHING
    return Selector(tuple(_requirement(part, text) for part in _split(text)))


NODES_SHOWN, NODES_ALL, NODES_NONE = "shown", "all", "none"
NODE_CHOICES = (NODES_SHOWN, NODES_ALL, NODES_NONE)
"""`--nodes`: the nodes the shown pods touched (every node when no pod is left out), every
node, or no node table."""


@frozen
class Selection:
    """What to show of a simulation's results."""

    namespace: str | None = None
    selector: Selector = EVERYTHING
    only_failed: bool = False
    explain_all: bool = False
    explain_pods: frozenset[str] = frozenset()
    nodes: str = NODES_SHOWN

    @property
    def narrows(self) -> bool:
        """Whether some pods may be left out of what is shown."""
        return self.only_failed or self.namespace is not None or not self.selector.empty

    @property
    def explains(self) -> bool:
        """Whether the scheduler must record per-node explanations at all."""
        return self.explain_all or bool(self.explain_pods)

    def explained(self, outcome: PodOutcome) -> bool:
        return self.explain_all or outcome.pod in self.explain_pods

    def shown(self, outcomes: Iterable[PodOutcome], pods: Mapping[str, Pod]) -> list[PodOutcome]:
        """The outcomes to print: in the namespace, matching the selector, failed if asked."""
        return [o for o in outcomes if self._wanted(o, pods.get(o.pod))]

    def _wanted(self, outcome: PodOutcome, pod: Pod | None) -> bool:
        if self.only_failed and outcome.status == SCHEDULED:
            return False
        if self.namespace is None and self.selector.empty:
            return True
        if pod is None:
            return False
        in_namespace = self.namespace is None or pod.metadata.namespace == self.namespace
        return in_namespace and self.selector.matches(pod.metadata.labels)


def touched_nodes(
    shown: Iterable[PodOutcome], outcomes: Iterable[PodOutcome], pods: Mapping[str, Pod]
) -> set[str]:
    """The nodes the shown pods touched: where each went, the node it was nominated to, the
    nodes its victims ran on, and, for a pod preempted in this run, the node its preemptor
    took it from."""
    by_pod = {o.pod: o for o in outcomes}
    touched: set[str] = set()
    for outcome in shown:
        touched.update(n for n in (outcome.node, outcome.nominated_node) if n)
        for victim in outcome.victims:
            pod = pods.get(victim)
            node = pod.spec.node_name if pod is not None else ""
            touched.add(node or outcome.nominated_node or "")
        preemptor = by_pod.get(outcome.preempted_by or "")
        if outcome.status == PREEMPTED and preemptor is not None and preemptor.nominated_node:
            touched.add(preemptor.nominated_node)
    touched.discard("")
    return touched


def nodes_to_show(
    selection: Selection,
    names: Iterable[str],
    shown: Iterable[PodOutcome],
    outcomes: Iterable[PodOutcome],
    pods: Mapping[str, Pod],
) -> list[str]:
    """The node rows `--nodes` asks for, in the cluster's order."""
    if selection.nodes == NODES_NONE:
        return []
    if selection.nodes == NODES_ALL or not selection.narrows:
        return list(names)
    touched = touched_nodes(shown, outcomes, pods)
    return [name for name in names if name in touched]
