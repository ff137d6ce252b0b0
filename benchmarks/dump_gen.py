"""Realistic `kubectl get -A -o yaml` dumps of a cluster, deterministic from a seed.

A real dump carries far more than the scheduler reads: every object's
managedFields, full status blocks (node images, conditions, container
statuses), owner references, the DaemonSet and ReplicaSet pods of every node,
finished pods, PersistentVolumeClaims, Services and Namespaces. This module
writes one such dump as a single `kind: List` (no events), in YAML (the layout
kubectl prints: block style, sequences at their key's indentation) or JSON.

Per node: 2 DaemonSet pods and about 3.4 ReplicaSet pods; beside them 0.6
pending pods per node, 0.08 finished pods per node, a PVC per 5 nodes, a
Service per 5 nodes and 50 namespaces. At 5,000 nodes that is about 40,500
objects, 30,400 pods of which 3,000 pending, 150 MB of YAML.

    uv run python benchmarks/dump_gen.py --nodes 5000 --format yaml -o /tmp/dump.yaml
"""

from __future__ import annotations

import argparse
import json
import random
import re
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any, TextIO

NAMESPACES = 50
DAEMONSETS = ("kube-proxy", "node-exporter")
PODS_PER_REPLICA_SET = 10
_EPOCH = "2026-03-01T08:00:00Z"
_PLAIN = re.compile(r"^[A-Za-z_/][A-Za-z0-9_./-]*$")
_YAML11_WORDS = frozenset(
    {"y", "n", "yes", "no", "on", "off", "true", "false", "null", "~"}
    | {"Y", "N", "YES", "NO", "ON", "OFF", "TRUE", "FALSE", "NULL"}
    | {"Yes", "No", "On", "Off", "True", "False", "Null"}
)


def _uid(rng: random.Random) -> str:
    digits = f"{rng.getrandbits(128):032x}"
    return f"{digits[:8]}-{digits[8:12]}-{digits[12:16]}-{digits[16:20]}-{digits[20:]}"


def _time(rng: random.Random) -> str:
    return f"2026-03-{rng.randint(1, 28):02d}T{rng.randint(0, 23):02d}:{rng.randint(0, 59):02d}:00Z"


def _managed(manager: str, operation: str, fields: dict[str, Any], stamp: str) -> dict[str, Any]:
    entry: dict[str, Any] = {
        "apiVersion": "v1",
        "fieldsType": "FieldsV1",
        "fieldsV1": fields,
        "manager": manager,
        "operation": operation,
        "time": stamp,
    }
    if operation == "Update" and manager == "kubelet":
        entry["subresource"] = "status"
    return entry


def _condition_fields(types: list[str]) -> dict[str, Any]:
    leaf = {
        ".": {},
        "f:lastProbeTime": {},
        "f:lastTransitionTime": {},
        "f:status": {},
        "f:type": {},
    }
    return {f'k:{{"type":"{kind}"}}': dict(leaf) for kind in types}


def node(i: int, rng: random.Random) -> dict[str, Any]:
    """A Node as a cloud cluster's kubelet reports it: labels, images, conditions."""
    name = f"node-{i:05d}"
    zone = f"zone-{i % 3}"
    cpu, memory = rng.choice([(8, 32), (16, 64), (32, 128)])
    capacity = {
        "cpu": str(cpu),
        "ephemeral-storage": "203070420Ki",
        "hugepages-1Gi": "0",
        "hugepages-2Mi": "0",
        "memory": f"{memory * 1024 * 1024 + 7000}Ki",
        "pods": "110",
    }
    allocatable = dict(capacity, cpu=f"{cpu * 1000 - 90}m", memory=f"{memory * 1000 * 1000}Ki")
    stamp = _time(rng)
    conditions = [
        {
            "lastHeartbeatTime": stamp,
            "lastTransitionTime": _EPOCH,
            "message": message,
            "reason": reason,
            "status": status,
            "type": kind,
        }
        for kind, status, reason, message in (
            (
                "MemoryPressure",
                "False",
                "KubeletHasSufficientMemory",
                "kubelet has sufficient memory available",
            ),
            ("DiskPressure", "False", "KubeletHasNoDiskPressure", "kubelet has no disk pressure"),
            (
                "PIDPressure",
                "False",
                "KubeletHasSufficientPID",
                "kubelet has sufficient PID available",
            ),
            ("Ready", "True", "KubeletReady", "kubelet is posting ready status"),
        )
    ]
    images = [
        {
            "names": [
                f"registry.example.com/team-{k}/service-{k}@sha256:{rng.getrandbits(256):064x}",
                f"registry.example.com/team-{k}/service-{k}:v1.{k}.{rng.randint(0, 9)}",
            ],
            "sizeBytes": rng.randint(10_000_000, 900_000_000),
        }
        for k in range(rng.randint(6, 10))
    ]
    labels = {
        "beta.kubernetes.io/arch": "amd64",
        "beta.kubernetes.io/instance-type": f"m5.{cpu // 4}xlarge",
        "beta.kubernetes.io/os": "linux",
        "kubernetes.io/arch": "amd64",
        "kubernetes.io/hostname": name,
        "kubernetes.io/os": "linux",
        "node.kubernetes.io/instance-type": f"m5.{cpu // 4}xlarge",
        "topology.kubernetes.io/region": "region-1",
        "topology.kubernetes.io/zone": zone,
    }
    managed = [
        _managed(
            "kubelet",
            "Update",
            {
                "f:metadata": {
                    "f:annotations": {
                        ".": {},
                        "f:volumes.kubernetes.io/controller-managed-attach-detach": {},
                    },
                    "f:labels": {".": {}, **{f"f:{key}": {} for key in labels}},
                },
                "f:spec": {"f:providerID": {}},
            },
            _EPOCH,
        ),
        _managed(
            "kubelet",
            "Update",
            {
                "f:status": {
                    "f:allocatable": {f"f:{key}": {} for key in allocatable},
                    "f:conditions": _condition_fields([c["type"] for c in conditions]),
                    "f:images": {},
                    "f:nodeInfo": {"f:bootID": {}, "f:kernelVersion": {}},
                }
            },
            stamp,
        ),
    ]
    spec: dict[str, Any] = {
        "podCIDR": f"10.{i // 256 % 256}.{i % 256}.0/24",
        "providerID": f"aws:///{zone}/i-{rng.getrandbits(64):016x}",
    }
    if i % 50 == 0:
        spec["taints"] = [{"effect": "NoSchedule", "key": "dedicated", "value": "infra"}]
    return {
        "apiVersion": "v1",
        "kind": "Node",
        "metadata": {
            "annotations": {
                "node.alpha.kubernetes.io/ttl": "0",
                "volumes.kubernetes.io/controller-managed-attach-detach": "true",
            },
            "creationTimestamp": _EPOCH,
            "labels": labels,
            "managedFields": managed,
            "name": name,
            "resourceVersion": str(rng.randint(10_000_000, 99_999_999)),
            "uid": _uid(rng),
        },
        "spec": spec,
        "status": {
            "addresses": [
                {"address": f"10.0.{i // 256 % 256}.{i % 256}", "type": "InternalIP"},
                {"address": f"{name}.region-1.compute.internal", "type": "Hostname"},
            ],
            "allocatable": allocatable,
            "capacity": capacity,
            "conditions": conditions,
            "daemonEndpoints": {"kubeletEndpoint": {"Port": 10250}},
            "images": images,
            "nodeInfo": {
                "architecture": "amd64",
                "bootID": _uid(rng),
                "containerRuntimeVersion": "containerd://1.7.11",
                "kernelVersion": "6.1.72-96.166.amzn2023.x86_64",
                "kubeProxyVersion": "v1.31.0",
                "kubeletVersion": "v1.31.0",
                "machineID": f"{rng.getrandbits(128):032x}",
                "operatingSystem": "linux",
                "osImage": "Amazon Linux 2023",
                "systemUUID": _uid(rng),
            },
        },
    }


def pod(
    name: str,
    namespace: str,
    owner: tuple[str, str, str],
    node_name: str | None,
    phase: str,
    rng: random.Random,
    claim: str | None = None,
) -> dict[str, Any]:
    """A Pod as the API server returns it: defaulted spec, kubelet status, managedFields."""
    owner_kind, owner_name, owner_uid = owner
    app = owner_name.rsplit("-", 1)[0] if owner_kind == "ReplicaSet" else owner_name
    cpu = rng.choice(["50m", "100m", "250m", "500m", "1"])
    memory = rng.choice(["64Mi", "128Mi", "256Mi", "512Mi", "1Gi"])
    stamp = _time(rng)
    labels = {"app": app, "pod-template-hash": f"{rng.getrandbits(40):010x}"}
    if owner_kind == "DaemonSet":
        labels = {
            "app": app,
            "controller-revision-hash": f"{rng.getrandbits(40):010x}",
            "pod-template-generation": "3",
        }
    container = {
        "env": [{"name": "LOG_LEVEL", "value": "info"}],
        "image": f"registry.example.com/{namespace}/{app}:v1.{rng.randint(0, 40)}.0",
        "imagePullPolicy": "IfNotPresent",
        "name": app,
        "ports": [{"containerPort": 8080, "name": "http", "protocol": "TCP"}],
        "resources": {"limits": {"memory": memory}, "requests": {"cpu": cpu, "memory": memory}},
        "terminationMessagePath": "/dev/termination-log",
        "terminationMessagePolicy": "File",
        "volumeMounts": [
            {
                "mountPath": "/var/run/secrets/kubernetes.io/serviceaccount",
                "name": "kube-api-access",
                "readOnly": True,
            }
        ],
    }
    volumes: list[dict[str, Any]] = [
        {
            "name": "kube-api-access",
            "projected": {
                "defaultMode": 420,
                "sources": [
                    {"serviceAccountToken": {"expirationSeconds": 3607, "path": "token"}},
                    {
                        "configMap": {
                            "items": [{"key": "ca.crt", "path": "ca.crt"}],
                            "name": "kube-root-ca.crt",
                        }
                    },
                ],
            },
        }
    ]
    if claim is not None:
        volumes.append({"name": "data", "persistentVolumeClaim": {"claimName": claim}})
    spec: dict[str, Any] = {
        "containers": [container],
        "dnsPolicy": "ClusterFirst",
        "enableServiceLinks": True,
        "preemptionPolicy": "PreemptLowerPriority",
        "priority": 0,
        "restartPolicy": "Always",
        "schedulerName": "default-scheduler",
        "securityContext": {},
        "serviceAccount": "default",
        "serviceAccountName": "default",
        "terminationGracePeriodSeconds": 30,
        "tolerations": [
            {
                "effect": "NoExecute",
                "key": "node.kubernetes.io/not-ready",
                "operator": "Exists",
                "tolerationSeconds": 300,
            },
            {
                "effect": "NoExecute",
                "key": "node.kubernetes.io/unreachable",
                "operator": "Exists",
                "tolerationSeconds": 300,
            },
        ],
        "volumes": volumes,
    }
    if owner_kind == "DaemonSet" and node_name is not None:
        spec["affinity"] = {
            "nodeAffinity": {
                "requiredDuringSchedulingIgnoredDuringExecution": {
                    "nodeSelectorTerms": [
                        {
                            "matchFields": [
                                {"key": "metadata.name", "operator": "In", "values": [node_name]}
                            ]
                        }
                    ]
                }
            }
        }
    if node_name is not None:
        spec["nodeName"] = node_name
    status: dict[str, Any] = {"phase": phase, "qosClass": "Burstable"}
    if phase == "Pending":
        status["conditions"] = [
            {
                "lastProbeTime": None,
                "lastTransitionTime": stamp,
                "message": "0/5000 nodes are available: 5000 Insufficient cpu.",
                "reason": "Unschedulable",
                "status": "False",
                "type": "PodScheduled",
            }
        ]
    else:
        status["conditions"] = [
            {"lastProbeTime": None, "lastTransitionTime": stamp, "status": "True", "type": kind}
            for kind in ("Initialized", "Ready", "PodScheduled")
        ]
        terminated = phase in ("Succeeded", "Failed")
        state = (
            {
                "terminated": {
                    "containerID": f"containerd://{rng.getrandbits(256):064x}",
                    "exitCode": 0 if phase == "Succeeded" else 1,
                    "finishedAt": stamp,
                    "reason": "Completed" if phase == "Succeeded" else "Error",
                    "startedAt": stamp,
                }
            }
            if terminated
            else {"running": {"startedAt": stamp}}
        )
        status["containerStatuses"] = [
            {
                "containerID": f"containerd://{rng.getrandbits(256):064x}",
                "image": container["image"],
                "imageID": (
                    f"registry.example.com/{namespace}/{app}@sha256:{rng.getrandbits(256):064x}"
                ),
                "lastState": {},
                "name": app,
                "ready": not terminated,
                "restartCount": rng.choice([0, 0, 0, 1, 2]),
                "started": not terminated,
                "state": state,
            }
        ]
        ip = f"10.{rng.randint(0, 255)}.{rng.randint(0, 255)}.{rng.randint(1, 254)}"
        status.update(
            hostIP=f"10.0.{rng.randint(0, 255)}.{rng.randint(1, 254)}",
            podIP=ip,
            podIPs=[{"ip": ip}],
            startTime=stamp,
        )
    managed = [
        _managed(
            "kube-controller-manager",
            "Update",
            {
                "f:metadata": {
                    "f:generateName": {},
                    "f:labels": {".": {}, **{f"f:{key}": {} for key in labels}},
                    "f:ownerReferences": {".": {}, f'k:{{"uid":"{owner_uid}"}}': {}},
                },
                "f:spec": {
                    "f:containers": {
                        f'k:{{"name":"{app}"}}': {
                            ".": {},
                            "f:image": {},
                            "f:imagePullPolicy": {},
                            "f:name": {},
                            "f:resources": {
                                ".": {},
                                "f:limits": {".": {}, "f:memory": {}},
                                "f:requests": {".": {}, "f:cpu": {}, "f:memory": {}},
                            },
                        }
                    },
                    "f:dnsPolicy": {},
                    "f:restartPolicy": {},
                    "f:schedulerName": {},
                    "f:terminationGracePeriodSeconds": {},
                },
            },
            _EPOCH,
        )
    ]
    if phase != "Pending":
        managed.append(
            _managed(
                "kubelet",
                "Update",
                {
                    "f:status": {
                        "f:conditions": _condition_fields(["Ready"]),
                        "f:containerStatuses": {},
                        "f:hostIP": {},
                        "f:phase": {},
                        "f:podIP": {},
                        "f:podIPs": {
                            ".": {},
                            f'k:{{"ip":"{status["podIP"]}"}}': {".": {}, "f:ip": {}},
                        },
                        "f:startTime": {},
                    }
                },
                stamp,
            )
        )
    return {
        "apiVersion": "v1",
        "kind": "Pod",
        "metadata": {
            "creationTimestamp": stamp,
            "generateName": f"{owner_name}-",
            "labels": labels,
            "managedFields": managed,
            "name": name,
            "namespace": namespace,
            "ownerReferences": [
                {
                    "apiVersion": "apps/v1",
                    "blockOwnerDeletion": True,
                    "controller": True,
                    "kind": owner_kind,
                    "name": owner_name,
                    "uid": owner_uid,
                }
            ],
            "resourceVersion": str(rng.randint(10_000_000, 99_999_999)),
            "uid": _uid(rng),
        },
        "spec": spec,
        "status": status,
    }


def replica_set(
    name: str, namespace: str, uid: str, replicas: int, rng: random.Random
) -> dict[str, Any]:
    app = name.rsplit("-", 1)[0]
    return {
        "apiVersion": "apps/v1",
        "kind": "ReplicaSet",
        "metadata": {
            "annotations": {
                "deployment.kubernetes.io/desired-replicas": str(replicas),
                "deployment.kubernetes.io/revision": "4",
            },
            "creationTimestamp": _EPOCH,
            "generation": 4,
            "labels": {"app": app},
            "name": name,
            "namespace": namespace,
            "ownerReferences": [
                {
                    "apiVersion": "apps/v1",
                    "blockOwnerDeletion": True,
                    "controller": True,
                    "kind": "Deployment",
                    "name": app,
                    "uid": _uid(rng),
                }
            ],
            "resourceVersion": str(rng.randint(10_000_000, 99_999_999)),
            "uid": uid,
        },
        "spec": {
            "replicas": replicas,
            "selector": {"matchLabels": {"app": app}},
            "template": {
                "metadata": {"labels": {"app": app}},
                "spec": {
                    "containers": [
                        {"image": f"registry.example.com/{namespace}/{app}:v1", "name": app}
                    ]
                },
            },
        },
        "status": {
            "availableReplicas": replicas,
            "fullyLabeledReplicas": replicas,
            "observedGeneration": 4,
            "readyReplicas": replicas,
            "replicas": replicas,
        },
    }


def claim(name: str, namespace: str, rng: random.Random) -> dict[str, Any]:
    return {
        "apiVersion": "v1",
        "kind": "PersistentVolumeClaim",
        "metadata": {
            "annotations": {
                "pv.kubernetes.io/bind-completed": "yes",
                "volume.kubernetes.io/storage-provisioner": "ebs.csi.aws.com",
            },
            "creationTimestamp": _EPOCH,
            "finalizers": ["kubernetes.io/pvc-protection"],
            "name": name,
            "namespace": namespace,
            "resourceVersion": str(rng.randint(10_000_000, 99_999_999)),
            "uid": _uid(rng),
        },
        "spec": {
            "accessModes": ["ReadWriteOnce"],
            "resources": {"requests": {"storage": "10Gi"}},
            "storageClassName": "gp3",
            "volumeMode": "Filesystem",
        },
        "status": {"phase": "Pending"},
    }


def service(name: str, namespace: str, app: str, rng: random.Random) -> dict[str, Any]:
    return {
        "apiVersion": "v1",
        "kind": "Service",
        "metadata": {
            "creationTimestamp": _EPOCH,
            "name": name,
            "namespace": namespace,
            "resourceVersion": str(rng.randint(10_000_000, 99_999_999)),
            "uid": _uid(rng),
        },
        "spec": {
            "clusterIP": f"172.20.{rng.randint(0, 255)}.{rng.randint(1, 254)}",
            "ports": [{"name": "http", "port": 80, "protocol": "TCP", "targetPort": 8080}],
            "selector": {"app": app},
            "type": "ClusterIP",
        },
        "status": {"loadBalancer": {}},
    }


def items(nodes: int, seed: int) -> Iterator[dict[str, Any]]:
    """Every object of a `nodes`-node cluster, in kubectl's order (by kind, then name)."""
    rng = random.Random(seed)
    for n in range(NAMESPACES):
        yield {
            "apiVersion": "v1",
            "kind": "Namespace",
            "metadata": {
                "creationTimestamp": _EPOCH,
                "labels": {"kubernetes.io/metadata.name": f"team-{n:02d}"},
                "name": f"team-{n:02d}",
                "uid": _uid(rng),
            },
            "spec": {"finalizers": ["kubernetes"]},
            "status": {"phase": "Active"},
        }
    node_names = [f"node-{i:05d}" for i in range(nodes)]
    for i in range(nodes):
        yield node(i, rng)
    daemon_uids = {name: _uid(rng) for name in DAEMONSETS}
    for name in DAEMONSETS:
        for i, node_name in enumerate(node_names):
            owner = ("DaemonSet", name, daemon_uids[name])
            yield pod(f"{name}-{i:05x}", "kube-system", owner, node_name, "Running", rng)
    running = nodes * 34 // 10
    pending = nodes * 6 // 10
    finished = nodes * 8 // 100
    sets: list[dict[str, Any]] = []
    claims = 0
    for start in range(0, running + pending + finished, PODS_PER_REPLICA_SET):
        index = start // PODS_PER_REPLICA_SET
        namespace = f"team-{index % NAMESPACES:02d}"
        rs_name = f"service-{index:05d}-{rng.getrandbits(32):08x}"
        rs_uid = _uid(rng)
        replicas = min(PODS_PER_REPLICA_SET, running + pending + finished - start)
        sets.append(replica_set(rs_name, namespace, rs_uid, replicas, rng))
        for k in range(replicas):
            number = start + k
            phase, node_name = "Running", node_names[rng.randrange(nodes)]
            if number >= running + pending:
                phase = rng.choice(["Succeeded", "Failed"])
            elif number >= running:
                phase, node_name = "Pending", None
            claim_name = None
            if number % 17 == 0 and claims < nodes // 5:
                claim_name = f"data-{rs_name}-{k}"
                claims += 1
            yield pod(
                f"{rs_name}-{rng.getrandbits(25):05x}",
                namespace,
                ("ReplicaSet", rs_name, rs_uid),
                node_name,
                phase,
                rng,
                claim_name,
            )
    yield from sets
    rng_claims = random.Random(seed + 1)
    for c in range(nodes // 5):
        yield claim(f"claim-{c:05d}", f"team-{c % NAMESPACES:02d}", rng_claims)
    for s in range(nodes // 5):
        yield service(
            f"service-{s:05d}", f"team-{s % NAMESPACES:02d}", f"service-{s:05d}", rng_claims
        )


def _scalar(value: Any) -> str:
    if value is None:
        return "null"
    if value is True:
        return "true"
    if value is False:
        return "false"
    if isinstance(value, int):
        return str(value)
    if _PLAIN.match(value) and value not in _YAML11_WORDS:
        return value
    return json.dumps(value)


def _key(key: str) -> str:
    return key if _PLAIN.match(key) and key not in _YAML11_WORDS else json.dumps(key)


def _yaml_lines(value: Any, indent: str, out: list[str]) -> None:
    """Block YAML of a mapping's entries at `indent`, as kubectl lays it out."""
    for key, item in value.items():
        head = f"{indent}{_key(key)}:"
        _yaml_value(head, item, indent, out)


def _yaml_value(head: str, item: Any, indent: str, out: list[str]) -> None:
    if isinstance(item, dict):
        if not item:
            out.append(f"{head} {{}}")
        else:
            out.append(head)
            _yaml_lines(item, indent + "  ", out)
    elif isinstance(item, list):
        if not item:
            out.append(f"{head} []")
        else:
            out.append(head)
            _yaml_sequence(item, indent, out)
    else:
        out.append(f"{head} {_scalar(item)}")


def _yaml_sequence(values: list[Any], indent: str, out: list[str]) -> None:
    for entry in values:
        if isinstance(entry, dict) and entry:
            first = True
            for key, item in entry.items():
                prefix = f"{indent}- " if first else f"{indent}  "
                _yaml_value(f"{prefix}{_key(key)}:", item, indent + "  ", out)
                first = False
        elif isinstance(entry, list) and entry:
            out.append(f"{indent}-")
            _yaml_sequence(entry, indent + "  ", out)
        else:
            shown = "{}" if entry == {} else "[]" if entry == [] else _scalar(entry)
            out.append(f"{indent}- {shown}")


def write(nodes: int, seed: int, form: str, stream: TextIO) -> int:
    """Write the dump to `stream`; returns how many objects it holds."""
    count = 0
    if form == "json":
        stream.write('{\n    "apiVersion": "v1",\n    "items": [\n')
        for obj in items(nodes, seed):
            if count:
                stream.write(",\n")
            stream.write(json.dumps(obj, indent=4))
            count += 1
        stream.write('\n    ],\n    "kind": "List",\n')
        stream.write('    "metadata": {\n        "resourceVersion": ""\n    }\n}\n')
        return count
    stream.write("apiVersion: v1\nitems:\n")
    for obj in items(nodes, seed):
        lines: list[str] = []
        _yaml_sequence([obj], "", lines)
        stream.write("\n".join(lines))
        stream.write("\n")
        count += 1
    stream.write('kind: List\nmetadata:\n  resourceVersion: ""\n')
    return count


def ensure(nodes: int, seed: int, form: str, folder: Path) -> tuple[Path, int]:
    """The dump's path in `folder` and its object count, written first when it is not
    there yet (the count beside it, in a `.count` file)."""
    path = folder / f"dump-{nodes}-nodes-seed{seed}.{form}"
    counted = path.with_suffix(path.suffix + ".count")
    if not (path.exists() and counted.exists()):
        folder.mkdir(parents=True, exist_ok=True)
        partial = path.with_suffix(path.suffix + ".partial")
        with partial.open("w", encoding="utf-8") as stream:
            count = write(nodes, seed, form, stream)
        partial.replace(path)
        counted.write_text(f"{count}\n")
    return path, int(counted.read_text())


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--nodes", type=int, default=500)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--format", choices=["yaml", "json"], default="yaml")
    parser.add_argument("-o", "--output", type=Path, help="file to write (default: stdout)")
    args = parser.parse_args(argv)
    if args.output is None:
        count = write(args.nodes, args.seed, args.format, sys.stdout)
    else:
        with args.output.open("w", encoding="utf-8") as stream:
            count = write(args.nodes, args.seed, args.format, stream)
    print(f"{count} objects", file=sys.stderr)


if __name__ == "__main__":
    main(sys.argv[1:])
