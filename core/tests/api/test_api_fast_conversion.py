"""The fast converter (no detailed validation) against the exact one: on any manifest, good
or bad, the same object, or a failure that `structure` reports as the exact one does."""

from __future__ import annotations

import types
from typing import Any, Union, get_args, get_origin

import attrs
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from kubesched.api import Node, Pod, PodDisruptionBudget, Time
from kubesched.api._converter import CONVERTER, FAST_CONVERTER, structure, unstructure
from kubesched.errors import InputError

TEXT = st.text(max_size=6)
INT64 = st.integers(min_value=-(2**63) + 1, max_value=2**63 - 1)
TIMES = st.builds(Time, st.integers(0, 2**62))


def strategy(tp: Any) -> st.SearchStrategy[Any]:
    """Model values of an attribute type (resource lists as integers, as the models hold)."""
    if attrs.has(tp):
        hints = attrs.resolve_types(tp)
        return st.builds(tp, **{f.name: strategy(f.type) for f in attrs.fields(hints)})
    origin, args = get_origin(tp), get_args(tp)
    if origin in (Union, types.UnionType):
        return st.one_of(*(strategy(a) for a in args))
    if origin is list:
        return st.lists(strategy(args[0]), max_size=2)
    if tp == dict[str, int]:
        return st.dictionaries(st.sampled_from(["cpu", "memory", "pods"]), INT64, max_size=2)
    if origin is dict:
        return st.dictionaries(TEXT, strategy(args[1]), max_size=2)
    simple = {str: TEXT, int: INT64, bool: st.booleans(), Time: TIMES, type(None): st.none()}
    return simple[tp]


JSON_LEAVES = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(min_value=-(2**63), max_value=2**63),
    st.floats(allow_nan=False),
    st.text(max_size=4),
    st.sampled_from(["100m", "1Gi", "2026-01-01T00:00:00Z", "NoSchedule", "Exists"]),
)
JSON = st.recursive(
    JSON_LEAVES,
    lambda inner: st.lists(inner, max_size=2) | st.dictionaries(st.text(max_size=4), inner),
    max_leaves=4,
)


def _paths(value: Any, prefix: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    """Every place in a JSON value (object keys and list indexes), depth first."""
    found = [prefix]
    if isinstance(value, dict):
        for key, item in value.items():
            found += _paths(item, (*prefix, key))
    elif isinstance(value, list):
        for index, item in enumerate(value):
            found += _paths(item, (*prefix, index))
    return found


def _replace(value: Any, path: tuple[Any, ...], new: Any) -> Any:
    if not path:
        return new
    head, rest = path[0], path[1:]
    if isinstance(value, dict):
        return {**value, head: _replace(value[head], rest, new)}
    copy = list(value)
    copy[head] = _replace(value[head], rest, new)
    return copy


@st.composite
def manifests(draw: st.DrawFn, kind: type) -> dict[str, Any]:
    """A model object's JSON, with up to three places given random JSON (wrong types,
    nulls, bad quantities and times, unknown fields)."""
    data: Any = unstructure(draw(strategy(kind)))
    for _ in range(draw(st.integers(0, 3))):
        path = draw(st.sampled_from(_paths(data)))
        if draw(st.booleans()) and isinstance(data, dict):
            data = _replace(data, path, draw(JSON))
        else:
            target = data
            for step in path:
                target = target[step]
            if isinstance(target, dict):
                data = _replace(data, path, {**target, draw(st.text(max_size=8)): draw(JSON)})
    return dict(data) if isinstance(data, dict) else {"spec": data}


def _outcome(convert: Any, data: dict[str, Any], kind: type) -> tuple[str, Any]:
    try:
        return "object", convert(data, kind)
    except Exception:  # any failure: the converters only need to agree it fails
        return "error", None


@pytest.mark.parametrize("kind", [Pod, Node, PodDisruptionBudget])
@settings(max_examples=50, deadline=None)
@given(data=st.data())
def test_fast_and_exact_converters_agree(kind: type, data: st.DataObject) -> None:
    manifest = data.draw(manifests(kind))
    fast = _outcome(FAST_CONVERTER.structure, manifest, kind)
    exact = _outcome(CONVERTER.structure, manifest, kind)
    assert fast == exact


@pytest.mark.parametrize("kind", [Pod, Node])
@settings(max_examples=30, deadline=None)
@given(data=st.data())
def test_structure_reports_what_the_exact_converter_finds(kind: type, data: st.DataObject) -> None:
    manifest = data.draw(manifests(kind))
    try:
        expected = CONVERTER.structure(manifest, kind)
    except Exception:  # structure must then raise one InputError
        with pytest.raises(InputError):
            structure(manifest, kind)
        return
    assert structure(manifest, kind) == expected


def test_a_bad_field_is_named_as_before() -> None:
    """The fast converter's failure carries no path; the error still names the field."""
    pod = unstructure(Pod())
    pod["spec"] = {"containers": [{"name": "a", "resources": {"requests": {"cpu": 5.5j}}}]}
    pod["spec"]["containers"][0]["resources"]["requests"]["cpu"] = "lots"
    with pytest.raises(InputError) as caught:
        structure(pod, Pod)
    assert caught.value.field == "spec.containers[0].resources.requests.cpu"
