"""EffectiveProfile: a profile after defaulting, merge and multiPoint expansion.

The config layer produces it; the runtime compiles it into call plans.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from attrs import field, frozen

from kubesched.framework._points import EXTENSION_POINTS


@frozen
class EffectiveProfile:
    """What one profile runs: plugins per point in order, score weights, plugin args."""

    scheduler_name: str
    plugins: Mapping[str, tuple[str, ...]] = field(factory=dict)
    score_weights: Mapping[str, int] = field(factory=dict)
    plugin_args: Mapping[str, Any] = field(factory=dict)
    percentage_of_nodes_to_score: int | None = None

    def enabled(self) -> list[str]:
        """Every plugin enabled anywhere in this profile, first appearance order."""
        seen: dict[str, None] = {}
        for point in EXTENSION_POINTS:
            for name in self.plugins.get(point.name, ()):
                seen.setdefault(name, None)
        return list(seen)
