"""Preemption candidates and how the best one is chosen."""

from __future__ import annotations

from collections.abc import Callable, Sequence

from attrs import frozen

from kubesched.api import Pod
from kubesched_defaultpreemption.importance import earliest_start_of_highest_priority

PRIORITY_OFFSET = 2**31
"""Added to every victim's priority before summing (upstream's MaxInt32 + 1), so a
node with few negative-priority victims is not preferred for having a larger sum."""


@frozen
class Candidate:
    """A node where the preemptor fits once `victims` are evicted.

    `victims` go from most to least important; `num_pdb_violations` counts
    the victims whose eviction would violate a PodDisruptionBudget.
    """

    node_name: str
    victims: tuple[Pod, ...]
    num_pdb_violations: int = 0


CandidateScore = Callable[[Candidate], int]
"""A criterion: candidates with the greatest score are preferred."""


def _fewest_pdb_violations(c: Candidate) -> int:
    return -c.num_pdb_violations


def _lowest_highest_priority(c: Candidate) -> int:
    return -c.victims[0].priority


def _smallest_priority_sum(c: Candidate) -> int:
    return -sum(v.priority + PRIORITY_OFFSET for v in c.victims)


def _fewest_victims(c: Candidate) -> int:
    return -len(c.victims)


def _latest_start_of_highest_priority(c: Candidate) -> int:
    """Upstream scores this criterion with the time's UnixNano: whole nanoseconds."""
    return earliest_start_of_highest_priority(c.victims).unix_nanos


DEFAULT_CRITERIA: tuple[CandidateScore, ...] = (
    _fewest_pdb_violations,
    _lowest_highest_priority,
    _smallest_priority_sum,
    _fewest_victims,
    _latest_start_of_highest_priority,
)
"""Upstream's pickOneNodeForPreemption criteria, in order of precedence."""

CRITERIA_NAMES: dict[CandidateScore, str] = {
    _fewest_pdb_violations: "fewest PodDisruptionBudget violations",
    _lowest_highest_priority: "lowest priority of its most important victim",
    _smallest_priority_sum: "smallest sum of victim priorities",
    _fewest_victims: "fewest victims",
    _latest_start_of_highest_priority: "latest start of its most important victims",
}
ONLY_CANDIDATE = "the only candidate"
FIRST_OF_TIED = "first of the candidates tied on every criterion"


def select_candidate(
    candidates: Sequence[Candidate], criteria: Sequence[CandidateScore] = DEFAULT_CRITERIA
) -> Candidate:
    """The best candidate: each criterion in turn keeps only the candidates it
    scores highest, until one is left; on a tie after all of them, the first.

    `candidates` must not be empty.
    """
    return choose_candidate(candidates, criteria)[0]


def choose_candidate(
    candidates: Sequence[Candidate], criteria: Sequence[CandidateScore] = DEFAULT_CRITERIA
) -> tuple[Candidate, str]:
    """`select_candidate`, and which criterion decided (by its name in CRITERIA_NAMES)."""
    remaining = list(candidates)
    if len(remaining) == 1:
        return remaining[0], ONLY_CANDIDATE
    for criterion in criteria:
        scores = [criterion(c) for c in remaining]
        best = max(scores)
        remaining = [c for c, s in zip(remaining, scores, strict=True) if s == best]
        if len(remaining) == 1:
            return remaining[0], CRITERIA_NAMES.get(criterion, getattr(criterion, "__name__", ""))
    return remaining[0], FIRST_OF_TIED
