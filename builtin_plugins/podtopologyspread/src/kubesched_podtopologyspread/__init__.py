"""The PodTopologySpread plugin. Topology spread constraints: PreFilter (with AddPod and
RemovePod), Filter, PreScore, Score, NormalizeScore."""

from kubesched_podtopologyspread.args import PodTopologySpreadArgs
from kubesched_podtopologyspread.plugin import PodTopologySpread

__all__ = ["PodTopologySpread", "PodTopologySpreadArgs"]
