"""Pod-level resources (PodLevelResources, on by default since Kubernetes 1.34): the pod's
requests as upstream's resource helpers compute them, and the API server's defaulting."""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from kubesched.api import NON_ZERO_DEFAULTS, Node, Pod, pod_requests, structure
from kubesched.api._defaults import default_pod
from kubesched.testing import simulate

GI = 2**30


def pod(containers: list[dict[str, Any]], resources: dict[str, Any] | None = None,
        **spec: Any) -> Pod:  # fmt: skip
    body: dict[str, Any] = {"containers": containers, **spec}
    if resources is not None:
        body["resources"] = resources
    return default_pod(structure({"metadata": {"name": "p"}, "spec": body}, Pod))


def container(requests: dict[str, str] | None = None, limits: dict[str, str] | None = None,
              **extra: Any) -> dict[str, Any]:  # fmt: skip
    return {"name": "c", "resources": {"requests": requests or {}, "limits": limits or {}}, **extra}


def test_pod_level_requests_replace_the_containers_sum_for_cpu_and_memory() -> None:
    p = pod(
        [container({"cpu": "1", "memory": "1Gi", "nvidia.com/gpu": "1"}), container({"cpu": "1"})],
        {"requests": {"cpu": "3"}},
    )
    assert pod_requests(p) == {"cpu": 3000, "memory": GI, "nvidia.com/gpu": 1}


def test_unsupported_pod_level_resources_are_ignored_and_overhead_is_added() -> None:
    p = pod(
        [container({"cpu": "1"})],
        {"requests": {"cpu": "2", "example.com/thing": "5"}},
        overhead={"cpu": "250m"},
    )
    assert pod_requests(p) == {"cpu": 2250}


def test_the_scoring_view_defaults_only_what_the_pod_level_leaves_out() -> None:
    p = pod([container()], {"requests": {"cpu": "2"}})
    assert pod_requests(p, NON_ZERO_DEFAULTS) == {
        "cpu": 2000,
        "memory": NON_ZERO_DEFAULTS["memory"],
    }


def test_pod_level_limits_default_the_requests_from_the_containers_then_the_limits() -> None:
    # defaultPodRequests: cpu from the containers' requests, memory from the pod's limit.
    p = pod([container({"cpu": "500m"})], {"limits": {"cpu": "2", "memory": "4Gi"}})
    assert p.spec.resources is not None
    assert p.spec.resources.requests == {"cpu": 500, "memory": 4 * GI}
    assert pod_requests(p) == {"cpu": 500, "memory": 4 * GI}


def test_hugepages_limits_of_the_containers_become_pod_limits_and_requests() -> None:
    p = pod(
        [container(limits={"hugepages-2Mi": "4Mi", "memory": "1Gi"})],
        {"requests": {"cpu": "1"}},
    )
    assert p.spec.resources is not None
    assert p.spec.resources.limits == {"hugepages-2Mi": 4 * 2**20}
    assert pod_requests(p)["hugepages-2Mi"] == 4 * 2**20


def test_a_pod_without_pod_level_resources_is_unchanged() -> None:
    p = pod([container({"cpu": "1"})])
    assert p.spec.resources is None and pod_requests(p) == {"cpu": 1000}


@given(
    cpus=st.lists(st.integers(0, 8000), min_size=1, max_size=4),
    pod_cpu=st.integers(0, 64000),
)
def test_pod_level_cpu_is_what_the_pod_requests_whatever_its_containers(
    cpus: list[int], pod_cpu: int
) -> None:
    p = pod([container({"cpu": f"{c}m"}) for c in cpus], {"requests": {"cpu": f"{pod_cpu}m"}})
    assert pod_requests(p)["cpu"] == pod_cpu


@pytest.mark.parametrize("cpu", ["3", "2001m"])
def test_a_pod_whose_pod_level_request_exceeds_the_node_is_unschedulable(cpu: str) -> None:
    node = structure(
        {"metadata": {"name": "n1"}, "status": {"allocatable": {"cpu": "2", "pods": "10"}}},
        Node,
    )
    big = pod([container({"cpu": "100m"})], {"requests": {"cpu": cpu}})
    run = simulate(nodes=[node], pods=[big])
    [outcome] = run.result.outcomes
    assert outcome.status == "Unschedulable"
    assert "Insufficient cpu" in outcome.message
