"""What the framework knows of scheduler extenders (upstream's framework.Extender).

Extenders belong to the scheduler and serve every profile; the scheduler
hands them to each profile's Framework, which offers them to plugins as
`Handle.extenders()`. Preemption asks the ones that support it to narrow the
candidates' victims (`process_preemption_with_extenders`, upstream's
callExtenders).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Protocol

from attrs import frozen

from kubesched.api import Pod
from kubesched.errors import KubeschedError
from kubesched.framework._lister import SharedLister
from kubesched.framework._status import Status

EXTENDER_NAME = "Extender"
"""The rejector recorded when an extender filtered nodes out; such a pod is requeued by any
cluster event (extenders register no events)."""


class ExtenderError(KubeschedError):
    """An extender call failed: unreachable, slow, a bad status or a malformed answer."""


@frozen
class Victims:
    """The pods to evict on one node, and how many PodDisruptionBudgets that violates."""

    pods: tuple[Pod, ...]
    num_pdb_violations: int = 0


class Extender(Protocol):
    """An extender as preemption sees it (the HTTP extender implements it)."""

    @property
    def name(self) -> str:
        """The extender's URL prefix."""
        ...

    def is_ignorable(self) -> bool: ...

    def supports_preemption(self) -> bool: ...

    def is_interested(self, pod: Pod) -> bool: ...

    def process_preemption(
        self, pod: Pod, victims: Mapping[str, Victims], nodes: SharedLister
    ) -> dict[str, Victims]:
        """The victims the extender keeps, per node; raises ExtenderError."""
        ...


def process_preemption_with_extenders(
    extenders: Sequence[Extender],
    pod: Pod,
    victims: Mapping[str, Victims],
    nodes: SharedLister,
) -> Mapping[str, Victims] | Status:
    """Pass the candidates' victims through every preempting extender interested in `pod`,
    each one seeing the previous one's answer; an Error status when one fails (an ignorable
    one is skipped) or leaves a node without victims."""
    for extender in extenders:
        if not victims:
            break
        if not extender.supports_preemption() or not extender.is_interested(pod):
            continue
        try:
            answer = extender.process_preemption(pod, victims, nodes)
        except ExtenderError as err:
            if extender.is_ignorable():
                continue
            return Status.error(err)
        for node_name, node_victims in list(answer.items()):
            if node_victims.pods:
                continue
            if extender.is_ignorable():
                del answer[node_name]
                continue
            return Status.error(f'expected at least one victim pod on node "{node_name}"')
        victims = answer
    return victims
