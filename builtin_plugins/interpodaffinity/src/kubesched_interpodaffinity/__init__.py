"""The InterPodAffinity plugin. Pod affinity and anti-affinity: PreFilter, Filter, PreScore,
Score."""

from kubesched_interpodaffinity.args import InterPodAffinityArgs
from kubesched_interpodaffinity.plugin import InterPodAffinity

__all__ = ["InterPodAffinity", "InterPodAffinityArgs"]
