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

from collections.abc import Mapping

from attrs import frozen

from kubesched.api._field_errors import FieldError, child, go_quote, index, invalid
from kubesched.api._meta import LabelSelector, LabelSelectorRequirement
from kubesched.api._names import validate_label_key, validate_label_value
from kubesched.errors import InputError

IN = "In"
NOT_IN = "NotIn"
EXISTS = "Exists"
DOES_NOT_EXIST = "DoesNotExist"
EQUALS = "="
"""The operator of a `matchLabels` entry (upstream's selection.Equals)."""


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
        for requirement in self.requirements:  # noqa: SIM110 (no generator on a hot path)
            if not requirement.matches(labels):
                return False
        return True

    @property
    def empty(self) -> bool:
        """True for the selector that matches every label set."""
        return not self.requirements and not self.selects_nothing


EVERYTHING = Selector()
NOTHING = Selector(selects_nothing=True)


def _raise_first(errors: list[FieldError]) -> None:
    """Raise the first error, if any, as an InputError naming its field."""
    if errors:
        raise InputError(errors[0].body, field=errors[0].path)


def _expression(expression: LabelSelectorRequirement, path: str) -> Requirement:
    """A validated matchExpressions entry (upstream's labels.NewRequirement checks)."""
    operator, values = expression.operator, expression.values
    if operator not in (IN, NOT_IN, EXISTS, DOES_NOT_EXIST):
        raise InputError(
            f"{go_quote(operator)} is not a valid label selector operator",
            field=child(path, "operator"),
        )
    _raise_first(validate_label_key(child(path, "key"), expression.key))
    values_path = child(path, "values")
    if operator in (IN, NOT_IN) and not values:
        detail = "for 'in', 'notin' operators, values set can't be empty"
        _raise_first([invalid(values_path, values, detail)])
    if operator in (EXISTS, DOES_NOT_EXIST) and values:
        detail = "values set must be empty for exists and does not exist"
        _raise_first([invalid(values_path, values, detail)])
    for i, value in enumerate(values):
        _raise_first(validate_label_value(index(values_path, i), value))
    return Requirement(key=expression.key, operator=operator, values=frozenset(values))


def as_selector(selector: LabelSelector | None) -> Selector:
    """Compile a LabelSelector (upstream's metav1.LabelSelectorAsSelector)."""
    if selector is None:
        return NOTHING
    if not selector.match_labels and not selector.match_expressions:
        return EVERYTHING
    requirements = []
    for key, value in selector.match_labels.items():
        _raise_first(validate_label_key("matchLabels", key))
        _raise_first(validate_label_value(child("matchLabels", key), value))
        requirements.append(Requirement(key=key, operator=EQUALS, values=frozenset([value])))
    for i, expression in enumerate(selector.match_expressions):
        requirements.append(_expression(expression, index("matchExpressions", i)))
    return Selector(tuple(requirements))


def selector_matches(selector: LabelSelector | None, labels: Mapping[str, str]) -> bool:
    """Whether `labels` match `selector` (None matches nothing, an empty selector everything)."""
    return as_selector(selector).matches(labels)
