"""`kubesched config defaults | validate | show`, through the real CLI entry point."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
import yaml

from kubesched import hookimpl
from kubesched.cli.main import main
from kubesched.config import default_config, parse_config
from kubesched.framework._registry import Registry, default_registry

EXAMPLE = Path(__file__).parents[3] / "examples" / "config" / "multiple-profiles.yaml"
HEADER = "apiVersion: kubescheduler.config.k8s.io/v1\nkind: KubeSchedulerConfiguration\n"


@pytest.fixture
def use_registry(monkeypatch: pytest.MonkeyPatch) -> Any:
    """Make the CLI see `registry` as the installed plugins."""

    def use(registry: Registry) -> None:
        monkeypatch.setattr("kubesched.cli.output.default_registry", lambda: registry)

    return use


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    """Exit code, stdout and stderr of `kubesched <argv>` (the console script exits with
    what `main` returns, or raises)."""
    try:
        result = main(list(argv))
        code = result if isinstance(result, int) else 0
    except SystemExit as exc:
        code = int(exc.code or 0)
    out, err = capsys.readouterr()
    return code, out, err


def write(tmp_path: Path, text: str, name: str = "scheduler.yaml") -> str:
    path = tmp_path / name
    path.write_text(text)
    return str(path)


def test_defaults_round_trip(
    capsys: pytest.CaptureFixture[str], use_registry: Any, kubesched_registry: Registry
) -> None:
    use_registry(kubesched_registry)
    code, out, err = run(capsys, "config", "defaults")
    assert (code, err) == (0, "")
    document = yaml.safe_load(out)
    assert (document["apiVersion"], document["kind"]) == (
        "kubescheduler.config.k8s.io/v1",
        "KubeSchedulerConfiguration",
    )
    [profile] = document["profiles"]
    assert profile["schedulerName"] == "default-scheduler"
    assert [p["name"] for p in profile["plugins"]["multiPoint"]["enabled"]] == [
        "SchedulingGates",
        "PrioritySort",
        "NodeUnschedulable",
        "NodeName",
        "TaintToleration",
        "NodeAffinity",
        "NodePorts",
        "NodeResourcesFit",
        "VolumeRestrictions",
        "NodeVolumeLimits",
        "VolumeBinding",
        "VolumeZone",
        "InterPodAffinity",
        "DefaultPreemption",
        "NodeResourcesBalancedAllocation",
        "ImageLocality",
        "DefaultBinder",
    ]
    assert profile["pluginConfig"][0]["args"] == {
        "apiVersion": "kubescheduler.config.k8s.io/v1",
        "kind": "DefaultPreemptionArgs",
        "minCandidateNodesPercentage": 10,
        "minCandidateNodesAbsolute": 100,
    }
    # What `defaults` prints loads back to the same configuration.
    assert parse_config(out, kubesched_registry) == default_config(kubesched_registry)
    code, as_json, _ = run(capsys, "config", "defaults", "--output", "json")
    assert code == 0
    assert json.loads(as_json) == document


def test_validate_ok(
    capsys: pytest.CaptureFixture[str], use_registry: Any, kubesched_registry: Registry
) -> None:
    use_registry(kubesched_registry)
    code, out, err = run(capsys, "config", "validate", str(EXAMPLE))
    assert (code, err) == (0, "")
    assert out == f"{EXAMPLE}: OK (2 profiles: default-scheduler, no-scoring-scheduler)\n"


BAD_CONFIGS = [
    (
        "syntax",
        HEADER + "profiles:\n  - schedulerName: a\n   plugins: {}\n",
        [
            "line 5, column 4: invalid YAML: while parsing a block collection expected "
            "<block end>, but found '<block mapping start>'"
        ],
    ),
    (
        "unknown-field",
        HEADER + "profiles:\n- plugins:\n    score:\n      enabled:\n      - name: NodeName\n"
        "        wieght: 2\n",
        ['profiles[0].plugins.score.enabled[0].wieght: unknown field, did you mean "weight"?'],
    ),
    (
        "bad-value",
        HEADER + "parallelism: 0\npodInitialBackoffSeconds: 5\npodMaxBackoffSeconds: 2\n",
        [
            "parallelism: Invalid value: 0: should be an integer value greater than zero",
            "podMaxBackoffSeconds: Invalid value: 2: "
            "must be greater than or equal to PodInitialBackoffSeconds",
        ],
    ),
    (
        "unknown-plugin",
        HEADER + "profiles:\n- plugins:\n    filter:\n      enabled:\n      - name: NodeLabel\n",
        [
            "profiles[0].plugins.filter.enabled[0]: "
            'FilterPlugin "NodeLabel" does not exist, did you mean "NodeName"?'
        ],
    ),
    (
        "plugin-at-a-point-it-does-not-implement",
        HEADER + "profiles:\n- plugins:\n    bind:\n      enabled:\n      - name: NodeName\n",
        [
            'profiles[0].plugins.bind.enabled[0]: plugin "NodeName" does not extend '
            "BindPlugin plugin"
        ],
    ),
    (
        "conflicting-profiles",
        HEADER + "profiles:\n- schedulerName: a\n- schedulerName: a\n"
        "  plugins:\n    queueSort:\n      enabled:\n      - name: Sorter\n",
        [
            'profiles[1].schedulerName: Duplicate value: "a"',
            'profiles[1].plugins.queueSort: Invalid value: {"enabled":["Sorter"],"disabled":[]}: '
            "must be the same for all profiles",
            'profiles[1].plugins.queueSort.enabled[0]: QueueSortPlugin "Sorter" does not exist',
        ],
    ),
    (
        "bad-plugin-args",
        HEADER + "profiles:\n- pluginConfig:\n  - name: NodeResourcesFit\n    args:\n"
        "      scoringStrategy:\n        type: BestFit\n",
        [
            "profiles[0].pluginConfig[0].args.scoringStrategy.type: Unsupported value: "
            '"BestFit": supported values: "LeastAllocated", "MostAllocated", '
            '"RequestedToCapacityRatio"'
        ],
    ),
    (
        "removed-plugin",
        HEADER + "profiles:\n- plugins:\n    filter:\n      enabled:\n      - name: EBSLimits\n",
        [
            'profiles[0].plugins.filter.enabled[0]: Invalid value: "EBSLimits": was invalid in '
            'version "kubescheduler.config.k8s.io/v1" (KubeSchedulerConfiguration is version '
            '"kubescheduler.config.k8s.io/v1")',
            'profiles[0].plugins.filter.enabled[0]: FilterPlugin "EBSLimits" does not exist',
        ],
    ),
]


@pytest.mark.parametrize(
    ("text", "expected"), [c[1:] for c in BAD_CONFIGS], ids=[c[0] for c in BAD_CONFIGS]
)
@pytest.mark.parametrize("subcommand", ["validate", "show"])
def test_bad_configs_exit_1_with_one_line_per_problem(
    subcommand: str,
    text: str,
    expected: list[str],
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    use_registry: Any,
    kubesched_registry: Registry,
) -> None:
    use_registry(kubesched_registry)
    path = write(tmp_path, text)
    code, out, err = run(capsys, "config", subcommand, path)
    assert code == 1
    # `show` prints what reads, defaulted, before the problems; `validate` only the problems.
    assert out == "" if subcommand == "validate" else out in ("", *_defaulted_documents(out))
    assert err.splitlines() == [f"{path}: {line}" for line in expected]
    assert "Traceback" not in err


def _defaulted_documents(out: str) -> list[str]:
    """`out` if it is a defaulted KubeSchedulerConfiguration document, else nothing."""
    document = yaml.safe_load(out) if out else None
    is_config = isinstance(document, dict) and document.get("kind") == "KubeSchedulerConfiguration"
    return [out] if is_config and "podMaxBackoffSeconds" in document else []


def test_missing_file(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    path = str(tmp_path / "nope.yaml")
    code, _, err = run(capsys, "config", "validate", path)
    assert (code, err) == (1, f"{path}: cannot read the file: No such file or directory\n")


def test_validate_json(
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    use_registry: Any,
    kubesched_registry: Registry,
) -> None:
    use_registry(kubesched_registry)
    bad = write(tmp_path, HEADER + "parallelism: -1\n")
    code, out, err = run(capsys, "config", "validate", bad, "-o", "json")
    assert (code, err) == (1, "")
    assert json.loads(out) == {
        "apiVersion": "kubesched.io/v1alpha1",
        "kind": "ValidationResult",
        "file": bad,
        "valid": False,
        "errors": ["parallelism: Invalid value: -1: should be an integer value greater than zero"],
        "warnings": [],
    }
    code, out, _ = run(capsys, "config", "validate", str(EXAMPLE), "-o", "json")
    assert code == 0
    assert json.loads(out)["valid"] is True


INSTALLED_DEFAULT_PROFILE = {
    "preEnqueue": ["SchedulingGates"],
    "queueSort": ["PrioritySort"],
    "preFilter": [
        "NodeAffinity",
        "NodePorts",
        "NodeResourcesFit",
        "VolumeRestrictions",
        "NodeVolumeLimits",
        "VolumeBinding",
        "VolumeZone",
        "InterPodAffinity",
    ],
    "filter": [
        "NodeUnschedulable",
        "NodeName",
        "TaintToleration",
        "NodeAffinity",
        "NodePorts",
        "NodeResourcesFit",
        "VolumeRestrictions",
        "NodeVolumeLimits",
        "VolumeBinding",
        "VolumeZone",
        "InterPodAffinity",
    ],
    "postFilter": ["DefaultPreemption"],
    "preScore": [
        "TaintToleration",
        "NodeAffinity",
        "NodeResourcesFit",
        "VolumeBinding",
        "InterPodAffinity",
        "NodeResourcesBalancedAllocation",
    ],
    "score": [
        ("NodeResourcesFit", 2),
        ("TaintToleration", 3),
        ("NodeAffinity", 2),
        ("VolumeBinding", 1),
        ("InterPodAffinity", 2),
        ("NodeResourcesBalancedAllocation", 1),
        ("ImageLocality", 1),
    ],
    "reserve": ["VolumeBinding"],
    "permit": [],
    "preBind": ["VolumeBinding"],
    "bind": ["DefaultBinder"],
    "postBind": [],
}
"""What the example's default-scheduler runs with kubesched's built-in plugins."""

UPSTREAM_DEFAULT_PROFILE = {
    "preEnqueue": ["SchedulingGates", "DynamicResources"],
    "queueSort": ["PrioritySort"],
    "preFilter": [
        "NodeAffinity",
        "NodePorts",
        "NodeResourcesFit",
        "VolumeRestrictions",
        "NodeVolumeLimits",
        "VolumeBinding",
        "VolumeZone",
        "PodTopologySpread",
        "InterPodAffinity",
        "DynamicResources",
    ],
    "filter": [
        "NodeUnschedulable",
        "NodeName",
        "TaintToleration",
        "NodeAffinity",
        "NodePorts",
        "NodeResourcesFit",
        "VolumeRestrictions",
        "NodeVolumeLimits",
        "VolumeBinding",
        "VolumeZone",
        "PodTopologySpread",
        "InterPodAffinity",
        "DynamicResources",
    ],
    "postFilter": ["DynamicResources", "DefaultPreemption"],
    "preScore": [
        "TaintToleration",
        "NodeAffinity",
        "NodeResourcesFit",
        "VolumeBinding",
        "PodTopologySpread",
        "InterPodAffinity",
        "NodeResourcesBalancedAllocation",
    ],
    # The explicitly configured plugin first, PodTopologySpread disabled.
    "score": [
        ("NodeResourcesFit", 2),
        ("TaintToleration", 3),
        ("NodeAffinity", 2),
        ("VolumeBinding", 1),
        ("InterPodAffinity", 2),
        ("DynamicResources", 1),
        ("NodeResourcesBalancedAllocation", 1),
        ("ImageLocality", 1),
    ],
    "reserve": ["VolumeBinding", "DynamicResources"],
    "permit": [],
    "preBind": ["VolumeBinding", "DynamicResources"],
    "bind": ["DefaultBinder"],
    "postBind": [],
}
"""What upstream runs for the example's default-scheduler (every default plugin installed)."""


def _points(profile: dict[str, Any]) -> dict[str, list[Any]]:
    """Plugins per point as names, score entries as (name, weight)."""
    return {
        point: [(e["name"], e["weight"]) if point == "score" else e["name"] for e in entries]
        for point, entries in profile["plugins"].items()
    }


def _show(capsys: pytest.CaptureFixture[str], output: str) -> dict[str, Any]:
    code, out, err = run(capsys, "config", "show", str(EXAMPLE), "--output", output)
    assert (code, err) == (0, "")
    document: dict[str, Any] = json.loads(out) if output == "json" else yaml.safe_load(out)
    return document


@pytest.mark.parametrize("output", ["yaml", "json"])
def test_show_documented_config_with_kubesched_plugins(
    output: str,
    capsys: pytest.CaptureFixture[str],
    use_registry: Any,
    kubesched_registry: Registry,
) -> None:
    use_registry(kubesched_registry)
    document = _show(capsys, output)
    assert (document["apiVersion"], document["kind"]) == (
        "kubesched.io/v1alpha1",
        "EffectiveConfiguration",
    )
    default, no_scoring = document["profiles"]
    assert default["schedulerName"] == "default-scheduler"
    assert _points(default) == INSTALLED_DEFAULT_PROFILE
    assert no_scoring["schedulerName"] == "no-scoring-scheduler"
    assert _points(no_scoring) == {**INSTALLED_DEFAULT_PROFILE, "preScore": [], "score": []}
    [fit] = [c for c in default["pluginConfig"] if c["name"] == "NodeResourcesFit"]
    assert fit["args"]["kind"] == "NodeResourcesFitArgs"
    assert fit["args"]["scoringStrategy"]["type"] == "MostAllocated"
    assert [r["name"] for r in fit["args"]["scoringStrategy"]["resources"]] == [
        "cpu",
        "memory",
        "intel.com/foo",
        "intel.com/bar",
    ]
    assert document["defaultPluginsNotInstalled"] == [
        "PodTopologySpread",
        "DynamicResources",
    ]
    assert document["notes"][0].startswith("upstream default plugins not installed here")


def test_show_documented_config_as_upstream_runs_it(
    capsys: pytest.CaptureFixture[str], use_registry: Any, upstream_registry: Registry
) -> None:
    use_registry(upstream_registry)
    document = _show(capsys, "json")
    default, no_scoring = document["profiles"]
    assert _points(default) == UPSTREAM_DEFAULT_PROFILE
    assert _points(no_scoring) == {**UPSTREAM_DEFAULT_PROFILE, "preScore": [], "score": []}
    assert document["defaultPluginsNotInstalled"] == []
    assert document["notes"] == []


def test_show_with_the_installed_built_in_plugins(capsys: pytest.CaptureFixture[str]) -> None:
    """The real plugins serve the points the fakes above stand in for: upstream's default
    profile (the example's variant of it), less the default plugins not installed here."""
    registry = default_registry()
    missing = [
        name for name in ("NodeName", "NodeAffinity", "DefaultBinder") if name not in registry
    ]
    if missing:
        pytest.skip(f"built-in plugins not installed: {missing}")

    def installed(entry: Any) -> bool:
        return (entry[0] if isinstance(entry, tuple) else entry) in registry

    expected = {
        point: [entry for entry in entries if installed(entry)]
        for point, entries in UPSTREAM_DEFAULT_PROFILE.items()
    }
    default, _ = _show(capsys, "json")["profiles"]
    assert _points(default) == expected


def test_show_notes_unused_args(
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    use_registry: Any,
    kubesched_registry: Registry,
) -> None:
    use_registry(kubesched_registry)
    path = write(
        tmp_path,
        HEADER + "profiles:\n- schedulerName: s\n  plugins:\n    multiPoint:\n      disabled:\n"
        "      - name: NodeAffinity\n  pluginConfig:\n  - name: NodeAffinity\n    args: {}\n"
        "  - name: CustomPlugin\n    args:\n      x: 1\n",
    )
    code, out, _ = run(capsys, "config", "show", path, "-o", "json")
    assert code == 0
    assert json.loads(out)["notes"][1:] == [
        'profiles[0].pluginConfig[0]: args for "NodeAffinity" are not used: '
        'the plugin is not enabled in profile "s"',
        'profiles[0].pluginConfig[1]: args for "CustomPlugin" are ignored: no such plugin',
    ]


class Grumpy:
    """A Filter plugin whose construction fails."""

    def __init__(self, args: Any, handle: Any) -> None:
        raise ValueError("no config for me")

    @hookimpl
    def filter(self) -> None:
        return None


class Typo:
    """A Filter plugin whose hookimpl takes an argument the hookspec does not have."""

    def __init__(self, args: Any, handle: Any) -> None:
        pass

    @hookimpl
    def filter(self, nodeinfo: Any) -> None:
        return None


@pytest.mark.parametrize(
    ("plugin", "problem"),
    [
        (Grumpy, 'initializing plugin "Bad" (registered in code) in profile "default-scheduler": '
         "ValueError: no config for me"),
        (Typo, 'plugin "Bad" (registered in code) in profile "default-scheduler": '),
    ],
)  # fmt: skip
def test_validate_builds_the_plugins_as_simulate_does(
    plugin: type,
    problem: str,
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    use_registry: Any,
    kubesched_registry: Registry,
) -> None:
    registry = Registry()
    registry.merge(kubesched_registry)
    registry.register("Bad", plugin)
    use_registry(registry)
    path = write(
        tmp_path, HEADER + "profiles:\n- plugins:\n    filter:\n      enabled: [{name: Bad}]\n"
    )
    code, out, err = run(capsys, "config", "validate", path)
    assert (code, out) == (1, "")
    assert err.startswith(f"{path}: profiles[0]: {problem}")
    assert len(err.splitlines()) == 1
