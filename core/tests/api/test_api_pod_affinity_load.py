"""Namespaces read from manifests, and pod affinity terms as the API server stores them:
matchLabelKeys / mismatchLabelKeys merged into the label selector."""

from __future__ import annotations

from pathlib import Path

import pytest

from kubesched.api import LabelSelectorRequirement, load_manifests
from kubesched.cluster import InMemoryCluster
from kubesched.errors import InputError

MANIFEST = """\
apiVersion: v1
kind: Namespace
metadata: {name: team-a, labels: {team: a}}
---
apiVersion: v1
kind: Pod
metadata: {name: web, namespace: team-a, labels: {app: web, version: v2, track: canary}}
spec:
  containers: [{name: c}]
  affinity:
    podAntiAffinity:
      requiredDuringSchedulingIgnoredDuringExecution:
      - topologyKey: kubernetes.io/hostname
        labelSelector: {matchLabels: {app: web}}
        matchLabelKeys: [version, missing]
        mismatchLabelKeys: [track]
      - topologyKey: zone
    podAffinity:
      preferredDuringSchedulingIgnoredDuringExecution:
      - weight: 10
        podAffinityTerm:
          topologyKey: zone
          labelSelector: {matchExpressions: [{key: version, operator: In, values: [v2]}]}
          matchLabelKeys: [version]
"""


def test_namespaces_are_read_and_listed(tmp_path: Path) -> None:
    path = tmp_path / "cluster.yaml"
    path.write_text(MANIFEST)
    objects = load_manifests(path)
    (namespace,) = objects.namespaces
    assert (namespace.metadata.name, namespace.metadata.namespace) == ("team-a", "")
    assert namespace.metadata.labels == {"team": "a"}
    assert objects.warnings == []
    cluster = InMemoryCluster(pods=objects.pods, namespaces=objects.namespaces)
    assert list(cluster.namespaces()) == [namespace]


def test_label_keys_are_merged_into_the_selector(tmp_path: Path) -> None:
    path = tmp_path / "cluster.yaml"
    path.write_text(MANIFEST)
    (pod,) = load_manifests(path).pods
    affinity = pod.spec.affinity
    assert affinity is not None and affinity.pod_anti_affinity is not None
    first, second = affinity.pod_anti_affinity.required_during_scheduling_ignored_during_execution
    assert first.label_selector is not None
    assert first.label_selector.match_expressions == [
        LabelSelectorRequirement("version", "In", ["v2"]),
        LabelSelectorRequirement("track", "NotIn", ["canary"]),
    ], "keys the pod has no label for are left out"
    assert second.label_selector is None, "a missing selector selects nothing and stays missing"
    assert (second.match_label_keys, second.mismatch_label_keys) == ([], [])
    assert affinity.pod_affinity is not None
    (preferred,) = affinity.pod_affinity.preferred_during_scheduling_ignored_during_execution
    selector = preferred.pod_affinity_term.label_selector
    assert selector is not None
    assert selector.match_expressions == [LabelSelectorRequirement("version", "In", ["v2"])], (
        "a requirement the selector has already (a dump of a live cluster) is not repeated"
    )


def test_label_keys_without_a_selector_are_refused_as_the_api_server_does(tmp_path: Path) -> None:
    path = tmp_path / "cluster.yaml"
    path.write_text(
        MANIFEST.replace(
            "      - topologyKey: zone\n",
            "      - topologyKey: zone\n        matchLabelKeys: [version]\n",
            1,
        )
    )
    with pytest.raises(InputError) as info:
        load_manifests(path)
    assert str(info.value) == (
        f"{path}: document 1: Pod team-a/web: field spec.affinity.podAntiAffinity."
        "requiredDuringSchedulingIgnoredDuringExecution[1].matchLabelKeys: Forbidden: must not "
        "be specified when labelSelector is not set"
    )
