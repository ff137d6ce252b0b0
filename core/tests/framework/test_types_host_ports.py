"""host_ports: which container ports a pod takes on its node (upstream's GetHostPorts)."""

from __future__ import annotations

from attrs import evolve

from kubesched.api import RESTART_POLICY_ALWAYS, Container, ContainerPort, Pod
from kubesched.framework import NodeInfo, PodInfo, host_ports
from kubesched.testing import make_pod


def _with_init(pod: Pod, restart_policy: str | None, port: int) -> Pod:
    init = Container(
        name="init",
        ports=[ContainerPort(container_port=port, host_port=port)],
        restart_policy=restart_policy,
    )
    return evolve(pod, spec=evolve(pod.spec, init_containers=[init]))


def test_defaults_fill_empty_ip_and_protocol_and_skip_ports_without_host_port() -> None:
    pod = make_pod("p").host_port(8080).host_port(53, "UDP", "10.0.0.1").obj()
    no_host = Container(name="c", ports=[ContainerPort(container_port=9000)])
    pod = evolve(pod, spec=evolve(pod.spec, containers=[*pod.spec.containers, no_host]))
    assert host_ports(pod) == (("0.0.0.0", "TCP", 8080), ("10.0.0.1", "UDP", 53))


def test_sidecars_count_and_plain_init_containers_do_not() -> None:
    base = make_pod("p").host_port(8080).obj()
    sidecar = _with_init(base, RESTART_POLICY_ALWAYS, 9090)
    plain = _with_init(base, None, 9090)
    assert host_ports(sidecar) == (("0.0.0.0", "TCP", 9090), ("0.0.0.0", "TCP", 8080))
    assert host_ports(plain) == (("0.0.0.0", "TCP", 8080),)


def test_node_info_counts_a_sidecar_port_as_used() -> None:
    pod = _with_init(make_pod("p").node("n").obj(), RESTART_POLICY_ALWAYS, 9090)
    info = NodeInfo(pods=[PodInfo(pod)])
    assert info.used_ports == {("0.0.0.0", "TCP", 9090): 1}
