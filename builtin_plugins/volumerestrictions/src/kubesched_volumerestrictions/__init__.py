"""The VolumeRestrictions plugin. PreFilter, Filter: disk conflicts and ReadWriteOncePod."""

from kubesched_volumerestrictions.plugin import VolumeRestrictions

__all__ = ["VolumeRestrictions"]
