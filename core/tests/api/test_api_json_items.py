"""Streamed JSON items are decoded without the fields no kind reads (managedFields, a
Pod's container statuses...), and load the same objects, or fail with the same message,
as the whole-text reading of the same List (keys given twice included)."""

from __future__ import annotations

import json
import tracemalloc
import typing
from pathlib import Path
from typing import Any

import attrs
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import kubesched.api._manifest_sources as manifest_sources
from kubesched.api._converter import _NAMES
from kubesched.api._json_items import (
    KEPT_METADATA,
    KEPT_STATUS,
    KEPT_TOP,
    SKIPPED_METADATA,
    SKIPPED_STATUS,
    read_item,
)
from kubesched.api._json_stream import stream_json_list
from kubesched.api._manifests import _KINDS, ClusterObjects, load_manifests
from kubesched.errors import InputError


def _read_names() -> tuple[set[str], set[str], set[str]]:
    """The JSON names every kind read has at its top level, in its metadata, its status."""
    top, metadata, status = {"apiVersion", "kind"}, set(), set()
    for cls in _KINDS.values():
        hints = typing.get_type_hints(cls)
        for attribute in attrs.fields(cls):
            top.add(_NAMES.of(attribute))
            if attribute.name in ("metadata", "status"):
                names = {_NAMES.of(a) for a in attrs.fields(hints[attribute.name])}
                (metadata if attribute.name == "metadata" else status).update(names)
    return top, metadata, status


def test_every_field_a_kind_reads_is_kept_and_none_skipped() -> None:
    top, metadata, status = _read_names()
    assert top <= KEPT_TOP
    assert metadata <= KEPT_METADATA and not metadata & SKIPPED_METADATA
    assert status <= KEPT_STATUS and not status & SKIPPED_STATUS


POD = {
    "apiVersion": "v1",
    "kind": "Pod",
    "metadata": {
        "name": "p",
        "namespace": "ns",
        "resourceVersion": "12",
        "managedFields": [{"manager": "kubelet", "fieldsV1": {'k:{"type":"Ready"}': {}}}],
    },
    "spec": {"containers": [{"name": "c", "image": "i"}]},
    "status": {"phase": "Pending", "podIP": "10.0.0.1", "containerStatuses": [{"name": "c"}]},
}


def test_skipped_fields_are_left_out_and_the_rest_kept() -> None:
    value, whole = read_item(json.dumps(POD, indent=2).encode())
    assert whole
    assert value == {
        **POD,
        "metadata": {"name": "p", "namespace": "ns"},
        "status": {"phase": "Pending"},
    }


@pytest.mark.parametrize(
    "item",
    [
        {**POD, "data": {"a": "b"}},  # a key the layout does not name
        {**POD, "metadata": "m"},  # a layout the typed reading refuses
        {**POD, "status": {**POD["status"], "newField": 1}},
        [POD],
    ],
)
def test_other_items_are_read_whole(item: Any) -> None:
    assert read_item(json.dumps(item).encode()) == (item, True)


@pytest.mark.parametrize(
    ("text", "whole"),
    [
        ('{"metadata": {"name": "a", "name": "b"}}', False),
        ('{"status": {"phase": "a", "phase": "a"}}', False),
        ('{"metadata": {"managedFields": [], "managedFields": []}}', False),
        ('{"kind": "Pod", "kind": "Pod"}', False),
        ('{"metadata": {"labels": {"a\\u003a": "1", "a:": "2"}}}', False),  # escaped colon
        ('{"metadata": {"labels": {"a\\u003ab": "x:"}}}', True),
        ('{"metadata": {"labels": {"x": "\\":", "y": "1"}}}', True),
        # inside a skipped field, a key given twice is never read
        ('{"metadata": {"managedFields": [{"a": 1, "a": 2}]}}', True),
    ],
)
def test_keys_given_twice_are_found_outside_the_skipped_fields(text: str, whole: bool) -> None:
    assert read_item(text.encode())[1] is whole


def _peak(read: Any, piece: bytes) -> tuple[Any, int]:
    """What `read(piece)` returns and the most memory it held at once."""
    tracemalloc.start()
    try:
        value = read(piece)
        return value, tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()


def test_skipped_fields_never_become_python_objects() -> None:
    fields = {f"f:key-{i}": {f"f:inner-{j}": {} for j in range(20)} for i in range(2000)}
    item = {**POD, "metadata": {**POD["metadata"], "managedFields": [{"fieldsV1": fields}]}}
    piece = json.dumps(item).encode()
    (value, whole), peak = _peak(read_item, piece)
    assert whole and "managedFields" not in value["metadata"]
    # one transient copy of the text (its re-encoding, for the key count), not the
    # managedFields' objects, which decoded take four times its size and more
    assert peak < 2 * len(piece) < _peak(json.loads, piece)[1] / 2


# -- the property: the same objects, or the same error, as the whole text's reading (the
# objects are valid: with two problems, a reader of items reports the one it meets first)


_NAME = st.text("abc", max_size=4).map(lambda s: "p" + s)
_VALUE = st.text('a:"\\é\n', max_size=4)
_MANAGED = st.recursive(
    st.none() | st.integers() | _VALUE,
    lambda inner: (
        st.lists(inner, max_size=2)
        | st.dictionaries(st.text('fk:{"}', max_size=5), inner, max_size=3)
    ),
    max_leaves=6,
)


@st.composite
def _pods(draw: st.DrawFn) -> dict[str, Any]:
    metadata: dict[str, Any] = {"name": draw(_NAME), "namespace": "ns"}
    metadata["labels"] = draw(st.dictionaries(st.text("ab", min_size=1, max_size=3), _NAME))
    metadata["annotations"] = draw(st.dictionaries(st.text("ab", min_size=1, max_size=3), _VALUE))
    if draw(st.booleans()):
        metadata["managedFields"] = [{"manager": "m", "fieldsV1": draw(_MANAGED)}]
    if draw(st.booleans()):
        metadata["resourceVersion"] = draw(_VALUE)
    status: dict[str, Any] = {"phase": draw(st.sampled_from(["Pending", "Running"]))}
    if draw(st.booleans()):
        status["containerStatuses"] = [{"name": "c", "state": draw(_MANAGED)}]
    if draw(st.booleans()):
        status["podIP"] = draw(_VALUE)
    pod: dict[str, Any] = {"apiVersion": "v1", "kind": "Pod", "metadata": metadata}
    pod["spec"] = {"containers": [{"name": "c", "image": "i" + draw(_NAME)}]}
    pod["status"] = status
    if draw(st.booleans()):
        pod[draw(st.sampled_from(["data", "extra"]))] = draw(_MANAGED)
    return pod


def _load(path: Path) -> ClusterObjects | str:
    try:
        return load_manifests(path)
    except InputError as exc:
        return str(exc).replace(str(path.parent), "<dir>")


def _escape(text: str, escaped: bool) -> str:
    """The same JSON with its colons in strings spelled `\\u003a` (some of them)."""
    return text.replace("a:", "a\\u003a") if escaped else text


@settings(
    max_examples=150, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(
    pods=st.lists(_pods(), min_size=1, max_size=4, unique_by=lambda p: p["metadata"]["name"]),
    repeat=st.sampled_from(
        [None, '"phase": ', '"name": "p', '"namespace": ', '"kind": "Pod', '"image": ']
    ),
    escaped=st.booleans(),
)
def test_streamed_items_load_as_the_whole_text_loads(
    tmp_path_factory: pytest.TempPathFactory,
    monkeypatch: pytest.MonkeyPatch,
    pods: list[dict[str, Any]],
    repeat: str | None,
    escaped: bool,
) -> None:
    document = {"apiVersion": "v1", "items": pods, "kind": "List"}
    pretty = _escape(json.dumps(document, indent=4), escaped)
    if repeat is not None:  # a key given twice in a field kept, in the last item
        at = pretty.rfind(repeat, 0, pretty.rindex("\n    ]"))
        pair = pretty[at : pretty.index("\n", at)].rstrip(",")
        pretty = pretty[:at] + pair + ", " + pretty[at:]
    streamed_dir, whole_dir = tmp_path_factory.mktemp("s"), tmp_path_factory.mktemp("w")
    streamed, whole = streamed_dir / "dump.json", whole_dir / "dump.json"
    streamed.write_text(pretty)
    whole.write_text(pretty.replace('"items": [\n', '"items": [ \n', 1))  # same lines
    assert stream_json_list(str(streamed), streamed) is not None
    assert stream_json_list(str(whole), whole) is None  # read whole
    exact = _exact(whole, monkeypatch)
    assert _load(streamed) == exact
    assert _load(whole) == exact


def _exact(path: Path, monkeypatch: pytest.MonkeyPatch) -> ClusterObjects | str:
    """What the exact reader of a whole JSON text (every field read, a key given twice
    anywhere an error) loads from `path`."""
    with monkeypatch.context() as patch:
        patch.setattr(manifest_sources, "json_list_document", lambda *_: None)
        return _load(path)


def test_a_key_given_twice_inside_managed_fields_is_not_read(tmp_path: Path) -> None:
    pod = {**POD, "metadata": {**POD["metadata"], "managedFields": [{"a": 1}]}}
    text = json.dumps({"apiVersion": "v1", "items": [pod], "kind": "List"}, indent=4)
    path = tmp_path / "dump.json"
    path.write_text(text.replace('"a": 1', '"a": 1, "a": 2'))
    clean = tmp_path / "clean.json"
    clean.write_text(text)
    assert load_manifests(path) == load_manifests(clean)
