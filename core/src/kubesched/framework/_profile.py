"""EffectiveProfile: a profile after defaulting, merge and multiPoint expansion.

The config layer produces it; the runtime compiles it into call plans.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from attrs import field, frozen

CONFIG_POINTS: tuple[str, ...] = (
    "preEnqueue",
    "queueSort",
    "preFilter",
    "filter",
    "postFilter",
    "preScore",
    "score",
    "reserve",
    "permit",
    "preBind",
    "bind",
    "postBind",
)
"""Extension points as the v1 config names them (multiPoint expands into these)."""

POINT_HOOKS: Mapping[str, tuple[str, ...]] = {
    "preEnqueue": ("pre_enqueue",),
    "queueSort": ("queue_sort_less",),
    "preFilter": ("pre_filter", "pre_filter_add_pod", "pre_filter_remove_pod"),
    "filter": ("filter", "filter_batch"),
    "postFilter": ("post_filter",),
    "preScore": ("pre_score",),
    "score": ("score", "score_batch", "normalize_score"),
    "reserve": ("reserve", "unreserve"),
    "permit": ("permit",),
    "preBind": ("pre_bind",),
    "bind": ("bind",),
    "postBind": ("post_bind",),
}
"""The hooks each config point covers; the first one is what "implements the point" means."""

POINT_TITLES: Mapping[str, str] = {
    "preEnqueue": "PreEnqueue",
    "queueSort": "QueueSort",
    "preFilter": "PreFilter",
    "filter": "Filter",
    "postFilter": "PostFilter",
    "preScore": "PreScore",
    "score": "Score",
    "reserve": "Reserve",
    "permit": "Permit",
    "preBind": "PreBind",
    "bind": "Bind",
    "postBind": "PostBind",
}
"""Upstream's names for the points, as used in messages ("FilterPlugin \"Foo\" does not exist")."""


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
        for point in CONFIG_POINTS:
            for name in self.plugins.get(point, ()):
                seen.setdefault(name, None)
        return list(seen)
