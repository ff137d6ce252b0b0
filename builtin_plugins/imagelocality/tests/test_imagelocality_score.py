"""Score, re-expressing upstream's TestImageLocalityPriority and TestNormalizedImageName."""

from __future__ import annotations

import hashlib

import pytest
from attrs import evolve

from kubesched.api import Container, Node, Pod
from kubesched.framework import CycleState, NodeInfo
from kubesched.testing import PluginHarness, make_node, make_pod
from kubesched_imagelocality import ImageLocality, normalized_image_name

MB = 1024 * 1024


def pod(*images: str, init: tuple[str, ...] = ()) -> Pod:
    builder = make_pod("pod")
    for image in images:
        builder = builder.container(image)
    built = builder.obj()
    inits = [Container(name=f"init{i}", image=image) for i, image in enumerate(init)]
    return evolve(built, spec=evolve(built.spec, init_containers=inits))


def node(name: str, *images: tuple[list[str], int]) -> Node:
    builder = make_node(name)
    for names, size in images:
        builder = builder.image(names[0], size, *names[1:])
    return builder.obj()


N403002000 = (
    (["gcr.io/40:latest", "gcr.io/40:v1", "gcr.io/40:v1"], 40 * MB),
    (["gcr.io/300:latest", "gcr.io/300:v1"], 300 * MB),
    (["gcr.io/2000:latest"], 2000 * MB),
)
N25010 = ((["gcr.io/250:latest"], 250 * MB), (["gcr.io/10:latest", "gcr.io/10:v1"], 10 * MB))
N60040900 = (
    (["gcr.io/600:latest"], 600 * MB),
    (["gcr.io/40:latest"], 40 * MB),
    (["gcr.io/900:latest"], 900 * MB),
)
N300600900 = (
    (["gcr.io/300:latest"], 300 * MB),
    (["gcr.io/600:latest"], 600 * MB),
    (["gcr.io/900:latest"], 900 * MB),
)
N400030 = ((["gcr.io/4000:latest"], 4000 * MB), (["gcr.io/30:latest"], 30 * MB))
N203040 = (
    (["gcr.io/20:latest"], 20 * MB),
    (["gcr.io/30:latest"], 30 * MB),
    (["gcr.io/40:latest"], 40 * MB),
)

# (name, pod, nodes, expected scores)
CASES: list[tuple[str, Pod, list[Node], dict[str, int]]] = [
    (
        "two images spread on two nodes, prefer the larger image one",
        pod("gcr.io/40", "gcr.io/250"),
        [node("node1", *N403002000), node("node2", *N25010)],
        {"node1": 0, "node2": 5},
    ),
    (
        "two images on one node, prefer this node",
        pod("gcr.io/40", "gcr.io/300"),
        [node("node1", *N403002000), node("node2", *N25010)],
        {"node1": 7, "node2": 0},
    ),
    (
        "if exceed limit, use limit",
        pod("gcr.io/10", "gcr.io/4000"),
        [node("node1", *N400030), node("node2", *N25010)],
        {"node1": 100, "node2": 0},
    ),
    (
        "if exceed limit, use limit (with node which has no images present)",
        pod("gcr.io/10", "gcr.io/4000"),
        [node("node1", *N400030), node("node2", *N25010), node("node3")],
        {"node1": 66, "node2": 0, "node3": 0},
    ),
    (
        "pod with multiple large images, node2 is preferred",
        pod("gcr.io/300", "gcr.io/600", "gcr.io/900"),
        [node("node1", *N60040900), node("node2", *N300600900), node("node3")],
        {"node1": 32, "node2": 36, "node3": 0},
    ),
    (
        "pod with multiple small images",
        pod("gcr.io/30", "gcr.io/40"),
        [node("node1", *N203040), node("node2", *N400030)],
        {"node1": 1, "node2": 0},
    ),
    (
        "include InitContainers: two images spread on two nodes, prefer the larger image one",
        pod("gcr.io/30", init=("gcr.io/300",)),
        [node("node1", *N403002000), node("node2", *N203040)],
        {"node1": 6, "node2": 0},
    ),
]


@pytest.mark.parametrize(("name", "pod", "nodes", "expected"), CASES, ids=[c[0] for c in CASES])
def test_score(name: str, pod: Pod, nodes: list[Node], expected: dict[str, int]) -> None:
    harness = PluginHarness(ImageLocality, nodes=nodes)
    assert harness.score(pod, normalize=False) == expected  # the per-node hook
    harness.new_cycle()
    assert harness.score(pod) == expected  # the batch hook, through the framework


def _digest(content: str) -> str:
    return "sha256:" + hashlib.sha256(content.encode()).hexdigest()


@pytest.mark.parametrize(
    ("given", "normalized"),
    [
        ("root", "root:latest"),
        ("gcr.io:5000/root", "gcr.io:5000/root:latest"),
        ("root:tag", "root:tag"),
        ("root@" + _digest("root"), "root@" + _digest("root")),
    ],
)
def test_normalized_image_name(given: str, normalized: str) -> None:
    assert normalized_image_name(given) == normalized


def test_a_pod_without_containers_scores_zero() -> None:
    harness = PluginHarness(ImageLocality, nodes=[node("node1", *N403002000)])
    assert harness.score(make_pod("empty").obj(), normalize=False) == {"node1": 0}


def test_a_node_info_without_a_node_is_an_error() -> None:
    harness = PluginHarness(ImageLocality, nodes=[node("node1", *N403002000)])
    plugin = harness.plugin
    assert isinstance(plugin, ImageLocality)
    status = plugin.score(CycleState(), pod("gcr.io/40"), NodeInfo())
    assert not isinstance(status, int)
    assert status.message == "invalid nodeInfo"
