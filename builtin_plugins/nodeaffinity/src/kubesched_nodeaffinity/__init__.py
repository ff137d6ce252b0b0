"""The NodeAffinity plugin. nodeSelector and node affinity: PreFilter, Filter, PreScore, Score."""

from kubesched_nodeaffinity.args import NodeAffinityArgs
from kubesched_nodeaffinity.plugin import NodeAffinity

__all__ = ["NodeAffinity", "NodeAffinityArgs"]
