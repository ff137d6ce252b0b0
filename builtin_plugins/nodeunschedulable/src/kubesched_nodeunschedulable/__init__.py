"""The NodeUnschedulable plugin. Filter: cordoned nodes, unless the pod tolerates them."""

from kubesched_nodeunschedulable.plugin import NodeUnschedulable

__all__ = ["NodeUnschedulable"]
