"""`kubesched run` with exactly upstream's scheduler roles: the fake server refuses, as RBAC
does, whatever system:kube-scheduler and system:volume-scheduler (and the kube-system roles a
stock cluster binds to the scheduler) do not allow, and the scheduler still becomes ready,
leads, binds, reports and preempts without one refused request."""

from __future__ import annotations

import json
import urllib.error
import urllib.request
from collections.abc import Callable, Iterator
from typing import Any

import pytest

from kubesched.api import PodResourceClaim
from kubesched.cluster.apiserver import KINDS
from kubesched.testing import make_node, make_pod
from kubesched.testing.apiserver import TOKEN
from kubesched.testing.rbac import SCHEDULER_ROLES, RbacApiServer, allows

from .conftest import SCHEDULER, Running
from .test_run_binds import condition, events, node_of
from .test_run_dra import claiming_pod, cluster_with_gpus, gpu_claim


@pytest.fixture
def apiserver() -> Iterator[RbacApiServer]:
    with RbacApiServer() as server:
        yield server


def group_of(group_version: str) -> str:
    return group_version.rpartition("/")[0]


@pytest.mark.parametrize("kind", KINDS, ids=lambda k: k.plural)
def test_every_followed_kind_is_allowed_by_upstreams_roles(kind: Any) -> None:
    for verb in ("list", "watch"):
        assert allows(SCHEDULER_ROLES, verb, group_of(kind.group_version), kind.plural, "", "")


def test_the_roles_refuse_priority_classes_over_the_wire(apiserver: RbacApiServer) -> None:
    request = urllib.request.Request(
        f"{apiserver.url}/apis/scheduling.k8s.io/v1/priorityclasses",
        headers={"Authorization": f"Bearer {TOKEN}"},
    )
    with pytest.raises(urllib.error.HTTPError) as refused:
        urllib.request.urlopen(request, timeout=5)
    assert refused.value.code == 403
    status = json.loads(refused.value.read())
    assert status["reason"] == "Forbidden"
    assert status["message"] == (
        'priorityclasses is forbidden: User "system:kube-scheduler" cannot list resource '
        '"priorityclasses" in API group "scheduling.k8s.io" at the cluster scope'
    )
    assert [r.path for r in apiserver.refused] == ["/apis/scheduling.k8s.io/v1/priorityclasses"]


def test_run_needs_nothing_beyond_upstreams_roles(
    apiserver: RbacApiServer, start_scheduler: Callable[..., Running]
) -> None:
    apiserver.create(make_node("n1").capacity(cpu="2", memory="4Gi").obj())
    apiserver.create(make_pod("web").scheduler_name(SCHEDULER).req(cpu="1").priority(0).obj())
    apiserver.create(make_pod("huge").scheduler_name(SCHEDULER).req(cpu="8").priority(0).obj())
    running = start_scheduler(elect=True, identity="alpha")
    apiserver.wait_for(running.server.scheduling.is_set)
    assert apiserver.wait_for(lambda: node_of(apiserver, "web")) == "n1"
    failed = apiserver.wait_for(lambda: condition(apiserver, "huge", "PodScheduled"))
    assert failed["reason"] == "Unschedulable"
    apiserver.wait_for(lambda: events(apiserver, "FailedScheduling"))
    apiserver.create(make_pod("vip").scheduler_name(SCHEDULER).req(cpu="2").priority(100).obj())
    assert apiserver.wait_for(lambda: node_of(apiserver, "vip"), timeout=20) == "n1"
    assert not [p for p in apiserver.items("v1", "pods") if p["metadata"]["name"] == "web"]
    lease = apiserver.get("coordination.k8s.io/v1", "leases", "kube-system", SCHEDULER)
    assert lease["spec"]["holderIdentity"] == "alpha"
    assert apiserver.refused == []
    assert running.stop() == 0


def test_dynamic_resources_need_nothing_beyond_upstreams_roles(
    apiserver: RbacApiServer, start_scheduler: Callable[..., Running]
) -> None:
    cluster_with_gpus(apiserver, {"gpu-node": 1})
    apiserver.create(gpu_claim("train"))
    entry = PodResourceClaim(name="gpu", resource_claim_name="train")
    apiserver.create(claiming_pod("trainer", entry))
    running = start_scheduler()
    assert apiserver.wait_for(lambda: node_of(apiserver, "trainer")) == "gpu-node"
    claim = apiserver.get("resource.k8s.io/v1", "resourceclaims", "default", "train")
    assert claim["status"]["reservedFor"][0]["name"] == "trainer"
    assert apiserver.refused == []
    assert running.stop() == 0
