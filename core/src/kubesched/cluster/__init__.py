"""Where pods and nodes come from and where bindings go: the in-memory cluster.

`InMemoryCluster` is the embedded backend `kubesched simulate` and the tests run
against: it plays the API server's part (priority admission, binding, deletion,
status patches) and tells its listeners what changed as cluster events.
"""

from kubesched.cluster.changes import event_label, node_changes, pod_changes
from kubesched.cluster.memory import Change, ClusterError, InMemoryCluster
from kubesched.cluster.recorder import MemoryEventRecorder, RecordedEvent

__all__ = [
    "Change",
    "ClusterError",
    "InMemoryCluster",
    "MemoryEventRecorder",
    "RecordedEvent",
    "event_label",
    "node_changes",
    "pod_changes",
]
