"""The {{ cookiecutter.plugin_name }} kubesched plugin; the entry point names the class below."""

from {{ cookiecutter.module_name }}.args import {{ cookiecutter.plugin_name }}Args
from {{ cookiecutter.module_name }}.plugin import {{ cookiecutter.plugin_name }}

__all__ = ["{{ cookiecutter.plugin_name }}", "{{ cookiecutter.plugin_name }}Args"]
