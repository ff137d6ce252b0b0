"""The TaintToleration plugin. Taints and tolerations: Filter, PreScore, Score, NormalizeScore."""

from kubesched_tainttoleration.plugin import TaintToleration

__all__ = ["TaintToleration"]
