"""NodeResourcesFitArgs: upstream's v1 plugin args, defaults and validation.

Structuring a pluginConfig entry into these classes applies upstream's v1
defaulting: no scoringStrategy means LeastAllocated on cpu and memory with
weight 1; an empty resource list means that same list; a weight of 0 (or
unset) means 1. A scoringStrategy given without a type keeps the empty type,
which validation then rejects, as upstream does.
"""

from __future__ import annotations

from collections.abc import Iterable

from attrs import evolve, field, frozen

from kubesched.api import (
    FieldError,
    child,
    index,
    invalid,
    not_supported,
    required,
    validate_label_name,
)

LEAST_ALLOCATED = "LeastAllocated"
MOST_ALLOCATED = "MostAllocated"
REQUESTED_TO_CAPACITY_RATIO = "RequestedToCapacityRatio"
SCORING_STRATEGY_TYPES = (LEAST_ALLOCATED, MOST_ALLOCATED, REQUESTED_TO_CAPACITY_RATIO)
"""Supported strategy types, in the order upstream lists them in messages."""

MAX_CUSTOM_PRIORITY_SCORE = 10
"""Upstream's MaxCustomPriorityScore: shape scores run 0..10 and are scaled to 0..100."""
MAX_UTILIZATION = 100
MAX_RESOURCE_WEIGHT = 100


@frozen
class ResourceSpec:
    """A resource that scoring considers, with its weight."""

    name: str
    weight: int = 0


@frozen
class UtilizationShapePoint:
    """One point of the RequestedToCapacityRatio curve: utilization (0..100) -> score (0..10)."""

    utilization: int
    score: int


@frozen
class RequestedToCapacityRatioParam:
    """The RequestedToCapacityRatio curve, points in increasing utilization."""

    shape: tuple[UtilizationShapePoint, ...] = field(default=(), converter=tuple)


DEFAULT_RESOURCES = (ResourceSpec("cpu", 1), ResourceSpec("memory", 1))


def _default_resources(specs: Iterable[ResourceSpec]) -> tuple[ResourceSpec, ...]:
    """v1 defaulting: no resources -> cpu and memory; weight 0 -> 1."""
    given = tuple(specs)
    if not given:
        return DEFAULT_RESOURCES
    return tuple(evolve(s, weight=1) if s.weight == 0 else s for s in given)


@frozen
class ScoringStrategy:
    """How Score rates a node: the strategy type, the resources and, for
    RequestedToCapacityRatio, the curve."""

    type: str = ""
    resources: tuple[ResourceSpec, ...] = field(default=(), converter=_default_resources)
    requested_to_capacity_ratio: RequestedToCapacityRatioParam | None = None


def _default_strategy() -> ScoringStrategy:
    return ScoringStrategy(type=LEAST_ALLOCATED)


@frozen
class NodeResourcesFitArgs:
    """Args of NodeResourcesFit (`kind: NodeResourcesFitArgs`)."""

    ignored_resources: tuple[str, ...] = field(default=(), converter=tuple)
    ignored_resource_groups: tuple[str, ...] = field(default=(), converter=tuple)
    scoring_strategy: ScoringStrategy = field(factory=_default_strategy)

    def validate(self, path: str = "") -> list[str]:
        """Upstream's ValidateNodeResourcesFitArgs, one `<field path>: <message>` line each."""
        errs: list[FieldError] = []
        for i, name in enumerate(self.ignored_resources):
            errs += validate_label_name(index(child(path, "ignoredResources"), i), name)
        for i, group in enumerate(self.ignored_resource_groups):
            at = index(child(path, "ignoredResourceGroups"), i)
            if "/" in group:
                errs.append(invalid(at, group, "resource group name can't contain '/'"))
            errs += validate_label_name(at, group)
        strategy = self.scoring_strategy
        strategy_path = child(path, "scoringStrategy")
        if strategy.type not in SCORING_STRATEGY_TYPES:
            errs.append(
                not_supported(child(strategy_path, "type"), strategy.type, SCORING_STRATEGY_TYPES)
            )
        for i, spec in enumerate(strategy.resources):
            if not 0 < spec.weight <= MAX_RESOURCE_WEIGHT:
                errs.append(
                    invalid(
                        child(index(child(strategy_path, "resources"), i), "weight"),
                        spec.weight,
                        f"resource weight of {spec.name} not in valid range (0, 100]",
                    )
                )
        curve = strategy.requested_to_capacity_ratio
        if curve is not None:
            # Upstream reports shape errors under scoringStrategy.shape.
            errs += _shape_errors(curve.shape, child(strategy_path, "shape"))
        elif strategy.type == REQUESTED_TO_CAPACITY_RATIO:
            errs.append(
                required(
                    child(strategy_path, "requestedToCapacityRatio"),
                    "must be specified when type is RequestedToCapacityRatio",
                )
            )
        return [str(e) for e in errs]


def _shape_errors(shape: tuple[UtilizationShapePoint, ...], path: str) -> list[FieldError]:
    """Upstream's validateFunctionShape."""
    if not shape:
        return [required(path, "at least one point must be specified")]
    errs: list[FieldError] = []
    for i in range(1, len(shape)):
        if shape[i - 1].utilization >= shape[i].utilization:
            errs.append(
                invalid(
                    child(index(path, i), "utilization"),
                    shape[i].utilization,
                    "values must be sorted in increasing order",
                )
            )
            break
    for i, point in enumerate(shape):
        if not 0 <= point.utilization <= MAX_UTILIZATION:
            errs.append(
                invalid(
                    child(index(path, i), "utilization"),
                    point.utilization,
                    f"not in valid range [0, {MAX_UTILIZATION}]",
                )
            )
        if not 0 <= point.score <= MAX_CUSTOM_PRIORITY_SCORE:
            errs.append(
                invalid(
                    child(index(path, i), "score"),
                    point.score,
                    f"not in valid range [0, {MAX_CUSTOM_PRIORITY_SCORE}]",
                )
            )
    return errs
