"""Node selector terms, node selectors and preferred terms, parsed once and matched many times.

Semantics are upstream's component-helpers `nodeaffinity` package: a term ANDs its
matchExpressions (on labels) and matchFields (on `metadata.name`, ignored for a
node without a name); an empty term matches nothing; a selector ORs its terms.
A term that does not parse matches nothing; a selector reports parse errors only
when no term matched ("lazy" errors), while preferred terms and the plugin's
added affinity must parse completely.
"""

from __future__ import annotations

from collections.abc import Sequence

from attrs import frozen

from kubesched.api import (
    FieldError,
    Node,
    NodeSelector,
    NodeSelectorTerm,
    PreferredSchedulingTerm,
    aggregate_message,
    child,
    index,
)
from kubesched_nodeaffinity import evaluator
from kubesched_nodeaffinity.evaluator import NodeView
from kubesched_nodeaffinity.requirements import (
    FieldRequirement,
    LabelRequirement,
    parse_field_requirement,
    parse_label_requirement,
)


class SelectorParseError(ValueError):
    """A node selector that does not parse; `errors` lists every problem."""

    def __init__(self, errors: Sequence[FieldError]) -> None:
        self.errors = tuple(errors)
        super().__init__(aggregate_message(self.errors))


@frozen
class Term:
    """A parsed NodeSelectorTerm. `labels`/`fields` are None when the term has none."""

    labels: tuple[LabelRequirement, ...] | None
    fields: tuple[FieldRequirement, ...] | None
    errors: tuple[FieldError, ...] = ()

    def matches(self, node: Node) -> bool:
        meta = node.metadata
        return bool(evaluator.term(self, NodeView(meta.labels, meta.name)))


def is_empty_term(term: NodeSelectorTerm) -> bool:
    """A term with neither expressions nor fields (it selects nothing)."""
    return not term.match_expressions and not term.match_fields


def parse_term(term: NodeSelectorTerm, path: str) -> Term:
    """Parse every requirement, keeping all the errors found."""
    errors: list[FieldError] = []
    labels: list[LabelRequirement] | None = None
    fields: list[FieldRequirement] | None = None
    if term.match_expressions:
        labels = []
        expressions_path = child(path, "matchExpressions")
        for i, req in enumerate(term.match_expressions):
            parsed = parse_label_requirement(req, index(expressions_path, i))
            if isinstance(parsed, list):
                errors.extend(parsed)
            else:
                labels.append(parsed)
    if term.match_fields:
        fields = []
        fields_path = child(path, "matchFields")
        for i, req in enumerate(term.match_fields):
            parsed_field = parse_field_requirement(req, index(fields_path, i))
            if isinstance(parsed_field, list):
                errors.extend(parsed_field)
            else:
                fields.append(parsed_field)
    return Term(
        labels=None if labels is None else tuple(labels),
        fields=None if fields is None else tuple(fields),
        errors=tuple(errors),
    )


@frozen
class NodeSelectorMatcher:
    """A parsed NodeSelector: its non-empty terms, ORed."""

    terms: tuple[Term, ...]

    @property
    def errors(self) -> tuple[FieldError, ...]:
        return tuple(e for t in self.terms for e in t.errors)

    def matches(self, node: Node) -> bool:
        meta = node.metadata
        return bool(evaluator.selector(self, NodeView(meta.labels, meta.name)))

    def evaluate(self, node: Node) -> tuple[bool, tuple[FieldError, ...]]:
        """Whether the node matches, and the parse errors upstream reports with a miss."""
        if self.matches(node):
            return True, ()
        return False, self.errors


def parse_node_selector(selector: NodeSelector, path: str = "") -> NodeSelectorMatcher:
    """Parse lazily: terms that do not parse are kept, with their errors, and never match."""
    terms_path = child(path, "nodeSelectorTerms")
    return NodeSelectorMatcher(
        tuple(
            parse_term(term, index(terms_path, i))
            for i, term in enumerate(selector.node_selector_terms)
            if not is_empty_term(term)
        )
    )


def parse_node_selector_strict(selector: NodeSelector, path: str = "") -> NodeSelectorMatcher:
    """Parse, raising SelectorParseError with every error if any term does not parse."""
    matcher = parse_node_selector(selector, path)
    if matcher.errors:
        raise SelectorParseError(matcher.errors)
    return matcher


@frozen
class WeightedTerm:
    weight: int
    term: Term


@frozen
class PreferredTerms:
    """Parsed preferred scheduling terms; a node scores the weights of those it matches."""

    terms: tuple[WeightedTerm, ...]

    def score(self, node: Node) -> int:
        meta = node.metadata
        return int(evaluator.preferred(self, NodeView(meta.labels, meta.name)))


def parse_preferred_terms(
    terms: Sequence[PreferredSchedulingTerm], path: str = ""
) -> PreferredTerms:
    """Parse the terms (skipping those of weight 0 or with an empty preference); raise
    SelectorParseError with every error if any term does not parse."""
    parsed = [
        WeightedTerm(t.weight, parse_term(t.preference, index(path, i)))
        for i, t in enumerate(terms)
        if t.weight != 0 and not is_empty_term(t.preference)
    ]
    errors = [e for w in parsed for e in w.term.errors]
    if errors:
        raise SelectorParseError(errors)
    return PreferredTerms(tuple(parsed))
