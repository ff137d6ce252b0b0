"""Which victims would violate a PodDisruptionBudget if they were evicted."""

from __future__ import annotations

from collections.abc import Sequence

from kubesched.api import PodDisruptionBudget, Selector, as_selector
from kubesched.errors import InputError
from kubesched.framework import PodInfo


def _protects(pdb: PodDisruptionBudget) -> Selector | None:
    """The pods a budget protects; None when it protects none: no selector, an empty
    one, or one upstream cannot parse."""
    selector = pdb.spec.selector
    if selector is None or not (selector.match_labels or selector.match_expressions):
        return None
    try:
        return as_selector(selector)
    except InputError:
        return None


def split_by_pdb_violation(
    pod_infos: Sequence[PodInfo], pdbs: Sequence[PodDisruptionBudget]
) -> tuple[list[PodInfo], list[PodInfo]]:
    """`(violating, non_violating)`, each in the order given (upstream's
    filterPodsWithPDBViolation).

    Evicting the pods one after another uses up each matching budget's
    `disruptionsAllowed` (budgets match pods of their own namespace); a pod
    whose eviction takes a budget below zero violates it. A pod the budget
    already lists in `disruptedPods` was accounted for by the API server and
    uses up nothing.
    """
    selectors = [_protects(pdb) for pdb in pdbs]
    allowed = [pdb.status.disruptions_allowed for pdb in pdbs]
    violating: list[PodInfo] = []
    non_violating: list[PodInfo] = []
    for pod_info in pod_infos:
        meta = pod_info.pod.metadata
        violates = False
        if meta.labels:
            for i, (pdb, selector) in enumerate(zip(pdbs, selectors, strict=True)):
                if (
                    selector is None
                    or pdb.metadata.namespace != meta.namespace
                    or not selector.matches(meta.labels)
                    or meta.name in pdb.status.disrupted_pods
                ):
                    continue
                allowed[i] -= 1
                if allowed[i] < 0:
                    violates = True
        (violating if violates else non_violating).append(pod_info)
    return violating, non_violating
