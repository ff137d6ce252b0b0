"""The NodeResourcesFit plugin. Resource requests against allocatable: PreFilter, Filter, PreScore, Score."""
