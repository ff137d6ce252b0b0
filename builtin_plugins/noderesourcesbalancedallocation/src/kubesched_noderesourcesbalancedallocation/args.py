"""NodeResourcesBalancedAllocationArgs: upstream's v1 plugin args, defaults and validation.

Structuring a pluginConfig entry into these classes applies upstream's v1
defaulting: no resources means cpu and memory with weight 1, and a weight of
0 (or unset) means 1. Validation then allows only weight 1 and no resource
named twice, as upstream's ValidateNodeResourcesBalancedAllocationArgs.
"""

from __future__ import annotations

from collections.abc import Iterable

from attrs import evolve, field, frozen

from kubesched.api import FieldError, child, duplicate, index, invalid


@frozen
class ResourceSpec:
    """A resource whose share of the node's allocatable is balanced, with its weight."""

    name: str
    weight: int = 0


DEFAULT_RESOURCES = (ResourceSpec("cpu", 1), ResourceSpec("memory", 1))


def _default_resources(specs: Iterable[ResourceSpec]) -> tuple[ResourceSpec, ...]:
    """v1 defaulting: no resources -> cpu and memory; weight 0 -> 1."""
    given = tuple(specs)
    if not given:
        return DEFAULT_RESOURCES
    return tuple(evolve(s, weight=1) if s.weight == 0 else s for s in given)


@frozen
class NodeResourcesBalancedAllocationArgs:
    """Args of NodeResourcesBalancedAllocation (`kind: NodeResourcesBalancedAllocationArgs`)."""

    resources: tuple[ResourceSpec, ...] = field(default=(), converter=_default_resources)

    def validate(self, path: str = "") -> list[str]:
        """One `<field path>: <message>` line per problem, empty when valid."""
        errs: list[FieldError] = []
        seen: set[str] = set()
        for i, spec in enumerate(self.resources):
            at = index(child(path, "resources"), i)
            if spec.name in seen:
                errs.append(duplicate(child(at, "name"), spec.name))
            seen.add(spec.name)
            if spec.weight != 1:
                errs.append(invalid(child(at, "weight"), spec.weight, "must be 1"))
        return [str(e) for e in errs]
