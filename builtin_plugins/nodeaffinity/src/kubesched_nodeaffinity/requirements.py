"""One node selector requirement, parsed: on labels (matchExpressions) or on fields
(matchFields), with upstream's parse errors and matching rules."""

from __future__ import annotations

from collections.abc import Mapping

from attrs import frozen

from kubesched.api import (
    FieldError,
    NodeSelectorRequirement,
    child,
    index,
    invalid,
    not_supported,
    parse_go_int64,
    validate_label_key,
    validate_label_value,
)
from kubesched_nodeaffinity.evaluator import (
    DOES_NOT_EXIST,
    EXISTS,
    GT,
    IN,
    LT,
    NOT_IN,
    NodeView,
    field,
    requirement,
)

__all__ = [
    "FIELD_OPERATORS",
    "LABEL_OPERATORS",
    "FieldRequirement",
    "LabelRequirement",
    "parse_field_requirement",
    "parse_go_int64",
    "parse_label_requirement",
]

LABEL_OPERATORS = (IN, NOT_IN, EXISTS, DOES_NOT_EXIST, GT, LT)
FIELD_OPERATORS = (IN, NOT_IN)


@frozen
class LabelRequirement:
    """`key <operator> values` on node labels; `bound` is the integer of Gt and Lt."""

    key: str
    operator: str
    values: frozenset[str] = frozenset()
    bound: int = 0

    def matches(self, labels: Mapping[str, str]) -> bool:
        return bool(requirement(self, NodeView(labels, "")))


@frozen
class FieldRequirement:
    """`key In|NotIn value` on node fields, where only `metadata.name` has a value."""

    key: str
    operator: str
    value: str

    def matches(self, node_name: str) -> bool:
        return bool(field(self, NodeView({}, node_name)))


def _operand_errors(req: NodeSelectorRequirement, values_path: str) -> list[FieldError]:
    values = req.values
    if req.operator in (IN, NOT_IN) and not values:
        detail = "for 'in', 'notin' operators, values set can't be empty"
        return [invalid(values_path, values, detail)]
    if req.operator in (EXISTS, DOES_NOT_EXIST) and values:
        detail = "values set must be empty for exists and does not exist"
        return [invalid(values_path, values, detail)]
    if req.operator in (GT, LT):
        errors = []
        if len(values) != 1:
            detail = "for 'Gt', 'Lt' operators, exactly one value is required"
            errors.append(invalid(values_path, values, detail))
        detail = "for 'Gt', 'Lt' operators, the value must be an integer"
        errors.extend(
            invalid(index(values_path, i), v, detail)
            for i, v in enumerate(values)
            if parse_go_int64(v) is None
        )
        return errors
    return []


def parse_label_requirement(
    req: NodeSelectorRequirement, path: str
) -> LabelRequirement | list[FieldError]:
    """The requirement, or why it does not parse (upstream's labels.NewRequirement)."""
    if req.operator not in LABEL_OPERATORS:
        return [not_supported(child(path, "operator"), req.operator, LABEL_OPERATORS)]
    values_path = child(path, "values")
    errors = validate_label_key(child(path, "key"), req.key)
    errors += _operand_errors(req, values_path)
    for i, value in enumerate(req.values):
        errors += validate_label_value(index(index(values_path, i), req.key), value)
    if errors:
        return list(dict.fromkeys(errors))
    bound = parse_go_int64(req.values[0]) if req.operator in (GT, LT) else None
    return LabelRequirement(req.key, req.operator, frozenset(req.values), bound or 0)


def parse_field_requirement(
    req: NodeSelectorRequirement, path: str
) -> FieldRequirement | list[FieldError]:
    """The requirement, or why it does not parse (exactly one value, In or NotIn)."""
    if req.operator not in FIELD_OPERATORS:
        return [not_supported(child(path, "operator"), req.operator, FIELD_OPERATORS)]
    if len(req.values) != 1:
        return [invalid(child(path, "values"), req.values, "must have one element")]
    return FieldRequirement(req.key, req.operator, req.values[0])
