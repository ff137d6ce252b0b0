"""The dry run: try preemption on potential nodes until enough candidates are found
(upstream's DryRunPreemption), one node at a time or a chunk of nodes at once."""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence

from attrs import field, frozen

from kubesched.framework import Code, NodeInfo, Status
from kubesched_defaultpreemption.batch_victims import Deferred, Outcome
from kubesched_defaultpreemption.candidates import Candidate


@frozen
class DryRunResult:
    """Candidates that violate no PodDisruptionBudget first, then the others, each
    in the order their nodes were tried; the status of every tried node that is
    not a candidate; the messages of the errors met on the way.

    A batched dry run leaves some statuses to work out (`deferred`, in the order
    the nodes were tried): `settle` does it, before `node_statuses` or `errors`
    are read."""

    candidates: list[Candidate]
    node_statuses: dict[str, Status] = field(factory=dict)
    errors: list[str] = field(factory=list)
    deferred: list[tuple[str, Status | Deferred]] = field(factory=list)

    def settle(self) -> None:
        """Work out the deferred statuses into `node_statuses` and `errors`, in order."""
        if not self.deferred:
            return
        pending = list(self.deferred)
        self.deferred.clear()
        self.node_statuses.clear()
        self.errors.clear()
        for name, outcome in pending:
            status = outcome.resolve() if isinstance(outcome, Deferred) else outcome
            if status.code == Code.ERROR:
                self.errors.append(status.message)
            self.node_statuses[name] = status

    def error_message(self) -> str:
        """The errors as one message, as upstream's error aggregate prints them."""
        unique = list(dict.fromkeys(self.errors))
        return unique[0] if len(unique) == 1 else f"[{', '.join(unique)}]"


MIN_CHUNK = 16
"""The fewest nodes a batched dry run works out at once."""

CheckNodes = Callable[[Sequence[NodeInfo]], Sequence[Outcome]]
"""Works out the outcomes of several nodes at once, in order."""


def dry_run_preemption(
    potential_nodes: Sequence[NodeInfo],
    offset: int,
    num_candidates: int,
    check_node: Callable[[NodeInfo], Candidate | Status],
    check_nodes: CheckNodes | None = None,
) -> DryRunResult:
    """Try the nodes in turn from `potential_nodes[offset]`, wrapping around.

    `check_node` works out the victims on one node. The run stops once at least
    `num_candidates` candidates are found and one of them violates no budget;
    each kind keeps at most `num_candidates` candidates, as upstream's
    fixed-size lists do. With `check_nodes`, nodes are worked out in chunks of
    half `num_candidates` (at least MIN_CHUNK): the outcomes past the stopping
    node are dropped, so the result is the same, and few are worked out in vain.
    """
    non_violating: list[Candidate] = []
    violating: list[Candidate] = []
    tried: list[tuple[str, Status | Deferred]] = []
    count = len(potential_nodes)
    ordered = [potential_nodes[(offset + i) % count] for i in range(count)]
    for node_info, outcome in _outcomes(ordered, check_node, check_nodes, num_candidates):
        if isinstance(outcome, Candidate) and outcome.victims:
            kept = violating if outcome.num_pdb_violations else non_violating
            if len(kept) < num_candidates:
                kept.append(outcome)
            if non_violating and len(non_violating) + len(violating) >= num_candidates:
                break
            continue
        if isinstance(outcome, Candidate):
            outcome = Status.error(f'expected at least one victim pod on node "{node_info.name}"')
        tried.append((node_info.name, outcome))
    result = DryRunResult(non_violating + violating, deferred=tried)
    if not any(isinstance(o, Deferred) for _, o in tried):
        result.settle()
    return result


def _outcomes(
    nodes: Sequence[NodeInfo],
    check_node: Callable[[NodeInfo], Candidate | Status],
    check_nodes: CheckNodes | None,
    chunk: int,
) -> Iterator[tuple[NodeInfo, Outcome]]:
    """Each node with its outcome, in order, worked out one by one or chunk by chunk."""
    if check_nodes is None:
        for node_info in nodes:
            yield node_info, check_node(node_info)
        return
    start, size = 0, max(chunk // 2, MIN_CHUNK)
    while start < len(nodes):
        part = nodes[start : start + size]
        yield from zip(part, check_nodes(part), strict=True)
        start += len(part)
