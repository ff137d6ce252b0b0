# ruff: noqa: E501  (a table of cases reads best one case a line)
"""Objects kube-apiserver refuses, each with the one line `kubesched simulate` prints for it.

Every case is (id, the manifest's objects, what stderr says after `error: <file>: `); the
exit code is 2 for all of them. The objects are written as YAML by `manifest()`. The
messages are upstream's field paths and wording (pkg/apis/core/validation and apimachinery's
validators); `run_corpus.py` and `test_corpus.py` run them all.
"""

from __future__ import annotations

from typing import Any

import yaml

Obj = dict[str, Any]
NODE: Obj = {
    "apiVersion": "v1",
    "kind": "Node",
    "metadata": {"name": "n1"},
    "status": {"allocatable": {"cpu": "4", "memory": "8Gi", "pods": "110"}},
}


def pod(spec: Obj | None = None, container: Obj | None = None, meta: Obj | None = None) -> Obj:
    """A pod `default/p` with one container `c`, with extra spec, container and metadata."""
    return {
        "apiVersion": "v1",
        "kind": "Pod",
        "metadata": {"name": "p", "namespace": "default", **(meta or {})},
        "spec": {"containers": [{"name": "c", **(container or {})}], **(spec or {})},
    }


def node(spec: Obj | None = None, meta: Obj | None = None, status: Obj | None = None) -> Obj:
    """The node `n1`, with extra spec, metadata and allocatable."""
    allocatable = {**NODE["status"]["allocatable"], **(status or {})}
    return {**NODE, "metadata": {"name": "n1", **(meta or {})}, "spec": spec or {},
            "status": {"allocatable": allocatable}}  # fmt: skip


def priority_class(name: str = "gold", value: int = 1000, **extra: Any) -> Obj:
    return {"apiVersion": "scheduling.k8s.io/v1", "kind": "PriorityClass",
            "metadata": {"name": name}, "value": value, **extra}  # fmt: skip


def pdb(spec: Obj) -> Obj:
    return {"apiVersion": "policy/v1", "kind": "PodDisruptionBudget", "metadata": {"name": "b"},
            "spec": spec}  # fmt: skip


def replica_set(selector: Obj) -> Obj:
    return {"apiVersion": "apps/v1", "kind": "ReplicaSet", "metadata": {"name": "rs"},
            "spec": {"selector": selector}}  # fmt: skip


def manifest(objects: list[Obj]) -> str:
    """The objects as one multi-document YAML text."""
    return "---\n".join(yaml.safe_dump(o, sort_keys=False) for o in objects)


def required_terms(*expressions: Obj, fields: list[Obj] | None = None) -> Obj:
    term: Obj = {"matchExpressions": list(expressions)}
    if fields is not None:
        term = {"matchFields": fields}
    return {"affinity": {"nodeAffinity": {"requiredDuringSchedulingIgnoredDuringExecution": {
        "nodeSelectorTerms": [term]}}}}  # fmt: skip


def pod_term(term: Obj, anti: bool = False) -> Obj:
    kind = "podAntiAffinity" if anti else "podAffinity"
    return {"affinity": {kind: {"requiredDuringSchedulingIgnoredDuringExecution": [term]}}}


def spread(**constraint: Any) -> Obj:
    base = {"maxSkew": 1, "topologyKey": "zone", "whenUnsatisfiable": "DoNotSchedule"}
    return {"topologySpreadConstraints": [{**base, **constraint}]}


def toleration(**fields: Any) -> Obj:
    return {"tolerations": [fields]}


def ports(**port: Any) -> Obj:
    return {"ports": [{"containerPort": 80, **port}]}


def resources(requests: Obj | None = None, limits: Obj | None = None) -> Obj:
    given: Obj = {}
    if requests is not None:
        given["requests"] = requests
    if limits is not None:
        given["limits"] = limits
    return {"resources": given}


P = "Pod default/p: field "
NA = (
    "spec.affinity.nodeAffinity.requiredDuringSchedulingIgnoredDuringExecution.nodeSelectorTerms[0]"
)
PA = "spec.affinity.podAffinity.requiredDuringSchedulingIgnoredDuringExecution[0]"
TSC = "spec.topologySpreadConstraints[0]"
TOL = "spec.tolerations[0]"
PORT = "spec.containers[0].ports[0]"
RES = "spec.containers[0].resources"
BAD_KEY = "a valid label key must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]') with an optional DNS subdomain prefix and '/' (e.g. 'example.com/MyName')"
NAME_PART = "name part must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]')"
BAD_VALUE = "a valid label must be an empty string or consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyValue',  or 'my_value',  or '12345', regex used for validation is '(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?')"
LONG = "x" * 64
EFFECTS = 'supported values: "NoSchedule", "PreferNoSchedule", "NoExecute"'
SUBDOMAIN = "a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')"
WEB: Obj = {"labels": {"app": "web"}}


def _expr(key: str = "zone", operator: str = "In", values: list[str] | None = None) -> Obj:
    given: Obj = {"key": key, "operator": operator}
    if values is not None:
        given["values"] = values
    return given


CASES: list[tuple[str, list[Obj], str]] = [
    # node affinity: operators, values, keys, terms, weights, match fields
    ("na-bogus-operator", [pod(required_terms(_expr(operator="Near", values=["a"])))],
     f'document 0: {P}{NA}.matchExpressions[0].operator: Invalid value: "Near": not a valid selector operator'),
    ("na-in-no-values", [pod(required_terms(_expr(values=[])))],
     f"document 0: {P}{NA}.matchExpressions[0].values: Required value: must be specified when `operator` is 'In' or 'NotIn'"),
    ("na-notin-no-values", [pod(required_terms(_expr(operator="NotIn")))],
     f"document 0: {P}{NA}.matchExpressions[0].values: Required value: must be specified when `operator` is 'In' or 'NotIn'"),
    ("na-exists-with-values", [pod(required_terms(_expr(operator="Exists", values=["a"])))],
     f"document 0: {P}{NA}.matchExpressions[0].values: Forbidden: may not be specified when `operator` is 'Exists' or 'DoesNotExist'"),
    ("na-doesnotexist-with-values", [pod(required_terms(_expr(operator="DoesNotExist", values=["a"])))],
     f"document 0: {P}{NA}.matchExpressions[0].values: Forbidden: may not be specified when `operator` is 'Exists' or 'DoesNotExist'"),
    ("na-gt-non-integer", [pod(required_terms(_expr(operator="Gt", values=["abc"])))],
     f"document 0: {P}{NA}.matchExpressions[0].values[0]: Invalid value: \"abc\": for 'Gt', 'Lt' operators, the value must be an integer"),
    ("na-lt-fraction", [pod(required_terms(_expr(operator="Lt", values=["1.5"])))],
     f"document 0: {P}{NA}.matchExpressions[0].values[0]: Invalid value: \"1.5\": for 'Gt', 'Lt' operators, the value must be an integer"),
    ("na-gt-two-values", [pod(required_terms(_expr(operator="Gt", values=["1", "2"])))],
     f"document 0: {P}{NA}.matchExpressions[0].values: Required value: must be specified single value when `operator` is 'Lt' or 'Gt'"),
    ("na-lt-no-value", [pod(required_terms(_expr(operator="Lt")))],
     f"document 0: {P}{NA}.matchExpressions[0].values: Required value: must be specified single value when `operator` is 'Lt' or 'Gt'"),
    ("na-gt-beyond-int64", [pod(required_terms(_expr(operator="Gt", values=["9223372036854775808"])))],
     f"document 0: {P}{NA}.matchExpressions[0].values[0]: Invalid value: \"9223372036854775808\": for 'Gt', 'Lt' operators, the value must be an integer"),
    ("na-bad-key", [pod(required_terms(_expr(key="bad key", values=["a"])))],
     f'document 0: {P}{NA}.matchExpressions[0].key: Invalid value: "bad key": {NAME_PART}'),
    ("na-empty-key", [pod(required_terms(_expr(key="", values=["a"])))],
     f'document 0: {P}{NA}.matchExpressions[0].key: Invalid value: "": name part must be non-empty'),
    ("na-key-two-slashes", [pod(required_terms(_expr(key="a/b/c", values=["a"])))],
     f'document 0: {P}{NA}.matchExpressions[0].key: Invalid value: "a/b/c": {BAD_KEY}'),
    ("na-no-terms", [pod({"affinity": {"nodeAffinity": {"requiredDuringSchedulingIgnoredDuringExecution": {"nodeSelectorTerms": []}}}})],
     f"document 0: {P}spec.affinity.nodeAffinity.requiredDuringSchedulingIgnoredDuringExecution.nodeSelectorTerms: Required value: must have at least one node selector term"),
    ("na-field-wrong-key", [pod(required_terms(fields=[_expr(key="metadata.uid", values=["a"])]))],
     f'document 0: {P}{NA}.matchFields[0].key: Invalid value: "metadata.uid": not a valid field selector key'),
    ("na-field-bad-node-name", [pod(required_terms(fields=[_expr(key="metadata.name", values=["Node_1"])]))],
     f'document 0: {P}{NA}.matchFields[0].values[0]: Invalid value: "Node_1": {SUBDOMAIN}'),
    ("na-bad-label-value", [pod(required_terms(_expr(values=["a b"])))],
     f'document 0: {P}{NA}.matchExpressions[0].values[0]: Invalid value: "a b": {BAD_VALUE}'),
    ("na-second-value-too-long", [pod(required_terms(_expr(operator="NotIn", values=["a", LONG])))],
     f'document 0: {P}{NA}.matchExpressions[0].values[1]: Invalid value: "{LONG}": must be no more than 63 bytes'),
    ("na-field-two-values", [pod(required_terms(fields=[_expr(key="metadata.name", values=["a", "b"])]))],
     f"document 0: {P}{NA}.matchFields[0].values: Required value: must be only one value when `operator` is 'In' or 'NotIn' for node field selector"),
    ("na-field-exists", [pod(required_terms(fields=[_expr(key="metadata.name", operator="Exists")]))],
     f'document 0: {P}{NA}.matchFields[0].operator: Invalid value: "Exists": not a valid selector operator'),
    ("na-preferred-weight-0", [pod({"affinity": {"nodeAffinity": {"preferredDuringSchedulingIgnoredDuringExecution": [{"weight": 0, "preference": {"matchExpressions": [_expr(values=["a"])]}}]}}})],
     f"document 0: {P}spec.affinity.nodeAffinity.preferredDuringSchedulingIgnoredDuringExecution[0].weight: Invalid value: 0: must be in the range 1-100"),
    ("na-preferred-weight-101", [pod({"affinity": {"nodeAffinity": {"preferredDuringSchedulingIgnoredDuringExecution": [{"weight": 101, "preference": {"matchExpressions": [_expr(values=["a"])]}}]}}})],
     f"document 0: {P}spec.affinity.nodeAffinity.preferredDuringSchedulingIgnoredDuringExecution[0].weight: Invalid value: 101: must be in the range 1-100"),
    ("na-preferred-bad-operator", [pod({"affinity": {"nodeAffinity": {"preferredDuringSchedulingIgnoredDuringExecution": [{"weight": 5, "preference": {"matchExpressions": [_expr(operator="Is", values=["a"])]}}]}}})],
     f'document 0: {P}spec.affinity.nodeAffinity.preferredDuringSchedulingIgnoredDuringExecution[0].preference.matchExpressions[0].operator: Invalid value: "Is": not a valid selector operator'),
    # pod (anti-)affinity
    ("pa-empty-topology-key", [pod(pod_term({"topologyKey": "", "labelSelector": {"matchLabels": {"a": "b"}}}))],
     f"document 0: {P}{PA}.topologyKey: Required value: can not be empty"),
    ("pa-bad-topology-key", [pod(pod_term({"topologyKey": "bad key"}))],
     f'document 0: {P}{PA}.topologyKey: Invalid value: "bad key": {NAME_PART}'),
    ("pa-selector-operator", [pod(pod_term({"topologyKey": "zone", "labelSelector": {"matchExpressions": [_expr(operator="Near", values=["a"])]}}))],
     f'document 0: {P}{PA}.labelSelector.matchExpressions[0].operator: Invalid value: "Near": not a valid selector operator'),
    ("pa-selector-in-no-values", [pod(pod_term({"topologyKey": "zone", "labelSelector": {"matchExpressions": [_expr(values=[])]}}))],
     f"document 0: {P}{PA}.labelSelector.matchExpressions[0].values: Required value: must be specified when `operator` is 'In' or 'NotIn'"),
    ("pa-selector-bad-value", [pod(pod_term({"topologyKey": "zone", "labelSelector": {"matchExpressions": [_expr(values=["-a"])]}}))],
     f'document 0: {P}{PA}.labelSelector.matchExpressions[0].values[0]: Invalid value: "-a": {BAD_VALUE}'),
    ("pa-selector-bad-label", [pod(pod_term({"topologyKey": "zone", "labelSelector": {"matchLabels": {"a": "b c"}}}))],
     f'document 0: {P}{PA}.labelSelector.matchLabels: Invalid value: "b c": {BAD_VALUE}'),
    ("pa-namespace-selector", [pod(pod_term({"topologyKey": "zone", "namespaceSelector": {"matchExpressions": [_expr(operator="Exists", values=["x"])]}}))],
     f"document 0: {P}{PA}.namespaceSelector.matchExpressions[0].values: Forbidden: may not be specified when `operator` is 'Exists' or 'DoesNotExist'"),
    ("pa-bad-namespace", [pod(pod_term({"topologyKey": "zone", "namespaces": ["Bad_NS"]}))],
     f'document 0: {P}{PA}.namespace: Invalid value: "Bad_NS": a lowercase RFC 1123 label must consist of lower case alphanumeric characters or \'-\', and must start and end with an alphanumeric character (e.g. \'my-name\',  or \'123-abc\', regex used for validation is \'[a-z0-9]([-a-z0-9]*[a-z0-9])?\')'),
    ("anti-empty-topology-key", [pod(pod_term({"topologyKey": ""}, anti=True))],
     f"document 0: {P}spec.affinity.podAntiAffinity.requiredDuringSchedulingIgnoredDuringExecution[0].topologyKey: Required value: can not be empty"),
    ("anti-preferred-weight", [pod({"affinity": {"podAntiAffinity": {"preferredDuringSchedulingIgnoredDuringExecution": [{"weight": -1, "podAffinityTerm": {"topologyKey": "zone"}}]}}})],
     f"document 0: {P}spec.affinity.podAntiAffinity.preferredDuringSchedulingIgnoredDuringExecution[0].weight: Invalid value: -1: must be in the range 1-100"),
    ("pa-preferred-term-key", [pod({"affinity": {"podAffinity": {"preferredDuringSchedulingIgnoredDuringExecution": [{"weight": 1, "podAffinityTerm": {"topologyKey": ""}}]}}})],
     f"document 0: {P}spec.affinity.podAffinity.preferredDuringSchedulingIgnoredDuringExecution[0].podAffinityTerm.topologyKey: Required value: can not be empty"),
    # topology spread constraints
    ("tsc-max-skew-0", [pod(spread(maxSkew=0, whenUnsatisfiable="ScheduleAnyway"))],
     f"document 0: {P}{TSC}.maxSkew: Invalid value: 0: must be greater than zero"),
    ("tsc-max-skew-negative", [pod(spread(maxSkew=-2))],
     f"document 0: {P}{TSC}.maxSkew: Invalid value: -2: must be greater than zero"),
    ("tsc-empty-topology-key", [pod(spread(topologyKey=""))],
     f"document 0: {P}{TSC}.topologyKey: Required value: can not be empty"),
    ("tsc-bogus-when-unsatisfiable", [pod(spread(whenUnsatisfiable="Bogus"))],
     f'document 0: {P}{TSC}.whenUnsatisfiable: Unsupported value: "Bogus": supported values: "DoNotSchedule", "ScheduleAnyway"'),
    ("tsc-min-domains-0", [pod(spread(minDomains=0))],
     f"document 0: {P}{TSC}.minDomains: Invalid value: 0: must be greater than zero"),
    ("tsc-min-domains-negative", [pod(spread(minDomains=-1))],
     f"document 0: {P}{TSC}.minDomains: Invalid value: -1: must be greater than zero"),
    ("tsc-min-domains-schedule-anyway", [pod(spread(minDomains=2, whenUnsatisfiable="ScheduleAnyway"))],
     f"document 0: {P}{TSC}.minDomains: Invalid value: 2: can only use minDomains if whenUnsatisfiable=DoNotSchedule, not ScheduleAnyway"),
    ("tsc-duplicate-pair", [pod({"topologySpreadConstraints": [{"maxSkew": 1, "topologyKey": "zone", "whenUnsatisfiable": "DoNotSchedule"}] * 2})],
     f'document 0: {P}{TSC}.{{topologyKey, whenUnsatisfiable}}: Duplicate value: "{{zone, DoNotSchedule}}"'),
    ("tsc-node-affinity-policy", [pod(spread(nodeAffinityPolicy="Sometimes"))],
     f'document 0: {P}{TSC}.nodeAffinityPolicy: Unsupported value: "Sometimes": supported values: "Honor", "Ignore"'),
    ("tsc-node-taints-policy", [pod(spread(nodeTaintsPolicy="honor"))],
     f'document 0: {P}{TSC}.nodeTaintsPolicy: Unsupported value: "honor": supported values: "Honor", "Ignore"'),
    ("tsc-selector-operator", [pod(spread(labelSelector={"matchExpressions": [_expr(operator="in", values=["a"])]}))],
     f'document 0: {P}{TSC}.labelSelector.matchExpressions[0].operator: Invalid value: "in": not a valid selector operator'),
    ("tsc-selector-bad-key", [pod(spread(labelSelector={"matchLabels": {"-app": "web"}}))],
     f'document 0: {P}{TSC}.labelSelector.matchLabels: Invalid value: "-app": {NAME_PART}'),
    ("tsc-match-label-key", [pod(spread(matchLabelKeys=["bad key"], labelSelector={"matchLabels": {"app": "web"}}))],
     f'document 0: {P}{TSC}.matchLabelKeys[0]: Invalid value: "bad key": {NAME_PART}'),
    ("tsc-match-label-keys-without-selector", [pod(spread(matchLabelKeys=["app"]))],
     f"document 0: {P}{TSC}.matchLabelKeys: Forbidden: must not be specified when labelSelector is not set"),
    ("tsc-match-label-key-in-match-labels", [pod(spread(matchLabelKeys=["app"], labelSelector={"matchLabels": {"app": "x"}}), meta=WEB)],
     f'document 0: {P}{TSC}[0]: Invalid value: "app": exists in both matchLabelKeys and labelSelector'),
    ("tsc-match-label-key-in-expressions", [pod(spread(matchLabelKeys=["tier", "app"], labelSelector={"matchExpressions": [_expr("app", "Exists")]}), meta=WEB)],
     f'document 0: {P}{TSC}[1]: Invalid value: "app": exists in both matchLabelKeys and labelSelector'),
    ("tsc-second-match-label-key-bad", [pod(spread(matchLabelKeys=["app", "-x"], labelSelector={"matchLabels": {"tier": "a"}}))],
     f'document 0: {P}{TSC}.matchLabelKeys[1]: Invalid value: "-x": {NAME_PART}'),
    # matchLabelKeys and mismatchLabelKeys of pod (anti-)affinity terms
    ("pa-match-label-keys-without-selector", [pod(pod_term({"topologyKey": "zone", "matchLabelKeys": ["app"]}))],
     f"document 0: {P}{PA}.matchLabelKeys: Forbidden: must not be specified when labelSelector is not set"),
    ("pa-mismatch-label-keys-without-selector", [pod(pod_term({"topologyKey": "zone", "mismatchLabelKeys": ["app"]}))],
     f"document 0: {P}{PA}.mismatchLabelKeys: Forbidden: must not be specified when labelSelector is not set"),
    ("pa-match-label-key-bad-name", [pod(pod_term({"topologyKey": "zone", "labelSelector": {}, "matchLabelKeys": ["a/b/c"]}))],
     f'document 0: {P}{PA}.matchLabelKeys[0]: Invalid value: "a/b/c": {BAD_KEY}'),
    ("pa-mismatch-label-key-bad-name", [pod(pod_term({"topologyKey": "zone", "labelSelector": {}, "mismatchLabelKeys": ["ok", LONG]}))],
     f'document 0: {P}{PA}.mismatchLabelKeys[1]: Invalid value: "{LONG}": name part must be no more than 63 bytes'),
    ("pa-key-in-both-lists", [pod(pod_term({"topologyKey": "zone", "labelSelector": {}, "matchLabelKeys": ["app"], "mismatchLabelKeys": ["app"]}))],
     f'document 0: {P}{PA}.matchLabelKeys[0]: Invalid value: "app": exists in both matchLabelKeys and mismatchLabelKeys'),
    ("pa-match-label-key-in-match-labels", [pod(pod_term({"topologyKey": "zone", "labelSelector": {"matchLabels": {"app": "x"}}, "matchLabelKeys": ["app"]}), meta=WEB)],
     f'document 0: {P}{PA}[0]: Invalid value: "app": exists in both matchLabelKeys and labelSelector'),
    ("pa-match-label-key-in-expressions", [pod(pod_term({"topologyKey": "zone", "labelSelector": {"matchExpressions": [_expr("app", "NotIn", ["db"])]}, "matchLabelKeys": ["app"]}), meta=WEB)],
     f'document 0: {P}{PA}[0]: Invalid value: "app": exists in both matchLabelKeys and labelSelector'),
    ("anti-preferred-match-label-key-in-selector", [pod({"affinity": {"podAntiAffinity": {"preferredDuringSchedulingIgnoredDuringExecution": [{"weight": 1, "podAffinityTerm": {"topologyKey": "zone", "labelSelector": {"matchLabels": {"app": "x"}}, "matchLabelKeys": ["app"]}}]}}}, meta=WEB)],
     f'document 0: {P}spec.affinity.podAntiAffinity.preferredDuringSchedulingIgnoredDuringExecution[0].podAffinityTerm[0]: Invalid value: "app": exists in both matchLabelKeys and labelSelector'),
    # tolerations
    ("tol-bogus-effect", [pod(toleration(key="k", operator="Exists", effect="Bogus"))],
     f'document 0: {P}{TOL}.effect: Unsupported value: "Bogus": {EFFECTS}'),
    ("tol-bogus-operator", [pod(toleration(key="k", operator="Near"))],
     f'document 0: {P}{TOL}.operator: Unsupported value: "Near": supported values: "Equal", "Exists"'),
    ("tol-gt-without-gate", [pod(toleration(key="k", operator="Gt", value="5"))],
     f'document 0: {P}{TOL}.operator: Unsupported value: "Gt": supported values: "Equal", "Exists"'),
    ("tol-empty-key-equal", [pod(toleration(operator="Equal", value="v"))],
     f'document 0: {P}{TOL}.operator: Invalid value: "Equal": operator must be Exists when `key` is empty, which means "match all values and all keys"'),
    ("tol-exists-with-value", [pod(toleration(key="k", operator="Exists", value="v"))],
     f"document 0: {P}{TOL}.operator: Invalid value: \"v\": value must be empty when `operator` is 'Exists'"),
    ("tol-bad-value", [pod(toleration(key="k", operator="Equal", value="a b"))],
     f'document 0: {P}{TOL}.operator: Invalid value: "a b": {BAD_VALUE}'),
    ("tol-long-value", [pod(toleration(key="k", value=LONG))],
     f'document 0: {P}{TOL}.operator: Invalid value: "{LONG}": must be no more than 63 bytes'),
    ("tol-bad-key", [pod(toleration(key="a/b/c", operator="Exists"))],
     f'document 0: {P}{TOL}.key: Invalid value: "a/b/c": {BAD_KEY}'),
    ("tol-seconds-without-noexecute", [pod(toleration(key="k", operator="Exists", effect="NoSchedule", tolerationSeconds=5))],
     f"document 0: {P}{TOL}.effect: Invalid value: \"NoSchedule\": effect must be 'NoExecute' when `tolerationSeconds` is set"),
    # ports
    ("port-host-70000", [pod(container=ports(hostPort=70000))],
     f"document 0: {P}{PORT}.hostPort: Invalid value: 70000: must be between 1 and 65535, inclusive"),
    ("port-host-negative", [pod(container=ports(hostPort=-1))],
     f"document 0: {P}{PORT}.hostPort: Invalid value: -1: must be between 1 and 65535, inclusive"),
    ("port-container-0", [pod(container={"ports": [{"containerPort": 0}]})],
     f"document 0: {P}{PORT}.containerPort: Required value"),
    ("port-container-missing", [pod(container={"ports": [{"hostPort": 80}]})],
     f"document 0: {P}{PORT}.containerPort: Required value"),
    ("port-container-65536", [pod(container=ports(containerPort=65536))],
     f"document 0: {P}{PORT}.containerPort: Invalid value: 65536: must be between 1 and 65535, inclusive"),
    ("port-protocol", [pod(container=ports(protocol="ICMP"))],
     f'document 0: {P}{PORT}.protocol: Unsupported value: "ICMP": supported values: "SCTP", "TCP", "UDP"'),
    ("port-protocol-lowercase", [pod(container=ports(protocol="tcp"))],
     f'document 0: {P}{PORT}.protocol: Unsupported value: "tcp": supported values: "SCTP", "TCP", "UDP"'),
    ("port-duplicate-name", [pod(container={"ports": [{"containerPort": 80, "name": "web"}, {"containerPort": 81, "name": "web"}]})],
     f'document 0: {P}spec.containers[0].ports[1].name: Duplicate value: "web"'),
    ("port-init-container", [pod({"initContainers": [{"name": "i", "ports": [{"containerPort": 99999}]}]})],
     f"document 0: {P}spec.initContainers[0].ports[0].containerPort: Invalid value: 99999: must be between 1 and 65535, inclusive"),
    # host ports: unique per protocol and host IP across containers, each init container alone
    ("host-port-twice-across-containers", [pod({"containers": [{"name": "a", **ports(hostPort=8080)}, {"name": "b", **ports(containerPort=81, hostPort=8080)}]})],
     f'document 0: {P}spec.containers[1].ports[0].hostPort: Duplicate value: "TCP//8080"'),
    ("host-port-twice-in-a-container", [pod(container={"ports": [{"containerPort": 53, "hostPort": 53, "protocol": "UDP"}, {"containerPort": 54, "hostPort": 53, "protocol": "UDP"}]})],
     f'document 0: {P}spec.containers[0].ports[1].hostPort: Duplicate value: "UDP//53"'),
    ("host-port-twice-on-one-host-ip", [pod({"containers": [{"name": "a", **ports(hostPort=80, hostIP="10.0.0.1")}, {"name": "b", **ports(hostPort=80, hostIP="10.0.0.1")}]})],
     f'document 0: {P}spec.containers[1].ports[0].hostPort: Duplicate value: "TCP/10.0.0.1/80"'),
    ("host-port-twice-in-an-init-container", [pod({"initContainers": [{"name": "i", "ports": [{"containerPort": 80, "hostPort": 9000}, {"containerPort": 81, "hostPort": 9000}]}]})],
     f'document 0: {P}spec.initContainers[0].ports[1].hostPort: Duplicate value: "TCP//9000"'),
    ("host-port-twice-in-the-second-init-container", [pod({"initContainers": [{"name": "i"}, {"name": "j", "ports": [{"containerPort": 80, "hostPort": 9000}, {"containerPort": 81, "hostPort": 9000}]}]})],
     f'document 0: {P}spec.initContainers[0].ports[1].hostPort: Duplicate value: "TCP//9000"'),
    ("host-network-host-port-differs", [pod({"hostNetwork": True}, container=ports(hostPort=8080))],
     f"document 0: {P}{PORT}.hostPort: Invalid value: 8080: must match `containerPort` when `hostNetwork` is true"),
    ("host-network-second-container", [pod({"hostNetwork": True, "containers": [{"name": "a", **ports()}, {"name": "b", "ports": [{"containerPort": 90}, {"containerPort": 91, "hostPort": 92}]}]})],
     f"document 0: {P}spec.containers[1].ports[1].hostPort: Invalid value: 92: must match `containerPort` when `hostNetwork` is true"),
    ("host-network-defaulted-ports-collide", [pod({"hostNetwork": True, "containers": [{"name": "a", **ports()}, {"name": "b", **ports()}]})],
     f'document 0: {P}spec.containers[1].ports[0].hostPort: Duplicate value: "TCP//80"'),
    # resources
    ("limits-below-requests-cpu", [pod(container=resources({"cpu": "2"}, {"cpu": "1"}))],
     f'document 0: {P}{RES}.requests: Invalid value: "2": must be less than or equal to cpu limit of 1'),
    ("limits-below-requests-memory", [pod(container=resources({"memory": "2Gi"}, {"memory": "1Gi"}))],
     f'document 0: {P}{RES}.requests: Invalid value: "2Gi": must be less than or equal to memory limit of 1Gi'),
    ("limits-below-requests-millicpu", [pod(container=resources({"cpu": "500m"}, {"cpu": "250m"}))],
     f'document 0: {P}{RES}.requests: Invalid value: "500m": must be less than or equal to cpu limit of 250m'),
    ("extended-request-without-limit", [pod(container=resources({"example.com/gpu": "1"}))],
     f"document 0: {P}{RES}.limits: Required value: Limit must be set for non overcommitable resources"),
    ("extended-request-not-limit", [pod(container=resources({"example.com/gpu": "1"}, {"example.com/gpu": "2"}))],
     f'document 0: {P}{RES}.requests: Invalid value: "1": must be equal to example.com/gpu limit of 2'),
    ("hugepages-request-not-limit", [pod(container=resources({"hugepages-2Mi": "2Mi", "memory": "1Gi"}, {"hugepages-2Mi": "4Mi", "memory": "1Gi"}))],
     f'document 0: {P}{RES}.requests: Invalid value: "2Mi": must be equal to hugepages-2Mi limit of 4Mi'),
    ("extended-fraction", [pod(container=resources({"example.com/gpu": "0.5"}, {"example.com/gpu": "0.5"}))],
     f"document 0: {P}spec.containers[0].resources.requests.example.com/gpu: Invalid value: 500m: must be an integer"),
    ("extended-milli", [pod(container=resources(limits={"example.com/gpu": "1500m"}))],
     f"document 0: {P}spec.containers[0].resources.limits.example.com/gpu: Invalid value: 1500m: must be an integer"),
    ("node-fractional-pods", [node(status={"pods": "1.5"})],
     "document 0: Node n1: field status.allocatable.pods: Invalid value: 1500m: must be an integer"),
    ("node-fractional-extended", [node(status={"example.com/fpga": "2.5"})],
     "document 0: Node n1: field status.allocatable.example.com/fpga: Invalid value: 2500m: must be an integer"),
    ("overhead-negative", [pod({"overhead": {"cpu": "-1"}})],
     f'document 0: {P}spec.overhead[cpu]: Invalid value: "-1": must be greater than or equal to 0'),
    ("overhead-fraction-extended", [pod({"overhead": {"example.com/x": "0.1"}})],
     f"document 0: {P}spec.overhead.example.com/x: Invalid value: 100m: must be an integer"),
    ("init-limits-below-requests", [pod({"initContainers": [{"name": "i", **resources({"cpu": "3"}, {"cpu": "2"})}]})],
     f'document 0: {P}spec.initContainers[0].resources.requests: Invalid value: "3": must be less than or equal to cpu limit of 2'),
    # scheduling gates, priority, preemption policy
    ("gate-bad-name", [pod({"schedulingGates": [{"name": "bad gate"}]})],
     f'document 0: {P}spec.schedulingGates[0]: Invalid value: "bad gate": {NAME_PART}'),
    ("gate-empty-name", [pod({"schedulingGates": [{"name": ""}]})],
     f'document 0: {P}spec.schedulingGates[0]: Invalid value: "": name part must be non-empty'),
    ("gate-duplicate", [pod({"schedulingGates": [{"name": "example.com/a"}, {"name": "example.com/a"}]})],
     f'document 0: {P}spec.schedulingGates[1]: Duplicate value: "example.com/a"'),
    ("priority-over-int32", [pod({"priority": 2147483648})],
     f"document 0: {P}spec.priority: Invalid value: 2147483648: must fit in a 32-bit integer"),
    ("priority-under-int32", [pod({"priority": -2147483649})],
     f"document 0: {P}spec.priority: Invalid value: -2147483649: must fit in a 32-bit integer"),
    ("preemption-policy", [pod({"preemptionPolicy": "Always"})],
     f'document 0: {P}spec.preemptionPolicy: Unsupported value: "Always": supported values: "Never", "PreemptLowerPriority"'),
    ("node-selector-bad-value", [pod({"nodeSelector": {"zone": "a b"}})],
     f'document 0: {P}spec.nodeSelector: Invalid value: "a b": {BAD_VALUE}'),
    ("node-selector-bad-key", [pod({"nodeSelector": {"a/b/c": "x"}})],
     f'document 0: {P}spec.nodeSelector: Invalid value: "a/b/c": {BAD_KEY}'),
    # labels and annotations, on every kind
    ("pod-label-bad-key", [pod(meta={"labels": {"bad key": "x"}})],
     f'document 0: {P}metadata.labels: Invalid value: "bad key": {NAME_PART}'),
    ("pod-label-bad-value", [pod(meta={"labels": {"app": "-web"}})],
     f'document 0: {P}metadata.labels: Invalid value: "-web": {BAD_VALUE}'),
    ("pod-label-long-value", [pod(meta={"labels": {"app": LONG}})],
     f'document 0: {P}metadata.labels: Invalid value: "{LONG}": must be no more than 63 bytes'),
    ("pod-label-bad-prefix", [pod(meta={"labels": {"Example.COM/app": "x"}})],
     f'document 0: {P}metadata.labels: Invalid value: "Example.COM/app": prefix part a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, \'-\' or \'.\', and must start and end with an alphanumeric character (e.g. \'example.com\', regex used for validation is \'[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*\')'),
    ("pod-annotation-bad-key", [pod(meta={"annotations": {"bad key": "x"}})],
     f'document 0: {P}metadata.annotations: Invalid value: "bad key": {NAME_PART}'),
    ("pod-annotations-too-large", [pod(meta={"annotations": {"big": "x" * (256 * 1024)}})],
     f"document 0: {P}metadata.annotations: Too long: may not be more than 262144 bytes"),
    ("pod-annotations-too-large-together", [pod(meta={"annotations": {f"k{i}": "x" * 70_000 for i in range(4)}})],
     f"document 0: {P}metadata.annotations: Too long: may not be more than 262144 bytes"),
    ("node-label-bad-key", [node(meta={"labels": {"topology.kubernetes.io/zone/x": "a"}})],
     f'document 0: Node n1: field metadata.labels: Invalid value: "topology.kubernetes.io/zone/x": {BAD_KEY}'),
    ("node-label-bad-value", [node(meta={"labels": {"zone": "us east"}})],
     f'document 0: Node n1: field metadata.labels: Invalid value: "us east": {BAD_VALUE}'),
    ("node-annotations-too-large", [node(meta={"annotations": {"a": "y" * 300_000}})],
     "document 0: Node n1: field metadata.annotations: Too long: may not be more than 262144 bytes"),
    ("pdb-label-bad-value", [pdb({"minAvailable": 1}) | {"metadata": {"name": "b", "labels": {"a": "b c"}}}],
     f'document 0: PodDisruptionBudget default/b: field metadata.labels: Invalid value: "b c": {BAD_VALUE}'),
    # node taints
    ("taint-bogus-effect", [node({"taints": [{"key": "k", "effect": "Bogus"}]})],
     f'document 0: Node n1: field spec.taints[0].effect: Unsupported value: "Bogus": {EFFECTS}'),
    ("taint-no-effect", [node({"taints": [{"key": "k", "effect": ""}]})],
     "document 0: Node n1: field spec.taints[0].effect: Required value"),
    ("taint-empty-key", [node({"taints": [{"key": "", "effect": "NoSchedule"}]})],
     'document 0: Node n1: field spec.taints[0].key: Invalid value: "": name part must be non-empty'),
    ("taint-bad-key", [node({"taints": [{"key": "bad key", "effect": "NoSchedule"}]})],
     f'document 0: Node n1: field spec.taints[0].key: Invalid value: "bad key": {NAME_PART}'),
    ("taint-bad-value", [node({"taints": [{"key": "k", "value": "a b", "effect": "NoSchedule"}]})],
     f'document 0: Node n1: field spec.taints[0].value: Invalid value: "a b": {BAD_VALUE}'),
    ("taint-duplicate", [node({"taints": [{"key": "k", "value": "1", "effect": "NoSchedule"}, {"key": "k", "value": "2", "effect": "NoSchedule"}]})],
     'document 0: Node n1: field spec.taints[1]: Duplicate value: "k=2:NoSchedule": taints must be unique by key and effect pair'),
    ("taint-lowercase-effect", [node({"taints": [{"key": "k", "effect": "noschedule"}]})],
     f'document 0: Node n1: field spec.taints[0].effect: Unsupported value: "noschedule": {EFFECTS}'),
    # object names and namespaces (util/validation's wording: "characters", "must not contain dots")
    ("pod-name-too-long", [pod(meta={"name": "p" * 254})],
     f"document 0: Pod default/{'p' * 254}: field metadata.name: Invalid value: \"{'p' * 199}... (56 more characters): must be no more than 253 characters"),
    ("pod-namespace-with-dots", [pod(meta={"namespace": "team.a"})],
     'document 0: Pod team.a/p: field metadata.namespace: Invalid value: "team.a": must not contain dots'),
    ("pod-affinity-namespace-with-dots", [pod(pod_term({"topologyKey": "zone", "namespaces": ["a.b"]}))],
     f'document 0: {P}{PA}.namespace: Invalid value: "a.b": must not contain dots'),
    ("label-key-prefix-too-long", [pod(meta={"labels": {"a" * 254 + "/k": "v"}})],
     f'document 0: {P}metadata.labels: Invalid value: "{"a" * 199}... (58 more characters): prefix part must be no more than 253 bytes'),
    # PriorityClass
    ("pc-two-global-defaults", [priority_class("a", globalDefault=True), priority_class("b", globalDefault=True)],
     "document 1: PriorityClass b: PriorityClass a is already marked as default. Only one default can exist"),
    ("pc-value-over-user-limit", [priority_class(value=1_000_000_001)],
     "document 0: PriorityClass gold: field value: Forbidden: maximum allowed value of a user defined priority is 1000000000"),
    ("pc-system-prefix-unknown", [priority_class("system-gold", 100)],
     "document 0: PriorityClass system-gold: field metadata.name: Forbidden: priority class names with 'system-' prefix are reserved for system use only. error: system-gold is not a known system priority class"),
    ("pc-system-wrong-value", [priority_class("system-node-critical", 5)],
     "document 0: PriorityClass system-node-critical: field metadata.name: Forbidden: priority class names with 'system-' prefix are reserved for system use only. error: value of system-node-critical PriorityClass must be 2000001000"),
    ("pc-system-global-default", [priority_class("system-cluster-critical", 2_000_000_000, globalDefault=True)],
     "document 0: PriorityClass system-cluster-critical: field metadata.name: Forbidden: priority class names with 'system-' prefix are reserved for system use only. error: globalDefault of system-cluster-critical PriorityClass must be false"),
    ("pc-preemption-policy", [priority_class(preemptionPolicy="Sometimes")],
     'document 0: PriorityClass gold: field preemptionPolicy: Unsupported value: "Sometimes": supported values: "Never", "PreemptLowerPriority"'),
    ("pc-value-under-int32", [priority_class(value=-2147483649)],
     "document 0: PriorityClass gold: field value: Invalid value: -2147483649: must fit in a 32-bit integer"),
    ("pc-bad-label", [priority_class() | {"metadata": {"name": "gold", "labels": {"a": "-"}}}],
     f'document 0: PriorityClass gold: field metadata.labels: Invalid value: "-": {BAD_VALUE}'),
    # PodDisruptionBudget and workload selectors
    ("pdb-selector-in-no-values", [pdb({"selector": {"matchExpressions": [_expr(values=[])]}})],
     "document 0: PodDisruptionBudget default/b: field spec.selector.matchExpressions[0].values: Required value: must be specified when `operator` is 'In' or 'NotIn'"),
    ("pdb-selector-bad-label", [pdb({"selector": {"matchLabels": {"app": "a b"}}})],
     f'document 0: PodDisruptionBudget default/b: field spec.selector.matchLabels: Invalid value: "a b": {BAD_VALUE}'),
    ("pdb-over-100-percent", [pdb({"maxUnavailable": "150%"})],
     'document 0: PodDisruptionBudget default/b: field spec.maxUnavailable: Invalid value: "150%": must not be greater than 100%'),
    ("rs-selector-exists-values", [replica_set({"matchExpressions": [_expr(operator="Exists", values=["x"])]})],
     "document 0: ReplicaSet default/rs: field spec.selector.matchExpressions[0].values: Forbidden: may not be specified when `operator` is 'Exists' or 'DoesNotExist'"),
    ("rs-selector-bad-key", [replica_set({"matchLabels": {"a/b/c": "x"}})],
     f'document 0: ReplicaSet default/rs: field spec.selector.matchLabels: Invalid value: "a/b/c": {BAD_KEY}'),
]  # fmt: skip
