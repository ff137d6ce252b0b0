"""Fixtures for `kubesched run` against a real control plane: etcd and kube-apiserver on
127.0.0.1 from the binaries `KUBESCHED_REAL_APISERVER` and `KUBESCHED_REAL_ETCD` name (every
test here is skipped, with that reason, when they are not named). One control plane serves
the whole session; each test starts its schedulers in threads of this process, as the user
system:kube-scheduler with nothing but upstream's roles, and its nodes and pods are deleted
after it."""

from __future__ import annotations

import threading
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

from kubesched.cli.serve import ServeOptions, Server
from kubesched.cluster.apiserver import Backoff
from kubesched.framework import default_registry
from kubesched.profile import parse_profiles
from kubesched.testing.realserver import AdminClient, ControlPlane, ControlPlaneBinaries

SCHEDULER = "kubesched-real"
CONFIG = """
apiVersion: kubescheduler.config.k8s.io/v1
kind: KubeSchedulerConfiguration
leaderElection:
  leaderElect: {elect}
  leaseDuration: 4s
  renewDeadline: 3s
  retryPeriod: 500ms
  resourceNamespace: kube-system
  resourceName: {scheduler}
profiles:
  - schedulerName: {scheduler}
"""


def config_text(elect: bool = False) -> str:
    return CONFIG.format(elect=str(elect).lower(), scheduler=SCHEDULER)


@pytest.fixture(scope="session")
def plane(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ControlPlane]:
    binaries = ControlPlaneBinaries.from_environment()
    if isinstance(binaries, str):
        pytest.skip(binaries)
    control_plane = ControlPlane(binaries, tmp_path_factory.mktemp("control-plane"))
    control_plane.start()
    yield control_plane
    control_plane.stop()


@pytest.fixture
def admin(plane: ControlPlane) -> Iterator[AdminClient]:
    client = plane.admin()
    yield client
    for pod in client.items("/api/v1/namespaces/default/pods"):
        client.force_delete(f"/api/v1/namespaces/default/pods/{pod['metadata']['name']}")
    for node in client.items("/api/v1/nodes"):
        client.request("DELETE", f"/api/v1/nodes/{node['metadata']['name']}")
    for priority_class in client.items("/apis/scheduling.k8s.io/v1/priorityclasses"):
        name = priority_class["metadata"]["name"]
        if name.startswith("kubesched-"):
            client.request("DELETE", f"/apis/scheduling.k8s.io/v1/priorityclasses/{name}")
    for lease in client.items("/apis/coordination.k8s.io/v1/namespaces/kube-system/leases"):
        if lease["metadata"]["name"] == SCHEDULER:
            client.request(
                "DELETE", f"/apis/coordination.k8s.io/v1/namespaces/kube-system/leases/{SCHEDULER}"
            )
    client.close()


class Running:
    """A Server running in a thread."""

    def __init__(self, server: Server) -> None:
        self.server = server
        self.status: int | None = None
        self.thread = threading.Thread(target=self._run, daemon=True)

    def _run(self) -> None:
        self.status = self.server.run()

    def stop(self, timeout: float = 30.0) -> int | None:
        self.server.stop()
        self.thread.join(timeout)
        assert not self.thread.is_alive(), "the server did not stop"
        return self.status


@pytest.fixture
def start_scheduler(plane: ControlPlane, admin: AdminClient) -> Iterator[Callable[..., Running]]:
    """Start a scheduler as system:kube-scheduler; every one started is stopped at the end."""
    started: list[Running] = []
    kubeconfig = plane.kubeconfig("scheduler")

    def start(elect: bool = False, identity: str | None = None, **options: Any) -> Running:
        registry = default_registry()
        cfg, profiles = parse_profiles(config_text(elect), registry)
        opts = ServeOptions(
            kubeconfig=str(kubeconfig),
            bind_address="127.0.0.1",
            port=0,
            identity=identity,
            backoff=Backoff(initial=0.2, cap=1.0, jitter=0.1),
            cycle_timeout=None,
            hostname="real-host",
            **options,
        )
        running = Running(Server(cfg, profiles, registry, opts))
        running.thread.start()
        started.append(running)
        return running

    yield start
    for running in started:
        if running.thread.is_alive():
            running.stop()


def scheduler_kubeconfig(plane: ControlPlane) -> Path:
    return plane.kubeconfig("scheduler")
