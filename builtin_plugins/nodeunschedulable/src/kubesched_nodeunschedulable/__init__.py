"""The NodeUnschedulable plugin. Filter: cordoned nodes."""
