"""Registry discovery from real distribution metadata on sys.path (fake .dist-info folders)."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

import pytest

from kubesched.cli.plugins import describe_plugins
from kubesched.errors import PluginError
from kubesched.framework._registry import IN_TREE, OUT_OF_TREE, Registry, implements, points_of


def make_dist(
    root: Path, dist: str, version: str, plugins: dict[str, str], module: str = ""
) -> None:
    """Write `<dist>-<version>.dist-info` with entry points, and optionally a module."""
    info = root / f"{dist.replace('-', '_')}-{version}.dist-info"
    info.mkdir(parents=True)
    (info / "METADATA").write_text(f"Metadata-Version: 2.1\nName: {dist}\nVersion: {version}\n")
    lines = ["[kubesched.plugins]", *(f"{n} = {v}" for n, v in plugins.items())]
    (info / "entry_points.txt").write_text("\n".join(lines) + "\n")
    if module:
        name = next(iter(plugins.values())).split(":")[0]
        (root / f"{name}.py").write_text(module)


GOOD = """
from kubesched import hookimpl

class Pinned:
    def __init__(self, args, handle):
        self.args = args

    @hookimpl
    def filter(self, node_info):
        return None

    @hookimpl
    def score(self, node_info):
        return 1
"""


@pytest.fixture
def site(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.syspath_prepend(str(tmp_path))
    yield tmp_path
    for name in [m for m in sys.modules if m.startswith("fakeplugin")]:
        del sys.modules[name]


def test_out_of_tree_discovered_with_its_distribution(site: Path) -> None:
    make_dist(site, "kubesched-pinned", "1.2.0", {"Pinned": "fakeplugin_pinned:Pinned"}, GOOD)
    registry = Registry.discover({})
    spec = registry.get("Pinned")
    assert (spec.distribution, spec.version, spec.source) == (
        "kubesched-pinned",
        "1.2.0",
        OUT_OF_TREE,
    )
    assert registry.get("NodeName").source == IN_TREE
    factory = registry.load("Pinned")
    assert points_of(factory) == ["filter", "score"]
    assert implements(factory, "filter") and not implements(factory, "bind")


def test_two_distributions_claiming_one_name_is_an_error_naming_both(site: Path) -> None:
    make_dist(site, "kubesched-a", "1.0", {"Twin": "fakeplugin_a:Twin"})
    make_dist(site, "kubesched-b", "2.0", {"Twin": "fakeplugin_b:Twin"})
    registry = Registry.discover({})
    message = (
        'plugin "Twin" is provided by more than one source: kubesched-a 1.0 and kubesched-b 2.0'
    )
    assert registry.conflicts()["Twin"].startswith(message)
    with pytest.raises(PluginError, match=r"kubesched-a 1\.0 and kubesched-b 2\.0"):
        registry.load("Twin")


def test_out_of_tree_claiming_an_in_tree_name_conflicts(site: Path) -> None:
    make_dist(site, "kubesched-myname", "0.1", {"NodeName": "fakeplugin_x:NodeName"})
    conflicts = Registry.discover({}).conflicts()
    assert "kubesched-nodename" in conflicts["NodeName"]
    assert "kubesched-myname 0.1" in conflicts["NodeName"]


@pytest.mark.parametrize(
    ("environ", "visible"),
    [
        ({}, True),
        ({"KUBESCHED_DISABLE_PLUGIN_AUTOLOAD": "1"}, False),
        ({"KUBESCHED_DISABLE_PLUGIN_AUTOLOAD": "1", "KUBESCHED_LOAD_PLUGINS": "Pinned"}, True),
        ({"KUBESCHED_LOAD_PLUGINS": "kubesched-pinned"}, True),
        ({"KUBESCHED_LOAD_PLUGINS": "SomethingElse"}, False),
        ({"KUBESCHED_LOAD_PLUGINS": ""}, False),
    ],
)
def test_autoload_switches(site: Path, environ: dict[str, str], visible: bool) -> None:
    make_dist(site, "kubesched-pinned", "1.2.0", {"Pinned": "fakeplugin_pinned:Pinned"}, GOOD)
    registry = Registry.discover(environ)
    assert ("Pinned" in registry) is visible
    assert "NodeName" in registry  # in-tree plugins always load


def test_broken_distribution_is_reported_and_others_still_list(site: Path) -> None:
    make_dist(
        site,
        "kubesched-broken",
        "0.3",
        {"Broken": "fakeplugin_broken:Broken"},
        "raise ImportError('no numpy here')\n",
    )
    make_dist(site, "kubesched-pinned", "1.2.0", {"Pinned": "fakeplugin_pinned:Pinned"}, GOOD)
    records: dict[str, Any] = {r["name"]: r for r in describe_plugins(Registry.discover({}))}
    broken = records["Broken"]
    assert broken["loaded"] is False
    assert broken["error"] == (
        'plugin "Broken" from kubesched-broken 0.3 failed to load: importing fakeplugin_broken '
        "raised ImportError: no numpy here"
    )
    assert records["Pinned"]["loaded"] is True
    assert records["Pinned"]["extensionPoints"] == ["Filter", "Score"]


def test_a_distribution_calling_sys_exit_at_import_is_reported_like_any_broken_one(
    site: Path,
) -> None:
    make_dist(
        site,
        "kubesched-exits",
        "0.1",
        {"Exits": "fakeplugin_exits:Exits"},
        "import sys\nsys.exit(4)\n",
    )
    make_dist(site, "kubesched-pinned", "1.2.0", {"Pinned": "fakeplugin_pinned:Pinned"}, GOOD)
    records: dict[str, Any] = {r["name"]: r for r in describe_plugins(Registry.discover({}))}
    assert records["Exits"]["error"] == (
        'plugin "Exits" from kubesched-exits 0.1 failed to load: importing fakeplugin_exits '
        "raised SystemExit: 4"
    )
    assert records["Pinned"]["loaded"] is True


def test_an_entry_point_naming_nothing_says_what_is_missing(site: Path) -> None:
    make_dist(site, "kubesched-typo", "0.2", {"Typo": "fakeplugin_typo:Tyop"}, GOOD)
    [record] = [r for r in describe_plugins(Registry.discover({})) if r["name"] == "Typo"]
    assert record["error"] == (
        "plugin \"Typo\" from kubesched-typo 0.2: entry point 'fakeplugin_typo:Tyop' names "
        "'Tyop', which module fakeplugin_typo does not define"
    )


def test_metadata_only_until_loaded(site: Path) -> None:
    make_dist(site, "kubesched-pinned", "1.2.0", {"Pinned": "fakeplugin_pinned:Pinned"}, GOOD)
    Registry.discover({})
    assert "fakeplugin_pinned" not in sys.modules


def test_register_in_code_and_merge_conflicts() -> None:
    a, b = Registry(), Registry()
    a.register("X", object)
    b.register("X", object)
    with pytest.raises(PluginError, match='a plugin named "X" already exists'):
        a.register("X", object)
    with pytest.raises(PluginError, match='plugin "X" is provided by more than one source'):
        a.merge(b)


def _filter_errors(registry: Registry, name: str) -> list[str]:
    from kubesched.config import KubeSchedulerProfile, Plugin, Plugins, PluginSet
    from kubesched.profile import build_profiles

    plugins = Plugins(filter=PluginSet(enabled=[Plugin(name)]))
    _, errors = build_profiles([KubeSchedulerProfile(plugins=plugins)], registry)
    return [e for e in errors if name in e]


@pytest.mark.parametrize(
    ("environ", "why"),
    [
        ({"KUBESCHED_LOAD_PLUGINS": "NodeName"}, "KUBESCHED_LOAD_PLUGINS does not name it"),
        (
            {"KUBESCHED_DISABLE_PLUGIN_AUTOLOAD": "1"},
            "KUBESCHED_DISABLE_PLUGIN_AUTOLOAD is set and KUBESCHED_LOAD_PLUGINS does not name it",
        ),
    ],
)
def test_a_plugin_held_back_by_a_switch_says_which(
    site: Path, environ: dict[str, str], why: str
) -> None:
    make_dist(site, "kubesched-pinned", "1.2.0", {"Pinned": "fakeplugin_pinned:Pinned"}, GOOD)
    registry = Registry.discover(environ)
    assert registry.held_back["Pinned"] == why
    assert _filter_errors(registry, "Pinned") == [
        'profiles[0].plugins.filter.enabled[0]: FilterPlugin "Pinned" does not exist '
        f"(it is installed, but {why})"
    ]


def test_load_plugins_naming_nothing_installed_is_a_warning(site: Path) -> None:
    make_dist(site, "kubesched-pinned", "1.2.0", {"Pinned": "fakeplugin_pinned:Pinned"}, GOOD)
    registry = Registry.discover({"KUBESCHED_LOAD_PLUGINS": "Pinned, Pined"})
    assert "Pinned" in registry
    assert registry.warnings == [
        "KUBESCHED_LOAD_PLUGINS names 'Pined': no installed plugin or distribution"
    ]


def test_missing_plugin_messages_say_what_to_do() -> None:
    assert _filter_errors(Registry(), "NodeName") == [
        'profiles[0].plugins.filter.enabled[0]: FilterPlugin "NodeName" does not exist '
        "(it is not installed; install it with: pip install kubesched-nodename)"
    ]
    assert _filter_errors(Registry.discover({}), "TaintTolerations") == [
        'profiles[0].plugins.filter.enabled[0]: FilterPlugin "TaintTolerations" does not exist, '
        'did you mean "TaintToleration"?'
    ]
