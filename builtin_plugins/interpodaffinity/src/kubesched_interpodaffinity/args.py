"""InterPodAffinityArgs: the weight of existing pods' required affinity in scoring, and
whether existing pods' preferred terms count."""

from __future__ import annotations

from attrs import frozen

DEFAULT_HARD_POD_AFFINITY_WEIGHT = 1
MIN_HARD_POD_AFFINITY_WEIGHT = 0
MAX_HARD_POD_AFFINITY_WEIGHT = 100


@frozen
class InterPodAffinityArgs:
    """The plugin's pluginConfig args (upstream's `InterPodAffinityArgs`, v1 defaults).

    `hard_pod_affinity_weight` is what an existing pod's required affinity term
    that the incoming pod matches adds to its topology domain's score;
    `ignore_preferred_terms_of_existing_pods` skips scoring for pods that have no
    preferred terms of their own.
    """

    hard_pod_affinity_weight: int = DEFAULT_HARD_POD_AFFINITY_WEIGHT
    ignore_preferred_terms_of_existing_pods: bool = False

    def validate(self, path: str) -> list[str]:
        """Upstream's ValidateInterPodAffinityArgs: one line per problem, empty when valid."""
        weight = self.hard_pod_affinity_weight
        if MIN_HARD_POD_AFFINITY_WEIGHT <= weight <= MAX_HARD_POD_AFFINITY_WEIGHT:
            return []
        field = f"{path}.hardPodAffinityWeight" if path else "hardPodAffinityWeight"
        valid = f"[{MIN_HARD_POD_AFFINITY_WEIGHT}, {MAX_HARD_POD_AFFINITY_WEIGHT}]"
        return [f"{field}: Invalid value: {weight}: not in valid range {valid}"]
