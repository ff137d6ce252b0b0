"""Why a pod's affinity terms do not parse, worded as upstream's PodInfo words it.

Upstream parses a pod's terms when it builds its PodInfo: each of the four groups
(required and preferred affinity, required and preferred anti-affinity) stops at its first
term whose label selector or namespace selector is invalid, and prefixes that selector's
error with the group's name (`requiredAffinityTerms: ...`). A selector's error comes from
`labels.NewRequirement`, which knows nothing of where the requirement sits in the pod: its
paths are relative, `key` and `values[<i>][<key>]`, and the problems of one requirement join
as an aggregate (`[a, b]`). The groups' errors join the same way.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence

from kubesched.api import (
    FieldError,
    LabelSelector,
    Pod,
    PodAffinityTerm,
    aggregate_message,
    invalid,
    validate_label_key,
    validate_label_value,
)

_OPERATORS = ("In", "NotIn", "Exists", "DoesNotExist")


def _requirement_errors(key: str, operator: str, values: Sequence[str]) -> list[FieldError]:
    """labels.NewRequirement's checks, in its order: the key, the operator's rule on the
    number of values, then each value."""
    errors = list(validate_label_key("key", key))
    if operator in ("In", "NotIn") and not values:
        errors.append(
            invalid(
                "values", list(values), "for 'in', 'notin' operators, values set can't be empty"
            )
        )
    if operator in ("Exists", "DoesNotExist") and values:
        errors.append(
            invalid(
                "values", list(values), "values set must be empty for exists and does not exist"
            )
        )
    for i, value in enumerate(values):
        errors += validate_label_value(f"values[{i}][{key}]", value)
    return errors


def selector_error(selector: LabelSelector | None) -> str | None:
    """metav1.LabelSelectorAsSelector's error for the selector, or None when it compiles:
    matchLabels first, then matchExpressions, stopping at the first bad requirement."""
    if selector is None:
        return None
    for key, value in selector.match_labels.items():
        errors = _requirement_errors(key, "=", [value])
        if errors:
            return aggregate_message(errors)
    for expression in selector.match_expressions:
        if expression.operator not in _OPERATORS:
            return f'"{expression.operator}" is not a valid label selector operator'
        errors = _requirement_errors(expression.key, expression.operator, expression.values)
        if errors:
            return aggregate_message(errors)
    return None


def _term_error(terms: Sequence[PodAffinityTerm]) -> str | None:
    for term in terms:
        problem = selector_error(term.label_selector) or selector_error(term.namespace_selector)
        if problem is not None:
            return problem
    return None


def _groups(pod: Pod) -> Iterator[tuple[str, Sequence[PodAffinityTerm]]]:
    affinity = pod.spec.affinity
    if affinity is None:
        return
    for name, kind in (
        ("Affinity", affinity.pod_affinity),
        ("AntiAffinity", affinity.pod_anti_affinity),
    ):
        if kind is None:
            continue
        yield f"required{name}Terms", kind.required_during_scheduling_ignored_during_execution
        preferred = kind.preferred_during_scheduling_ignored_during_execution
        yield f"preferred{name}Terms", [w.pod_affinity_term for w in preferred]


_ORDER = (
    "requiredAffinityTerms",
    "requiredAntiAffinityTerms",
    "preferredAffinityTerms",
    "preferredAntiAffinityTerms",
)


def parse_error(pod: Pod) -> str | None:
    """Every group's first bad term, as upstream's PodInfo.ParseError prints them (one
    error alone, several as `[a, b]`); None when every term parses."""
    found = {name: _term_error(terms) for name, terms in _groups(pod)}
    messages = [f"{name}: {found[name]}" for name in _ORDER if found.get(name)]
    if not messages:
        return None
    unique = list(dict.fromkeys(messages))
    return unique[0] if len(unique) == 1 else "[" + ", ".join(unique) + "]"
