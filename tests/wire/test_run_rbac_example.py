"""examples/run/rbac.yaml grants what `kubesched run` needs, `/metrics` included: a scheduler
runs against the fake API server's RBAC with exactly the example's rules (its ClusterRole and
the built-in system:auth-delegator it binds), binds a pod and serves `/metrics` to a caller
the API server vouches for, without one request refused."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
import yaml

from kubesched.testing import make_node, make_pod
from kubesched.testing.rbac import RbacApiServer, Rule

from .conftest import Running
from .test_run_binds import node_of
from .test_run_cli import METRICS_READER, fetch

RBAC = Path(__file__).resolve().parents[2] / "examples" / "run" / "rbac.yaml"
AUTH_DELEGATOR = (
    Rule(frozenset({"create"}), frozenset({"authentication.k8s.io"}), frozenset({"tokenreviews"})),
    Rule(
        frozenset({"create"}),
        frozenset({"authorization.k8s.io"}),
        frozenset({"subjectaccessreviews"}),
    ),
)
"""Upstream's bootstrap ClusterRole system:auth-delegator."""
BUILT_IN = {"system:auth-delegator": AUTH_DELEGATOR}


def documents() -> list[dict[str, Any]]:
    return list(yaml.safe_load_all(RBAC.read_text()))


def example_rules(account: str = "kubesched") -> list[Rule]:
    """The rules the example's ClusterRoleBindings give the ServiceAccount `account`."""
    docs = documents()
    roles = {d["metadata"]["name"]: d for d in docs if d["kind"] == "ClusterRole"}
    rules: list[Rule] = []
    for binding in (d for d in docs if d["kind"] == "ClusterRoleBinding"):
        if not any(
            s["kind"] == "ServiceAccount" and s["name"] == account for s in binding["subjects"]
        ):
            continue
        name = binding["roleRef"]["name"]
        if name in BUILT_IN:
            rules += BUILT_IN[name]
            continue
        for rule in roles[name]["rules"]:
            rules.append(
                Rule(
                    frozenset(rule["verbs"]),
                    frozenset(rule["apiGroups"]),
                    frozenset(rule["resources"]),
                    frozenset(rule.get("resourceNames") or ()),
                )
            )
    return rules


def test_the_service_account_is_bound_to_auth_delegator() -> None:
    bindings = [d for d in documents() if d["kind"] == "ClusterRoleBinding"]
    delegator = [b for b in bindings if b["roleRef"]["name"] == "system:auth-delegator"]
    assert len(delegator) == 1
    assert delegator[0]["subjects"] == [
        {"kind": "ServiceAccount", "name": "kubesched", "namespace": "kube-system"}
    ]


@pytest.fixture
def apiserver(request: pytest.FixtureRequest) -> Iterator[RbacApiServer]:
    """The fake API server with the example's rules (or those a test passes as its param)."""
    with RbacApiServer(roles=getattr(request, "param", None) or example_rules()) as server:
        server.users = {METRICS_READER: "prometheus"}
        server.allowed = {("prometheus", "get", "/metrics")}
        yield server


def metrics(running: Running, token: str = METRICS_READER) -> tuple[int, str]:
    return fetch(running.server.port, "/metrics", token=token)


def test_run_with_the_examples_rules_binds_and_serves_metrics(
    apiserver: RbacApiServer, start_scheduler: Callable[..., Running]
) -> None:
    apiserver.create(make_node("n1").capacity(cpu="2", memory="4Gi").obj())
    apiserver.create(make_pod("web").scheduler_name("my-scheduler").req(cpu="1").obj())
    running = start_scheduler()
    assert apiserver.wait_for(lambda: node_of(apiserver, "web")) == "n1"
    assert apiserver.wait_for(lambda: metrics(running)[0] == 200)
    assert "scheduler_schedule_attempts_total" in metrics(running)[1]
    assert metrics(running, token="unknown")[0] == 401
    assert apiserver.refused == []
    assert running.stop() == 0


@pytest.mark.parametrize(
    "apiserver", [[r for r in example_rules() if r not in AUTH_DELEGATOR]], indirect=True
)
def test_without_auth_delegator_metrics_cannot_be_authorized(
    apiserver: RbacApiServer, start_scheduler: Callable[..., Running]
) -> None:
    running = start_scheduler()
    apiserver.wait_for(running.server.scheduling.is_set)
    assert metrics(running)[0] != 200
    refused = {r.path for r in apiserver.refused}
    assert refused == {"/apis/authentication.k8s.io/v1/tokenreviews"}
    assert running.stop() == 0
