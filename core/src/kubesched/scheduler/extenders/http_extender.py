"""One configured extender and its verbs (upstream's HTTPExtender).

Each verb builds upstream's request, posts it and checks the answer: a filter
answer may only name nodes it was sent, a preempt answer may only name pods
that are on the node, and any answer of the wrong shape is an ExtenderError
naming the extender. `is_interested` is upstream's: an extender with
`managedResources` only hears about pods whose containers (or init
containers) request or limit one of them.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, TypeVar

from kubesched.api import Node, Pod, unstructure
from kubesched.framework import ExtenderError, SharedLister, Victims
from kubesched.scheduler.extenders import wire
from kubesched.scheduler.extenders.client import ExtenderClient
from kubesched.scheduler.extenders.settings import ExtenderSettings

T = TypeVar("T")
_NODE_JSON_CACHE = 8192


class HTTPExtender:
    """An extender reached over HTTP(S); shared by every profile."""

    def __init__(self, config: ExtenderSettings) -> None:
        self.config = config
        self.weight = config.weight
        self.managed_resources = config.managed_resources
        self._client = ExtenderClient(config)
        self._node_json: dict[int, tuple[Node, dict[str, Any]]] = {}

    @property
    def name(self) -> str:
        """The URL prefix, as upstream names an extender."""
        return self.config.url_prefix

    def __repr__(self) -> str:
        return f"HTTPExtender({self.name!r})"

    def is_ignorable(self) -> bool:
        return self.config.ignorable

    def is_filter(self) -> bool:
        return bool(self.config.filter_verb)

    def is_prioritizer(self) -> bool:
        return bool(self.config.prioritize_verb)

    def is_binder(self) -> bool:
        return bool(self.config.bind_verb)

    def supports_preemption(self) -> bool:
        return bool(self.config.preempt_verb)

    def is_interested(self, pod: Pod) -> bool:
        """Every pod, or with managedResources only pods requesting or limiting one."""
        if not self.managed_resources:
            return True
        for container in (*pod.spec.containers, *pod.spec.init_containers):
            resources = container.resources
            if not self.managed_resources.isdisjoint(resources.requests):
                return True
            if not self.managed_resources.isdisjoint(resources.limits):
                return True
        return False

    def close(self) -> None:
        self._client.close()

    # -- requests --------------------------------------------------------------------

    def _malformed(self, verb: str, exc: Exception) -> ExtenderError:
        return ExtenderError(f'extender "{self.name}": malformed {verb} response: {exc}')

    def _decode(self, verb: str, data: Any, cls: type[T]) -> T:
        try:
            return wire.decode(data, cls)
        except wire.WireError as exc:
            raise self._malformed(verb, exc) from None

    def _node(self, node: Node) -> dict[str, Any]:
        cached = self._node_json.get(id(node))
        if cached is not None and cached[0] is node:
            return cached[1]
        if len(self._node_json) >= _NODE_JSON_CACHE:
            self._node_json.clear()
        data = unstructure(node)
        self._node_json[id(node)] = (node, data)
        return data

    def _args(self, pod: Pod, nodes: Sequence[Node]) -> wire.ExtenderArgs:
        if self.config.node_cache_capable:
            return wire.ExtenderArgs(unstructure(pod), node_names=[n.name for n in nodes])
        return wire.ExtenderArgs(
            unstructure(pod), nodes=wire.node_list([self._node(n) for n in nodes])
        )

    # -- verbs -----------------------------------------------------------------------

    def filter(
        self, pod: Pod, nodes: Sequence[Node]
    ) -> tuple[list[str], dict[str, str], dict[str, str]]:
        """The names of the nodes that pass, the failed nodes' and the failed-and-unresolvable
        nodes' messages (upstream's Filter)."""
        verb = self.config.filter_verb
        if not verb:
            return [n.name for n in nodes], {}, {}
        data = self._client.post(verb, wire.encode(self._args(pod, nodes)))
        result = self._decode(verb, data, wire.ExtenderFilterResult)
        if result.error:
            raise ExtenderError(result.error)
        if self.config.node_cache_capable and result.node_names is not None:
            passed = result.node_names
        elif result.nodes is not None:
            try:
                passed = wire.names_of_node_list(result.nodes)
            except wire.WireError as exc:
                raise self._malformed(verb, exc) from None
        else:
            passed = []
        sent = {n.name for n in nodes}
        for name in passed:
            if name not in sent:
                raise ExtenderError(
                    f'extender "{self.name}" claims a filtered node "{name}" which is not '
                    "found in the input node list"
                )
        return passed, result.failed_nodes or {}, result.failed_and_unresolvable_nodes or {}

    def prioritize(self, pod: Pod, nodes: Sequence[Node]) -> tuple[list[wire.HostPriority], int]:
        """Each node's score (0..10) and this extender's weight (upstream's Prioritize)."""
        verb = self.config.prioritize_verb
        if not verb:
            return [wire.HostPriority(n.name, 0) for n in nodes], 0
        data = self._client.post(verb, wire.encode(self._args(pod, nodes)))
        try:
            scores = wire.decode_priorities(data)
        except wire.WireError as exc:
            raise self._malformed(verb, exc) from None
        return scores, self.weight

    def bind(self, pod: Pod, node_name: str) -> None:
        """Ask the extender to bind the pod (upstream's Bind); ExtenderError on failure."""
        verb = self.config.bind_verb
        if not verb:
            raise ExtenderError("unexpected empty bindVerb in extender")
        args = wire.ExtenderBindingArgs(
            pod.metadata.name, pod.metadata.namespace, pod.metadata.uid, node_name
        )
        data = self._client.post(verb, wire.encode(args))
        result = self._decode(verb, data, wire.ExtenderBindingResult)
        if result.error:
            raise ExtenderError(result.error)

    def process_preemption(
        self, pod: Pod, victims: Mapping[str, Victims], nodes: SharedLister
    ) -> dict[str, Victims]:
        """The victims the extender keeps per node, read back from the nodes' pods
        (upstream's ProcessPreemption)."""
        verb = self.config.preempt_verb
        if not verb:
            raise ExtenderError(
                f"preempt verb is not defined for extender {self.name} "
                "but run into ProcessPreemption"
            )
        if self.config.node_cache_capable:
            meta = {
                node: wire.MetaVictims([wire.MetaPod(p.uid) for p in v.pods], v.num_pdb_violations)
                for node, v in victims.items()
            }
            args = wire.ExtenderPreemptionArgs(unstructure(pod), node_name_to_meta_victims=meta)
        else:
            whole = {
                node: wire.WireVictims([unstructure(p) for p in v.pods], v.num_pdb_violations)
                for node, v in victims.items()
            }
            args = wire.ExtenderPreemptionArgs(unstructure(pod), node_name_to_victims=whole)
        data = self._client.post(verb, wire.encode(args))
        result = self._decode(verb, data, wire.ExtenderPreemptionResult)
        return self._victims(result.node_name_to_meta_victims or {}, nodes)

    def _victims(
        self, answer: Mapping[str, wire.MetaVictims | None], nodes: SharedLister
    ) -> dict[str, Victims]:
        out: dict[str, Victims] = {}
        for node_name, meta in answer.items():
            node_info = nodes.get(node_name)
            if node_info is None:
                raise ExtenderError(
                    f'extender "{self.name}" names node "{node_name}", which does not exist'
                )
            if meta is None:
                out[node_name] = Victims(())
                continue
            on_node = {p.pod.uid: p.pod for p in node_info.pods}
            pods = []
            for meta_pod in meta.pods or ():
                found = on_node.get(meta_pod.uid)
                if found is None:
                    raise ExtenderError(
                        f"extender: {self.name} claims to preempt pod (UID: {meta_pod.uid}) "
                        f"on node: {node_name}, but the pod is not found on that node"
                    )
                pods.append(found)
            out[node_name] = Victims(tuple(pods), meta.num_pdb_violations)
        return out
