{%- from "imports.jinja" import from_import -%}
"""A kubesched plugin; the entry point in pyproject.toml names the class exported here."""

{{ from_import(cookiecutter.module_name ~ ".args", [cookiecutter.plugin_name ~ "Args"]) }}
{{ from_import(cookiecutter.module_name ~ ".plugin", [cookiecutter.plugin_name]) }}

__all__ = [
    "{{ cookiecutter.plugin_name }}",
    "{{ cookiecutter.plugin_name }}Args",
]
