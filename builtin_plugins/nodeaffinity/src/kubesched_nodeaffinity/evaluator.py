"""The one evaluator of node selectors, for one node and for a whole NodeTable.

Requirements, terms, selectors, the pod's required affinity and preferred
terms are evaluated here once, over a view of the node(s): `NodeView` answers
with bools for one node (Filter, Score, queueing hints), `columns.TableView`
with boolean masks over every row (the batch forms). The semantics are
upstream's component-helpers `nodeaffinity`: a term ANDs its matchExpressions
and its matchFields (ignored for a node without a name), a term that did not
parse matches nothing, a selector ORs its terms, preferred terms add up the
weights of those matched.

The evaluator reads the parsed requirements, terms and selectors through the
small protocols below, which the attrs classes of `requirements`, `selectors`
and `pod_affinity` satisfy; it imports none of those modules, so they depend
on it and not the other way round.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from typing import Any, Protocol

from kubesched.api import parse_go_int64

IN = "In"
NOT_IN = "NotIn"
EXISTS = "Exists"
DOES_NOT_EXIST = "DoesNotExist"
GT = "Gt"
LT = "Lt"
NODE_NAME_FIELD = "metadata.name"
"""The one node field a matchFields requirement can select on."""

Truth = Any
"""A bool (one node) or a boolean mask (one entry per row)."""


class LabelRequirement(Protocol):
    """A parsed matchExpressions entry (`requirements.LabelRequirement`)."""

    @property
    def key(self) -> str: ...
    @property
    def operator(self) -> str: ...
    @property
    def values(self) -> frozenset[str]: ...
    @property
    def bound(self) -> int: ...


class FieldRequirement(Protocol):
    """A parsed matchFields entry (`requirements.FieldRequirement`)."""

    @property
    def key(self) -> str: ...
    @property
    def operator(self) -> str: ...
    @property
    def value(self) -> str: ...


class Term(Protocol):
    """A parsed node selector term (`selectors.Term`)."""

    @property
    def labels(self) -> Sequence[LabelRequirement] | None: ...
    @property
    def fields(self) -> Sequence[FieldRequirement] | None: ...
    @property
    def errors(self) -> Sequence[object]: ...


class NodeSelectorMatcher(Protocol):
    """A parsed node selector: terms ORed (`selectors.NodeSelectorMatcher`)."""

    @property
    def terms(self) -> Sequence[Term]: ...


class WeightedTerm(Protocol):
    """A preferred term with its weight (`selectors.WeightedTerm`)."""

    @property
    def weight(self) -> int: ...
    @property
    def term(self) -> Term: ...


class PreferredTerms(Protocol):
    """The pod's preferred node affinity terms (`selectors.PreferredTerms`)."""

    @property
    def terms(self) -> Sequence[WeightedTerm]: ...


class RequiredNodeAffinity(Protocol):
    """The pod's nodeSelector and required node affinity (`pod_affinity.RequiredNodeAffinity`)."""

    @property
    def node_selector(self) -> Mapping[str, str]: ...
    @property
    def affinity(self) -> NodeSelectorMatcher | None: ...


class View(Protocol):
    """What the evaluator asks of the node(s) it evaluates."""

    def constant(self, value: bool) -> Truth: ...
    def negate(self, truth: Truth) -> Truth: ...
    def all_of(self, truths: Iterable[Truth]) -> Truth: ...
    def any_of(self, truths: Iterable[Truth]) -> Truth: ...
    def and_then(self, truth: Truth, then: Callable[[], Truth]) -> Truth: ...
    def labels_are(self, wanted: Mapping[str, str]) -> Truth: ...
    def label_in(self, key: str, values: frozenset[str]) -> Truth: ...
    def label_present(self, key: str) -> Truth: ...
    def label_compared(self, key: str, greater: bool, bound: int) -> Truth: ...
    def name_is(self, value: str) -> Truth: ...
    def nameless(self) -> Truth: ...


class NodeView:
    """One node's labels and name; every answer a bool, `all_of`/`any_of` short-circuit."""

    __slots__ = ("labels", "name")

    def __init__(self, labels: Mapping[str, str], name: str) -> None:
        self.labels = labels
        self.name = name

    def constant(self, value: bool) -> bool:
        return value

    def negate(self, truth: Truth) -> bool:
        return not truth

    def all_of(self, truths: Iterable[Truth]) -> bool:
        return all(truths)

    def any_of(self, truths: Iterable[Truth]) -> bool:
        return any(truths)

    def and_then(self, truth: Truth, then: Callable[[], Truth]) -> bool:
        return bool(truth) and bool(then())

    def labels_are(self, wanted: Mapping[str, str]) -> bool:
        labels = self.labels
        return all(labels.get(key) == value for key, value in wanted.items())

    def label_in(self, key: str, values: frozenset[str]) -> bool:
        value = self.labels.get(key)
        return value is not None and value in values

    def label_present(self, key: str) -> bool:
        return key in self.labels

    def label_compared(self, key: str, greater: bool, bound: int) -> bool:
        value = self.labels.get(key)
        number = None if value is None else parse_go_int64(value)
        if number is None:
            return False
        return number > bound if greater else number < bound

    def name_is(self, value: str) -> bool:
        return self.name == value

    def nameless(self) -> bool:
        return not self.name


def requirement(req: LabelRequirement, view: View) -> Truth:
    """Whether the node's labels satisfy `key <operator> values`."""
    op = req.operator
    if op in (GT, LT):
        return view.label_compared(req.key, op == GT, req.bound)
    if op in (EXISTS, DOES_NOT_EXIST):
        present = view.label_present(req.key)
        return present if op == EXISTS else view.negate(present)
    listed = view.label_in(req.key, req.values)
    return listed if op == IN else view.negate(listed)


def field(req: FieldRequirement, view: View) -> Truth:
    """Whether the node's field satisfies `key In|NotIn value` (only a name has a value)."""
    if req.key == NODE_NAME_FIELD:
        equal = view.name_is(req.value)
    else:
        equal = view.constant(req.value == "")
    return equal if req.operator == IN else view.negate(equal)


def _term_parts(term: Term, view: View) -> Iterator[Truth]:
    for req in term.labels or ():
        yield requirement(req, view)
    if term.fields is not None:
        yield view.any_of(_fields_or_nameless(term.fields, view))


def _fields_or_nameless(fields: Iterable[FieldRequirement], view: View) -> Iterator[Truth]:
    yield view.nameless()
    yield view.all_of(field(req, view) for req in fields)


def term(t: Term, view: View) -> Truth:
    """Whether the term matches: all its requirements; nothing when it did not parse."""
    if t.errors:
        return view.constant(False)
    return view.all_of(_term_parts(t, view))


def selector(s: NodeSelectorMatcher, view: View) -> Truth:
    """Whether any term of the selector matches."""
    return view.any_of(term(t, view) for t in s.terms)


def required(r: RequiredNodeAffinity, view: View) -> Truth:
    """Whether the node has every label of the pod's nodeSelector, with its value, and
    matches its required node affinity."""
    matched = view.labels_are(r.node_selector)
    affinity = r.affinity
    if affinity is None:
        return matched
    return view.and_then(matched, lambda: selector(affinity, view))


def preferred(p: PreferredTerms, view: View) -> Any:
    """The sum of the weights of the preferred terms the node matches (int or int array)."""
    total: Any = 0
    for weighted in p.terms:
        total = total + weighted.weight * term(weighted.term, view)
    return total
