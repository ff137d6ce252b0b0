"""The NodeAffinity plugin. nodeSelector and node affinity: PreFilter, Filter, PreScore, Score."""
