"""`kubesched run --feature-gates`: the live scheduler applies its gates."""

from __future__ import annotations

from collections.abc import Callable

from attrs import evolve

from kubesched.api import ResourceRequirements
from kubesched.features import parse_feature_gates
from kubesched.testing import make_node, make_pod
from kubesched.testing.apiserver import FakeApiServer

from .conftest import SCHEDULER, Running


def test_pod_level_resources_off_counts_only_the_containers(
    apiserver: FakeApiServer, start_scheduler: Callable[..., Running]
) -> None:
    apiserver.create(make_node("n1").capacity(cpu="2", memory="4Gi").obj())
    pod = make_pod("batch").scheduler_name(SCHEDULER).req(cpu="1").obj()
    pod_level = ResourceRequirements(requests={"cpu": 3000})
    apiserver.create(evolve(pod, spec=evolve(pod.spec, resources=pod_level)))
    assert apiserver.get("v1", "pods", "default", "batch")["spec"]["resources"] == {
        "requests": {"cpu": "3"}
    }
    running = start_scheduler(feature_gates=parse_feature_gates("PodLevelResources=false"))
    bound = apiserver.wait_for(
        lambda: apiserver.get("v1", "pods", "default", "batch")["spec"].get("nodeName")
    )
    assert bound == "n1"
    assert running.stop() == 0


def test_with_pod_level_resources_on_the_same_pod_does_not_fit(
    apiserver: FakeApiServer, start_scheduler: Callable[..., Running]
) -> None:
    apiserver.create(make_node("n1").capacity(cpu="2", memory="4Gi").obj())
    pod = make_pod("batch").scheduler_name(SCHEDULER).req(cpu="1").obj()
    pod_level = ResourceRequirements(requests={"cpu": 3000})
    apiserver.create(evolve(pod, spec=evolve(pod.spec, resources=pod_level)))
    running = start_scheduler()

    def unschedulable() -> str | None:
        status = apiserver.get("v1", "pods", "default", "batch").get("status") or {}
        for c in status.get("conditions") or []:
            if c["type"] == "PodScheduled" and c["status"] == "False":
                return str(c["message"])
        return None

    assert apiserver.wait_for(unschedulable).startswith(
        "0/1 nodes are available: 1 Insufficient cpu."
    )
    assert running.stop() == 0
