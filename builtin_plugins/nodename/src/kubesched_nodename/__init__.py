"""The NodeName plugin. Filter: spec.nodeName pinning."""
