"""Properties on random clusters: score_batch equals score, both equal a direct reading of
upstream's formula, and a node can only gain by having more of the pod's images."""

from __future__ import annotations

import numpy as np
from attrs import evolve
from hypothesis import given, settings
from hypothesis import strategies as st

from kubesched.api import Node, Pod
from kubesched.testing import PluginHarness, assert_batch_agrees, make_node, make_pod
from kubesched_imagelocality import ImageLocality, normalized_image_name

MB = 1024 * 1024
REPOS = ["gcr.io/a", "gcr.io/b", "docker.io/c", "d"]
sizes = st.sampled_from([0, 5 * MB, 23 * MB, 100 * MB, 700 * MB, 1500 * MB, 4000 * MB])


@st.composite
def nodes(draw: st.DrawFn, name: str) -> Node:
    builder = make_node(name)
    for repo in draw(st.lists(st.sampled_from(REPOS), unique=True, max_size=4)):
        tags = draw(st.lists(st.sampled_from([":latest", ":v1"]), min_size=1, max_size=2))
        builder = builder.image(repo + tags[0], draw(sizes), *(repo + t for t in tags[1:]))
    return builder.obj()


@st.composite
def pods(draw: st.DrawFn) -> Pod:
    builder = make_pod("pod")
    images = draw(st.lists(st.sampled_from([*REPOS, "gcr.io/a:v1", "d:v2"]), max_size=3))
    for image in images:
        builder = builder.container(image)
    return builder.obj()


@st.composite
def clusters(draw: st.DrawFn) -> list[Node]:
    count = draw(st.integers(min_value=1, max_value=8))
    return [draw(nodes(f"n{i}")) for i in range(count)]


def reference(pod: Pod, cluster: list[Node]) -> dict[str, int]:
    """Upstream's formula, read directly off the node objects."""

    def holds(node: Node, name: str) -> int | None:
        for image in node.status.images:
            if name in image.names:
                return image.size_bytes
        return None

    names = [normalized_image_name(c.image) for c in pod.spec.containers]
    scores = {}
    for node in cluster:
        total = 0
        for name in names:
            size = holds(node, name)
            if size is not None:
                holders = sum(holds(n, name) is not None for n in cluster)
                total += int(float(size) * (float(holders) / float(len(cluster))))
        maximum = 1000 * MB * len(names)
        total = 23 * MB if total < 23 * MB else min(total, maximum)
        scores[node.metadata.name] = 100 * (total - 23 * MB) // (maximum - 23 * MB)
    return scores


@settings(deadline=None)
@given(pod=pods(), cluster=clusters())
def test_both_forms_follow_the_formula(pod: Pod, cluster: list[Node]) -> None:
    harness = PluginHarness(ImageLocality, nodes=cluster)
    per_node = harness.score(pod, normalize=False)
    harness.new_cycle()
    assert harness.score(pod) == per_node == reference(pod, cluster)


@settings(max_examples=30, deadline=None)
@given(pod=pods(), cluster=clusters())
def test_batch_agrees_through_the_framework(pod: Pod, cluster: list[Node]) -> None:
    assert_batch_agrees(ImageLocality, pod, cluster)


@settings(deadline=None)
@given(cluster=clusters(), size=sizes)
def test_having_the_image_never_lowers_the_score(cluster: list[Node], size: int) -> None:
    pod = make_pod("pod").container("gcr.io/a").obj()
    without = PluginHarness(ImageLocality, nodes=cluster).score(pod, normalize=False)
    first = cluster[0]
    if any("gcr.io/a:latest" in i.names for i in first.status.images):
        return
    with_image = evolve(
        first,
        status=evolve(
            first.status,
            images=[
                *first.status.images,
                *make_node("x").image("gcr.io/a:latest", size).obj().status.images,
            ],
        ),
    )
    after = PluginHarness(ImageLocality, nodes=[with_image, *cluster[1:]]).score(
        pod, normalize=False
    )
    assert after["n0"] >= without["n0"]
    assert np.all(np.array([0 <= s <= 100 for s in after.values()]))
