"""Reading a saved result document and checking the fields the report reads.

`kubesched report RESULT.json` takes what `simulate --output json` (or yaml)
wrote. A document that is not one, or lacks a field the page needs, is an
InputError naming the file and the field, before anything is written.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from pathlib import Path
from typing import Any

import yaml

from kubesched.errors import InputError

API_VERSION = "kubesched.io/v1alpha1"
"""The `apiVersion` of the documents the report reads."""

SUPPORTED_KINDS = ("SimulationResult", "ReplayResult", "ComparisonResult")
"""Document kinds the report renders."""

SIMULATION_API_VERSIONS = (API_VERSION, "kubesched.io/v1alpha2")
"""The SimulationResult versions the report reads: v1alpha2 (short explanations) and the
v1alpha1 documents written before it."""


def read_document(path: str | Path) -> dict[str, Any]:
    """The JSON (or YAML) document at `path`, checked; InputError naming the file otherwise."""
    name = str(path)
    try:
        text = Path(path).read_text(encoding="utf-8")
    except FileNotFoundError:
        raise InputError("no such file", file=name) from None
    except IsADirectoryError:
        raise InputError("is a directory, not a result document", file=name) from None
    except (OSError, UnicodeDecodeError) as exc:
        raise InputError(f"cannot read it: {exc}", file=name) from None
    try:
        document = json.loads(text)
    except ValueError:
        try:
            document = yaml.safe_load(text)
        except yaml.composer.ComposerError:
            raise InputError(
                "holds several YAML documents; expected one result document", file=name
            ) from None
        except yaml.YAMLError as exc:
            mark = getattr(exc, "problem_mark", None)
            where = f" (line {mark.line + 1})" if mark is not None else ""
            raise InputError(f"neither JSON nor YAML{where}", file=name) from None
    check_document(document, file=name)
    return dict(document)


def check_document(document: Any, *, file: str | None = None) -> None:
    """InputError unless `document` is a result of a supported kind with what the page reads."""
    if not isinstance(document, Mapping):
        raise InputError("not a kubesched result document (expected an object)", file=file)
    version = document.get("apiVersion")
    kind = document.get("kind")
    accepted = SIMULATION_API_VERSIONS if kind == "SimulationResult" else (API_VERSION,)
    if version not in accepted:
        expected = " or ".join(repr(v) for v in accepted)
        raise InputError(
            f"apiVersion is {version!r}, expected {expected}", file=file, field="apiVersion"
        )
    if kind not in SUPPORTED_KINDS:
        raise InputError(
            f"kind is {kind!r}; supported: {', '.join(SUPPORTED_KINDS)}", file=file, field="kind"
        )
    if kind == "SimulationResult":
        _check_simulation(document, file)
    elif kind == "ReplayResult":
        _check_replay(document, file)
    else:
        _check_comparison(document, file)


def _need(
    value: Any, kind: type | tuple[type, ...], what: str, file: str | None, field: str
) -> Any:
    """`value` when it is of `kind` (a bool is not an integer), else InputError at `field`."""
    if not isinstance(value, kind) or (isinstance(value, bool) and kind is not bool):
        raise InputError(f"expected {what}", file=file, field=field)
    return value


def _check_simulation(document: Mapping[str, Any], file: str | None) -> None:
    results = _need(document.get("results"), list, "a list", file, "results")
    for i, result in enumerate(results):
        where = f"results[{i}]"
        _need(result, dict, "an object", file, where)
        for key in ("pod", "profile", "status", "message"):
            _need(result.get(key), str, "a string", file, f"{where}.{key}")
        _need(result.get("attempts"), int, "an integer", file, f"{where}.attempts")
        for key in ("node", "nominatedNode", "preemptedBy", "stoppedTrying"):
            _need(result.get(key), (str, type(None)), "a string or null", file, f"{where}.{key}")
        _need(result.get("victims"), list, "a list", file, f"{where}.victims")
        nodes = result.get("nodes", {})
        for node, entry in _need(nodes, dict, "an object", file, f"{where}.nodes").items():
            at = f"{where}.nodes.{node}"
            _need(entry, dict, "an object", file, at)
            _need(entry.get("filter"), dict, "an object", file, f"{at}.filter")
            _need(entry.get("scores"), dict, "an object", file, f"{at}.scores")
    summary = _need(document.get("summary"), dict, "an object", file, "summary")
    for key in ("scheduled", "unschedulable", "errors", "preempted", "deleted", "otherSchedulers"):
        _need(summary.get(key), int, "an integer", file, f"summary.{key}")
    for i, node in enumerate(_need(summary.get("nodes"), list, "a list", file, "summary.nodes")):
        where = f"summary.nodes[{i}]"
        _need(node, dict, "an object", file, where)
        _need(node.get("name"), str, "a string", file, f"{where}.name")
        for key in ("cpu", "memory", "pods"):
            _need(node.get(key), dict, "an object", file, f"{where}.{key}")
    _need(document.get("warnings", []), list, "a list", file, "warnings")


def _check_replay(document: Mapping[str, Any], file: str | None) -> None:
    summary = _need(document.get("summary"), dict, "an object", file, "summary")
    for key in ("events", "created", "bound", "finished", "deleted", "attempts"):
        _need(summary.get(key), int, "an integer", file, f"summary.{key}")
    _need(
        summary.get("simulatedSeconds"), (int, float), "a number", file, "summary.simulatedSeconds"
    )
    for i, row in enumerate(_need(document.get("series"), list, "a list", file, "series")):
        _need(row, dict, "an object", file, f"series[{i}]")
        _need(row.get("time"), (int, float), "a number", file, f"series[{i}].time")
    for i, pod in enumerate(_need(document.get("pods"), list, "a list", file, "pods")):
        where = f"pods[{i}]"
        _need(pod, dict, "an object", file, where)
        _need(pod.get("pod"), str, "a string", file, f"{where}.pod")
        _need(pod.get("state"), str, "a string", file, f"{where}.state")
        _need(pod.get("created"), (int, float), "a number", file, f"{where}.created")
        for key in ("bound", "left", "latency"):
            _need(
                pod.get(key), (int, float, type(None)), "a number or null", file, f"{where}.{key}"
            )
    _need(document.get("observers", {}), dict, "an object", file, "observers")


def _check_comparison(document: Mapping[str, Any], file: str | None) -> None:
    _need(document.get("input"), dict, "an object", file, "input")
    for i, config in enumerate(_need(document.get("configs"), list, "a list", file, "configs")):
        where = f"configs[{i}]"
        _need(config, dict, "an object", file, where)
        _need(config.get("name"), str, "a string", file, f"{where}.name")
        metrics = _need(config.get("metrics"), dict, "an object", file, f"{where}.metrics")
        _need(metrics.get("spread"), dict, "an object", file, f"{where}.metrics.spread")
    differences = _need(document.get("differences"), list, "a list", file, "differences")
    for i, difference in enumerate(differences):
        where = f"differences[{i}]"
        _need(difference, dict, "an object", file, where)
        _need(difference.get("pod"), str, "a string", file, f"{where}.pod")
        _need(difference.get("placements"), dict, "an object", file, f"{where}.placements")
        _need(difference.get("explanations", {}), dict, "an object", file, f"{where}.explanations")
