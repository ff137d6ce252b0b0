"""Declares the `Framework :: kubesched` classifier to hatchling.

hatchling accepts only classifiers registered in trove-classifiers; a metadata
hook may add known ones. This hook sets `classifiers` from its own
`classifiers` option in pyproject.toml (`[tool.hatch.metadata.hooks.custom]`).
"""

from __future__ import annotations

from typing import Any

from hatchling.metadata.plugin.interface import MetadataHookInterface

FRAMEWORK_CLASSIFIER = "Framework :: kubesched"


class CustomMetadataHook(MetadataHookInterface):  # type: ignore[misc]
    """Sets `classifiers` from the hook's table; `Framework :: kubesched` is known to hatchling."""

    def update(self, metadata: dict[str, Any]) -> None:
        classifiers = self.config.get("classifiers", [FRAMEWORK_CLASSIFIER])
        metadata["classifiers"] = list(classifiers)

    def get_known_classifiers(self) -> list[str]:
        return [FRAMEWORK_CLASSIFIER]
