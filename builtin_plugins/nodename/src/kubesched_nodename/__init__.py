"""The NodeName plugin. Filter: spec.nodeName pinning."""

from kubesched_nodename.plugin import NodeName

__all__ = ["NodeName"]
