"""The deployment manifests of examples/run agree with the code: the ConfigMap's
configuration loads, and the ClusterRole allows every request `kubesched run` makes."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
import yaml

from kubesched.cluster.apiserver import KINDS
from kubesched.framework import default_registry
from kubesched.profile import parse_profiles

EXAMPLES = Path(__file__).resolve().parents[2] / "examples" / "run"


def objects() -> dict[str, dict[str, Any]]:
    found = {}
    for path in sorted(EXAMPLES.glob("*.yaml")):
        for doc in yaml.safe_load_all(path.read_text()):
            found[f"{doc['kind']}/{doc['metadata']['name']}"] = doc
    return found


def allowed(role: dict[str, Any], group: str, resource: str, verb: str, name: str = "") -> bool:
    return any(
        group in rule["apiGroups"]
        and resource in rule["resources"]
        and verb in rule["verbs"]
        and (not rule.get("resourceNames") or name in rule["resourceNames"])
        for rule in role["rules"]
    )


def test_the_configuration_loads_and_matches_the_rest() -> None:
    found = objects()
    text = found["ConfigMap/kubesched-config"]["data"]["config.yaml"]
    cfg, profiles = parse_profiles(text, default_registry())
    assert [p.scheduler_name for p in profiles] == ["kubesched"]
    assert found["Pod/hello-kubesched"]["spec"]["schedulerName"] == "kubesched"
    spec = found["Deployment/kubesched"]["spec"]["template"]["spec"]
    assert spec["serviceAccountName"] == "kubesched"
    assert spec["volumes"][0]["configMap"]["name"] == "kubesched-config"
    mount = spec["containers"][0]["volumeMounts"][0]["mountPath"]
    assert spec["containers"][0]["args"] == [
        "run",
        "--config",
        f"{mount}/config.yaml",
        "--bind-address",
        "0.0.0.0",
    ]
    for probe in ("livenessProbe", "readinessProbe"):
        assert spec["containers"][0][probe]["httpGet"]["scheme"] == "HTTPS"
    binding = found["ClusterRoleBinding/kubesched"]
    assert binding["subjects"][0]["name"] == "kubesched"
    lease = cfg.leader_election
    assert (lease.resource_namespace, lease.resource_name) == ("kube-system", "kubesched")


@pytest.mark.parametrize("kind", KINDS, ids=lambda k: k.plural)
def test_every_followed_kind_may_be_listed_and_watched(kind: Any) -> None:
    role = objects()["ClusterRole/kubesched"]
    group = kind.group_version.rpartition("/")[0]
    assert allowed(role, group, kind.plural, "list")
    assert allowed(role, group, kind.plural, "watch")


def test_every_write_is_allowed() -> None:
    role = objects()["ClusterRole/kubesched"]
    assert allowed(role, "", "pods/binding", "create")
    assert allowed(role, "", "pods/status", "patch")
    assert allowed(role, "", "pods", "delete")
    assert allowed(role, "resource.k8s.io", "resourceclaims", "get")
    assert allowed(role, "resource.k8s.io", "resourceclaims", "update")
    assert allowed(role, "resource.k8s.io", "resourceclaims/status", "update")
    assert allowed(role, "events.k8s.io", "events", "create")
    assert allowed(role, "events.k8s.io", "events", "patch")
    assert allowed(role, "coordination.k8s.io", "leases", "create")
    assert allowed(role, "coordination.k8s.io", "leases", "get", "kubesched")
    assert allowed(role, "coordination.k8s.io", "leases", "update", "kubesched")
    assert not allowed(role, "coordination.k8s.io", "leases", "update", "kube-scheduler")
