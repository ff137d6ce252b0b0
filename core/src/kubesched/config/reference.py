"""The configuration reference page, generated from the attrs models so it cannot drift.

uv run python -m kubesched.config.reference > docs/reference/configuration.md
"""

from __future__ import annotations

import json
import types
from collections.abc import Iterator
from datetime import timedelta
from typing import Any, Union, get_args, get_origin

import attrs

from kubesched.config.converter import json_name, unstructure
from kubesched.config.defaults import UPSTREAM_DEFAULT_PLUGINS
from kubesched.config.duration import format_duration
from kubesched.config.types import API_VERSION, KIND, KubeSchedulerConfiguration

_SCALARS = {
    int: "integer",
    float: "number",
    str: "string",
    bool: "boolean",
    timedelta: 'duration (Go syntax: `"15s"`, `"1m30s"`)',
}

_INTRODUCTION = f"""\
# Configuration reference

<!-- Generated from the models in kubesched.config.types; do not edit. Regenerate with:
     uv run python -m kubesched.config.reference > docs/reference/configuration.md -->

kubesched reads kube-scheduler's own configuration file, unchanged:
`apiVersion: {API_VERSION}`, `kind: {KIND}`, in YAML or JSON.

- **Loading is strict**, as kube-scheduler's decoder is: an unknown or duplicated field, a
  value of the wrong type (`"16"` for an integer) or a wrong `apiVersion`/`kind` is an error
  naming its field path, e.g.
  `profiles[0].plugins.score.enabled[1].wieght: unknown field, did you mean "weight"?`.
  `null` means "not set".
- **Defaults are upstream's v1 defaults** (the tables below), with one difference: the
  default plugins are upstream's default set restricted to the plugins installed here.
- **Validation uses upstream's rules and messages**
  (`parallelism: Invalid value: 0: should be an integer value greater than zero`), plus the
  checks kube-scheduler makes when it builds each profile: every enabled plugin must be
  installed and implement the extension point it is enabled at, exactly one QueueSort
  plugin (the same, with the same args, in every profile), at least one Bind plugin.
  Every problem is reported at once, one `<field path>: <message>` line each.

Commands:

- `kubesched config defaults [--output yaml|json]`: the configuration kubesched runs
  without a file, in this format.
- `kubesched config validate FILE [--output text|json|yaml]`: exit status 0 and one `OK` line
  (warnings about args nothing uses on stderr), or 1 and one line per problem on stderr;
  `--output json` prints
  `{{apiVersion: kubesched.io/v1alpha1, kind: ValidationResult, file, valid, errors, warnings}}`
  either way.
- `kubesched config show FILE [--output yaml|json]`: the effective profiles after
  defaulting, merging and multiPoint expansion (see
  [EffectiveConfiguration](#the-effectiveconfiguration-document)). A file that does not
  validate is printed defaulted, in this format (upstream defaults before it validates),
  followed by its problems on stderr, and the command exits 1.

`FILE` may be `-` for standard input, as may `simulate --config`. Each command takes
`--feature-gates Name=true,...` as kube-scheduler does (see the
[feature gates guide](../guide/feature-gates.md)); `kubesched config feature-gates` lists
the gates.
"""

_MERGE = """\
## How plugin sets combine

Upstream enables every default plugin through `multiPoint`. For each extension point and
for `multiPoint`, a profile's `plugins` are merged into the defaults:

1. The default plugins run first, in default order, except those named in `disabled`
   (`"*"` disables them all). Naming a default plugin in `enabled` re-configures it (its
   weight) in its default position.
2. The other `enabled` plugins follow, in the order given.

Then each `multiPoint` plugin is enabled at every extension point it implements, unless
disabled there (or `"*"` is). At each point the final order is: plugins enabled there
explicitly that are also in `multiPoint`, then the `multiPoint` plugins, then the other
explicitly enabled plugins. A Score plugin's weight comes from `score.enabled`, else from
`multiPoint.enabled`; unset or 0 means 1.

Plugin args: `pluginConfig[].args` of a plugin that declares an args class are checked
strictly, filled with its defaults and validated, whether or not the plugin is enabled;
every enabled plugin with an args class and no `pluginConfig` entry gets its default args.
Args of other plugins are passed as written; args of a plugin that is not installed are
ignored (as upstream ignores args of plugins it does not run).

The plugin names `AzureDiskLimits`, `CinderLimits`, `EBSLimits` and `GCEPDLimits` are
invalid in v1, as upstream says.
"""

_EFFECTIVE_FIELDS: tuple[tuple[str, str, str], ...] = (
    (
        "`parallelism`, `percentageOfNodesToScore`, "
        "`podInitialBackoffSeconds`, `podMaxBackoffSeconds`",
        "integer",
        "The top-level settings, defaulted.",
    ),
    ("`profiles`", "list", "One entry per profile, in file order."),
    ("`profiles[].schedulerName`", "string", "The profile's name."),
    (
        "`profiles[].percentageOfNodesToScore`",
        "integer or null",
        "The profile's own value; null means the global one.",
    ),
    (
        "`profiles[].plugins`",
        "object",
        "Every extension point (`preEnqueue`, `queueSort`, `preFilter`, `filter`, "
        "`postFilter`, `preScore`, `score`, `reserve`, `permit`, `preBind`, `bind`, "
        "`postBind`) with the plugins that run there, in order, each `{name}`; `score` "
        "entries also carry their `weight`.",
    ),
    (
        "`profiles[].pluginConfig`",
        "list",
        "`{name, args}` for every plugin the profile builds that has args, sorted by name; "
        "typed args carry `apiVersion` and `kind`.",
    ),
    (
        "`defaultPluginsNotInstalled`",
        "list of strings",
        "Upstream default plugins that kubesched runs without, because they are not installed.",
    ),
    (
        "`notes`",
        "list of strings",
        "The same as a sentence, and args that are written but not used.",
    ),
)


def _effective_section() -> str:
    lines = [
        "## The EffectiveConfiguration document",
        "",
        "`kubesched config show` prints a versioned document "
        "(`apiVersion: kubesched.io/v1alpha1`, `kind: EffectiveConfiguration`), in YAML or "
        "with `--output json`:",
        "",
        "| Field | Type | Description |",
        "|---|---|---|",
        *(f"| {name} | {kind} | {text} |" for name, kind, text in _EFFECTIVE_FIELDS),
    ]
    return "\n".join(lines) + "\n"


_UNSUPPORTED = """\
## Not supported

- `percentageOfPlacementsToScore` and the `placementGenerate`, `placementScore`,
  `placementFeasible` and `podGroupPostFilter` plugin sets exist only in upstream's
  development branch behind the alpha `TopologyAwareWorkloadScheduling` feature gate;
  they are rejected as unknown fields.
- The leader election, client connection and profiling settings are accepted and
  validated for compatibility; the embedded simulator does not use them.
"""


def _type_name(kind: Any) -> str:
    """The reader-facing name of a field type, linking to model sections."""
    if kind in _SCALARS:
        return _SCALARS[kind]
    if kind is Any:
        return "object"
    origin = get_origin(kind)
    if origin in (Union, types.UnionType):
        return " or ".join(_type_name(a) for a in get_args(kind) if a is not type(None))
    if origin is list:
        return f"list of {_type_name(get_args(kind)[0])}"
    if attrs.has(kind):
        return f"[{kind.__name__}](#{kind.__name__.lower()})"
    raise TypeError(f"no reference name for {kind!r}")


def _default_text(default: Any) -> str:
    if default is None:
        return "unset"
    if attrs.has(type(default)):
        return "see its table"
    if isinstance(default, timedelta):
        return f"`{format_duration(default)}`"
    return f"`{json.dumps(unstructure(default))}`"


def _models(cls: type, seen: set[type] | None = None) -> Iterator[type]:
    """`cls` and every model class it refers to, depth first, each once."""
    seen = set() if seen is None else seen
    if cls in seen:
        return
    seen.add(cls)
    attrs.resolve_types(cls)
    yield cls
    for attribute in attrs.fields(cls):
        for kind in (attribute.type, *get_args(attribute.type)):
            for inner in (kind, *get_args(kind)):
                if isinstance(inner, type) and attrs.has(inner):
                    yield from _models(inner, seen)


def _model_section(cls: type) -> str:
    lines = [
        f"## {cls.__name__}",
        "",
        (cls.__doc__ or "").strip(),
        "",
        "| Field | Type | Default | Description |",
        "|---|---|---|---|",
    ]
    defaults = cls()  # every model field has a default
    for attribute in attrs.fields(cls):
        doc = attribute.metadata.get("doc", "")
        default = _default_text(getattr(defaults, attribute.name))
        lines.append(
            f"| `{json_name(attribute)}` | {_type_name(attribute.type)} | {default} | {doc} |"
        )
    return "\n".join(lines) + "\n"


def _default_plugins_section() -> str:
    lines = [
        "## Default plugins",
        "",
        "Upstream's default `multiPoint` set, in order; kubesched enables those that are",
        "installed (`kubesched config show` lists the others).",
        "",
        "| # | Plugin | Score weight |",
        "|---|---|---|",
    ]
    for number, plugin in enumerate(UPSTREAM_DEFAULT_PLUGINS, start=1):
        weight = str(plugin.weight) if plugin.weight is not None else ""
        lines.append(f"| {number} | `{plugin.name}` | {weight} |")
    return "\n".join(lines) + "\n"


def render_markdown() -> str:
    """The whole reference page."""
    sections = [_INTRODUCTION]
    sections += [_model_section(cls) for cls in _models(KubeSchedulerConfiguration)]
    sections += [_default_plugins_section(), _MERGE, _effective_section(), _UNSUPPORTED]
    return "\n".join(sections)


if __name__ == "__main__":
    print(render_markdown(), end="")
