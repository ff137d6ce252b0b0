"""Services, ReplicationControllers, ReplicaSets and StatefulSets: loaded from manifests
(their selectors), checked as an API server checks them, errors naming object and field."""

from __future__ import annotations

from pathlib import Path

import pytest

from kubesched.api import (
    LabelSelector,
    LabelSelectorRequirement,
    ReplicaSet,
    ReplicationController,
    Service,
    StatefulSet,
    default_uid,
    load_manifests,
)
from kubesched.errors import InputError

LIST = """\
apiVersion: v1
kind: List
items:
- apiVersion: v1
  kind: Service
  metadata: {name: web, namespace: shop}
  spec:
    type: ClusterIP
    selector: {app: web}
    ports: [{port: 80, targetPort: 8080, protocol: TCP}]
- apiVersion: v1
  kind: ReplicationController
  metadata: {name: legacy}
  spec:
    replicas: 2
    selector: {app: legacy}
    template: {metadata: {labels: {app: legacy}}}
- apiVersion: apps/v1
  kind: ReplicaSet
  metadata:
    name: web-7d4b9
    namespace: shop
    ownerReferences:
    - {apiVersion: apps/v1, kind: Deployment, name: web, uid: d1, controller: true}
  spec:
    replicas: 3
    selector:
      matchLabels: {app: web, pod-template-hash: 7d4b9}
  status: {replicas: 3}
- apiVersion: apps/v1
  kind: StatefulSet
  metadata: {name: db, namespace: shop}
  spec:
    serviceName: db
    selector:
      matchExpressions:
      - {key: app, operator: In, values: [db]}
"""


def test_workload_kinds_are_read_with_their_selectors(tmp_path: Path) -> None:
    objects = load_manifests(_write(tmp_path, LIST))
    assert objects.warnings == []
    (service,) = objects.services
    assert isinstance(service, Service)
    assert (service.metadata.namespace, service.spec.selector) == ("shop", {"app": "web"})
    assert service.metadata.uid == default_uid("Service", "shop", "web")
    (rc,) = objects.replication_controllers
    assert isinstance(rc, ReplicationController)
    assert (rc.metadata.namespace, rc.spec.selector) == ("default", {"app": "legacy"})
    (rs,) = objects.replica_sets
    assert isinstance(rs, ReplicaSet)
    assert rs.spec.selector == LabelSelector(
        match_labels={"app": "web", "pod-template-hash": "7d4b9"}
    )
    assert rs.metadata.owner_references[0].kind == "Deployment"
    (ss,) = objects.stateful_sets
    assert isinstance(ss, StatefulSet)
    assert ss.spec.selector == LabelSelector(
        match_expressions=[LabelSelectorRequirement("app", "In", ["db"])]
    )
    assert objects.workloads == [service, rc, rs, ss]


def _write(tmp_path: Path, text: str) -> Path:
    path = tmp_path / "cluster.yaml"
    path.write_text(text)
    return path


def _bad(tmp_path: Path, text: str) -> str:
    with pytest.raises(InputError) as caught:
        load_manifests(_write(tmp_path, text))
    return str(caught.value).removeprefix(f"{tmp_path / 'cluster.yaml'}: ")


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        (
            "apiVersion: v1\nkind: ReplicaSet\nmetadata: {name: rs}\n",
            "document 0: ReplicaSet default/rs: field apiVersion: "
            'Invalid value: "v1": no matches for kind "ReplicaSet" in version "v1"',
        ),
        (
            "apiVersion: apps/v1\nkind: Service\nmetadata: {name: s}\n",
            "document 0: Service default/s: field apiVersion: "
            'Invalid value: "apps/v1": no matches for kind "Service" in version "apps/v1"',
        ),
        (
            "apiVersion: apps/v1\nkind: StatefulSet\nmetadata: {name: db}\nspec: {}\n",
            "document 0: StatefulSet default/db: field spec.selector: Required value",
        ),
        (
            "apiVersion: apps/v1\nkind: ReplicaSet\nmetadata: {name: rs}\nspec:\n"
            "  selector: {matchExpressions: [{key: app, operator: Is, values: [a]}]}\n",
            "document 0: ReplicaSet default/rs: field spec.selector.matchExpressions[0]."
            'operator: Invalid value: "Is": not a valid selector operator',
        ),
        (
            "apiVersion: v1\nkind: Service\nmetadata: {name: s}\nspec: {selector: [app]}\n",
            "document 0: Service default/s: field spec.selector: expected an object, "
            'got a list (["app"])',
        ),
    ],
)
def test_what_an_api_server_refuses_names_object_and_field(
    tmp_path: Path, text: str, expected: str
) -> None:
    assert _bad(tmp_path, text) == expected
