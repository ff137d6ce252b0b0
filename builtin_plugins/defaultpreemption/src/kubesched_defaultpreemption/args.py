"""DefaultPreemptionArgs: how many candidate nodes a preemption dry run looks for."""

from __future__ import annotations

from attrs import frozen

DEFAULT_MIN_CANDIDATE_NODES_PERCENTAGE = 10
DEFAULT_MIN_CANDIDATE_NODES_ABSOLUTE = 100


def _field_path(path: str, name: str) -> str:
    return f"{path}.{name}" if path else name


def _invalid(path: str, value: int, detail: str) -> str:
    """An error line the way upstream's field.Invalid prints."""
    return f"{path}: Invalid value: {value}: {detail}"


@frozen
class DefaultPreemptionArgs:
    """The plugin's pluginConfig args (upstream's `DefaultPreemptionArgs`, v1 defaults).

    The dry run stops once it has found
    `max(num_nodes * min_candidate_nodes_percentage / 100, min_candidate_nodes_absolute)`
    candidates (never more than the nodes there are) and at least one of them
    violates no PodDisruptionBudget.
    """

    min_candidate_nodes_percentage: int = DEFAULT_MIN_CANDIDATE_NODES_PERCENTAGE
    min_candidate_nodes_absolute: int = DEFAULT_MIN_CANDIDATE_NODES_ABSOLUTE

    def validate(self, path: str) -> list[str]:
        """Upstream's ValidateDefaultPreemptionArgs: one line per problem, empty when valid."""
        percentage_path = _field_path(path, "minCandidateNodesPercentage")
        absolute_path = _field_path(path, "minCandidateNodesAbsolute")
        percentage = self.min_candidate_nodes_percentage
        absolute = self.min_candidate_nodes_absolute
        errors = []
        if not 0 <= percentage <= 100:
            errors.append(_invalid(percentage_path, percentage, "not in valid range [0, 100]"))
        if absolute < 0:
            errors.append(_invalid(absolute_path, absolute, "not in valid range [0, inf)"))
        if percentage == 0 and absolute == 0:
            errors.append(
                _invalid(
                    percentage_path,
                    percentage,
                    "cannot be zero at the same time as minCandidateNodesAbsolute",
                )
            )
            errors.append(
                _invalid(
                    absolute_path,
                    absolute,
                    "cannot be zero at the same time as minCandidateNodesPercentage",
                )
            )
        return errors

    def num_candidates(self, num_nodes: int) -> int:
        """How many candidates to look for among `num_nodes` potential nodes
        (upstream's calculateNumCandidates)."""
        n = num_nodes * self.min_candidate_nodes_percentage // 100
        return min(max(n, self.min_candidate_nodes_absolute), num_nodes)
