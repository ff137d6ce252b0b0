{%- from "imports.jinja" import from_import -%}
{%- set points = cookiecutter.extension_points.replace(" ", "").split(",") -%}
{%- set name = cookiecutter.plugin_name -%}
{%- set node_points = points | select("in", ["pre_filter", "filter", "pre_score", "score"]) | list -%}
{%- set request_points = points | select("in", ["pre_enqueue", "permit", "pre_bind", "bind"]) | list -%}
{%- set status_points = points | select("in", ["pre_enqueue", "pre_filter", "filter", "post_filter", "pre_score", "permit", "pre_bind", "bind"]) | list -%}
{%- set abc = [] -%}
{%- if "post_filter" in points %}{% set _ = abc.append("Mapping") %}{% endif -%}
{%- if "pre_filter" in points or "pre_score" in points %}{% set _ = abc.append("Sequence") %}{% endif -%}
{%- set stdlib = [] -%}
{%- if "post_bind" in points %}{% set _ = stdlib.append("import logging") %}{% endif -%}
{%- if abc %}{% set _ = stdlib.append("from collections.abc import " ~ abc | join(", ")) %}{% endif -%}
{%- set framework = [] -%}
{%- if "score" in points %}{% set _ = framework.append("MAX_NODE_SCORE") %}{% endif -%}
{%- if status_points %}{% set _ = framework.append("Code") %}{% endif -%}
{%- set per_node_points = points | select("in", ["filter", "score"]) | list -%}
{%- if "reserve" in points or per_node_points %}{% set _ = framework.append("CycleState") %}{% endif -%}
{%- set _ = framework.append("Handle") -%}
{%- if node_points %}{% set _ = framework.append("NodeInfo") %}{% endif -%}
{%- if "score" in points %}{% set _ = framework.append("NodeScoreList") %}{% endif -%}
{%- if "pre_filter" in points %}{% set _ = framework.append("PreFilterResult") %}{% endif -%}
{%- if "queue_sort" in points %}{% set _ = framework.append("QueuedPodInfo") %}{% endif -%}
{%- if status_points %}{% set _ = framework.append("Status") %}{% endif -%}
"""A kubesched plugin that schedules pods by the value of one node label.

It reads the node label `args.label_key` and ranks its values in the order of
`args.values` (the first is the most preferred).

{{ (name ~ " implements these extension points: " ~ points | join(", ") ~ ".") | wordwrap(92) }}
"""

from __future__ import annotations
{% if stdlib %}
{% for line in stdlib %}{{ line }}
{% endfor %}{% endif %}
{% if "reserve" in points %}from attrs import frozen
{% endif %}from kubesched import hookimpl
{%- if request_points or per_node_points or "post_bind" in points %}
from kubesched.api import Pod
{%- endif %}
from kubesched.framework import (
{%- for item in framework %}
    {{ item }},
{%- endfor %}
)

{{ from_import(cookiecutter.module_name ~ ".args", [name ~ "Args"]) }}
{%- if "post_bind" in points %}

log = logging.getLogger(__name__)
{%- endif %}
{%- if "reserve" in points %}

RESERVATION_KEY = "{{ name }}/reservation"
"""Where Reserve leaves, in the cycle state, what it claimed."""


@frozen
class Reservation:
    """What Reserve claimed for the pod in this scheduling cycle, for Unreserve to give back."""

    node_name: str

    def clone(self) -> Reservation:
        """Frozen, so a copy of the cycle state can share it."""
        return self


def reservation(state: CycleState) -> Reservation | None:
    """What Reserve claimed in this cycle, if it ran and nothing gave it back since."""
    if RESERVATION_KEY not in state:
        return None
    return state.read_as(RESERVATION_KEY, Reservation)
{%- endif %}


class {{ name }}:
    """Schedules by the node label `args.label_key`, whose values `args.values` ranks."""

    name = "{{ name }}"
    args_type = {{ name }}Args
    args_kind = "{{ name }}Args"

    def __init__(
        self,
        args: {{ name }}Args | None = None,
        handle: Handle | None = None,
    ) -> None:
        """`args` come from the profile's pluginConfig (None: the defaults). `handle` reaches
        the cluster and the framework{% if "bind" in points %} (Bind binds through its client){% else %}; this plugin does not need it{% endif %}."""
        self.args = args if args is not None else {{ name }}Args()
{%- if "bind" in points %}
        self.handle = handle
{%- endif %}
{%- if "pre_enqueue" in points %}

    @hookimpl
    def pre_enqueue(self, pod: Pod) -> Status | None:
        """PreEnqueue: keep a pod out of the active queue while it asks for a value no node
        is meant to have."""
        reason = self._unlisted_request(pod)
        return None if reason is None else Status(Code.UNSCHEDULABLE_AND_UNRESOLVABLE, reason)
{%- endif %}
{%- if "queue_sort" in points %}

    @hookimpl
    def queue_sort_less(self, pod_info_a: QueuedPodInfo, pod_info_b: QueuedPodInfo) -> bool:
        """QueueSort: pods asking (with their own `label_key` label) for a more preferred value
        go first, pods asking for none last; then first come, first served."""
        return self._queue_key(pod_info_a) < self._queue_key(pod_info_b)

    def _queue_key(self, pod_info: QueuedPodInfo) -> tuple[int, float]:
        rank = self.args.rank(pod_info.pod.metadata.labels)
        return (len(self.args.values) if rank is None else rank, pod_info.timestamp)
{%- endif %}
{%- if "pre_filter" in points %}

    @hookimpl
    def pre_filter(self, nodes: Sequence[NodeInfo]) -> PreFilterResult | Status:
        """PreFilter: only the nodes with a listed `label_key` value are worth filtering."""
        names = frozenset(n.name for n in nodes if self._node_rank(n) is not None)
        if not names:
            return self._unlisted_node()
        return PreFilterResult(names)
{%- endif %}
{%- if "filter" in points %}

    @hookimpl
    def filter(self, state: CycleState, pod: Pod, node_info: NodeInfo) -> Status | None:
        """Filter: reject a node whose `label_key` label is missing or not in `values`.

        It runs once per node, so it takes every hookspec argument, in order: the runtime
        then calls it directly, without an adapter.
        """
        return None if self._node_rank(node_info) is not None else self._unlisted_node()
{%- endif %}
{%- if "post_filter" in points %}

    @hookimpl
    def post_filter(self, filtered_node_status_map: Mapping[str, Status]) -> Status:
        """PostFilter: runs only when no node fits, to make room, as preemption does.

        This one cannot free a node, so it says so and the next PostFilter plugin may try.
        Once you make room, return `PostFilterResult(nominated_node_name=...)` instead.
        """
        return Status(
            Code.UNSCHEDULABLE,
            f"{self.name} cannot make room on any of {len(filtered_node_status_map)} node(s)",
        )
{%- endif %}
{%- if "pre_score" in points %}

    @hookimpl
    def pre_score(self, nodes: Sequence[NodeInfo]) -> Status | None:
        """PreScore: skip this plugin's Score for the pod when no feasible node has a listed
        `label_key` value (every node would score 0)."""
        if any(self._node_rank(n) is not None for n in nodes):
            return None
        return Status(Code.SKIP)
{%- endif %}
{%- if "score" in points %}

    @hookimpl
    def score(self, state: CycleState, pod: Pod, node_info: NodeInfo) -> int:
        """Score: the most preferred value scores len(values), the next one less, a missing
        or unlisted label 0; NormalizeScore then scales these to 0..100.

        It runs once per node, so it takes every hookspec argument, in order: the runtime
        then calls it directly, without an adapter.
        """
        rank = self._node_rank(node_info)
        return 0 if rank is None else len(self.args.values) - rank

    @hookimpl
    def normalize_score(self, scores: NodeScoreList) -> None:
        """NormalizeScore: scale in place so the best node scores 100, in integers
        (score * 100 // highest, as upstream's DefaultNormalizeScore)."""
        highest = max((int(score) for score in scores.scores), default=0)
        if highest > 0:
            scores.scores *= MAX_NODE_SCORE
            scores.scores //= highest
{%- endif %}
{%- if "reserve" in points %}

    @hookimpl
    def reserve(self, state: CycleState, node_name: str) -> None:
        """Reserve: claim what the pod will use on the chosen node before it binds, and note
        the claim in the cycle state. This example claims nothing but the note."""
        state.write(RESERVATION_KEY, Reservation(node_name))

    @hookimpl
    def unreserve(self, state: CycleState) -> None:
        """Unreserve: give back what Reserve claimed when a later step fails; it may run
        more than once, or after a Reserve that never ran."""
        if reservation(state) is None:
            return
        # Give the claim back here; this example only forgets the note.
        state.delete(RESERVATION_KEY)
{%- endif %}
{%- if "permit" in points %}

    @hookimpl
    def permit(self, pod: Pod) -> Status | None:
        """Permit: the last word before binding. Allow (None), reject, or hold the pod with
        `(Status(Code.WAIT), timeout_seconds)` until something allows it through the handle.

        This one rejects a pod that asks for a value no node is meant to have.
        """
        reason = self._unlisted_request(pod)
        return None if reason is None else Status(Code.UNSCHEDULABLE, reason)
{%- endif %}
{%- if "pre_bind" in points %}

    @hookimpl
    def pre_bind(self, pod: Pod, node_name: str) -> Status | None:
        """PreBind: work that must succeed before the pod is bound (provisioning, say); a
        failure sends the pod back to the queue. This one re-checks the pod's request."""
        reason = self._unlisted_request(pod)
        return None if reason is None else Status(Code.UNSCHEDULABLE, reason)
{%- endif %}
{%- if "bind" in points %}

    @hookimpl
    def bind(self, pod: Pod, node_name: str) -> Status | None:
        """Bind: bind the pods that ask for a listed value through the handle's client, and
        Skip the others, so the next Bind plugin (DefaultBinder) binds them."""
        wanted = pod.metadata.labels.get(self.args.label_key)
        if self.handle is None or wanted is None or self._unlisted_request(pod) is not None:
            return Status(Code.SKIP)
        try:
            self.handle.client.bind(pod, node_name)
        except Exception as exc:
            return Status.error(exc)
        return None
{%- endif %}
{%- if "post_bind" in points %}

    @hookimpl
    def post_bind(self, pod: Pod, node_name: str) -> None:
        """PostBind: informational, after the pod is bound."""
        log.info("%s: bound %s to %s", self.name, pod.key, node_name)
{%- endif %}
{%- if node_points %}

    def _node_rank(self, node_info: NodeInfo) -> int | None:
        node = node_info.node
        return None if node is None else self.args.rank(node.metadata.labels)
{%- endif %}
{%- if "pre_filter" in points or "filter" in points %}

    def _unlisted_node(self) -> Status:
        return Status(
            Code.UNSCHEDULABLE_AND_UNRESOLVABLE,
            f"node(s) didn't have a listed value of label {self.args.label_key}",
        )
{%- endif %}
{%- if request_points %}

    def _unlisted_request(self, pod: Pod) -> str | None:
        """Why the pod cannot be served: it asks, with its own `label_key` label, for a value
        not in `values`. None when it asks for a listed value, or for none."""
        wanted = pod.metadata.labels.get(self.args.label_key)
        if wanted is None or wanted in self.args.values:
            return None
        return f"pod wants {self.args.label_key}={wanted}, which is not a listed value"
{%- endif %}
