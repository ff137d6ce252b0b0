"""FGDScoreArgs: the target workload FGD measures fragmentation against."""

from __future__ import annotations

from attrs import field, frozen

from kubesched_gpushare.frag import DEFAULT_COVERAGE, TypicalPod
from kubesched_gpushare.resources import MILLI, GpuRequest


@frozen
class TypicalPodSpec:
    """One spec of the target workload: CPU milli, GPU count and milli, accepted card
    models ("A|B", empty: any) and its weight (share of pods)."""

    cpu_milli: int
    weight: float
    gpu_count: int = 0
    gpu_milli: int = 0
    gpu_card_model: str = ""

    def typical(self) -> TypicalPod:
        models = frozenset(m for m in self.gpu_card_model.split("|") if m)
        request = GpuRequest(self.gpu_count, self.gpu_milli, models)
        return TypicalPod(self.cpu_milli, request, self.weight)


@frozen
class FGDScoreArgs:
    """`typicalPods`: the target workload; empty, it is the one a Namespace of the cluster
    publishes (annotation `gpushare.kubesched.io/target-workload`, as the OpenB trace
    formats do), else built from the cluster's pods (pending and bound) the first time
    FGD scores, keeping the most popular specs up to `coverage` % of them."""

    typical_pods: list[TypicalPodSpec] = field(factory=list)
    coverage: float = DEFAULT_COVERAGE

    def validate(self, path: str) -> list[str]:
        """One line per problem, empty when valid."""
        errors = []
        if not 0 < self.coverage <= 100:
            errors.append(f"{path}.coverage: Invalid value: {self.coverage}: must be in (0, 100]")
        for i, spec in enumerate(self.typical_pods):
            where = f"{path}.typicalPods[{i}]"
            if spec.weight < 0:
                errors.append(f"{where}.weight: Invalid value: {spec.weight}: must not be negative")
            if spec.cpu_milli < 0 or spec.gpu_count < 0:
                errors.append(f"{where}: Invalid value: cpuMilli and gpuCount must not be negative")
            if not 0 <= spec.gpu_milli <= MILLI:
                errors.append(
                    f"{where}.gpuMilli: Invalid value: {spec.gpu_milli}: must be in [0, {MILLI}]"
                )
        return errors
