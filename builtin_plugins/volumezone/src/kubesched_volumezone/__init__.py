"""The VolumeZone plugin. PreFilter, Filter: a bound volume's zone and region labels."""

from kubesched_volumezone.plugin import VolumeZone

__all__ = ["VolumeZone"]
