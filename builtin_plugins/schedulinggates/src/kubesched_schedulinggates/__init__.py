"""The SchedulingGates plugin. PreEnqueue: pods with scheduling gates wait."""

from kubesched_schedulinggates.plugin import SchedulingGates

__all__ = ["SchedulingGates"]
