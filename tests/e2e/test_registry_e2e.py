"""Out-of-tree plugins through real pip installs: discovery, name conflicts, autoload switch."""

from __future__ import annotations

import json
import textwrap
from pathlib import Path
from typing import Any

import pytest

pytestmark = [pytest.mark.e2e, pytest.mark.xdist_group("kubesched_venv")]


def write_distribution(root: Path, dist: str, plugin: str) -> Path:
    """A minimal plugin distribution declaring `plugin` in the kubesched.plugins group."""
    module = dist.replace("-", "_")
    project = root / dist
    (project / "src" / module).mkdir(parents=True)
    (project / "pyproject.toml").write_text(
        textwrap.dedent(
            f"""
            [project]
            name = "{dist}"
            version = "0.4.2"
            dependencies = ["kubesched-core"]

            [project.entry-points."kubesched.plugins"]
            {plugin} = "{module}:{plugin}"

            [build-system]
            requires = ["hatchling"]
            build-backend = "hatchling.build"

            [tool.hatch.build.targets.wheel]
            packages = ["src/{module}"]
            """
        )
    )
    (project / "src" / module / "__init__.py").write_text(
        textwrap.dedent(
            f"""
            from kubesched import hookimpl


            class {plugin}:
                def __init__(self, args, handle):
                    pass

                @hookimpl
                def score(self, node_info):
                    return 10
            """
        )
    )
    return project


def plugins_json(venv: Any, **env: str) -> dict[str, dict[str, Any]]:
    out = venv.kubesched("plugins", "--output", "json", env=env)
    document = json.loads(out.stdout)
    assert document["apiVersion"] == "kubesched.io/v1alpha1"
    return {p["name"]: p for p in document["plugins"]}


def test_out_of_tree_plugin_is_discovered_and_conflicts_are_reported(
    kubesched_venv: Any, tmp_path: Path
) -> None:
    kubesched_venv.pip_install(write_distribution(tmp_path, "kubesched-zonescore", "ZoneScore"))
    plugins = plugins_json(kubesched_venv)
    zone = plugins["ZoneScore"]
    assert zone["source"] == "out-of-tree"
    assert (zone["distribution"], zone["version"]) == ("kubesched-zonescore", "0.4.2")
    assert zone["extensionPoints"] == ["Score"] and zone["loaded"] is True
    assert plugins["NodeName"]["source"] == "in-tree"
    assert plugins["NodeName"]["distribution"] == "kubesched-nodename"

    hidden = plugins_json(kubesched_venv, KUBESCHED_DISABLE_PLUGIN_AUTOLOAD="1")
    assert "ZoneScore" not in hidden and "NodeName" in hidden
    named = plugins_json(
        kubesched_venv, KUBESCHED_DISABLE_PLUGIN_AUTOLOAD="1", KUBESCHED_LOAD_PLUGINS="ZoneScore"
    )
    assert "ZoneScore" in named

    kubesched_venv.pip_install(write_distribution(tmp_path, "kubesched-zonescore2", "ZoneScore"))
    try:
        twin = plugins_json(kubesched_venv)["ZoneScore"]
        assert twin["loaded"] is False
        assert twin["error"] == (
            'plugin "ZoneScore" is provided by more than one source: '
            "kubesched-zonescore 0.4.2 and kubesched-zonescore2 0.4.2; uninstall one of them"
        )
        table = kubesched_venv.kubesched("plugins")
        assert "more than one source" in table.stderr
        assert "Traceback" not in table.stderr
    finally:
        kubesched_venv.pip_uninstall("kubesched-zonescore", "kubesched-zonescore2")
