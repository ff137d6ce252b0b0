"""The plugin list page is generated from the distributions' metadata and must not drift;
every plugin distribution of the repository carries the keyword `kubesched-plugin` (the
metadata itself: tests/architecture/test_distribution_metadata.py)."""

from __future__ import annotations

import importlib.metadata as md
import importlib.util
import sys
from pathlib import Path
from types import ModuleType

REPO = Path(__file__).resolve().parents[2]
PAGE = REPO / "docs" / "writing-plugins" / "plugin-list.md"
KEYWORD = "kubesched-plugin"


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


def test_every_plugin_distribution_of_the_repository_carries_the_keyword() -> None:
    module = generator()
    for name in [*module.distributions("builtin_plugins"), *module.distributions("contrib")]:
        keywords = (md.distribution(name).metadata.get_all("Keywords") or [""])[0]
        assert KEYWORD in keywords.split(","), name
