"""Reading a scenario file (YAML or JSON): `apiVersion: kubesched.io/v1alpha1`,
`kind: Scenario`, an optional `metadata.name`, the starting `cluster` (a manifest file
or directory, relative to the scenario file, read as `simulate` reads it) and the
`events`. Every problem is one ScenarioError naming the file, the event and the field.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any

from kubesched.api import ClusterObjects, Node, Pod, Taint, default_uid, load_manifests, read_object
from kubesched.api._text import TextError, parse_json, parse_yaml_document
from kubesched.config.duration import parse_duration
from kubesched.errors import InputError
from kubesched.features import DEFAULT_FEATURE_GATES, FeatureGates
from kubesched.scenario import model
from kubesched.scenario.checks import checked
from kubesched.scenario.errors import ScenarioError, event_error

SCENARIO_API_VERSION = "kubesched.io/v1alpha1"
"""The `apiVersion` a scenario file declares."""
_TOP_FIELDS = {"apiVersion", "kind", "metadata", "cluster", "events"}
_TAINT_EFFECTS = ("NoSchedule", "PreferNoSchedule", "NoExecute")


class _Event:
    """One raw event being read: where it is, to name it in errors."""

    def __init__(self, raw: Mapping[str, Any], index: int, source: str) -> None:
        self.raw = raw
        self.index = index
        self.source = source

    def error(self, message: str, field: str | None = None) -> ScenarioError:
        return event_error(message, source=self.source, index=self.index, field=field)

    def check_fields(self, allowed: set[str]) -> None:
        for name in self.raw:
            if name not in allowed:
                raise self.error(f"unknown field for {self.raw['kind']}", name)
        for name in sorted(allowed):
            if name not in self.raw and name not in ("duration",):
                raise self.error("missing field", name)

    def seconds(self, name: str) -> float:
        """A time or duration: a number of seconds or a Go duration string ("90s", "1h30m")."""
        value = self.raw[name]
        if isinstance(value, bool) or not isinstance(value, (int, float, str)):
            raise self.error(f"expected seconds or a duration such as 90s, got {value!r}", name)
        if isinstance(value, str):
            try:
                seconds = parse_duration(value).total_seconds()
            except ValueError:
                raise self.error(f"not a duration: {value!r}", name) from None
        else:
            seconds = float(value)
        if not math.isfinite(seconds) or seconds < 0:
            raise self.error(f"negative or infinite: {value!r}", name)
        return seconds

    def string(self, name: str) -> str:
        value = self.raw[name]
        if not isinstance(value, str) or not value:
            raise self.error(f"expected a non-empty string, got {value!r}", name)
        return value

    def strings(self, name: str) -> tuple[str, ...]:
        value = self.raw[name]
        if not isinstance(value, list) or not all(isinstance(v, str) and v for v in value):
            raise self.error("expected a list of non-empty strings", name)
        return tuple(value)

    def pod_key(self) -> str:
        key = self.string("pod")
        return key if "/" in key else f"default/{key}"


def _pod_created(e: _Event, at: float, gates: FeatureGates) -> model.Event:
    e.check_fields({"at", "kind", "pod", "duration"})
    raw = e.raw["pod"]
    meta = raw.get("metadata") if isinstance(raw, Mapping) else None
    name = meta.get("name") if isinstance(meta, Mapping) else None
    namespace = (meta.get("namespace") if isinstance(meta, Mapping) else None) or "default"
    pod = read_object(
        raw,
        "Pod",
        file=e.source,
        obj=f"event {e.index}",
        field_prefix="pod.",
        uid=default_uid("Pod", str(namespace), f"{name}@event-{e.index}"),
        feature_gates=gates,
    )
    assert isinstance(pod, Pod)
    duration = e.seconds("duration") if e.raw.get("duration") is not None else None
    return model.PodCreated(at, pod, duration)


def _node_added(e: _Event, at: float, gates: FeatureGates) -> model.Event:
    e.check_fields({"at", "kind", "node"})
    node = read_object(
        e.raw["node"],
        "Node",
        file=e.source,
        obj=f"event {e.index}",
        field_prefix="node.",
        feature_gates=gates,
    )
    assert isinstance(node, Node)
    return model.NodeAdded(at, node)


def _taints(e: _Event) -> tuple[Taint, ...]:
    value = e.raw["taints"]
    if not isinstance(value, list) or not value:
        raise e.error("expected a non-empty list of taints", "taints")
    taints = []
    for i, raw in enumerate(value):
        where = f"taints[{i}]"
        if not isinstance(raw, Mapping):
            raise e.error("expected a taint {key, value, effect}", where)
        unknown = set(raw) - {"key", "value", "effect"}
        if unknown:
            raise e.error("unknown field", f"{where}.{sorted(unknown)[0]}")
        key, effect, val = raw.get("key"), raw.get("effect"), raw.get("value", "")
        if not isinstance(key, str) or not key:
            raise e.error("expected a non-empty string", f"{where}.key")
        if effect not in _TAINT_EFFECTS:
            raise e.error(f"expected one of {', '.join(_TAINT_EFFECTS)}", f"{where}.effect")
        if not isinstance(val, str):
            raise e.error("expected a string", f"{where}.value")
        taints.append(Taint(key=key, effect=effect, value=val))
    return tuple(taints)


def _labels(e: _Event) -> dict[str, str | None]:
    value = e.raw["labels"]
    if not isinstance(value, Mapping) or not value:
        raise e.error("expected a non-empty map of labels (null removes one)", "labels")
    for key, val in value.items():
        if not isinstance(key, str) or not key or not (val is None or isinstance(val, str)):
            raise e.error("expected a string or null", f"labels.{key}")
    return dict(value)


def _node_event(e: _Event, at: float, gates: FeatureGates) -> model.Event:
    kind = e.raw["kind"]
    if kind == "NodeTainted":
        e.check_fields({"at", "kind", "node", "taints"})
        return model.NodeTainted(at, e.string("node"), _taints(e))
    if kind == "NodeUntainted":
        e.check_fields({"at", "kind", "node", "keys"})
        return model.NodeUntainted(at, e.string("node"), e.strings("keys"))
    if kind == "NodeLabelled":
        e.check_fields({"at", "kind", "node", "labels"})
        return model.NodeLabelled(at, e.string("node"), _labels(e))
    e.check_fields({"at", "kind", "node"})
    simple: dict[str, Callable[[float, str], model.Event]] = {
        "NodeRemoved": model.NodeRemoved,
        "NodeCordoned": model.NodeCordoned,
        "NodeUncordoned": model.NodeUncordoned,
    }
    return simple[kind](at, e.string("node"))


def _pod_deleted(e: _Event, at: float, gates: FeatureGates) -> model.Event:
    e.check_fields({"at", "kind", "pod"})
    return model.PodDeleted(at, e.pod_key())


_READERS: dict[str, Callable[[_Event, float, FeatureGates], model.Event]] = {
    "PodCreated": _pod_created,
    "PodDeleted": _pod_deleted,
    "NodeAdded": _node_added,
    **{k: _node_event for k in model.EVENT_KINDS if k.startswith("Node") and k != "NodeAdded"},
}


def read_event(
    raw: Any, index: int, source: str, gates: FeatureGates = DEFAULT_FEATURE_GATES
) -> model.Event:
    """Event `index` of a scenario as written in a file (a mapping with `at` and `kind`)."""
    if not isinstance(raw, Mapping):
        raise event_error(
            f"expected an event object, got {type(raw).__name__}", source=source, index=index
        )
    kind = raw.get("kind")
    if kind not in _READERS:
        known = ", ".join(model.EVENT_KINDS)
        raise event_error(
            f"unknown kind {kind!r} (one of {known})", source=source, index=index, field="kind"
        )
    e = _Event(raw, index, source)
    if "at" not in raw:
        raise e.error("missing field", "at")
    return _READERS[kind](e, e.seconds("at"), gates)


def _document(path: Path, source: str) -> Mapping[str, Any]:
    try:
        text = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        raise ScenarioError("no such file", file=source) from None
    except (OSError, UnicodeDecodeError) as exc:
        raise ScenarioError(f"cannot read: {exc}", file=source) from None
    try:
        if path.suffix == ".json":
            document = parse_json(text)
        else:
            document, problems = parse_yaml_document(text)
            if problems:
                field, _, message = problems[0].partition(": ")
                raise ScenarioError(message, file=source, field=field)
    except TextError as exc:
        raise ScenarioError(exc.message, file=source) from None
    if not isinstance(document, Mapping):
        raise ScenarioError("expected a Scenario object", file=source)
    return document


def parse_scenario(
    document: Mapping[str, Any],
    *,
    source: str = "<scenario>",
    base: Path | None = None,
    feature_gates: FeatureGates = DEFAULT_FEATURE_GATES,
) -> model.Scenario:
    """A scenario from its parsed document; `cluster` paths are relative to `base`."""
    for top in document:
        if top not in _TOP_FIELDS:
            raise ScenarioError("unknown field", file=source, field=str(top))
    if document.get("apiVersion") != SCENARIO_API_VERSION:
        got = document.get("apiVersion")
        raise ScenarioError(
            f"expected {SCENARIO_API_VERSION}, got {got!r}", file=source, field="apiVersion"
        )
    if document.get("kind") != model.SCENARIO_KIND:
        raise ScenarioError(
            f"expected {model.SCENARIO_KIND}, got {document.get('kind')!r}",
            file=source,
            field="kind",
        )
    metadata = document.get("metadata") or {}
    name = metadata.get("name", "") if isinstance(metadata, Mapping) else None
    if not isinstance(name, str):
        raise ScenarioError("expected a string", file=source, field="metadata.name")
    cluster = ClusterObjects()
    if document.get("cluster") is not None:
        where = document["cluster"]
        if not isinstance(where, str) or not where:
            raise ScenarioError(
                "expected the path of a manifest file or directory", file=source, field="cluster"
            )
        path = (base or Path(".")) / where
        if not path.exists():
            raise ScenarioError(f"no such file or directory: {path}", file=source, field="cluster")
        cluster = load_manifests(path, feature_gates=feature_gates)
    raw_events = document.get("events") or []
    if not isinstance(raw_events, list):
        raise ScenarioError("expected a list of events", file=source, field="events")
    read = [read_event(raw, i, source, feature_gates) for i, raw in enumerate(raw_events)]
    events = tuple(checked(read, cluster, source))
    return model.Scenario(cluster, lambda: events, name=name, source=source)


def load_scenario(
    path: str | Path, *, feature_gates: FeatureGates = DEFAULT_FEATURE_GATES
) -> model.Scenario:
    """The scenario file at `path` (YAML, or JSON for `*.json`), read and checked in full;
    ScenarioError (an InputError) naming the file, the event and the field."""
    path = Path(path)
    source = str(path)
    document = _document(path, source)
    try:
        return parse_scenario(
            document, source=source, base=path.parent, feature_gates=feature_gates
        )
    except ScenarioError:
        raise
    except InputError as exc:  # the starting cluster's own error names its file
        raise ScenarioError(
            exc.message,
            file=exc.file or source,
            document=exc.document,
            obj=exc.obj,
            field=exc.field,
        ) from None
