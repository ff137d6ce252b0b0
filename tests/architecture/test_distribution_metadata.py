"""Every distribution's metadata is static, the same as tools/distribution_metadata.py says,
and made of registered classifiers only; the template's too."""

from __future__ import annotations

import importlib.metadata as md
import importlib.util
import re
import sys
from pathlib import Path
from types import ModuleType

import pytest
from trove_classifiers import classifiers as registered

if sys.version_info >= (3, 11):
    import tomllib
else:
    import tomli as tomllib

REPO = Path(__file__).resolve().parents[2]
TEMPLATE = REPO / "plugin_template" / "{{cookiecutter.project_slug}}" / "pyproject.toml"


def table() -> ModuleType:
    path = REPO / "tools" / "distribution_metadata.py"
    spec = importlib.util.spec_from_file_location("distribution_metadata", path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules["distribution_metadata"] = module
    spec.loader.exec_module(module)
    return module


TABLE = table()
PYPROJECTS = TABLE.pyprojects()


def project(path: Path) -> dict[str, object]:
    data = tomllib.loads(path.read_text(encoding="utf-8"))
    return dict(data["project"])


def test_there_is_one_pyproject_per_distribution() -> None:
    assert len(PYPROJECTS) == 2 + 19 + 8


@pytest.mark.parametrize("path", PYPROJECTS, ids=lambda p: str(p.parent.relative_to(REPO)))
def test_each_pyproject_states_the_tables_metadata_statically(path: Path) -> None:
    tree = TABLE.tree_of(path)
    found = project(path)
    assert "dynamic" not in found, "static metadata: an sdist must build without a hook"
    assert found["keywords"] == TABLE.keywords(tree)
    assert found["classifiers"] == TABLE.classifiers(tree)
    text = path.read_text(encoding="utf-8")
    assert "[tool.hatch.metadata.hooks" not in text
    assert TABLE.rewritten(text, tree) == text  # `--write` would change nothing


@pytest.mark.parametrize("path", [*PYPROJECTS, TEMPLATE], ids=lambda p: p.parent.name)
def test_every_classifier_is_a_registered_one(path: Path) -> None:
    text = path.read_text(encoding="utf-8")
    block = re.search(r"^classifiers = \[\n((?:    .*\n)*)\]", text, re.M)
    assert block is not None, path
    classifiers = re.findall(r'"([^"]+)"', block[1])
    assert classifiers
    assert [c for c in classifiers if c not in registered] == []


def test_framework_kubesched_is_not_registered_so_nothing_declares_it() -> None:
    assert "Framework :: kubesched" not in registered  # when it is, docs/…/finding.md changes
    for path in [*PYPROJECTS, TEMPLATE]:
        assert '    "Framework :: kubesched",' not in path.read_text(encoding="utf-8"), path


def test_the_template_carries_the_plugin_keyword() -> None:
    text = TEMPLATE.read_text(encoding="utf-8")
    keywords = re.search(r"^keywords = \[(.*)\]$", text, re.M)
    assert keywords is not None
    assert f'"{TABLE.PLUGIN_KEYWORD}"' in keywords[1]
    assert "dynamic" not in text and "hooks.custom" not in text


def test_the_installed_plugin_distributions_carry_the_keyword() -> None:
    for path in PYPROJECTS:
        tree = TABLE.tree_of(path)
        meta = md.distribution(str(project(path)["name"])).metadata
        assert (meta.get_all("Keywords") or [""])[0].split(",") == TABLE.keywords(tree)
        assert (TABLE.PLUGIN_KEYWORD in TABLE.keywords(tree)) is (
            tree in ("builtin_plugins", "contrib")
        )
