"""Kubernetes resource quantities ("100m", "1.5Gi", "1e3") parsed to exact integers."""

from __future__ import annotations


def parse_quantity(text: str | int | float, *, milli: bool = False) -> int:
    """Parse a quantity; `milli=True` returns thousandths (CPU), rounded up as Kubernetes does."""
    raise NotImplementedError


def format_quantity(value: int, *, milli: bool = False) -> str:
    """The canonical string for an integer amount (inverse of parse_quantity)."""
    raise NotImplementedError
