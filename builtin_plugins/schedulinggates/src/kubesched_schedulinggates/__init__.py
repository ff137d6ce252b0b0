"""The SchedulingGates plugin. PreEnqueue: pods with scheduling gates wait."""
