"""A live cluster's objects, read once for `kubesched simulate --kubeconfig`.

The same reflectors as `kubesched run` list every kind it follows (in chunks,
with the same field selector on pods: every pod not yet Succeeded or Failed);
the read ends as soon as every kind has been listed once, and nothing is ever
written. The objects become the `ClusterObjects` that a manifest file would
give, so the simulation that follows is the one `simulate FILE` runs.
"""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Mapping
from typing import Any

from kubesched.api._manifests import ClusterObjects
from kubesched.api._reading import ReadError, read_file
from kubesched.api._text import TextError, parse_yaml_document
from kubesched.cluster.apiserver import KINDS, ApiServerCluster, ApiSession
from kubesched.cluster.apiserver.kinds import (
    CSI_NODES,
    DEVICE_CLASSES,
    NODES,
    PDBS,
    PERSISTENT_VOLUME_CLAIMS,
    PERSISTENT_VOLUMES,
    PODS,
    REPLICA_SETS,
    REPLICATION_CONTROLLERS,
    RESOURCE_CLAIMS,
    RESOURCE_SLICES,
    SERVICES,
    STATEFUL_SETS,
    STORAGE_CLASSES,
    VOLUME_ATTACHMENTS,
)
from kubesched.cluster.apiserver.kubeconfig import MAX_KUBECONFIG_BYTES, kubeconfig_path
from kubesched.cluster.apiserver.session import Stopped
from kubesched.errors import InputError, KubeschedError

_LOGGERS = ("kubesched.run",)
"""Whose warnings (a listing being retried) become the reason of the error, unprinted."""
LIST_TIMEOUT = 60.0
"""How long every kind may take to be listed once before the read gives up."""
_POLL = 0.1


class _LastProblem(logging.Handler):
    """Keeps the last warning the reflectors logged (why a listing is being retried)."""

    def __init__(self) -> None:
        super().__init__(logging.WARNING)
        self.message = ""

    def emit(self, record: logging.LogRecord) -> None:
        self.message = record.getMessage()


def check_context(kubeconfig: str | None, context: str) -> None:
    """InputError (exit 2) naming the file when it has no context of that name."""
    path = kubeconfig_path(kubeconfig)
    if path is None:
        raise InputError(f"--context {context}: there is no kubeconfig to find it in")
    try:
        data, _ = parse_yaml_document(read_file(path, MAX_KUBECONFIG_BYTES))
    except (ReadError, TextError) as exc:
        raise InputError(f"cannot read the kubeconfig: {exc.message}", file=path) from None
    contexts = data.get("contexts") if isinstance(data, Mapping) else None
    names = [c.get("name") for c in contexts or [] if isinstance(c, Mapping)]
    if context not in names:
        raise InputError(f"no context named {context}", file=path, field="contexts")


def read_live_cluster(
    kubeconfig: str | None, context: str | None = None, timeout: float | None = None
) -> tuple[ClusterObjects, str]:
    """Every followed kind as the API server lists it now, and the server's address.

    KubeschedError (exit 1) when the server cannot be reached, refuses the credentials, or
    some kind is not listed within `timeout` seconds (default `LIST_TIMEOUT`; the message says
    which, and why)."""
    timeout = LIST_TIMEOUT if timeout is None else timeout
    if context:
        check_context(kubeconfig, context)
    problem = _LastProblem()
    loggers = [logging.getLogger(name) for name in _LOGGERS]
    propagating = [logger.propagate for logger in loggers]
    for logger in loggers:
        logger.addHandler(problem)
        logger.propagate = False
    gave_up = threading.Event()
    timer = threading.Timer(timeout, gave_up.set)
    timer.start()
    session = ApiSession(kubeconfig, context=context, stopping=gave_up)
    try:
        try:
            session.start()
        except Stopped:
            raise KubeschedError(f"the API server did not answer within {timeout:.0f}s") from None
        cluster = ApiServerCluster(session)
        cluster.start()
        deadline = time.monotonic() + timeout
        while not cluster.synced() and time.monotonic() < deadline:
            time.sleep(_POLL)
        missing = [k.plural for k in KINDS if not cluster.reflectors[k.name].synced.is_set()]
        if missing:
            why = f": {problem.message}" if problem.message else ""
            raise KubeschedError(
                f"{session.server}: could not list {', '.join(missing)} within {timeout:.0f}s{why}"
            )
        objects = _objects(cluster)
    finally:
        timer.cancel()
        for logger, propagate in zip(loggers, propagating, strict=True):
            logger.removeHandler(problem)
            logger.propagate = propagate
        session.close()
    return objects, session.server


def _created(pod: Any) -> tuple[int, str, str]:
    """Pods in the order they were created (then by name): the order a manifest lists them."""
    stamp = pod.metadata.creation_timestamp
    return (stamp.unix_nanos if stamp is not None else 0, pod.metadata.namespace, pod.metadata.name)


def _objects(cluster: ApiServerCluster) -> ClusterObjects:
    def of(kind: Any) -> list[Any]:
        return sorted(cluster.objects(kind), key=lambda o: (o.metadata.namespace, o.metadata.name))

    return ClusterObjects(
        nodes=of(NODES),
        pods=sorted(cluster.objects(PODS), key=_created),
        pod_disruption_budgets=of(PDBS),
        persistent_volumes=of(PERSISTENT_VOLUMES),
        persistent_volume_claims=of(PERSISTENT_VOLUME_CLAIMS),
        storage_classes=of(STORAGE_CLASSES),
        csi_nodes=of(CSI_NODES),
        volume_attachments=of(VOLUME_ATTACHMENTS),
        services=of(SERVICES),
        replication_controllers=of(REPLICATION_CONTROLLERS),
        replica_sets=of(REPLICA_SETS),
        stateful_sets=of(STATEFUL_SETS),
        device_classes=of(DEVICE_CLASSES),
        resource_claims=of(RESOURCE_CLAIMS),
        resource_slices=of(RESOURCE_SLICES),
    )
