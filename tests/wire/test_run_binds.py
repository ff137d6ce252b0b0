"""Pods arrive and get bound: `kubesched run` against the fake API server."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from kubesched.testing import make_node, make_pod
from kubesched.testing.apiserver import FakeApiServer

from .conftest import SCHEDULER, Running


def node_of(apiserver: FakeApiServer, name: str) -> str:
    return str(apiserver.get("v1", "pods", "default", name)["spec"].get("nodeName") or "")


def test_pending_pods_are_bound(apiserver: FakeApiServer, start_scheduler: Callable[..., Running]) -> None:
    apiserver.create(make_node("n1").capacity(cpu="2", memory="4Gi").obj())
    apiserver.create(make_pod("early").scheduler_name(SCHEDULER).req(cpu="1").obj())
    running = start_scheduler()
    apiserver.wait_for(lambda: node_of(apiserver, "early"))
    apiserver.create(make_pod("late").scheduler_name(SCHEDULER).req(cpu="1").obj())
    apiserver.wait_for(lambda: node_of(apiserver, "late"))
    assert running.stop() == 0
