"""The TaintToleration plugin. Taints and tolerations: Filter, PreScore, Score, NormalizeScore."""
