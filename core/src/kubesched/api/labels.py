"""Label selectors (`metav1.LabelSelector`) matched against label sets, as apimachinery does.

`as_selector` is upstream's `LabelSelectorAsSelector`: a missing selector
(None) selects nothing, an empty one selects everything; `matchLabels` entries
are equality requirements and `matchExpressions` use In, NotIn, Exists and
DoesNotExist, all ANDed. A selector that upstream would refuse (an unknown
operator, In without values, Exists with values, a malformed key or value)
raises `InputError` naming the field. Compile a selector once with `as_selector`
when it is matched against many label sets.
"""

from __future__ import annotations

import re
from collections.abc import Mapping

from attrs import frozen

from kubesched.api.meta import LabelSelector, LabelSelectorRequirement
from kubesched.errors import InputError

IN = "In"
NOT_IN = "NotIn"
EXISTS = "Exists"
DOES_NOT_EXIST = "DoesNotExist"
EQUALS = "="
"""The operator of a `matchLabels` entry (upstream's selection.Equals)."""

_NAME = re.compile(r"([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]")
_DNS_SUBDOMAIN = re.compile(r"[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*")
_NAME_RULE = (
    "must consist of alphanumeric characters, '-', '_' or '.', "
    "and must start and end with an alphanumeric character"
)


@frozen
class Requirement:
    """One requirement on a label: its key, operator and the values it allows or forbids."""

    key: str
    operator: str
    values: frozenset[str] = frozenset()

    def matches(self, labels: Mapping[str, str]) -> bool:
        """Whether a label set satisfies the requirement (upstream's Requirement.Matches)."""
        if self.operator in (IN, EQUALS):
            return self.key in labels and labels[self.key] in self.values
        if self.operator == NOT_IN:
            return self.key not in labels or labels[self.key] not in self.values
        if self.operator == EXISTS:
            return self.key in labels
        return self.key not in labels


@frozen
class Selector:
    """Requirements ANDed together; `selects_nothing` marks upstream's labels.Nothing()."""

    requirements: tuple[Requirement, ...] = ()
    selects_nothing: bool = False

    def matches(self, labels: Mapping[str, str]) -> bool:
        if self.selects_nothing:
            return False
        return all(r.matches(labels) for r in self.requirements)

    @property
    def empty(self) -> bool:
        """True for the selector that matches every label set."""
        return not self.requirements and not self.selects_nothing


EVERYTHING = Selector()
NOTHING = Selector(selects_nothing=True)


def _key_problem(key: str) -> str | None:
    """Why `key` is not a valid label key (a qualified name), or None."""
    parts = key.split("/")
    if len(parts) > 2:
        return f"a qualified name {_NAME_RULE}, with an optional DNS subdomain prefix and '/'"
    name = parts[-1]
    if len(parts) == 2:
        prefix = parts[0]
        if not prefix:
            return "prefix part must be non-empty"
        if len(prefix) > 253:
            return "prefix part must be no more than 253 characters"
        if not _DNS_SUBDOMAIN.fullmatch(prefix):
            return (
                "prefix part a lowercase RFC 1123 subdomain must consist of lower case "
                "alphanumeric characters, '-' or '.', and must start and end with an "
                "alphanumeric character"
            )
    if not name:
        return "name part must be non-empty"
    if len(name) > 63:
        return "name part must be no more than 63 characters"
    if not _NAME.fullmatch(name):
        return f"name part {_NAME_RULE}"
    return None


def _value_problem(value: str) -> str | None:
    """Why `value` is not a valid label value, or None (an empty value is valid)."""
    if len(value) > 63:
        return "must be no more than 63 characters"
    if value and not _NAME.fullmatch(value):
        return f"a valid label {_NAME_RULE}"
    return None


def _check_key(key: str, field: str) -> None:
    if (problem := _key_problem(key)) is not None:
        raise InputError(f"Invalid value: {key!r}: {problem}", field=field)


def _check_value(value: str, field: str) -> None:
    if (problem := _value_problem(value)) is not None:
        raise InputError(f"Invalid value: {value!r}: {problem}", field=field)


def _expression(expression: LabelSelectorRequirement, path: str) -> Requirement:
    """A validated matchExpressions entry (upstream's labels.NewRequirement checks)."""
    operator, values = expression.operator, expression.values
    if operator not in (IN, NOT_IN, EXISTS, DOES_NOT_EXIST):
        raise InputError(
            f"{operator!r} is not a valid label selector operator", field=f"{path}.operator"
        )
    _check_key(expression.key, f"{path}.key")
    if operator in (IN, NOT_IN) and not values:
        raise InputError(
            "Required value: for 'in', 'notin' operators, values set can't be empty",
            field=f"{path}.values",
        )
    if operator in (EXISTS, DOES_NOT_EXIST) and values:
        raise InputError(
            "Forbidden: values set must be empty for exists and does not exist",
            field=f"{path}.values",
        )
    for i, value in enumerate(values):
        _check_value(value, f"{path}.values[{i}]")
    return Requirement(key=expression.key, operator=operator, values=frozenset(values))


def as_selector(selector: LabelSelector | None) -> Selector:
    """Compile a LabelSelector (upstream's metav1.LabelSelectorAsSelector)."""
    if selector is None:
        return NOTHING
    if not selector.match_labels and not selector.match_expressions:
        return EVERYTHING
    requirements = []
    for key, value in selector.match_labels.items():
        _check_key(key, "matchLabels")
        _check_value(value, f"matchLabels.{key}")
        requirements.append(Requirement(key=key, operator=EQUALS, values=frozenset([value])))
    for i, expression in enumerate(selector.match_expressions):
        requirements.append(_expression(expression, f"matchExpressions[{i}]"))
    return Selector(tuple(requirements))


def selector_matches(selector: LabelSelector | None, labels: Mapping[str, str]) -> bool:
    """Whether `labels` match `selector` (None matches nothing, an empty selector everything)."""
    return as_selector(selector).matches(labels)
