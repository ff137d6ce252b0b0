"""Where pods and nodes come from and where bindings go: the in-memory cluster.

`InMemoryCluster` is the embedded backend `kubesched simulate` and the tests run
against: it plays the API server's part (priority admission, binding, deletion,
status patches) and records what changed as plain (old, new) pairs.
"""

from kubesched.cluster.memory import Change, ClusterError, InMemoryCluster
from kubesched.cluster.recorder import MemoryEventRecorder, RecordedEvent

__all__ = [
    "Change",
    "ClusterError",
    "InMemoryCluster",
    "MemoryEventRecorder",
    "RecordedEvent",
]
