"""Helpers for runtime tests: build a Framework from plugin classes registered in code."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import pytest

from kubesched import hookimpl
from kubesched.framework._profile import EffectiveProfile
from kubesched.framework._registry import Registry
from kubesched.framework._runtime import Framework


class SortPlugin:
    """A QueueSort every test profile needs."""

    def __init__(self, args: object, handle: object) -> None:
        pass

    @hookimpl
    def queue_sort_less(self, pod_info_a: Any, pod_info_b: Any) -> bool:
        return bool(pod_info_a.timestamp < pod_info_b.timestamp)


class FakeClock:
    """A clock tests move by hand."""

    def __init__(self) -> None:
        self.t = 0.0

    def now(self) -> float:
        return self.t


def build(
    plugins: Mapping[str, type],
    points: Mapping[str, Sequence[str]],
    *,
    weights: Mapping[str, int] | None = None,
    args: Mapping[str, Any] | None = None,
    **kwargs: Any,
) -> Framework:
    """A framework over `plugins` (name -> class) enabled at `points` (config point -> names)."""
    registry = Registry()
    registry.register("Sort", SortPlugin)
    for name, cls in plugins.items():
        registry.register(name, cls)
    profile = EffectiveProfile(
        "test-scheduler",
        {"queueSort": ("Sort",), **{p: tuple(n) for p, n in points.items()}},
        dict(weights or {}),
        dict(args or {}),
    )
    return Framework(profile, registry, **kwargs)


@pytest.fixture
def clock() -> FakeClock:
    return FakeClock()


@pytest.fixture
def make_framework() -> Any:
    """`make_framework(plugins, points, weights=..., args=..., **framework_kwargs)`."""
    return build
