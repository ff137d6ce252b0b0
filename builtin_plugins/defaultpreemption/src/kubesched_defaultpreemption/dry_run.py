"""The dry run: try preemption on potential nodes until enough candidates are found
(upstream's DryRunPreemption, run on one node at a time)."""

from __future__ import annotations

from collections.abc import Callable, Sequence

from attrs import field, frozen

from kubesched.framework import Code, NodeInfo, Status
from kubesched_defaultpreemption.candidates import Candidate


@frozen
class DryRunResult:
    """Candidates that violate no PodDisruptionBudget first, then the others, each
    in the order their nodes were tried; the status of every tried node that is
    not a candidate; the messages of the errors met on the way."""

    candidates: list[Candidate]
    node_statuses: dict[str, Status] = field(factory=dict)
    errors: list[str] = field(factory=list)

    def error_message(self) -> str:
        """The errors as one message, as upstream's error aggregate prints them."""
        unique = list(dict.fromkeys(self.errors))
        return unique[0] if len(unique) == 1 else f"[{', '.join(unique)}]"


def dry_run_preemption(
    potential_nodes: Sequence[NodeInfo],
    offset: int,
    num_candidates: int,
    check_node: Callable[[NodeInfo], Candidate | Status],
) -> DryRunResult:
    """Try the nodes in turn from `potential_nodes[offset]`, wrapping around.

    `check_node` works out the victims on one node. The run stops once at least
    `num_candidates` candidates are found and one of them violates no budget;
    each kind keeps at most `num_candidates` candidates, as upstream's
    fixed-size lists do.
    """
    non_violating: list[Candidate] = []
    violating: list[Candidate] = []
    statuses: dict[str, Status] = {}
    errors: list[str] = []
    count = len(potential_nodes)
    for i in range(count):
        node_info = potential_nodes[(offset + i) % count]
        outcome = check_node(node_info)
        if isinstance(outcome, Candidate) and outcome.victims:
            kept = violating if outcome.num_pdb_violations else non_violating
            if len(kept) < num_candidates:
                kept.append(outcome)
            if non_violating and len(non_violating) + len(violating) >= num_candidates:
                break
            continue
        if isinstance(outcome, Candidate):
            outcome = Status.error(f'expected at least one victim pod on node "{node_info.name}"')
        if outcome.code == Code.ERROR:
            errors.append(outcome.message)
        statuses[node_info.name] = outcome
    return DryRunResult(non_violating + violating, statuses, errors)
