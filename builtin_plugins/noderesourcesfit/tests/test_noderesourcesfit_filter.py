"""PreFilter and Filter: upstream's fit_test.go tables (TestEnoughRequests,
TestNotEnoughRequests, TestStorageRequests, TestRestartableInitContainers,
TestPreFilterDisabled), every case that applies.

Not applicable here: pod-level resources (the Pod model has none), the
DRA-backed extended resource cases (DRAExtendedResource is off), and the
"SidecarContainers disabled" cases (the feature is GA and always on).
Requests are in upstream's units: cpu in millicores, everything else as is.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

import pytest

from kubesched.api import Container, Pod, PodSpec, ResourceRequirements
from kubesched.framework import Code, CycleState, NodeInfo, PodInfo
from kubesched.testing import Amount, make_node, make_pod, resource_list
from kubesched_noderesourcesfit import (
    InsufficientResource,
    NodeResourcesFit,
    NodeResourcesFitArgs,
    compute_fit_request,
    fits_request,
)

EXT_A = "example.com/aaa"
EXT_B = "example.com/bbb"
K8S_IO_A = "kubernetes.io/something"
K8S_IO_B = "subdomain.kubernetes.io/something"
HUGE_A = "hugepages-2Mi"
DRA_EXT = "extended.resource.dra.io/something"

U = Code.UNSCHEDULABLE
UU = Code.UNSCHEDULABLE_AND_UNRESOLVABLE


def res(cpu: int = 0, memory: int = 0, storage: int = 0, **scalars: int) -> dict[str, Amount]:
    """One container's requests as upstream's newResourcePod writes them (every field set)."""
    names = {"ext_a": EXT_A, "ext_b": EXT_B, "k8s_a": K8S_IO_A, "k8s_b": K8S_IO_B}
    names |= {"huge_a": HUGE_A, "dra": DRA_EXT}
    out: dict[str, Amount] = {"cpu": f"{cpu}m", "memory": memory, "pods": 0}
    out["ephemeral-storage"] = storage
    out.update({names[k]: v for k, v in scalars.items()})
    return out


def pod_of(
    *containers: Mapping[str, Amount],
    init: Sequence[Mapping[str, Amount]] = (),
    overhead: Mapping[str, Amount] | None = None,
    name: str = "pod",
) -> Pod:
    builder = make_pod(name)
    for c in containers:
        builder.req(c)
    for c in init:
        builder.init_req(c)
    if overhead is not None:
        builder.overhead(overhead)
    return builder.obj()


def node_info(existing: Mapping[str, Amount], allocatable: Mapping[str, Amount]) -> NodeInfo:
    node = make_node("node").capacity(allocatable).obj()
    return NodeInfo(node, [PodInfo(pod_of(existing, name="existing"))])


# makeAllocatableResources(10, 20, 32, 5, 20, 5)
ALLOCATABLE = {
    "cpu": "10m",
    "memory": 20,
    "pods": 32,
    EXT_A: 5,
    "ephemeral-storage": 20,
    HUGE_A: 5,
}

ENOUGH_REQUESTS = [
    pytest.param(pod_of(), res(10, 20), None, None, [], id="no resources requested always fits"),
    pytest.param(
        pod_of(res(1, 1)),
        res(10, 20),
        None,
        (U, "Insufficient cpu", "Insufficient memory"),
        [("cpu", 1, 10, 10, False), ("memory", 1, 20, 20, False)],
        id="too many resources fails",
    ),
    pytest.param(
        pod_of(res(1, 1), init=[res(3, 1)]),
        res(8, 19),
        None,
        (U, "Insufficient cpu"),
        [("cpu", 3, 8, 10, False)],
        id="too many resources fails due to init container cpu",
    ),
    pytest.param(
        pod_of(res(1, 1), init=[res(3, 1), res(2, 1)]),
        res(8, 19),
        None,
        (U, "Insufficient cpu"),
        [("cpu", 3, 8, 10, False)],
        id="too many resources fails due to highest init container cpu",
    ),
    pytest.param(
        pod_of(res(1, 1), init=[res(1, 3)]),
        res(9, 19),
        None,
        (U, "Insufficient memory"),
        [("memory", 3, 19, 20, False)],
        id="too many resources fails due to init container memory",
    ),
    pytest.param(
        pod_of(res(1, 1), init=[res(1, 3), res(1, 2)]),
        res(9, 19),
        None,
        (U, "Insufficient memory"),
        [("memory", 3, 19, 20, False)],
        id="too many resources fails due to highest init container memory",
    ),
    pytest.param(
        pod_of(res(1, 1), init=[res(1, 1)]),
        res(9, 19),
        None,
        None,
        [],
        id="init container fits because it's the max, not sum, of containers and init containers",
    ),
    pytest.param(
        pod_of(res(1, 1), init=[res(1, 1), res(1, 1)]),
        res(9, 19),
        None,
        None,
        [],
        id="multiple init containers fit because it's the max, not sum, "
        "of containers and init containers",
    ),
    pytest.param(pod_of(res(1, 1)), res(5, 5), None, None, [], id="both resources fit"),
    pytest.param(
        pod_of(res(2, 1)),
        res(9, 5),
        None,
        (U, "Insufficient cpu"),
        [("cpu", 2, 9, 10, False)],
        id="one resource memory fits",
    ),
    pytest.param(
        pod_of(res(1, 2)),
        res(5, 19),
        None,
        (U, "Insufficient memory"),
        [("memory", 2, 19, 20, False)],
        id="one resource cpu fits",
    ),
    pytest.param(pod_of(res(5, 1)), res(5, 19), None, None, [], id="equal edge case"),
    pytest.param(
        pod_of(res(4, 1), init=[res(5, 1)]),
        res(5, 19),
        None,
        None,
        [],
        id="equal edge case for init container",
    ),
    pytest.param(pod_of(res(ext_a=1)), res(), None, None, [], id="extended resource fits"),
    pytest.param(
        pod_of(res(), init=[res(ext_a=1)]),
        res(),
        None,
        None,
        [],
        id="extended resource fits for init container",
    ),
    pytest.param(
        pod_of(res(1, 1, ext_a=10)),
        res(ext_a=0),
        None,
        (UU, f"Insufficient {EXT_A}"),
        [(EXT_A, 10, 0, 5, True)],
        id="extended resource capacity enforced",
    ),
    pytest.param(
        pod_of(res(), init=[res(1, 1, ext_a=10)]),
        res(ext_a=0),
        None,
        (UU, f"Insufficient {EXT_A}"),
        [(EXT_A, 10, 0, 5, True)],
        id="extended resource capacity enforced for init container",
    ),
    pytest.param(
        pod_of(res(1, 1, ext_a=1)),
        res(ext_a=5),
        None,
        (U, f"Insufficient {EXT_A}"),
        [(EXT_A, 1, 5, 5, False)],
        id="extended resource allocatable enforced",
    ),
    pytest.param(
        pod_of(res(), init=[res(1, 1, ext_a=1)]),
        res(ext_a=5),
        None,
        (U, f"Insufficient {EXT_A}"),
        [(EXT_A, 1, 5, 5, False)],
        id="extended resource allocatable enforced for init container",
    ),
    pytest.param(
        pod_of(res(1, 1, ext_a=3), res(1, 1, ext_a=3)),
        res(ext_a=2),
        None,
        (UU, f"Insufficient {EXT_A}"),
        [(EXT_A, 6, 2, 5, True)],
        id="extended resource allocatable enforced for multiple containers",
    ),
    pytest.param(
        pod_of(res(), init=[res(1, 1, ext_a=3), res(1, 1, ext_a=3)]),
        res(ext_a=2),
        None,
        None,
        [],
        id="extended resource allocatable admits multiple init containers",
    ),
    pytest.param(
        pod_of(res(), init=[res(1, 1, ext_a=6), res(1, 1, ext_a=3)]),
        res(ext_a=2),
        None,
        (UU, f"Insufficient {EXT_A}"),
        [(EXT_A, 6, 2, 5, True)],
        id="extended resource allocatable enforced for multiple init containers",
    ),
    pytest.param(
        pod_of(res(1, 1, ext_b=1)),
        res(),
        None,
        (UU, f"Insufficient {EXT_B}"),
        [(EXT_B, 1, 0, 0, True)],
        id="extended resource allocatable enforced for unknown resource",
    ),
    pytest.param(
        pod_of(res(), init=[res(1, 1, ext_b=1)]),
        res(),
        None,
        (UU, f"Insufficient {EXT_B}"),
        [(EXT_B, 1, 0, 0, True)],
        id="extended resource allocatable enforced for unknown resource for init container",
    ),
    pytest.param(
        pod_of(res(1, 1, k8s_a=10)),
        res(),
        None,
        (UU, f"Insufficient {K8S_IO_A}"),
        [(K8S_IO_A, 10, 0, 0, True)],
        id="kubernetes.io resource capacity enforced",
    ),
    pytest.param(
        pod_of(res(), init=[res(1, 1, k8s_b=10)]),
        res(),
        None,
        (UU, f"Insufficient {K8S_IO_B}"),
        [(K8S_IO_B, 10, 0, 0, True)],
        id="kubernetes.io resource capacity enforced for init container",
    ),
    pytest.param(
        pod_of(res(1, 1, huge_a=10)),
        res(huge_a=0),
        None,
        (UU, f"Insufficient {HUGE_A}"),
        [(HUGE_A, 10, 0, 5, True)],
        id="hugepages resource capacity enforced",
    ),
    pytest.param(
        pod_of(res(), init=[res(1, 1, huge_a=10)]),
        res(huge_a=0),
        None,
        (UU, f"Insufficient {HUGE_A}"),
        [(HUGE_A, 10, 0, 5, True)],
        id="hugepages resource capacity enforced for init container",
    ),
    pytest.param(
        pod_of(res(1, 1, huge_a=3), res(1, 1, huge_a=3)),
        res(huge_a=2),
        None,
        (UU, f"Insufficient {HUGE_A}"),
        [(HUGE_A, 6, 2, 5, True)],
        id="hugepages resource allocatable enforced for multiple containers",
    ),
    pytest.param(
        pod_of(res(1, 1, ext_b=1)),
        res(),
        NodeResourcesFitArgs(ignored_resources=[EXT_B]),
        None,
        [],
        id="skip checking ignored extended resource",
    ),
    pytest.param(
        pod_of(res(1, 1), overhead={"cpu": "3m", "memory": 13}),
        res(5, 5),
        None,
        None,
        [],
        id="resources + pod overhead fits",
    ),
    pytest.param(
        pod_of(res(1, 1), overhead={"cpu": "1m", "memory": 15}),
        res(5, 5),
        None,
        (U, "Insufficient memory"),
        [("memory", 16, 5, 20, False)],
        id="requests + overhead does not fit for memory",
    ),
    pytest.param(
        pod_of(res(1, 1, ext_b=1, k8s_a=1)),
        res(),
        NodeResourcesFitArgs(ignored_resource_groups=["example.com"]),
        (UU, f"Insufficient {K8S_IO_A}"),
        [(K8S_IO_A, 1, 0, 0, True)],
        id="skip checking ignored extended resource via resource groups",
    ),
    pytest.param(
        pod_of(res(1, 1, ext_a=0)),
        res(ext_a=6),
        None,
        None,
        [],
        id="skip checking extended resource request with quantity zero via resource groups",
    ),
    pytest.param(
        pod_of(res(ext_a=1)),
        res(20, 30, ext_a=1),
        None,
        None,
        [],
        id="skip checking resource request with quantity zero",
    ),
    pytest.param(
        pod_of(res(1, 1, dra=1)),
        res(),
        None,
        (UU, f"Insufficient {DRA_EXT}"),
        [(DRA_EXT, 1, 0, 0, True)],
        id="extended resource backed by DRA not enabled",
    ),
]


@pytest.mark.parametrize(
    ("pod", "existing", "args", "want_status", "want_insufficient"), ENOUGH_REQUESTS
)
def test_enough_requests(run_filter, pod, existing, args, want_status, want_insufficient) -> None:
    ni = node_info(existing, ALLOCATABLE)
    status = run_filter(args, pod, ni)
    if want_status is None:
        assert status is None
    else:
        assert (status.code, *status.reasons) == want_status
    plugin_args = args or NodeResourcesFitArgs()
    got = fits_request(
        compute_fit_request(pod),
        ni,
        plugin_args.ignored_resources,
        plugin_args.ignored_resource_groups,
    )
    want = [
        InsufficientResource(name, f"Insufficient {name}", req, used, cap, unresolvable)
        for name, req, used, cap, unresolvable in want_insufficient
    ]
    assert got == want


# makeAllocatableResources(10, 20, 1, 0, 0, 0): room for one pod, and it is taken.
ONE_POD_ALLOCATABLE = {"cpu": "10m", "memory": 20, "pods": 1, EXT_A: 0}
ONE_POD_ALLOCATABLE |= {"ephemeral-storage": 0, HUGE_A: 0}


@pytest.mark.parametrize(
    ("pod", "existing"),
    [
        pytest.param(
            pod_of(),
            res(10, 20),
            id="even without specified resources, predicate fails when there's no space "
            "for additional pod",
        ),
        pytest.param(
            pod_of(res(1, 1)),
            res(5, 5),
            id="even if both resources fit, predicate fails when there's no space "
            "for additional pod",
        ),
        pytest.param(
            pod_of(res(5, 1)),
            res(5, 19),
            id="even for equal edge case, predicate fails when there's no space for additional pod",
        ),
        pytest.param(
            pod_of(res(5, 1), init=[res(5, 1)]),
            res(5, 19),
            id="even for equal edge case, predicate fails when there's no space "
            "for additional pod due to init container",
        ),
    ],
)
def test_not_enough_requests(run_filter, pod, existing) -> None:
    status = run_filter(None, pod, node_info(existing, ONE_POD_ALLOCATABLE))
    assert status is not None
    assert (status.code, status.reasons) == (U, ("Too many pods",))


@pytest.mark.parametrize(
    ("pod", "existing", "want_status"),
    [
        pytest.param(
            pod_of(res(1, 1)), res(2, 10), None, id="empty storage requested, and pod fits"
        ),
        pytest.param(
            pod_of(res(storage=25)),
            res(2, 2),
            (UU, "Insufficient ephemeral-storage"),
            id="storage ephemeral local storage request exceeds allocatable",
        ),
        pytest.param(
            pod_of(res(storage=5)),
            res(2, 2, storage=10),
            None,
            id="ephemeral local storage is sufficient",
        ),
        pytest.param(pod_of(res(storage=10)), res(2, 2), None, id="pod fits"),
    ],
)
def test_storage_requests(run_filter, pod, existing, want_status) -> None:
    status = run_filter(None, pod, node_info(existing, ALLOCATABLE))
    if want_status is None:
        assert status is None
    else:
        assert (status.code, *status.reasons) == want_status


def _with_sidecar(request: str | None, sidecar_request: str | None) -> Pod:
    """A regular container and a restartable init container, each optionally asking for cpu."""

    def requirements(cpu: str | None) -> ResourceRequirements:
        return ResourceRequirements(requests=resource_list(cpu=cpu) if cpu else {})

    regular = Container(name="regular", resources=requirements(request))
    sidecar = Container(
        name="restartable-init", resources=requirements(sidecar_request), restart_policy="Always"
    )
    return Pod(spec=PodSpec(containers=[regular], init_containers=[sidecar]))


@pytest.mark.parametrize(
    ("pod", "want_status"),
    [
        pytest.param(
            Pod(spec=PodSpec(containers=[Container(name="regular")])),
            None,
            id="allow pod without restartable init containers if sidecar containers is enabled",
        ),
        pytest.param(
            _with_sidecar(None, None),
            None,
            id="allow pod with restartable init containers if sidecar containers is enabled",
        ),
        pytest.param(
            _with_sidecar("1m", "1m"),
            None,
            id="allow pod if the total requested resources do not exceed the node's "
            "allocatable resources",
        ),
        pytest.param(
            _with_sidecar("1m", "2m"),
            (UU, "Insufficient cpu"),
            id="not allow pod if the total requested resources do exceed the node's "
            "allocatable resources",
        ),
    ],
)
def test_restartable_init_containers(run_filter, pod, want_status) -> None:
    # makeAllocatableResources(2, 0, 1, 0, 0, 0), no pods on the node.
    node = make_node("node").capacity(cpu="2m", memory=0, pods=1).obj()
    status = run_filter(None, pod, NodeInfo(node))
    if want_status is None:
        assert status is None
    else:
        assert (status.code, *status.reasons) == want_status


def test_filter_without_pre_filter_is_an_error() -> None:
    plugin = NodeResourcesFit(None, None)
    status = plugin.filter(CycleState(), Pod(), NodeInfo(make_node("node").obj()))
    assert status is not None
    assert status.code == Code.ERROR
    assert status.reasons == (
        'error reading "PreFilterNodeResourcesFit" from cycleState: not found',
    )


def test_insufficient_scalar_resources_are_reported_in_name_order(run_filter) -> None:
    # Upstream walks a Go map here (no fixed order); the port reports them by name.
    pod = pod_of(res(ext_b=1, k8s_a=1, ext_a=10))
    status = run_filter(None, pod, node_info(res(), ALLOCATABLE))
    assert status is not None
    assert status.reasons == (
        f"Insufficient {EXT_A}",
        f"Insufficient {EXT_B}",
        f"Insufficient {K8S_IO_A}",
    )
