"""The PrioritySort plugin. QueueSort: higher priority first, then earlier queue time."""

from kubesched_prioritysort.plugin import PrioritySort

__all__ = ["PrioritySort"]
