"""Coscheduling: gang scheduling by pod-group label and minimum-size annotation."""
