"""What an API server checks in any object's metadata and in label selectors.

Labels (ValidateLabels), annotations (ValidateAnnotations, with their 256 KiB
total) and metav1 label selectors (ValidateLabelSelector), with upstream's
field paths and messages. Label keys and values repeat across thousands of
objects in a cluster's dump, so each distinct one is checked once.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from functools import lru_cache

from kubesched.api._field_errors import FieldError, forbidden, invalid, required, too_long
from kubesched.api._meta import LabelSelector, LabelSelectorRequirement, ObjectMeta
from kubesched.api._names import label_value_errors, qualified_name_errors

TOTAL_ANNOTATION_SIZE_LIMIT = 256 * 1024
"""Bytes an object's annotations (keys and values) may hold together."""
SELECTOR_OPERATORS = ("In", "NotIn", "Exists", "DoesNotExist")


@lru_cache(maxsize=65536)
def name_problems(key: str) -> tuple[str, ...]:
    """Why `key` is not a qualified name (a label key, a taint key...): cached."""
    return tuple(qualified_name_errors(key))


@lru_cache(maxsize=65536)
def value_problems(value: str) -> tuple[str, ...]:
    """Why `value` is not a label value: cached."""
    return tuple(label_value_errors(value))


def label_name_errors(path: str, name: str) -> Iterator[FieldError]:
    """ValidateLabelName: one Invalid per problem."""
    for problem in name_problems(name):
        yield invalid(path, name, problem)


def label_errors(path: str, labels: Mapping[str, str]) -> Iterator[FieldError]:
    """ValidateLabels: keys are qualified names, values label values; the path is the map's."""
    for key, value in labels.items():
        yield from label_name_errors(path, key)
        for problem in value_problems(value):
            yield invalid(path, value, problem)


def annotation_errors(path: str, annotations: Mapping[str, str]) -> Iterator[FieldError]:
    """ValidateAnnotations: keys are qualified names (checked lower-cased), and keys and
    values hold at most 256 KiB together."""
    total = 0
    for key, value in annotations.items():
        for problem in name_problems(key.lower()):
            yield invalid(path, key, problem)
        total += len(key.encode("utf-8", "surrogatepass"))
        total += len(value.encode("utf-8", "surrogatepass"))
    if total > TOTAL_ANNOTATION_SIZE_LIMIT:
        yield too_long(path, TOTAL_ANNOTATION_SIZE_LIMIT)


def meta_errors(metadata: ObjectMeta) -> Iterator[FieldError]:
    """The labels and annotations of any object."""
    if metadata.labels:
        yield from label_errors("metadata.labels", metadata.labels)
    if metadata.annotations:
        yield from annotation_errors("metadata.annotations", metadata.annotations)


def requirement_errors(path: str, requirement: LabelSelectorRequirement) -> Iterator[FieldError]:
    """ValidateLabelSelectorRequirement: the operator and its values, the key, each value."""
    operator, values = requirement.operator, requirement.values
    if operator in ("In", "NotIn"):
        if not values:
            yield required(f"{path}.values", "must be specified when `operator` is 'In' or 'NotIn'")
    elif operator in ("Exists", "DoesNotExist"):
        if values:
            yield forbidden(
                f"{path}.values",
                "may not be specified when `operator` is 'Exists' or 'DoesNotExist'",
            )
    else:
        yield invalid(f"{path}.operator", operator, "not a valid selector operator")
    yield from label_name_errors(f"{path}.key", requirement.key)
    for i, value in enumerate(values):
        for problem in value_problems(value):
            yield invalid(f"{path}.values[{i}]", value, problem)


def selector_errors(path: str, selector: LabelSelector | None) -> Iterator[FieldError]:
    """ValidateLabelSelector: matchLabels as labels, then every matchExpressions entry."""
    if selector is None:
        return
    if selector.match_labels:
        yield from label_errors(f"{path}.matchLabels", selector.match_labels)
    for i, requirement in enumerate(selector.match_expressions):
        yield from requirement_errors(f"{path}.matchExpressions[{i}]", requirement)
