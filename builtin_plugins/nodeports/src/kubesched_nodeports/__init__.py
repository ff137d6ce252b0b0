"""The NodePorts plugin. Host port conflicts: PreFilter, Filter."""

from kubesched_nodeports.plugin import NodePorts

__all__ = ["NodePorts"]
