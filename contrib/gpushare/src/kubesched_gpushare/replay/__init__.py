"""Replay of the Alibaba OpenB trace as the FGD study does it (see `docs/contrib/gpushare.md`).

The trace is not shipped with this package: pass the folder holding its CSVs.
"""

from kubesched_gpushare.replay.run import ReplayResult, replay
from kubesched_gpushare.replay.trace import TracePod, read_nodes, read_pods
from kubesched_gpushare.replay.workload import arrivals, inflate

__all__ = ["ReplayResult", "TracePod", "arrivals", "inflate", "read_nodes", "read_pods", "replay"]
