"""PodTopologySpreadArgs: the constraints given to pods that declare none."""

from __future__ import annotations

from attrs import field, frozen

from kubesched.api import (
    FieldError,
    TopologySpreadConstraint,
    child,
    duplicate,
    index,
    invalid,
    not_supported,
    required,
    validate_label_name,
)
from kubesched_podtopologyspread.constraints import DO_NOT_SCHEDULE, SCHEDULE_ANYWAY

SYSTEM_DEFAULTING = "System"
LIST_DEFAULTING = "List"
_FORBIDDEN = "Forbidden"


@frozen
class PodTopologySpreadArgs:
    """`defaultingType: System` (the default) gives pods without constraints upstream's
    system defaults; `List` gives them `defaultConstraints` (none when empty). Default
    constraints carry no selector: it comes from the workloads that select each pod."""

    default_constraints: list[TopologySpreadConstraint] = field(factory=list)
    defaulting_type: str = SYSTEM_DEFAULTING

    def validate(self, path: str) -> list[str]:
        """Upstream's ValidatePodTopologySpreadArgs: one line per problem."""
        errors: list[FieldError] = []
        kind_path = child(path, "defaultingType")
        if self.defaulting_type not in (SYSTEM_DEFAULTING, LIST_DEFAULTING):
            supported = [SYSTEM_DEFAULTING, LIST_DEFAULTING]
            errors.append(not_supported(kind_path, self.defaulting_type, supported))
        elif self.defaulting_type == SYSTEM_DEFAULTING and self.default_constraints:
            errors.append(
                invalid(kind_path, self.defaulting_type, "when .defaultConstraints are not empty")
            )
        list_path = child(path, "defaultConstraints")
        for i in range(len(self.default_constraints)):
            errors.extend(_constraint_errors(list_path, self.default_constraints, i))
        return [str(e) for e in errors]


def _constraint_errors(
    list_path: str, constraints: list[TopologySpreadConstraint], i: int
) -> list[FieldError]:
    c = constraints[i]
    path = index(list_path, i)
    errors: list[FieldError] = []
    if c.max_skew <= 0:
        errors.append(invalid(child(path, "maxSkew"), c.max_skew, "not in valid range (0, inf)"))
    key_path = child(path, "topologyKey")
    if not c.topology_key:
        errors.append(required(key_path, "can not be empty"))
    else:
        errors.extend(validate_label_name(key_path, c.topology_key))
    action_path = child(path, "whenUnsatisfiable")
    if not c.when_unsatisfiable:
        errors.append(required(action_path, "can not be empty"))
    elif c.when_unsatisfiable not in (DO_NOT_SCHEDULE, SCHEDULE_ANYWAY):
        supported = [DO_NOT_SCHEDULE, SCHEDULE_ANYWAY]
        errors.append(not_supported(action_path, c.when_unsatisfiable, supported))
    if c.label_selector is not None:
        detail = "constraint must not define a selector, as they deduced for each pod"
        errors.append(FieldError(child(path, "labelSelector"), _FORBIDDEN, None, detail))
    for other in constraints[:i]:
        if (other.topology_key, other.when_unsatisfiable) == (c.topology_key, c.when_unsatisfiable):
            errors.append(duplicate(path, f"{{{c.topology_key}, {c.when_unsatisfiable}}}"))
            break
    return errors
