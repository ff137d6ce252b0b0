"""PreFilter and Filter, re-expressing upstream's TestNodePorts and TestPreFilterDisabled."""

from __future__ import annotations

import pytest

from kubesched.api import Pod
from kubesched.framework import Code, CycleState, NodeInfo, PodInfo, Status
from kubesched.testing import PluginHarness, make_node, make_pod, run_filter
from kubesched_nodeports import NodePorts
from kubesched_nodeports.plugin import REASON


def ports_pod(name: str, *specs: str, node: str = "") -> Pod:
    """A pod with a container per "PROTOCOL/hostIP/port" spec (upstream's newPod)."""
    builder = make_pod(name)
    if node:
        builder = builder.node(node)
    for spec in specs:
        protocol, ip, port = spec.split("/")
        builder = builder.host_port(int(port), protocol, ip)
    return builder.obj()


# (name, pod's ports, ports of the pod already on the node, fits)
CASES = [
    ("other port", ["UDP/127.0.0.1/8080"], ["UDP/127.0.0.1/9090"], True),
    ("same udp port", ["UDP/127.0.0.1/8080"], ["UDP/127.0.0.1/8080"], False),
    ("same tcp port", ["TCP/127.0.0.1/8080"], ["TCP/127.0.0.1/8080"], False),
    ("different host ip", ["TCP/127.0.0.1/8080"], ["TCP/127.0.0.2/8080"], True),
    ("different protocol", ["UDP/127.0.0.1/8080"], ["TCP/127.0.0.1/8080"], True),
    (
        "second udp port conflict",
        ["UDP/127.0.0.1/8000", "UDP/127.0.0.1/8080"],
        ["UDP/127.0.0.1/8080"],
        False,
    ),
    (
        "first tcp port conflict",
        ["TCP/127.0.0.1/8001", "UDP/127.0.0.1/8080"],
        ["TCP/127.0.0.1/8001", "UDP/127.0.0.1/8081"],
        False,
    ),
    (
        "first tcp port conflict due to 0.0.0.0 hostIP",
        ["TCP/0.0.0.0/8001"],
        ["TCP/127.0.0.1/8001"],
        False,
    ),
    (
        "TCP hostPort conflict due to 0.0.0.0 hostIP",
        ["TCP/10.0.10.10/8001", "TCP/0.0.0.0/8001"],
        ["TCP/127.0.0.1/8001"],
        False,
    ),
    (
        "second tcp port conflict to 0.0.0.0 hostIP",
        ["TCP/127.0.0.1/8001"],
        ["TCP/0.0.0.0/8001"],
        False,
    ),
    ("second different protocol", ["UDP/127.0.0.1/8001"], ["TCP/0.0.0.0/8001"], True),
    (
        "UDP hostPort conflict due to 0.0.0.0 hostIP",
        ["UDP/127.0.0.1/8001"],
        ["TCP/0.0.0.0/8001", "UDP/0.0.0.0/8001"],
        False,
    ),
    ("empty hostIP binds every address", ["TCP//8001"], ["TCP/127.0.0.1/8001"], False),
    ("empty protocol is TCP", ["/127.0.0.1/8001"], ["TCP/127.0.0.1/8001"], False),
]


@pytest.mark.parametrize(("name", "wanted", "used", "fits"), CASES, ids=[c[0] for c in CASES])
def test_filter(name: str, wanted: list[str], used: list[str], fits: bool) -> None:
    pod = ports_pod("pod", *wanted)
    existing = ports_pod("existing", *used, node="m1")
    status = run_filter(NodePorts, pod, [make_node("m1").obj()], pods=[existing])["m1"]
    if fits:
        assert status is None
    else:
        assert status is not None
        assert (status.code, status.reasons) == (Code.UNSCHEDULABLE, (REASON,))


def test_pre_filter_skips_a_pod_without_host_ports() -> None:
    harness = PluginHarness(NodePorts, nodes=[make_node("m1").obj()])
    pod = make_pod("pod").container("nginx").obj()
    assert NodePorts().pre_filter(CycleState(), pod) == Status(Code.SKIP)
    assert harness.pre_filter(pod) is None
    assert "NodePorts" in harness.state.skip_filter_plugins
    assert harness.pre_filter(make_pod("web").host_port(80).obj()) is None
    assert "NodePorts" not in harness.state.skip_filter_plugins


def test_filter_without_pre_filter_is_an_error() -> None:
    status = NodePorts().filter(CycleState(), NodeInfo(make_node("m1").obj()))
    assert status == Status.error('reading "PreFilterNodePorts" from cycleState: not found')


def test_a_port_freed_on_the_node_fits_again() -> None:
    existing = ports_pod("existing", "TCP/0.0.0.0/80", node="m1")
    info = NodeInfo(make_node("m1").obj(), [PodInfo(existing)])
    plugin, state = NodePorts(), CycleState()
    assert plugin.pre_filter(state, ports_pod("pod", "TCP/10.0.0.1/80")) is None
    assert plugin.filter(state, info) == Status(Code.UNSCHEDULABLE, REASON)
    assert info.remove_pod(existing)
    assert plugin.filter(state, info) is None
