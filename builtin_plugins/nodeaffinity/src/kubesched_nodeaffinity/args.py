"""NodeAffinityArgs: node affinity the scheduler adds to every pod of the profile."""

from __future__ import annotations

from attrs import frozen

from kubesched.api import FieldError, child, unique_messages
from kubesched.api import NodeAffinity as NodeAffinitySpec
from kubesched_nodeaffinity.selectors import (
    SelectorParseError,
    parse_node_selector,
    parse_preferred_terms,
)

REQUIRED_FIELD = "requiredDuringSchedulingIgnoredDuringExecution"
PREFERRED_FIELD = "preferredDuringSchedulingIgnoredDuringExecution"


@frozen
class NodeAffinityArgs:
    """`addedAffinity`: required terms every node must also match, and preferred terms
    added to every pod's score. None (the default) adds nothing."""

    added_affinity: NodeAffinitySpec | None = None

    def validate(self, path: str) -> list[str]:
        """One `<path>.addedAffinity....: <message>` line per selector that does not parse."""
        added = self.added_affinity
        if added is None:
            return []
        base = child(path, "addedAffinity")
        errors: list[FieldError] = []
        required = added.required_during_scheduling_ignored_during_execution
        if required is not None:
            errors.extend(parse_node_selector(required, child(base, REQUIRED_FIELD)).errors)
        preferred = added.preferred_during_scheduling_ignored_during_execution
        if preferred:
            try:
                parse_preferred_terms(preferred, child(base, PREFERRED_FIELD))
            except SelectorParseError as e:
                errors.extend(e.errors)
        return unique_messages(errors)
