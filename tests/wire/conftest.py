"""Fixtures for `kubesched run` on the wire: a fake API server on 127.0.0.1 and schedulers
serving it from threads of this process (or from a `kubesched run` subprocess)."""

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
from kubesched.testing.apiserver import FakeApiServer

SCHEDULER = "my-scheduler"
CONFIG = """
apiVersion: kubescheduler.config.k8s.io/v1
kind: KubeSchedulerConfiguration
leaderElection:
  leaderElect: {elect}
  leaseDuration: 2s
  renewDeadline: 1500ms
  retryPeriod: 250ms
  resourceNamespace: kube-system
  resourceName: {scheduler}
profiles:
  - schedulerName: {scheduler}
"""


def config_text(elect: bool = False) -> str:
    return CONFIG.format(elect=str(elect).lower(), scheduler=SCHEDULER)


@pytest.fixture
def apiserver() -> Iterator[FakeApiServer]:
    with FakeApiServer() as server:
        yield server


@pytest.fixture
def kubeconfig(apiserver: FakeApiServer, tmp_path: Path) -> Path:
    return apiserver.write_kubeconfig(tmp_path / "kubeconfig")


class Running:
    """A Server running in a thread."""

    def __init__(self, server: Server) -> None:
        self.server = server
        self.status: int | None = None
        self.thread = threading.Thread(target=self._run, daemon=True)

    def _run(self) -> None:
        self.status = self.server.run()

    def stop(self, timeout: float = 10.0) -> int | None:
        self.server.stop()
        self.thread.join(timeout)
        assert not self.thread.is_alive(), "the server did not stop"
        return self.status


@pytest.fixture
def start_scheduler(kubeconfig: Path) -> Iterator[Callable[..., Running]]:
    """Start a scheduler on the fake server; every one started is stopped at the end."""
    started: list[Running] = []

    def start(elect: bool = False, identity: str | None = None, **options: Any) -> Running:
        registry = default_registry()
        cfg, profiles = parse_profiles(config_text(elect), registry)
        opts = ServeOptions(
            kubeconfig=str(kubeconfig),
            bind_address="127.0.0.1",
            port=0,
            identity=identity,
            backoff=Backoff(initial=0.05, cap=0.2, jitter=0.1),
            cycle_timeout=None,
            hostname="test-host",
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
