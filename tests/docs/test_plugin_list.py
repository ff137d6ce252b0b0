"""The plugin list page is generated from the distributions' metadata and must not drift;
every distribution of the repository, and the template, carries `Framework :: kubesched`."""

from __future__ import annotations

import importlib.metadata as md
import importlib.util
import sys
from pathlib import Path
from types import ModuleType

REPO = Path(__file__).resolve().parents[2]
PAGE = REPO / "docs" / "writing-plugins" / "plugin-list.md"
CLASSIFIER = "Framework :: kubesched"


def generator() -> ModuleType:
    spec = importlib.util.spec_from_file_location("plugin_list", REPO / "tools" / "plugin_list.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules["plugin_list"] = module
    spec.loader.exec_module(module)
    return module


def test_the_plugin_list_page_is_up_to_date() -> None:
    assert PAGE.read_text(encoding="utf-8") == generator().render_markdown(), (
        "docs/writing-plugins/plugin-list.md is stale; regenerate it with "
        "`uv run python tools/plugin_list.py > docs/writing-plugins/plugin-list.md`"
    )


def test_the_page_lists_every_in_tree_and_contrib_distribution() -> None:
    text = PAGE.read_text(encoding="utf-8")
    module = generator()
    expected = module.distributions("builtin_plugins") + module.distributions("contrib")
    assert len(expected) == 27
    for name in expected:
        assert f"| `{name}` |" in text


def test_every_distribution_of_the_repository_carries_the_framework_classifier() -> None:
    module = generator()
    names = ["kubesched", "kubesched-core", *module.distributions("builtin_plugins")]
    for name in [*names, *module.distributions("contrib")]:
        assert CLASSIFIER in (md.distribution(name).metadata.get_all("Classifier") or []), name


def test_the_template_declares_the_framework_classifier() -> None:
    project = REPO / "plugin_template" / "{{cookiecutter.project_slug}}"
    assert f'"{CLASSIFIER}",' in (project / "pyproject.toml").read_text(encoding="utf-8")
    assert f'FRAMEWORK_CLASSIFIER = "{CLASSIFIER}"' in (project / "hatch_build.py").read_text()
