"""Ship the repository's plugin template inside the kubesched-core wheel.

The template lives at the repository root (`plugin_template/`, next to
`core/`), where cookiecutter users and its own tests expect it. A wheel built
from a checkout takes it from there; a wheel built from the sdist takes the
copy the sdist carries. Editable installs find it in the checkout instead.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from hatchling.builders.hooks.plugin.interface import BuildHookInterface


class CustomBuildHook(BuildHookInterface):  # type: ignore[misc]
    """Adds `plugin_template/` to the wheel as `kubesched/plugin_template`."""

    def initialize(self, version: str, build_data: dict[str, Any]) -> None:
        if version == "editable":
            return
        root = Path(self.root)
        for candidate in (root.parent / "plugin_template", root / "plugin_template"):
            if (candidate / "cookiecutter.json").is_file():
                build_data["force_include"][str(candidate)] = "kubesched/plugin_template"
                return
        raise RuntimeError("plugin_template/ not found next to core/ nor in the sdist")
