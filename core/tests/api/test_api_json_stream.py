"""JSON Lists streamed from the disk read exactly as their whole text reads, errors too."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import kubesched.api._json_stream as json_stream
import kubesched.api._reading as reading
from kubesched.api._json_stream import StreamedFile, stream_json_list
from kubesched.api._manifest_sources import documents
from kubesched.api._manifests import load_manifests
from kubesched.errors import InputError


def _read(name: str, source: str | StreamedFile) -> Any:
    """Every document, a List's items listed; or the error's line."""
    try:
        return [
            (i, {**d, "items": list(d["items"])} if "items" in d else d)
            for i, d in documents(name, source)
        ]
    except InputError as exc:
        return str(exc)


def _both(path: Path) -> tuple[Any, Any]:
    streamed = stream_json_list(str(path), path)
    assert streamed is not None, "not streamed"
    return _read(str(path), streamed), _read(str(path), path.read_text())


def _pretty(items: list[Any], indent: int = 4, own: str = "") -> str:
    body = json.dumps({"apiVersion": "v1", "items": items, "kind": "List"}, indent=indent)
    return body[:-2] + own + body[-2:] if own else body


PODS = [
    {"apiVersion": "v1", "kind": "Pod", "metadata": {"name": f"p{i}", "labels": {"a": "b"}}}
    for i in range(3)
]


@pytest.mark.parametrize("indent", [0, 1, 2, 4, 8])
def test_a_pretty_list_is_streamed_and_read_alike(tmp_path: Path, indent: int) -> None:
    path = tmp_path / "dump.json"
    path.write_text(_pretty(PODS, indent))
    streamed, whole = _both(path)
    assert streamed == whole == [(0, {"apiVersion": "v1", "kind": "List", "items": PODS})]
    found = stream_json_list(str(path), path)
    assert found is not None and len(found.document["items"]) == 3


@pytest.mark.parametrize(
    "text",
    [
        _pretty(PODS).replace('"name": "p1"', '"name": "p1", "name": "p1"'),  # key twice
        _pretty(PODS).replace('"labels": {\n', '"labels": {"a": 1,\n', 1),  # twice, deeper
        _pretty(PODS, own=',\n    "kind": "List"'),  # the List's own key twice
        _pretty(PODS).replace('"p2"', '"p2",'),  # not JSON
        _pretty(PODS).replace('"p1"', "[" * 120 + "]" * 120),  # too deep
        _pretty(PODS).replace('"p1"', '"' + "[" * 120 + '"'),  # brackets in a string only
        _pretty([*PODS, {"a": {"b": 1}}]).replace('{\n            "b": 1\n        }', "{\n}"),
    ],
)
def test_problems_are_reported_as_the_whole_text_reports_them(tmp_path: Path, text: str) -> None:
    path = tmp_path / "dump.json"
    path.write_text(text)
    streamed = stream_json_list(str(path), path)
    whole = _read(str(path), text)
    assert streamed is None or _read(str(path), streamed) == whole


def test_a_byte_that_is_not_utf8_is_reported_as_before(tmp_path: Path) -> None:
    path = tmp_path / "dump.json"
    path.write_bytes(_pretty(PODS).encode().replace(b'"p2"', b'"p\xff"'))
    streamed = stream_json_list(str(path), path)
    assert streamed is not None
    problem = _read(str(path), streamed)
    assert isinstance(problem, str) and "cannot read: not UTF-8 text" in problem


@pytest.mark.parametrize(
    "text",
    [
        json.dumps({"kind": "List", "items": PODS}),  # on one line
        _pretty(PODS, own=',\n    "extra": 1'),  # a key of its own
        _pretty([]),
        json.dumps({"metadata": {"items": PODS}, "kind": "List", "items": []}, indent=2),
        _pretty(PODS).replace('"kind": "List"', '"kind": "Pod"'),
    ],
)
def test_other_layouts_are_read_whole(tmp_path: Path, text: str) -> None:
    path = tmp_path / "dump.json"
    path.write_text(text)
    assert stream_json_list(str(path), path) is None


def test_a_streamed_file_is_never_read_whole(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = tmp_path / "dump.json"
    spec = {"containers": [{"name": "c", "image": "i"}]}
    path.write_text(_pretty([{**pod, "spec": spec} for pod in PODS]))
    monkeypatch.setattr(json_stream, "_CHUNK", 7)  # many chunks, cuts across them
    monkeypatch.setattr(reading, "_read_bytes", _refuse)
    objects = load_manifests(path)
    assert [pod.metadata.name for pod in objects.pods] == ["p0", "p1", "p2"]


def _refuse(*_: Any) -> Any:
    raise AssertionError("read whole")


JSON = st.recursive(
    st.none() | st.booleans() | st.integers() | st.text('ab\\"[{:\n', max_size=4),
    lambda inner: st.lists(inner, max_size=2) | st.dictionaries(st.text("ab:", max_size=3), inner),
    max_leaves=6,
)


@settings(
    max_examples=120, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(
    items=st.lists(st.dictionaries(st.text("abk", max_size=3), JSON, min_size=1), min_size=1),
    indent=st.integers(0, 4),
    repeat=st.booleans(),
    chunk=st.sampled_from([5, 64, 1 << 22]),
)
def test_streamed_lists_read_as_their_text_reads(
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    items: list[dict[str, Any]],
    indent: int,
    repeat: bool,
    chunk: int,
) -> None:
    text = _pretty(items, indent)
    if repeat:  # a key given twice in the last item
        key = json.dumps(next(iter(items[-1])))
        text = text.replace(key + ":", f"{key}: 0, {key}:", 1)
    path = tmp_path / "dump.json"
    path.write_text(text)
    monkeypatch.setattr(json_stream, "_CHUNK", chunk)
    streamed = stream_json_list(str(path), path)
    if streamed is not None:
        assert _read(str(path), streamed) == _read(str(path), text)
