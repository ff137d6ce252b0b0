"""A sweep's grid file: configs (files, or a base file and plugin-args variations), inputs
and seeds, in a versioned YAML document.

    apiVersion: kubesched.io/v1alpha1
    kind: Sweep
    configs:
    - file: spread.yaml                   # named after the file, or `name:`
    - base: spread.yaml                   # one config per variation
      variations:
      - name: pack
        pluginArgs: {NodeResourcesFit: {scoringStrategy: {type: MostAllocated}}}
    inputs:
    - cluster: examples/quickstart        # a manifest file or directory
    - scenario: traces/openb              # a trace, read by the named format's adapter
      format: openb                       # default: scenario (a kubesched scenario file)
      options: {...}                      # the format's options (scalars)
      replay: {ties: first}               # ReplayOptions: ties, dropUnschedulable,
                                          # sampleInterval, bindLatency, maxAttempts, until
    seeds: [1, 2, 3]                      # or "1-10"

Paths are relative to the grid file. Every problem is an InputError naming the file and
the field (`configs[1].variations[0].name`).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import yaml
from attrs import frozen

from kubesched.errors import InputError
from kubesched.experiment._configs import ConfigSpec, config_file, with_plugin_args
from kubesched.experiment._inputs import CLUSTER, SCENARIO, InputSpec

GRID_API_VERSION = "kubesched.io/v1alpha1"
GRID_KIND = "Sweep"


@frozen
class Grid:
    """The configs, inputs and seeds of a sweep; every combination is one cell."""

    configs: list[ConfigSpec]
    inputs: list[InputSpec]
    seeds: list[int]


class FieldProblem(ValueError):
    """A value of a grid (or a seed list) that is not right: the field and what is wrong."""

    def __init__(self, field: str, message: str) -> None:
        super().__init__(f"{field}: {message}")
        self.field = field
        self.message = message


def parse_seed_list(value: Any, field: str = "seeds") -> list[int]:
    """A list of integers, or a text of integers and ranges (`1,2,3`, `1-10`): distinct
    seeds in order; FieldProblem naming `field` otherwise."""
    if isinstance(value, bool):
        raise FieldProblem(field, "seeds are integers")
    if isinstance(value, int):
        return [value]
    items: list[Any]
    if isinstance(value, str):
        items = [part.strip() for part in value.split(",")]
    elif isinstance(value, list):
        items = value
    else:
        raise FieldProblem(field, "a list of integers or a text such as 1-10")
    seeds: dict[int, None] = {}
    for i, item in enumerate(items):
        where = field if isinstance(value, str) else f"{field}[{i}]"
        if isinstance(item, int) and not isinstance(item, bool):
            seeds[item] = None
            continue
        text = str(item)
        low, dash, high = text[1:].partition("-") if text else ("", "", "")
        try:
            if dash:
                first, last = int(text[0] + low), int(high)
                if last < first:
                    raise ValueError
                seeds.update(dict.fromkeys(range(first, last + 1)))
            else:
                seeds[int(text)] = None
        except ValueError:
            raise FieldProblem(
                where, f"{text!r} is not an integer or a range such as 1-10"
            ) from None
    if not seeds:
        raise FieldProblem(field, "no seeds")
    return list(seeds)


def _mapping(value: Any, field: str) -> dict[str, Any]:
    if not isinstance(value, dict):
        raise FieldProblem(field, "must be a mapping")
    return value


def _text(entry: dict[str, Any], key: str, field: str) -> str:
    value = entry.get(key)
    if not isinstance(value, str) or not value:
        raise FieldProblem(f"{field}.{key}", "must be a non-empty string")
    return value


def _only(entry: dict[str, Any], allowed: set[str], field: str) -> None:
    unknown = sorted(set(entry) - allowed)
    if unknown:
        raise FieldProblem(
            f"{field}.{unknown[0]}", f"unknown field (allowed: {', '.join(sorted(allowed))})"
        )


def _path(root: Path, entry: dict[str, Any], key: str, field: str) -> Path:
    path = root / _text(entry, key, field)
    if not path.exists():
        raise FieldProblem(f"{field}.{key}", f"{path}: no such file or directory")
    return path


def _load_config(path: Path, name: str | None, field: str) -> ConfigSpec:
    try:
        return config_file(path, name)
    except InputError as exc:
        raise FieldProblem(field, exc.message) from None


def _configs(root: Path, value: Any) -> list[ConfigSpec]:
    if not isinstance(value, list) or not value:
        raise FieldProblem("configs", "a non-empty list of configs")
    configs: list[ConfigSpec] = []
    for i, raw in enumerate(value):
        field = f"configs[{i}]"
        entry = _mapping(raw, field)
        if "file" in entry:
            _only(entry, {"file", "name"}, field)
            name = _text(entry, "name", field) if "name" in entry else None
            configs.append(_load_config(_path(root, entry, "file", field), name, f"{field}.file"))
        elif "base" in entry:
            _only(entry, {"base", "variations"}, field)
            base = _load_config(_path(root, entry, "base", field), None, f"{field}.base")
            variations = entry.get("variations")
            if not isinstance(variations, list) or not variations:
                raise FieldProblem(f"{field}.variations", "a non-empty list of variations")
            for j, rawv in enumerate(variations):
                vfield = f"{field}.variations[{j}]"
                variation = _mapping(rawv, vfield)
                _only(variation, {"name", "pluginArgs"}, vfield)
                args = _mapping(variation.get("pluginArgs", {}), f"{vfield}.pluginArgs")
                for plugin, plugin_args in args.items():
                    _mapping(plugin_args, f"{vfield}.pluginArgs.{plugin}")
                configs.append(with_plugin_args(base, _text(variation, "name", vfield), args))
        else:
            raise FieldProblem(field, "needs `file` or `base` (with `variations`)")
    names = [c.name for c in configs]
    for i, name in enumerate(names):
        if name in names[:i]:
            raise FieldProblem(f"configs[{i}]", f"a second config named {name!r} (set `name`)")
    return configs


DEFAULT_FORMAT = "scenario"
"""The format of a scenario input that names none: kubesched's scenario file."""
REPLAY_FIELDS = {
    "ties": "ties",
    "dropUnschedulable": "drop_unschedulable",
    "sampleInterval": "sample_interval",
    "bindLatency": "bind_latency",
    "maxAttempts": "max_attempts",
    "until": "until",
}
"""A scenario input's `replay` fields -> the `ReplayOptions` fields they set."""


def _option_text(value: Any) -> str:
    """A format option as the text `--format-option KEY=VALUE` would give it."""
    if isinstance(value, bool):
        return "true" if value else "false"
    return str(value)


def _inputs(root: Path, value: Any) -> list[InputSpec]:
    if not isinstance(value, list) or not value:
        raise FieldProblem("inputs", "a non-empty list of inputs")
    inputs: list[InputSpec] = []
    for i, raw in enumerate(value):
        field = f"inputs[{i}]"
        entry = _mapping(raw, field)
        if CLUSTER in entry:
            _only(entry, {CLUSTER, "name"}, field)
            path = _path(root, entry, CLUSTER, field)
            name = _text(entry, "name", field) if "name" in entry else path.name
            inputs.append(InputSpec(CLUSTER, str(path), name))
        elif SCENARIO in entry:
            _only(entry, {SCENARIO, "name", "format", "options", "replay"}, field)
            path = _path(root, entry, SCENARIO, field)
            name = _text(entry, "name", field) if "name" in entry else path.name
            fmt = _text(entry, "format", field) if "format" in entry else DEFAULT_FORMAT
            options = _mapping(entry.get("options", {}), f"{field}.options")
            for key, value in options.items():
                if isinstance(value, (dict, list)) or value is None:
                    raise FieldProblem(f"{field}.options.{key}", "must be a scalar")
            replay = dict(_mapping(entry.get("replay", {}), f"{field}.replay"))
            _only(replay, set(REPLAY_FIELDS), f"{field}.replay")
            strings = {str(k): _option_text(v) for k, v in options.items()}
            inputs.append(InputSpec(SCENARIO, str(path), name, fmt, strings, replay))
        else:
            raise FieldProblem(field, f"needs `{CLUSTER}` or `{SCENARIO}`")
    names = [spec.name for spec in inputs]
    for i, name in enumerate(names):
        if name in names[:i]:
            raise FieldProblem(f"inputs[{i}]", f"a second input named {name!r} (set `name`)")
    return inputs


def parse_grid(document: Any, root: Path) -> Grid:
    """The grid in a parsed document, paths relative to `root`; FieldProblem otherwise."""
    if not isinstance(document, dict):
        raise FieldProblem("", f"not a {GRID_KIND} grid (a mapping)")
    if document.get("apiVersion") != GRID_API_VERSION:
        raise FieldProblem("apiVersion", f"must be {GRID_API_VERSION}")
    if document.get("kind") != GRID_KIND:
        raise FieldProblem("kind", f"must be {GRID_KIND}")
    doc: dict[str, Any] = document
    _only(doc, {"apiVersion", "kind", "configs", "inputs", "seeds"}, "")
    configs = _configs(root, doc.get("configs"))
    _distinct([c.digest for c in configs], "configs", "configuration")
    inputs = _inputs(root, doc.get("inputs"))
    _distinct([spec.digest for spec in inputs], "inputs", "input")
    seeds = parse_seed_list(doc.get("seeds", [0]))
    return Grid(configs, inputs, seeds)


def _distinct(digests: list[str], field: str, what: str) -> None:
    """Two entries with the same content would be the same cells twice."""
    for i, digest in enumerate(digests):
        if digest in digests[:i]:
            first = digests.index(digest)
            raise FieldProblem(f"{field}[{i}]", f"the same {what} as {field}[{first}]")


def load_grid(path: str | Path) -> Grid:
    """The grid in a file; InputError naming the file and the field of the first problem."""
    file = str(path)
    try:
        text = Path(path).read_text(encoding="utf-8")
    except OSError as exc:
        raise InputError(f"cannot read the grid: {exc.strerror}", file=file) from None
    try:
        document = yaml.safe_load(text)
    except yaml.YAMLError as exc:
        mark = getattr(exc, "problem_mark", None)
        where = f" (line {mark.line + 1})" if mark is not None else ""
        raise InputError(f"not YAML{where}", file=file) from None
    try:
        return parse_grid(document, Path(path).parent)
    except FieldProblem as problem:
        raise InputError(problem.message, file=file, field=problem.field or None) from None
