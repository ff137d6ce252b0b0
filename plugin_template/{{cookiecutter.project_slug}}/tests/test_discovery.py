{%- from "imports.jinja" import from_import -%}
"""kubesched finds the installed plugin through its entry point, as an out-of-tree plugin."""

from __future__ import annotations

from kubesched.framework import Registry

{{ from_import(cookiecutter.module_name, [cookiecutter.plugin_name]) }}


def test_the_entry_point_names_the_plugin_class() -> None:
    registry = Registry.discover(environ={})
    assert registry.get("{{ cookiecutter.plugin_name }}").source == "out-of-tree"
    factory = registry.load("{{ cookiecutter.plugin_name }}")
    assert factory is {{ cookiecutter.plugin_name }}
