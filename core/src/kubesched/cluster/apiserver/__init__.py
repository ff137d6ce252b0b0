"""The API-server backend of `kubesched run`: the cluster as a real API server has it.

    session = ApiSession(kubeconfig)           # an asyncio loop thread, credentials, clients
    session.start()
    cluster = ApiServerCluster(session)        # list+watch of every followed kind
    cluster.start()

`ApiServerCluster` is a `ClusterSource` (listings, changes, bind, status,
delete), `ApiEventRecorder` writes events.k8s.io/v1 Events, `LeaderElector`
runs Lease-based leader election, `HealthServer` serves the probes and the
metrics. Importing this package needs no Kubernetes client; connecting does
(the `kubesched-core[run]` extra).
"""

from kubesched.cluster.apiserver.cluster import ApiServerCluster
from kubesched.cluster.apiserver.events import ApiEventRecorder
from kubesched.cluster.apiserver.kinds import KINDS, Kind
from kubesched.cluster.apiserver.leader import LeaderElector, default_identity
from kubesched.cluster.apiserver.reflector import Backoff, Reflector
from kubesched.cluster.apiserver.serving import HealthServer
from kubesched.cluster.apiserver.session import RUN_EXTRA, ApiError, ApiSession, RestClient, Stopped
from kubesched.cluster.apiserver.writer import PodWriter

__all__ = [
    "KINDS",
    "RUN_EXTRA",
    "ApiError",
    "ApiEventRecorder",
    "ApiServerCluster",
    "ApiSession",
    "Backoff",
    "HealthServer",
    "Kind",
    "LeaderElector",
    "PodWriter",
    "Reflector",
    "RestClient",
    "Stopped",
    "default_identity",
]
