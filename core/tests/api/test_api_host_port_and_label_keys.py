"""Host ports unique per protocol and host IP (AccumulateUniqueHostPorts), and the label-key
rules of affinity terms and spread constraints, as properties over generated inputs."""

from __future__ import annotations

from collections import Counter

from hypothesis import given
from hypothesis import strategies as st

from kubesched.api._label_keys_validation import match_mismatch_errors, merged_selector
from kubesched.api._meta import LabelSelector, LabelSelectorRequirement
from kubesched.api._pod import Container, ContainerPort
from kubesched.api._pod_validation import host_port_conflicts

PORTS = st.builds(
    ContainerPort,
    container_port=st.just(80),
    host_port=st.sampled_from([0, 80, 81]),
    protocol=st.sampled_from(["TCP", "UDP"]),
    host_ip=st.sampled_from(["", "10.0.0.1"]),
)
CONTAINERS = st.lists(
    st.builds(Container, name=st.just("c"), ports=st.lists(PORTS, max_size=3)), max_size=3
)


@given(CONTAINERS)
def test_a_host_port_is_refused_exactly_when_it_repeats(containers: list[Container]) -> None:
    used = Counter(
        (p.protocol, p.host_ip, p.host_port) for c in containers for p in c.ports if p.host_port
    )
    errors = list(host_port_conflicts("spec.containers", containers))
    assert len(errors) == sum(n - 1 for n in used.values())
    assert all(e.kind == "Duplicate value" and e.path.endswith(".hostPort") for e in errors)


def test_the_first_repeat_is_named_by_protocol_host_ip_and_port() -> None:
    first = Container("a", ports=[ContainerPort(80, 8080)])
    second = Container("b", ports=[ContainerPort(81, 8080, "UDP"), ContainerPort(82, 8080)])
    (error,) = host_port_conflicts("spec.containers", [first, second])
    assert str(error) == 'spec.containers[1].ports[1].hostPort: Duplicate value: "TCP//8080"'


KEYS = st.lists(st.sampled_from(["app", "tier", "zone"]), max_size=3, unique=True)


@given(KEYS, KEYS, st.dictionaries(st.sampled_from(["app", "tier"]), st.just("x")))
def test_label_keys_the_pod_lacks_never_meet_the_selector(
    match: list[str], mismatch: list[str], match_labels: dict[str, str]
) -> None:
    """With no pod label to merge, only a key in both lists can be refused."""
    selector = merged_selector(LabelSelector(match_labels), match, {})
    assert selector == LabelSelector(match_labels)
    errors = list(match_mismatch_errors("t", match, mismatch, selector))
    both = [k for k in match if k in mismatch]
    assert [e.value for e in errors] == [f'"{k}"' for k in both]


def test_a_merged_key_the_selector_already_has_is_refused_at_its_index() -> None:
    selector = merged_selector(LabelSelector({"app": "x"}), ["tier", "app"], {"app": "web"})
    assert selector is not None
    assert selector.match_expressions == [LabelSelectorRequirement("app", "In", ["web"])]
    (error,) = match_mismatch_errors("t", ["tier", "app"], [], selector)
    assert (
        str(error) == 't[1]: Invalid value: "app": exists in both matchLabelKeys and labelSelector'
    )
