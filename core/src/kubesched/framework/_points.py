"""The extension points: one declarative table that everything else derives from.

Each row is one point of upstream's pipeline, in the order of the v1 config's
`plugins` fields: the config name, the title upstream's messages use, the
hooks that serve it (the first is what "implements the point" means), whether
upstream honours EnqueueExtensions of plugins enabled there, and the position
at which upstream's framework fills the point (and so reports its errors).
"""

from __future__ import annotations

from collections.abc import Mapping

from attrs import frozen


@frozen
class ExtensionPoint:
    """One extension point."""

    name: str
    """Its field in the v1 config's `plugins` ("preFilter")."""
    title: str
    """Its name in upstream's messages ("PreFilter")."""
    hooks: tuple[str, ...]
    """The hookspecs that serve it; the first is the one that makes a plugin implement it."""
    registers_events: bool
    """Do the events of plugins enabled here requeue the pods they rejected?"""
    construction_order: int
    """Where upstream's NewFramework fills this point."""

    @property
    def hook(self) -> str:
        """The hook that makes a plugin implement this point."""
        return self.hooks[0]

    @property
    def plugin_type(self) -> str:
        """Upstream's interface name: "FilterPlugin"."""
        return f"{self.title}Plugin"


def _point(
    name: str, title: str, hooks: tuple[str, ...], events: bool, built: int
) -> ExtensionPoint:
    return ExtensionPoint(name, title, hooks, events, built)


EXTENSION_POINTS: tuple[ExtensionPoint, ...] = (
    _point("preEnqueue", "PreEnqueue", ("pre_enqueue",), True, 10),
    _point("queueSort", "QueueSort", ("queue_sort_less",), False, 11),
    _point(
        "preFilter",
        "PreFilter",
        ("pre_filter", "pre_filter_add_pod", "pre_filter_remove_pod"),
        True,
        0,
    ),
    _point("filter", "Filter", ("filter", "filter_batch", "filter_batch_reasons"), True, 1),
    _point("postFilter", "PostFilter", ("post_filter",), False, 2),
    _point("preScore", "PreScore", ("pre_score",), False, 4),
    _point("score", "Score", ("score", "score_batch", "normalize_score"), False, 5),
    _point("reserve", "Reserve", ("reserve", "unreserve"), True, 3),
    _point("permit", "Permit", ("permit",), True, 9),
    _point("preBind", "PreBind", ("pre_bind",), False, 6),
    _point("bind", "Bind", ("bind",), False, 7),
    _point("postBind", "PostBind", ("post_bind",), False, 8),
)
"""Every extension point, in the order of the v1 config's `plugins` fields."""

ENQUEUE_EXTENSIONS_HOOK = "events_to_register"
"""The hook of EnqueueExtensions, which belongs to no point of its own."""

POINTS: Mapping[str, ExtensionPoint] = {p.name: p for p in EXTENSION_POINTS}
"""Extension points by config name."""

HOOKS: tuple[str, ...] = (
    *(hook for p in EXTENSION_POINTS for hook in p.hooks),
    ENQUEUE_EXTENSIONS_HOOK,
)
"""Every hook name, in pipeline order."""

CONSTRUCTION_ORDER: tuple[ExtensionPoint, ...] = tuple(
    sorted(EXTENSION_POINTS, key=lambda p: p.construction_order)
)
"""The points in the order upstream's framework fills them."""
