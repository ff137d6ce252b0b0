"""A List laid out as kubectl prints it is read item by item by the compiled parsers, and
reads exactly as the PyYAML reader reads it: the same data, and for a broken item the same
one error (message, line, field). JSON is read by msgspec when no key repeats."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import kubesched.api._json_list as json_list
import kubesched.api._list_items as list_items
import kubesched.api._text as text_module
from kubesched.api._list_items import LazyItems, list_document
from kubesched.api._manifest_sources import documents, sources
from kubesched.api._manifests import load_manifests
from kubesched.errors import InputError

# plain scalars YAML 1.1 (PyYAML, Kubernetes) and 1.2 read alike or not
SCALARS = [
    "yes", "No", "ON", "off", "y", "n", "true", "False", "null", "~", "0755", "0o17",
    "0x1F", "0b101", "1_000", "1:20", "1e3", "1.5e3", "-.5", ".5", "1.", "3.14", "-1",
    "+1", "12", "0", "09", "10.0.0.1", "250m", "64Mi", "2026-01-01", "2026-03-01T08:00:00Z",
    '"yes"', "'0755'", "node-00001", "e921", "3e8b5c2a-11", ".inf", "-.inf", ".nan",
    "12345678901234567890123", "a b", "'k:{\"a\":1}'", "{}", "[]", "[a, yes]",
    "{a: off, b: 1}", "&anchor x",
]  # fmt: skip
KEYS = ["name", "yes", "5", "true", "null", "1.5", "~", "on", "'5'", "app.kubernetes.io/x"]


def _item(index: int, fields: list[tuple[str, str]]) -> str:
    lines = ["- apiVersion: v1", "  kind: ConfigMap", "  metadata:", f"    name: c{index}"]
    lines += ["  data:"] + [f"    {key}: {value}" for key, value in fields]
    return "\n".join(lines) + "\n"


def _list_text(items: list[list[tuple[str, str]]]) -> str:
    body = "".join(_item(i, fields) for i, fields in enumerate(items))
    return f'apiVersion: v1\nitems:\n{body}kind: List\nmetadata:\n  resourceVersion: ""\n'


def _exact(text: str, monkeypatch: pytest.MonkeyPatch) -> list[tuple[int, Any]]:
    with monkeypatch.context() as patch:
        patch.setattr(list_items, "_yaml_rs", None)
        return list(documents("dump.yaml", text))


def _read(text: str) -> list[tuple[int, Any]]:
    return [(i, {**d, "items": list(d["items"])}) for i, d in documents("dump.yaml", text)]


def _error(read: Any) -> str:
    with pytest.raises(InputError) as caught:
        read()
    return str(caught.value)


@settings(max_examples=60, deadline=None)
@given(
    st.lists(
        st.lists(
            st.tuples(st.sampled_from(KEYS), st.sampled_from(SCALARS)),
            max_size=4,
            unique_by=lambda pair: pair[0],
        ),
        min_size=1,
        max_size=4,
    )
)
def test_items_read_as_the_exact_reader_reads_them(items: list[list[tuple[str, str]]]) -> None:
    text = _list_text(items)
    with pytest.MonkeyPatch.context() as patch:
        try:
            expected: Any = _exact(text, patch)
        except InputError as exc:
            expected = str(exc)
    try:
        got: Any = _read(text)
    except InputError as exc:
        got = str(exc)
    assert repr(got) == repr(expected)  # nan is not nan


def test_a_kubectl_list_is_read_lazily() -> None:
    text = _list_text([[("a", "1")], [("b", "x")]])
    document = list_document("dump.yaml", text)
    assert document is not None and isinstance(document["items"], LazyItems)
    assert len(document["items"]) == 2
    assert [item["data"] for item in document["items"]] == [{"a": 1}, {"b": "x"}]
    assert document["kind"] == "List" and document["metadata"] == {"resourceVersion": ""}


@pytest.mark.parametrize(
    "text",
    [
        "apiVersion: v1\nkind: Pod\n",  # not a List
        "items:\n  - a: 1\nkind: List\n",  # items indented
        "items:\n- a: 1\n---\nitems:\n- b: 2\n",  # two documents
        "items:\n- a: 1\nkind: List\nmore:\n- b: 2\n",  # entries after the items
        "items:\n- a: 1\nkind: Pod\n",  # not a List kind
    ],
)
def test_other_layouts_are_left_to_the_exact_reader(text: str) -> None:
    assert list_document("x.yaml", text) is None


@pytest.mark.parametrize(
    "broken",
    [
        "    name: c1\n    name: again\n",  # a duplicate field
        "    labels: {a: 1\n",  # a flow mapping never closed
        '    bad: "open\n',  # a string never closed
        "    deep: " + "[" * 120 + "]" * 120 + "\n",  # nested too deep
        "    ref: *nowhere\n",  # an alias of no anchor
    ],
)
def test_a_broken_item_gives_the_exact_readers_error(
    broken: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    items = "".join(_item(i, [("k", "v")]) for i in range(3))
    items += "- apiVersion: v1\n  kind: ConfigMap\n  metadata:\n" + broken
    items += "".join(_item(i, [("k", "v")]) for i in range(4, 6))
    text = f"apiVersion: v1\nitems:\n{items}kind: List\n"
    expected = _error(lambda: _exact(text, monkeypatch))
    assert _error(lambda: _read(text)) == expected
    assert "dump.yaml: document 0" in expected


def test_items_the_parsers_read_apart_go_to_the_exact_reader(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    calls: list[int] = []
    wholes: list[str] = []
    exact, whole = list_items.parse_yaml_item, list_items.parse_yaml

    def spy(text: str, line: int, path: str) -> Any:
        calls.append(line)
        return exact(text, line, path)

    def whole_spy(text: str) -> Any:
        wholes.append(text)
        return whole(text)

    monkeypatch.setattr(list_items, "parse_yaml_item", spy)
    monkeypatch.setattr(list_items, "parse_yaml", whole_spy)
    text = _list_text([[("c", "on")], [("d", "plain")], [("a", "&x 1"), ("b", "*x")]])
    assert _read(text) == _exact(text, monkeypatch)
    assert calls == [2]  # the line the first item starts on; the second is read fast
    assert wholes[-1] == text  # from the anchor on, the whole text is read exactly


def test_a_dump_loads_the_same_objects_either_way(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    pods = "".join(
        f"- apiVersion: v1\n  kind: Pod\n  metadata:\n    name: p{i}\n    namespace: ns\n"
        f"    managedFields:\n    - manager: kubectl\n      fieldsV1:\n        f:spec: {{}}\n"
        f"  spec:\n    containers:\n    - name: c\n      image: i\n      resources:\n"
        f"        requests:\n          cpu: 250m\n          memory: 64Mi\n"
        for i in range(5)
    )
    path = tmp_path / "dump.yaml"
    path.write_text(f"apiVersion: v1\nitems:\n{pods}kind: List\nmetadata: {{}}\n")
    fast = load_manifests(path)
    monkeypatch.setattr(list_items, "_yaml_rs", None)
    assert load_manifests(path) == fast
    assert [pod.metadata.name for pod in fast.pods] == [f"p{i}" for i in range(5)]


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ('{"a": 1, "b": {"c": 2}}', {"a": 1, "b": {"c": 2}}),
        ('{"big": 12345678901234567890123}', {"big": 12345678901234567890123}),
        ('{"s": "\\":x", "t": ":y"}', {"s": '":x', "t": ":y"}),
        ('{"k:{\\"type\\":\\"Ready\\"}": {}}', {'k:{"type":"Ready"}': {}}),
        ('{"a" : 1}', {"a": 1}),
        ("[1, 2.5, null, true]", [1, 2.5, None, True]),
    ],
)
def test_json_reads_as_the_standard_reader_reads_it(text: str, expected: Any) -> None:
    assert text_module.parse_json(text) == expected


@pytest.mark.parametrize(
    "text",
    ['{"a": 1, "a": 2}', '{"x": {"b": 1,\n "b": 1}}', '{"a": [1, 2,]}', '{"a": 1} x'],
)
def test_broken_json_gives_the_standard_readers_error(
    text: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    with pytest.raises(text_module.TextError) as fast:
        text_module.parse_json(text)
    monkeypatch.setattr(text_module, "_fast_json", lambda _: text_module._NOT_READ)
    with pytest.raises(text_module.TextError) as exact:
        text_module.parse_json(text)
    assert (fast.value.message, fast.value.field) == (exact.value.message, exact.value.field)


def test_json_without_repeated_keys_is_read_by_msgspec(monkeypatch: pytest.MonkeyPatch) -> None:
    def refuse(*_: Any, **__: Any) -> Any:
        raise AssertionError("the standard reader was used")

    monkeypatch.setattr(text_module.json, "loads", refuse)
    assert text_module.parse_json('{"items": [{"a": 1}]}') == {"items": [{"a": 1}]}


def _json_list(items: list[str], own: str = '"apiVersion": "v1", "kind": "List", ') -> str:
    return "{" + own + '"items": [' + ", ".join(items) + "]}"


def _json_read(text: str | bytes) -> Any:
    try:
        read = documents("dump.json", text)
        return [(i, {**d, "items": d["items"] and list(d["items"])}) for i, d in read]
    except InputError as exc:
        return str(exc)


def _json_exact(text: str, monkeypatch: pytest.MonkeyPatch) -> Any:
    with monkeypatch.context() as patch:
        patch.setattr(json_list, "msgspec", None)
        try:
            return list(documents("dump.json", text))
        except InputError as exc:
            return str(exc)


@pytest.mark.parametrize(
    "text",
    [
        _json_list(['{"kind": "Pod", "metadata": {"name": "a"}}', '{"kind": "Node"}']),
        _json_list(['{"a": 1, "a": 2}', '{"b": 1}']),  # a key repeated in an item
        _json_list(['{"a": 1}', '{"b": {"c": 1, "c": 1}}']),  # deeper, in a later item
        _json_list(['{"a": 1}'], own='"kind": "List", "kind": "List", '),  # the List's own
        _json_list(['{"a" : 1}', '{"s": "\\":x"}']),  # spacing and quotes the count misreads
        _json_list(['{"big": 12345678901234567890123}']),
        _json_list([], own='"kind": "List", "extra": 1, '),  # a key of its own: read whole
        _json_list(['{"a": [1, 2,]}']),  # not JSON
        '{"kind": "PodList", "items": null}',
    ],
)
def test_json_lists_read_as_the_standard_reader_reads_them(
    text: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    expected = _json_exact(text, monkeypatch)
    assert repr(_json_read(text)) == repr(expected)


def test_a_json_list_is_read_lazily() -> None:
    text = _json_list(['{"a": 1}', '{"b": [1, 2]}'])
    document = json_list.json_list_document("dump.json", text)
    assert document is not None and isinstance(document["items"], LazyItems)
    assert len(document["items"]) == 2
    assert list(document["items"]) == [{"a": 1}, {"b": [1, 2]}]
    assert document == {**document, "apiVersion": "v1", "kind": "List"}


@settings(max_examples=300, deadline=None)
@given(
    st.lists(
        st.tuples(
            st.integers(0, 70), st.sampled_from(["", "-", "- ", "?"]), st.text("[]{}a ", max_size=8)
        ),
        min_size=1,
        max_size=8,
    )
)
def test_the_quick_depth_check_never_passes_what_the_bound_refuses(
    lines: list[tuple[int, str, str]],
) -> None:
    text = "\n".join(" " * spaces + mark * (spaces // 3) + rest for spaces, mark, rest in lines)
    if list_items._shallow(text):
        assert text_module.depth_allows(text)
    assert list_items._shallow("- " * 60 + "x\n") is False


@pytest.mark.parametrize(
    "text",
    [
        _json_list(['{"kind": "Pod", "metadata": {"name": "a"}}', '{"kind": "Node"}']),
        _json_list(['{"a": 1, "a": 2}', '{"b": 1}']),
        _json_list(['{"a": 1}', '{"b": {"c": 1, "c": 1}}']),
        _json_list(['{"a": 1}'], own='"kind": "List", "kind": "List", '),
        _json_list(['{"a" : 1}', '{"s": "\\":x"}']),
        _json_list(['{"a": [1, 2,]}']),
        _json_list([], own='"kind": "List", "extra": 1, '),
        '{"kind": "PodList", "items": null}',
        _json_list(['{"a": ' + "[" * 200 + "]" * 200 + "}"]),  # too deep
    ],
)
def test_json_bytes_read_as_their_text_reads(text: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """An ASCII JSON file comes as bytes (no text copy of it): read, or refused, alike."""
    assert repr(_json_read(text.encode())) == repr(_json_exact(text, monkeypatch))


def test_ascii_json_files_come_as_bytes_and_others_as_text(tmp_path: Path) -> None:
    plain = tmp_path / "a.json"
    plain.write_text(' \n{"kind": "List", "items": []}')
    accented = tmp_path / "b.json"
    accented.write_text('{"kind": "List", "items": [], "metadata": {"x": "é"}}')
    yaml_file = tmp_path / "c.yaml"
    yaml_file.write_text("kind: List\nitems: []\n")
    read = dict(sources(tmp_path))
    assert read[str(plain)] == plain.read_bytes()
    assert read[str(accented)] == accented.read_text()
    assert read[str(yaml_file)] == yaml_file.read_text()


def test_a_json_dump_loads_the_same_objects_from_bytes_or_text(tmp_path: Path) -> None:
    pod = (
        '{"apiVersion": "v1", "kind": "Pod", "metadata": {"name": "p%d", "namespace": "ns",'
        ' "managedFields": [{"manager": "k", "fieldsV1": {"k:{\\"type\\":\\"Ready\\"}": {}}}],'
        ' "annotations": {"note": "%s"}}, "spec": {"containers": [{"name": "c", "image": "i",'
        ' "resources": {"requests": {"cpu": "250m"}}}]}}'
    )
    ascii_path = tmp_path / "a.json"
    ascii_path.write_text(_json_list([pod % (i, "plain") for i in range(3)]))
    text_path = tmp_path / "b.json"
    text_path.write_text(_json_list([pod % (i, "plain") for i in range(2)] + [pod % (2, "é")]))
    from_bytes, from_text = load_manifests(ascii_path), load_manifests(text_path)
    assert [p.metadata.name for p in from_bytes.pods] == ["p0", "p1", "p2"]
    assert from_bytes.pods[:2] == from_text.pods[:2]
    assert from_text.pods[2].metadata.annotations == {"note": "é"}
