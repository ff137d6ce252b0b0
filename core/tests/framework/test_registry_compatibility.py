"""The compatibility promise: a plugin distribution's kubesched-core range (Requires-Dist)
is checked at discovery; one that excludes the installed core is reported, never loaded."""

from __future__ import annotations

import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from kubesched import __version__
from kubesched.cli.plugins import describe_plugins
from kubesched.discovery import KUBERNETES_MINOR, core_requirement, incompatibility
from kubesched.errors import PluginError
from kubesched.framework._registry import Registry

PLUGIN = """
from kubesched import hookimpl

class Ranged:
    def __init__(self, args, handle):
        pass

    @hookimpl
    def score(self, node_info):
        return 1
"""


def make_dist(root: Path, dist: str, requires: tuple[str, ...], plugins: dict[str, str]) -> None:
    info = root / f"{dist.replace('-', '_')}-2.0.dist-info"
    info.mkdir(parents=True)
    meta = ["Metadata-Version: 2.1", f"Name: {dist}", "Version: 2.0"]
    (info / "METADATA").write_text("\n".join([*meta, *(f"Requires-Dist: {r}" for r in requires)]))
    lines = ["[kubesched.plugins]", *(f"{n} = {v}" for n, v in plugins.items())]
    (info / "entry_points.txt").write_text("\n".join(lines) + "\n")
    module = next(iter(plugins.values())).split(":")[0]
    (root / f"{module}.py").write_text(PLUGIN)


@pytest.fixture
def site(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Path]:
    monkeypatch.syspath_prepend(str(tmp_path))
    yield tmp_path
    for name in [m for m in sys.modules if m.startswith("fakerange")]:
        del sys.modules[name]


def test_a_distribution_outside_its_range_is_listed_with_why_and_one_warning(
    site: Path,
) -> None:
    plugins = {"Old": "fakerange_old:Ranged", "Older": "fakerange_old:Ranged"}
    make_dist(site, "kubesched-old", ("kubesched-core<0.0.1,>=0.0.0a0", "numpy"), plugins)
    registry = Registry.discover({})
    why = (
        "kubesched-old 2.0 supports kubesched-core <0.0.1,>=0.0.0a0 (its Requires-Dist), "
        f"not the installed {__version__}"
    )
    assert registry.warnings == [f"{why}: its plugins are not loaded"]
    with pytest.raises(PluginError) as raised:
        registry.load("Old")
    assert str(raised.value) == f'plugin "Old" is not loaded: {why}'
    assert "fakerange_old" not in sys.modules, "nothing of it was imported"
    rows = {r["name"]: r for r in describe_plugins(registry)}
    assert rows["Older"]["loaded"] is False and rows["Older"]["error"].endswith(why)
    assert rows["NodeName"]["loaded"] is True


@pytest.mark.parametrize(
    "requires",
    [
        ("kubesched-core",),
        (f"kubesched-core>={__version__}",),
        ("Kubesched_Core>=0.0.1; python_version >= '3'",),
        ("kubesched-core<0.0.1; extra == 'legacy'",),
        ("kubesched-core<0.0.1; python_version < '3'",),
        (),
    ],
    ids=["no-range", "in-range", "unnormalised", "extra-only", "other-python", "none"],
)
def test_a_distribution_in_range_or_without_one_loads(
    site: Path, requires: tuple[str, ...]
) -> None:
    make_dist(site, "kubesched-fine", requires, {"Fine": "fakerange_fine:Ranged"})
    registry = Registry.discover({})
    assert registry.warnings == []
    assert registry.load("Fine").__name__ == "Ranged"


def test_the_range_is_checked_against_the_core_version_given() -> None:
    assert incompatibility("d", "1", ["kubesched-core>=0.2,<0.4"], "0.3.1") is None
    assert incompatibility("d", "1", ["kubesched-core>=0.2,<0.4"], "0.4.0") is not None
    assert incompatibility("d", "1", ["kubesched-core>=0.2"], "0.2.0rc1") is not None
    assert incompatibility("d", "1", ["kubesched-core>=0.2rc1"], "0.2.0rc1") is None
    assert core_requirement(["not a requirement !!", "kubesched-core>1"]) is not None


def test_the_tracked_kubernetes_minor_is_the_one_the_docs_promise() -> None:
    docs = Path(__file__).resolve().parents[3] / "docs" / "writing-plugins" / "compatibility.md"
    assert KUBERNETES_MINOR == "v1.35"
    assert f"Kubernetes {KUBERNETES_MINOR}" in docs.read_text(encoding="utf-8")
