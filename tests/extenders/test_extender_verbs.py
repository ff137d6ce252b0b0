"""Every extender verb against a user's Flask extender, through `kubesched.testing.simulate`
(the scheduler's own Simulation): filter, prioritize, bind, preempt, with and without
nodeCacheCapable, and managedResources."""

from __future__ import annotations

from typing import Any

import pytest

from kubesched.api import Node, Pod
from kubesched.testing import make_node, make_pod, simulate


def node(name: str, cpu: str = "4", **labels: str) -> Node:
    builder = make_node(name).capacity(cpu=cpu, memory="8Gi")
    for key, value in labels.items():
        builder = builder.label(f"rack/{key}", value)
    return builder.obj()


def pending(name: str, cpu: str = "1", **extra: str) -> Pod:
    return make_pod(name).namespace("apps").uid(f"uid-{name}").req(cpu=cpu, **extra).obj()


def extender(url: str, **fields: Any) -> dict[str, Any]:
    return {"extenders": [{"urlPrefix": url, **fields}]}


NODES = [
    node("n1", score="2"),
    node("n2", state="drain", score="10"),
    node("n3", score="7"),
    node("n4", state="retired", score="10"),
]


@pytest.mark.parametrize("cache_capable", [False, True])
def test_filter_and_prioritize_pick_the_extenders_best_node(
    gpu_extender: Any, cache_capable: bool
) -> None:
    gpu_extender.state.node_labels = {n.name: dict(n.metadata.labels) for n in NODES}
    config = extender(
        gpu_extender.url,
        filterVerb="filter",
        prioritizeVerb="prioritize",
        weight=5,
        nodeCacheCapable=cache_capable,
    )
    run = simulate(NODES, [pending("web")], config, explain=True)
    assert run.placements == {"apps/web": "n3"}
    filter_args = gpu_extender.state.bodies("filter")[0]
    if cache_capable:  # names only, and no node objects
        assert filter_args["NodeNames"] == ["n1", "n2", "n3", "n4"]
        assert filter_args["Nodes"] is None
    else:
        assert filter_args["NodeNames"] is None
        items = filter_args["Nodes"]["items"]
        assert [n["metadata"]["name"] for n in items] == ["n1", "n2", "n3", "n4"]
        assert items[2]["metadata"]["labels"] == {"rack/score": "7"}
    assert filter_args["Pod"]["metadata"]["name"] == "web"
    assert filter_args["Pod"]["spec"]["containers"][0]["resources"]["requests"]["cpu"] == "1"
    # prioritize only hears about the nodes that passed the filter
    prioritize_args = gpu_extender.state.bodies("prioritize")[0]
    sent = (
        prioritize_args["NodeNames"]
        if cache_capable
        else [n["metadata"]["name"] for n in prioritize_args["Nodes"]["items"]]
    )
    assert sent == ["n1", "n3"]

    nodes = run.outcome("apps/web").nodes
    assert nodes is not None
    url = gpu_extender.url
    n3 = nodes["n3"]
    assert n3.extenders[url].score == 7
    assert n3.extenders[url].weighted == 7 * 5 * 10
    plugin_total = sum(weighted for _, weighted in n3.scores.values())
    assert n3.total == plugin_total + 350
    n2 = nodes["n2"]
    assert n2.filter is not None and n2.filter.reasons == ("rack is draining",)
    assert str(n2.filter.code) == "Unschedulable"
    assert n2.filter.plugin == ""
    assert nodes["n4"].filter is not None
    assert str(nodes["n4"].filter.code) == "UnschedulableAndUnresolvable"


def test_an_extender_rejecting_every_node_gives_upstreams_message(gpu_extender: Any) -> None:
    nodes = [node("n1", state="drain"), node("n2", state="retired"), node("n3", state="drain")]
    gpu_extender.state.node_labels = {n.name: dict(n.metadata.labels) for n in nodes}
    config = {
        **extender(gpu_extender.url, filterVerb="filter"),
        "profiles": [
            {
                "schedulerName": "default-scheduler",
                "plugins": {"postFilter": {"disabled": [{"name": "*"}]}},
            }
        ],
    }
    run = simulate(nodes, [pending("web")], config, max_pod_attempts=1)
    outcome = run.outcome("apps/web")
    assert outcome.status == "Unschedulable"
    assert outcome.message == ("0/3 nodes are available: 1 rack is retired, 2 rack is draining.")


def test_bind_goes_to_the_extender_not_the_default_binder(gpu_extender: Any) -> None:
    config = extender(gpu_extender.url, bindVerb="bind")
    run = simulate([node("n1")], [pending("web")], config)
    assert run.placements == {"apps/web": "n1"}
    assert gpu_extender.state.bindings == [
        {"PodName": "web", "PodNamespace": "apps", "PodUID": "uid-web", "Node": "n1"}
    ]


@pytest.mark.parametrize("cache_capable", [False, True])
def test_preemption_negotiates_victims_with_the_extender(
    gpu_extender: Any, cache_capable: bool
) -> None:
    nodes = [node("n1", cpu="2"), node("n2", cpu="2")]
    running = [
        make_pod("guarded")
        .namespace("apps")
        .uid("uid-guarded")
        .label("rack/protected", "yes")
        .node("n1")
        .req(cpu="2")
        .obj(),
        make_pod("batch").namespace("apps").uid("uid-batch").node("n2").req(cpu="2").obj(),
    ]
    urgent = make_pod("urgent").namespace("apps").uid("uid-urgent").priority(100).req(cpu="2").obj()
    config = extender(gpu_extender.url, preemptVerb="preempt", nodeCacheCapable=cache_capable)
    run = simulate(nodes, [*running, urgent], config)
    outcome = run.outcome("apps/urgent")
    args = gpu_extender.state.bodies("preempt")[0]
    assert args["Pod"]["metadata"]["name"] == "urgent"
    if cache_capable:
        assert args["NodeNameToVictims"] is None
        assert args["NodeNameToMetaVictims"] == {
            "n1": {"Pods": [{"UID": "uid-guarded"}], "NumPDBViolations": 0},
            "n2": {"Pods": [{"UID": "uid-batch"}], "NumPDBViolations": 0},
        }
    else:
        assert args["NodeNameToMetaVictims"] is None
        whole = args["NodeNameToVictims"]
        assert sorted(whole) == ["n1", "n2"]
        assert whole["n1"]["Pods"][0]["metadata"]["uid"] == "uid-guarded"
        assert whole["n1"]["NumPDBViolations"] == 0
        # the extender vetoes n1 (its victim is protected): only n2 is left
        assert outcome.victims == ["apps/batch"]
        assert outcome.node == "n2"


def test_an_extender_that_drops_every_candidate_stops_preemption(raw_server: Any) -> None:
    server = raw_server()
    server.answer("preempt", {"NodeNameToMetaVictims": {}})
    nodes = [node("n1", cpu="2")]
    running = [make_pod("batch").namespace("apps").uid("b").node("n1").req(cpu="2").obj()]
    urgent = make_pod("urgent").namespace("apps").uid("u").priority(100).req(cpu="2").obj()
    config = extender(server.url, preemptVerb="preempt")
    run = simulate(nodes, [*running, urgent], config, max_pod_attempts=1)
    outcome = run.outcome("apps/urgent")
    assert outcome.victims == []
    assert outcome.message.endswith("preemption: no candidate node for preemption")


def test_managed_resources_limit_the_extender_to_pods_requesting_them(
    gpu_extender: Any,
) -> None:
    nodes = [make_node("n1").capacity(cpu="4", memory="8Gi", **{"example.com/gpu": "2"}).obj()]
    config = extender(
        gpu_extender.url,
        filterVerb="filter",
        managedResources=[{"name": "example.com/gpu"}],
    )
    gpu_extender.state.node_labels = {"n1": {}}
    pods = [pending("plain"), pending("trainer", **{"example.com/gpu": "1"})]
    run = simulate(nodes, pods, config)
    assert run.placements == {"apps/plain": "n1", "apps/trainer": "n1"}
    asked = [body["Pod"]["metadata"]["name"] for body in gpu_extender.state.bodies("filter")]
    assert asked == ["trainer"]


def test_ignored_by_scheduler_leaves_the_resource_to_the_extender(gpu_extender: Any) -> None:
    nodes = [node("n1")]  # no example.com/gpu capacity at all
    gpu_extender.state.node_labels = {"n1": {}}
    trainer = pending("trainer", **{"example.com/gpu": "1"})
    managed = {"name": "example.com/gpu", "ignoredByScheduler": True}
    config = extender(gpu_extender.url, filterVerb="filter", managedResources=[managed])
    assert simulate(nodes, [trainer], config).placements == {"apps/trainer": "n1"}
    managed["ignoredByScheduler"] = False
    run = simulate(nodes, [trainer], config, max_pod_attempts=1)
    assert run.outcome("apps/trainer").message.startswith(
        "0/1 nodes are available: 1 Insufficient example.com/gpu."
    )


def test_ignored_by_scheduler_needs_node_resources_fit_args(gpu_extender: Any) -> None:
    from kubesched.errors import ConfigError

    managed = {"name": "example.com/gpu", "ignoredByScheduler": True}
    config = {
        **extender(gpu_extender.url, filterVerb="filter", managedResources=[managed]),
        "profiles": [
            {
                "schedulerName": "default-scheduler",
                "plugins": {"multiPoint": {"disabled": [{"name": "NodeResourcesFit"}]}},
            }
        ],
    }
    with pytest.raises(ConfigError, match=r"profiles\[0\]: extenders manage resources"):
        simulate([node("n1")], [], config)
