"""A plugin that misbehaves on purpose at every extension point, for tests."""

from kubesched_faultinjection.plugin import FAULTS, HOOKS, FaultInjection, FaultInjectionArgs

__all__ = ["FAULTS", "HOOKS", "FaultInjection", "FaultInjectionArgs"]
