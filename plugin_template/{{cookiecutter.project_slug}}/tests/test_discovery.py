"""kubesched finds the installed plugin through its entry point, as an out-of-tree plugin."""

from __future__ import annotations

from kubesched.framework.registry import Registry

from {{ cookiecutter.module_name }} import {{ cookiecutter.plugin_name }}


def test_the_entry_point_names_the_plugin_class() -> None:
    registry = Registry.discover(environ={})
    assert registry.get("{{ cookiecutter.plugin_name }}").source == "out-of-tree"
    assert registry.load("{{ cookiecutter.plugin_name }}") is {{ cookiecutter.plugin_name }}
