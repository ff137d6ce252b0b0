"""Hook evolution: a deprecated hook or argument, declared with pluggy's `warn_on_impl` /
`warn_on_impl_args` in the hookspecs, warns once per plugin with its name and is flagged by
`kubesched plugins`.

No hook is deprecated today, so each test declares one in the real hookspec module
(monkeypatched), the way a future hookspec change will.
"""

from __future__ import annotations

import json
import sys
import warnings
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pluggy
import pytest
from click.testing import CliRunner
from packaging.version import Version

from kubesched import hookimpl
from kubesched.cli.main import cli
from kubesched.errors import PluginDeprecationWarning
from kubesched.framework import NodeInfo, _deprecations, hookspec, hookspecs
from kubesched.framework._deprecations import (
    deprecated_argument,
    deprecated_hook,
    deprecated_uses,
)

assert Version(pluggy.__version__) >= Version("1.5"), "warn_on_impl_args came in pluggy 1.5"

RETIRED = (
    "hook old_score is deprecated since kubesched-core 0.1 and is removed in 0.3; "
    "implement score instead"
)
ARGUMENT = (
    "argument node_info of hook score is deprecated since kubesched-core 0.1 and is removed "
    "in 0.3; take node_name instead"
)


def old_score(node_info: NodeInfo) -> int:
    """A retired hook, as a hookspec change would keep it."""
    raise NotImplementedError


def score(node_info: NodeInfo, node_name: str) -> int:
    """Score, as if `node_info` were being retired in favour of a `node_name` argument."""
    raise NotImplementedError


@pytest.fixture
def deprecations(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """`old_score` retired and `score`'s `node_info` argument deprecated in `hookspecs`."""
    retired = hookspec(
        warn_on_impl=deprecated_hook("old_score", since="0.1", removal="0.3", replacement="score")
    )(old_score)
    renamed = hookspec(
        warn_on_impl_args={
            "node_info": deprecated_argument(
                "score", "node_info", since="0.1", removal="0.3", replacement="node_name"
            )
        }
    )(score)
    monkeypatch.setattr(hookspecs, "old_score", retired, raising=False)
    monkeypatch.setattr(hookspecs, "score", renamed)
    monkeypatch.setattr(_deprecations, "_warned", set())
    yield


class Legacy:
    """Implements the retired hook and takes the deprecated argument."""

    def __init__(self, args: object, handle: object) -> None:
        pass

    @hookimpl
    def old_score(self, node_info: Any) -> int:
        return 1

    @hookimpl
    def score(self, node_info: Any) -> int:
        return 1


class Current:
    def __init__(self, args: object, handle: object) -> None:
        pass

    @hookimpl
    def score(self, node_name: str) -> int:
        return 1


def test_deprecated_uses_reads_the_hookspec_markers(deprecations: None) -> None:
    assert deprecated_uses(Legacy) == [RETIRED, ARGUMENT]
    assert deprecated_uses(Current) == []


def test_a_deprecated_hook_warns_once_with_the_plugins_name(
    deprecations: None, make_framework: Any
) -> None:
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        for _ in range(3):  # three profiles, or three runs, in one process
            make_framework({"Legacy": Legacy, "Current": Current}, {"score": ["Legacy", "Current"]})
    messages = [str(w.message) for w in caught if w.category is PluginDeprecationWarning]
    where = 'plugin "Legacy" (registered in code) in profile "test-scheduler"'
    assert sorted(messages) == sorted([f"{where}: {RETIRED}", f"{where}: {ARGUMENT}"])


def test_without_deprecations_nothing_warns(make_framework: Any) -> None:
    with warnings.catch_warnings():
        warnings.simplefilter("error", PluginDeprecationWarning)
        make_framework({"Current": Current}, {"score": []})
    assert deprecated_uses(Legacy) == []


def test_kubesched_plugins_flags_a_plugin_implementing_a_deprecated_hook(
    deprecations: None, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    info = tmp_path / "kubesched_legacy-1.0.dist-info"
    info.mkdir()
    (info / "METADATA").write_text("Metadata-Version: 2.1\nName: kubesched-legacy\nVersion: 1.0\n")
    (info / "entry_points.txt").write_text("[kubesched.plugins]\nLegacy = fakelegacy:Legacy\n")
    (tmp_path / "fakelegacy.py").write_text(
        "from kubesched import hookimpl\n\n\nclass Legacy:\n"
        "    def __init__(self, args, handle):\n        pass\n\n"
        "    @hookimpl\n    def old_score(self, node_info):\n        return 1\n"
    )
    monkeypatch.syspath_prepend(str(tmp_path))
    try:
        result = CliRunner().invoke(cli, ["plugins", "-o", "json"])
        rows = {p["name"]: p for p in json.loads(result.stdout)["plugins"]}
        assert rows["Legacy"]["deprecatedHooks"] == [RETIRED]
        assert rows["NodeName"]["deprecatedHooks"] == []
        table = CliRunner().invoke(cli, ["plugins"])
        assert f'warning: plugin "Legacy" (kubesched-legacy): {RETIRED}' in " ".join(
            table.stderr.split()
        )
    finally:
        sys.modules.pop("fakelegacy", None)
