"""A fake API server that refuses, as RBAC does, what upstream's scheduler roles refuse.

    with RbacApiServer() as server:               # SCHEDULER_ROLES unless told otherwise
        ...                                       # run a scheduler against it
        assert server.refused == []               # the requests it answered 403

`SCHEDULER_ROLES` holds the rules a kube-scheduler gets from a stock cluster's
bootstrap policy: the cluster roles system:kube-scheduler and
system:volume-scheduler, and in kube-system the leader-locking role and the
reader of the extension-apiserver-authentication ConfigMap (both bound to the
user system:kube-scheduler). Of the rules that depend on feature gates, those of
DynamicResourceAllocation (locked on in v1.35) are in; those of the DRA gates off
by default (extended resources, device taint rules) are not. `allows` answers one
request; `verb_of` names a request's verb as the API server's authorizer does.
"""

from __future__ import annotations

import threading
from collections.abc import Iterable, Mapping, Sequence

from attrs import frozen

from kubesched.testing._apiserver_state import StatusError
from kubesched.testing.apiserver import _PATH, FakeApiServer, Request

SCHEDULER_USER = "system:kube-scheduler"
_READ = frozenset({"get", "list", "watch"})
_READ_UPDATE = _READ | {"update", "patch"}
_READ_WRITE = _READ_UPDATE | {"create", "delete", "deletecollection"}


@frozen
class Rule:
    """One policy rule: verbs on resources of API groups, optionally only some names, and
    only in one namespace when `namespace` is set (a Role rather than a ClusterRole)."""

    verbs: frozenset[str]
    groups: frozenset[str]
    resources: frozenset[str]
    names: frozenset[str] = frozenset()
    namespace: str = ""


def _rule(
    verbs: Iterable[str],
    groups: Iterable[str],
    resources: Iterable[str],
    names: Iterable[str] = (),
    namespace: str = "",
) -> Rule:
    return Rule(
        frozenset(verbs), frozenset(groups), frozenset(resources), frozenset(names), namespace
    )


SCHEDULER_ROLES: tuple[Rule, ...] = (
    # system:kube-scheduler
    _rule(("create", "update", "patch"), ("", "events.k8s.io"), ("events",)),
    _rule(("create",), ("coordination.k8s.io",), ("leases",)),
    _rule(
        ("get", "update", "list", "watch"),
        ("coordination.k8s.io",),
        ("leases",),
        ("kube-scheduler",),
    ),
    _rule(_READ_WRITE, ("coordination.k8s.io",), ("leasecandidates",)),
    _rule(_READ, ("",), ("nodes",)),
    _rule(("get", "list", "watch", "delete"), ("",), ("pods",)),
    _rule(("create",), ("",), ("pods/binding", "bindings")),
    _rule(("patch", "update"), ("",), ("pods/status",)),
    _rule(_READ, ("",), ("services", "replicationcontrollers")),
    _rule(_READ, ("apps", "extensions"), ("replicasets",)),
    _rule(_READ, ("apps",), ("statefulsets",)),
    _rule(_READ, ("policy",), ("poddisruptionbudgets",)),
    _rule(_READ, ("",), ("persistentvolumeclaims", "persistentvolumes")),
    _rule(("create",), ("authentication.k8s.io",), ("tokenreviews",)),
    _rule(("create",), ("authorization.k8s.io",), ("subjectaccessreviews",)),
    _rule(_READ, ("storage.k8s.io",), ("csinodes",)),
    _rule(("get", "list", "watch"), ("storage.k8s.io",), ("volumeattachments",)),
    _rule(_READ, ("",), ("namespaces",)),
    _rule(_READ, ("storage.k8s.io",), ("csidrivers", "csistoragecapacities")),
    # system:kube-scheduler, with the DynamicResourceAllocation gate on
    _rule(_READ, ("resource.k8s.io",), ("deviceclasses",)),
    _rule(_READ_UPDATE, ("resource.k8s.io",), ("resourceclaims",)),
    _rule(_READ_UPDATE, ("resource.k8s.io",), ("resourceclaims/status",)),
    _rule(("update",), ("",), ("pods/finalizers",)),
    _rule(_READ, ("resource.k8s.io",), ("resourceslices",)),
    # system:volume-scheduler
    _rule(_READ_UPDATE, ("",), ("persistentvolumes", "persistentvolumeclaims")),
    _rule(_READ, ("storage.k8s.io",), ("storageclasses",)),
    # kube-system: system::leader-locking-kube-scheduler, extension-apiserver-authentication-reader
    _rule(
        ("get", "watch", "list", "create", "update"),
        ("coordination.k8s.io",),
        ("leases", "leasecandidates"),
        namespace="kube-system",
    ),
    _rule(
        ("get", "list", "watch"),
        ("",),
        ("configmaps",),
        ("extension-apiserver-authentication",),
        namespace="kube-system",
    ),
)
"""What a stock cluster lets the user system:kube-scheduler do (upstream's bootstrap policy)."""


def verb_of(method: str, query: Mapping[str, str], named: bool) -> str:
    """The authorizer's verb of a request: list and watch for collections, get for one."""
    if method == "GET":
        if query.get("watch") in ("true", "1"):
            return "watch"
        return "get" if named else "list"
    if method == "DELETE" and not named:
        return "deletecollection"
    return {"POST": "create", "PUT": "update", "PATCH": "patch", "DELETE": "delete"}.get(
        method, method.lower()
    )


def allows(
    rules: Iterable[Rule], verb: str, group: str, resource: str, namespace: str, name: str
) -> bool:
    """Does any rule allow `verb` on `resource` (with its subresource, `pods/binding`)?"""
    for rule in rules:
        if rule.namespace and rule.namespace != namespace:
            continue
        if verb not in rule.verbs or group not in rule.groups or resource not in rule.resources:
            continue
        if rule.names and name not in rule.names:
            continue
        return True
    return False


def forbidden_message(
    user: str, verb: str, group: str, resource: str, namespace: str, name: str
) -> str:
    """The API server's message for a refused request."""
    subject = f'{resource} "{name}"' if name else resource
    where = f'in the namespace "{namespace}"' if namespace else "at the cluster scope"
    return (
        f'{subject} is forbidden: User "{user}" cannot {verb} resource "{resource}" '
        f'in API group "{group}" {where}'
    )


def refusal(
    rules: Iterable[Rule], method: str, query: Mapping[str, str], path: Mapping[str, str | None]
) -> str | None:
    """The API server's message refusing a request, or None when `rules` allow it. `path` holds
    the request path's parts: core or group (version), plural, sub, ns and name."""
    group_version = path["core"] or path["group"] or ""
    group = "" if group_version == "v1" else group_version.rpartition("/")[0]
    resource = f"{path['plural']}/{path['sub']}" if path["sub"] else str(path["plural"])
    ns, name = path["ns"] or "", path["name"] or ""
    verb = verb_of(method, query, bool(name))
    if allows(rules, verb, group, resource, ns, name):
        return None
    return forbidden_message(SCHEDULER_USER, verb, group, resource, ns, name)


class RbacApiServer(FakeApiServer):
    """`FakeApiServer` answering 403 Forbidden, with the API server's message, to every request
    `roles` do not allow; `refused` keeps those requests."""

    def __init__(self, roles: Sequence[Rule] = SCHEDULER_ROLES) -> None:
        super().__init__()
        self.roles = tuple(roles)
        self.refused: list[Request] = []
        self._refused_lock = threading.Lock()

    def authorize(self, method: str, path: str, query: dict[str, str]) -> None:
        matched = _PATH.match(path)
        why = None if matched is None else refusal(self.roles, method, query, matched.groupdict())
        if why is not None:
            with self._refused_lock:
                self.refused.append(Request(method, path, query))
            raise StatusError(403, "Forbidden", why)
