"""ImageLocality in the default profile, through `kubesched.testing.simulate` and manifests
as `kubectl get -o yaml` prints them (`status.images` with `sizeBytes`)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import yaml

from kubesched.api import load_manifests
from kubesched.framework import default_registry
from kubesched.testing import make_node, make_pod, simulate

NAME = "ImageLocality"
MB = 1024 * 1024


def test_the_node_with_the_image_wins_among_equal_nodes() -> None:
    assert NAME in default_registry()
    nodes = [make_node(f"n{i}").capacity(cpu="4", memory="8Gi").obj() for i in range(3)] + [
        make_node("cached")
        .capacity(cpu="4", memory="8Gi")
        .image("registry.example/app:1.2", 800 * MB)
        .obj()
    ]
    pod = make_pod("app").namespace("default").container("registry.example/app:1.2").obj()
    run = simulate(nodes, [pod], explain=True)
    outcome = run.outcome("default/app")
    assert outcome.node == "cached"
    assert outcome.nodes is not None
    # 800 MiB held by 1 of 4 nodes: 200 MiB scaled -> 100 * (200 - 23) / (1000 - 23) = 18.
    assert outcome.nodes["cached"].scores[NAME] == (18, 18)
    assert outcome.nodes["n0"].scores[NAME] == (0, 0)


def test_node_images_load_from_kubectl_output(tmp_path: Path) -> None:
    node: dict[str, Any] = {
        "apiVersion": "v1",
        "kind": "Node",
        "metadata": {"name": "cached"},
        "status": {
            "allocatable": {"cpu": "4", "memory": "8Gi", "pods": "110"},
            "images": [
                {
                    "names": [
                        "registry.example/app@sha256:0123",
                        "registry.example/app:1.2",
                    ],
                    "sizeBytes": 800 * MB,
                }
            ],
        },
    }
    other = {**node, "metadata": {"name": "empty"}, "status": {**node["status"], "images": []}}
    pod = {
        "apiVersion": "v1",
        "kind": "Pod",
        "metadata": {"name": "app", "namespace": "default"},
        "spec": {"containers": [{"name": "app", "image": "registry.example/app:1.2"}]},
    }
    path = tmp_path / "cluster.yaml"
    path.write_text(
        yaml.safe_dump({"apiVersion": "v1", "kind": "List", "items": [node, other, pod]})
    )
    objects = load_manifests(path)
    [loaded] = [n for n in objects.nodes if n.metadata.name == "cached"]
    assert loaded.status.images[0].size_bytes == 800 * MB
    run = simulate(objects.nodes, objects.pods, explain=True)
    outcome = run.outcome("default/app")
    assert outcome.node == "cached"
    assert outcome.nodes is not None
    # 800 MiB on 1 of 2 nodes: 400 MiB -> 100 * (400 - 23) / 977 = 38.
    assert outcome.nodes["cached"].scores[NAME] == (38, 38)
