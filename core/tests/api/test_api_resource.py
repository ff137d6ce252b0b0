"""The resource.k8s.io/v1 kinds in manifests: DeviceClass, ResourceClaim, ResourceClaimTemplate
and ResourceSlice, and a pod's resourceClaims, are read, defaulted and checked, with errors
naming object and field as upstream's validation does."""

from __future__ import annotations

from pathlib import Path

import pytest

from kubesched.api import (
    ALLOCATION_MODE_EXACT_COUNT,
    ClusterObjects,
    load_manifests,
    unstructure,
)
from kubesched.cluster.memory import InMemoryCluster
from kubesched.errors import InputError

MANIFEST = """
apiVersion: resource.k8s.io/v1
kind: DeviceClass
metadata: {name: gpu.example.com}
spec:
  selectors: [{cel: {expression: 'device.driver == "gpu.example.com"'}}]
  config: [{opaque: {driver: gpu.example.com, parameters: {sharing: time-slicing}}}]
---
apiVersion: resource.k8s.io/v1
kind: ResourceSlice
metadata: {name: node-1-gpus}
spec:
  driver: gpu.example.com
  nodeName: node-1
  pool: {name: node-1, generation: 3, resourceSliceCount: 1}
  devices:
  - name: gpu-0
    attributes:
      model: {string: A100}
      index: {int: 0}
      gpu.example.com/mig: {bool: false}
      driverVersion: {version: 1.2.3}
    capacity:
      memory: {value: 80Gi}
---
apiVersion: resource.k8s.io/v1
kind: ResourceClaimTemplate
metadata: {name: one-gpu, namespace: ml}
spec:
  spec:
    devices:
      requests:
      - name: gpu
        exactly: {deviceClassName: gpu.example.com}
---
apiVersion: resource.k8s.io/v1
kind: ResourceClaim
metadata: {name: shared}
spec:
  devices:
    requests:
    - name: gpus
      firstAvailable:
      - {name: big, deviceClassName: gpu.example.com, count: 2}
      - {name: small, deviceClassName: gpu.example.com}
    constraints:
    - {requests: [gpus], matchAttribute: gpu.example.com/model}
---
apiVersion: v1
kind: Pod
metadata: {name: trainer, namespace: ml}
spec:
  containers: [{name: main, image: x}]
  resourceClaims:
  - {name: gpu, resourceClaimTemplateName: one-gpu}
"""


def load_text(tmp_path: Path, text: str) -> ClusterObjects:
    path = tmp_path / "cluster.yaml"
    path.write_text(text)
    return load_manifests(path)


def test_dra_kinds_are_read_and_defaulted(tmp_path: Path) -> None:
    objects = load_text(tmp_path, MANIFEST)
    assert objects.warnings == []
    (device_class,) = objects.device_classes
    assert device_class.spec.config[0].opaque is not None
    assert device_class.spec.config[0].opaque.parameters == {"sharing": "time-slicing"}
    (resource_slice,) = objects.resource_slices
    (gpu,) = resource_slice.spec.devices
    assert {k: a.value for k, a in gpu.attributes.items()} == {
        "model": "A100",
        "index": 0,
        "gpu.example.com/mig": False,
        "driverVersion": "1.2.3",
    }
    assert gpu.capacity["memory"].value == "80Gi"
    (template,) = objects.resource_claim_templates
    request = template.spec.spec.devices.requests[0].exactly
    assert request is not None
    assert (request.allocation_mode, request.count) == (ALLOCATION_MODE_EXACT_COUNT, 1)
    (claim,) = objects.resource_claims
    assert claim.metadata.namespace == "default"
    subs = claim.spec.devices.requests[0].first_available
    assert [(s.name, s.count) for s in subs] == [("big", 2), ("small", 1)]
    (pod,) = objects.pods
    assert pod.spec.resource_claims[0].resource_claim_template_name == "one-gpu"
    assert unstructure(gpu.attributes["gpu.example.com/mig"]) == {"bool": False}


def test_the_cluster_makes_template_claims_for_new_pods(tmp_path: Path) -> None:
    cluster = InMemoryCluster.of(load_text(tmp_path, MANIFEST))
    (pod,) = cluster.pods()
    (status,) = pod.status.resource_claim_statuses
    assert status.name == "gpu"
    assert status.resource_claim_name is not None
    assert status.resource_claim_name.startswith("trainer-gpu-")
    made = cluster.get_resource_claim("ml", status.resource_claim_name)
    assert made is not None
    assert made.metadata.annotations == {"resource.kubernetes.io/pod-claim-name": "gpu"}
    assert [(o.kind, o.name, o.controller) for o in made.metadata.owner_references] == [
        ("Pod", "trainer", True)
    ]


def _claim(requests: str, extra: str = "") -> str:
    return (
        "apiVersion: resource.k8s.io/v1\nkind: ResourceClaim\nmetadata: {name: c}\n"
        f"spec:\n  devices:\n    requests:\n{requests}{extra}"
    )


@pytest.mark.parametrize(
    ("text", "obj", "field", "message"),
    [
        (
            _claim("    - {name: gpu, exactly: {deviceClassName: gpu, count: 0}}\n"),
            "ResourceClaim default/c",
            "spec.devices.requests[0].exactly.count",
            "Invalid value: 0: must be greater than zero",
        ),
        (
            _claim("    - {name: gpu, exactly: {deviceClassName: gpu, allocationMode: Some}}\n"),
            "ResourceClaim default/c",
            "spec.devices.requests[0].exactly.allocationMode",
            'Unsupported value: "Some"',
        ),
        (
            _claim(
                "    - {name: gpu, exactly: {deviceClassName: gpu, allocationMode: All, "
                "count: 2}}\n"
            ),
            "ResourceClaim default/c",
            "spec.devices.requests[0].exactly.count",
            "must not be specified when allocationMode is 'All'",
        ),
        (
            _claim("    - {name: gpu}\n"),
            "ResourceClaim default/c",
            "spec.devices.requests[0]",
            "exactly one of `exactly` or `firstAvailable` is required",
        ),
        (
            _claim("    - {name: gpu, exactly: {}}\n"),
            "ResourceClaim default/c",
            "spec.devices.requests[0].exactly.deviceClassName",
            "Required value",
        ),
        (
            _claim(
                "    - {name: gpu, exactly: {deviceClassName: gpu}}\n"
                "    - {name: gpu, exactly: {deviceClassName: gpu}}\n"
            ),
            "ResourceClaim default/c",
            "spec.devices.requests[1].name",
            'Duplicate value: "gpu"',
        ),
        (
            _claim(
                "    - {name: gpu, exactly: {deviceClassName: gpu}}\n",
                "    constraints: [{requests: [cpu], matchAttribute: example.com/model}]\n",
            ),
            "ResourceClaim default/c",
            "spec.devices.constraints[0].requests[0]",
            "must be the name of a request in the claim",
        ),
        (
            _claim(
                "    - {name: gpu, exactly: {deviceClassName: gpu}}\n",
                "    constraints: [{matchAttribute: model}]\n",
            ),
            "ResourceClaim default/c",
            "spec.devices.constraints[0].matchAttribute",
            "must include a domain",
        ),
        (
            "apiVersion: resource.k8s.io/v1\nkind: ResourceSlice\nmetadata: {name: s}\n"
            "spec: {driver: d.example.com, nodeName: n, allNodes: true, "
            "pool: {name: p, resourceSliceCount: 1}}\n",
            "ResourceSlice s",
            "spec",
            "exactly one of `nodeName`, `nodeSelector`, `allNodes`, `perDeviceNodeSelection`",
        ),
        (
            "apiVersion: resource.k8s.io/v1\nkind: ResourceSlice\nmetadata: {name: s}\n"
            "spec: {driver: d.example.com, allNodes: true, pool: {name: p, resourceSliceCount: 1},"
            " devices: [{name: d0, attributes: {a: {int: 1, string: x}}}]}\n",
            "ResourceSlice s",
            "spec.devices[0].attributes[a]",
            "exactly one value must be specified",
        ),
        (
            "apiVersion: resource.k8s.io/v1\nkind: ResourceSlice\nmetadata: {name: s}\n"
            "spec: {driver: d.example.com, allNodes: true, pool: {name: p, resourceSliceCount: 1},"
            " devices: [{name: d0, capacity: {memory: {value: lots}}}]}\n",
            "ResourceSlice s",
            "spec.devices[0].capacity[memory].value",
            'Invalid value: "lots"',
        ),
        (
            "apiVersion: resource.k8s.io/v1\nkind: ResourceSlice\nmetadata: {name: s}\n"
            "spec: {driver: d.example.com, allNodes: true, pool: {name: p}}\n",
            "ResourceSlice s",
            "spec.pool.resourceSliceCount",
            "must be greater than zero",
        ),
        (
            "apiVersion: resource.k8s.io/v1\nkind: ResourceSlice\nmetadata: {name: s}\n"
            "spec: {driver: d.example.com, allNodes: true, pool: {name: p, resourceSliceCount: 1},"
            " devices: [{name: d0, capacity: {bw: {value: 10Gi, requestPolicy:"
            " {validRange: {step: 1Gi}}}}}]}\n",
            "ResourceSlice s",
            "spec.devices[0].capacity[bw].requestPolicy.validRange.min",
            "Required value",
        ),
        (
            "apiVersion: resource.k8s.io/v1\nkind: ResourceSlice\nmetadata: {name: s}\n"
            "spec: {driver: d.example.com, allNodes: true, pool: {name: p, resourceSliceCount: 1},"
            " devices: [{name: d0, capacity: {bw: {value: 10Gi, requestPolicy:"
            " {validValues: [4Gi, 2Gi]}}}}]}\n",
            "ResourceSlice s",
            "spec.devices[0].capacity[bw].requestPolicy.validValues[1]",
            "must be sorted ascending",
        ),
        (
            "apiVersion: resource.k8s.io/v1\nkind: ResourceSlice\nmetadata: {name: s}\n"
            "spec: {driver: d.example.com, allNodes: true, pool: {name: p, resourceSliceCount: 1},"
            " devices: [{name: d0, capacity: {bw: {value: 10Gi, requestPolicy:"
            " {default: 3Gi, validRange: {min: 2Gi, step: 2Gi}}}}}]}\n",
            "ResourceSlice s",
            "spec.devices[0].capacity[bw].requestPolicy.default",
            "must be within the valid range",
        ),
        (
            "apiVersion: resource.k8s.io/v1\nkind: ResourceClaim\nmetadata: {name: c}\n"
            "spec: {devices: {requests: [{name: r, exactly: {deviceClassName: d,"
            " capacity: {requests: {bw: much}}}}]}}\n",
            "ResourceClaim default/c",
            "spec.devices.requests[0].exactly.capacity.requests[bw]",
            'Invalid value: "much"',
        ),
        (
            "apiVersion: resource.k8s.io/v1beta9\nkind: DeviceClass\nmetadata: {name: d}\n",
            "DeviceClass d",
            "apiVersion",
            'no matches for kind "DeviceClass" in version "resource.k8s.io/v1beta9"',
        ),
        (
            "apiVersion: resource.k8s.io/v1\nkind: DeviceClass\nmetadata: {name: d}\n"
            "spec: {selectors: [{cel: {expression: ''}}]}\n",
            "DeviceClass d",
            "spec.selectors[0].cel.expression",
            "Required value",
        ),
        (
            "apiVersion: v1\nkind: Pod\nmetadata: {name: p}\nspec:\n  containers: [{name: c}]\n"
            "  resourceClaims: [{name: gpu}]\n",
            "Pod default/p",
            "spec.resourceClaims[0]",
            "at least one of `resourceClaimName` or `resourceClaimTemplateName` is required",
        ),
        (
            "apiVersion: v1\nkind: Pod\nmetadata: {name: p}\nspec:\n  containers: [{name: c}]\n"
            "  resourceClaims: [{name: gpu, resourceClaimName: a},"
            " {name: gpu, resourceClaimName: b}]\n",
            "Pod default/p",
            "spec.resourceClaims[1].name",
            'Duplicate value: "gpu"',
        ),
    ],
)
def test_bad_dra_objects_name_object_and_field(
    tmp_path: Path, text: str, obj: str, field: str, message: str
) -> None:
    with pytest.raises(InputError) as caught:
        load_text(tmp_path, text)
    assert caught.value.obj == obj
    assert caught.value.field == field
    assert message in caught.value.message


def test_a_malformed_selector_is_not_a_load_error(tmp_path: Path) -> None:
    text = (
        "apiVersion: resource.k8s.io/v1\nkind: DeviceClass\nmetadata: {name: d}\n"
        "spec: {selectors: [{cel: {expression: 'device.driver =='}}]}\n"
    )
    (device_class,) = load_text(tmp_path, text).device_classes
    assert device_class.spec.selectors[0].cel is not None
