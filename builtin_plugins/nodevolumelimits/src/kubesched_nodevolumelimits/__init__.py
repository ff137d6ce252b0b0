"""The NodeVolumeLimits plugin. PreFilter, Filter: CSI attach limits from CSINode."""

from kubesched_nodevolumelimits.plugin import NodeVolumeLimits

__all__ = ["NodeVolumeLimits"]
