{%- from "imports.jinja" import from_import -%}
{%- set points = cookiecutter.extension_points.replace(" ", "").split(",") -%}
{%- set name = cookiecutter.plugin_name -%}
{%- set node_points = points | select("in", ["pre_filter", "filter", "pre_score", "score"]) | list -%}
{%- set pod_points = points | select("in", ["pre_enqueue", "queue_sort", "permit", "pre_bind", "bind", "post_bind"]) | list -%}
{%- set per_node_points = points | select("in", ["filter", "score"]) | list -%}
{%- set stdlib = [] -%}
{%- if "post_bind" in points %}{% set _ = stdlib.append("import logging") %}{% endif -%}
{%- if "queue_sort" in points %}{% set _ = stdlib.append("from functools import cmp_to_key") %}{% endif -%}
{%- set third_party = [] -%}
{%- if "score" in points %}{% set _ = third_party.append("import numpy as np") %}{% endif -%}
{%- if points | select("in", ["pre_enqueue", "filter", "pre_score", "permit", "pre_bind", "bind", "post_bind"]) | list %}{% set _ = third_party.append("import pytest") %}{% endif -%}
{%- if pod_points %}{% set _ = third_party.append("from kubesched.api import Pod") %}{% endif -%}
{%- set framework = [] -%}
{%- set status_points = points | select("in", ["pre_enqueue", "pre_filter", "filter", "post_filter", "permit", "pre_bind", "bind"]) | list -%}
{%- if status_points or "pre_score" in points %}{% set _ = framework.append("Code") %}{% endif -%}
{%- if "reserve" in points or per_node_points %}{% set _ = framework.append("CycleState") %}{% endif -%}
{%- if node_points %}{% set _ = framework.append("NodeInfo") %}{% endif -%}
{%- if "score" in points %}{% set _ = framework.append("NodeScoreList") %}{% endif -%}
{%- if "queue_sort" in points %}{% set _ = framework.append("PodInfo") %}{% endif -%}
{%- if "pre_filter" in points %}{% set _ = framework.append("PreFilterResult") %}{% endif -%}
{%- if "queue_sort" in points %}{% set _ = framework.append("QueuedPodInfo") %}{% endif -%}
{%- if status_points %}{% set _ = framework.append("Status") %}{% endif -%}
{%- if "filter" in points or "pre_score" in points %}{% set _ = framework.append("code_of") %}{% endif -%}
{%- set framework_import = "from kubesched.framework import " ~ framework | join(", ") -%}
{%- if framework_import | length > 100 %}{% set framework_import = "from kubesched.framework import (\n    " ~ framework | join(",\n    ") ~ ",\n)" %}{% endif -%}
{%- if framework %}{% set _ = third_party.append(framework_import) %}{% endif -%}
{%- set builders = [] -%}
{%- if "bind" in points %}{% set _ = builders.append("PluginHarness") %}{% endif -%}
{%- if node_points or "bind" in points %}{% set _ = builders.append("make_node") %}{% endif -%}
{%- if pod_points or per_node_points %}{% set _ = builders.append("make_pod") %}{% endif -%}
{%- if builders %}{% set _ = third_party.append("from kubesched.testing import " ~ builders | join(", ")) %}{% endif -%}
"""{{ name }} at each extension point it implements.

Pods and nodes come from the kubesched.testing builders; the hooks are called directly.
"""

from __future__ import annotations
{% if stdlib %}
{% for line in stdlib %}{{ line }}
{% endfor %}{% endif %}
{% for line in third_party %}{{ line }}
{% endfor %}
{% if "score" in points %}{{ from_import(cookiecutter.module_name ~ ".args", [name ~ "Args"]) }}
{% endif -%}
{{ from_import(cookiecutter.module_name ~ ".plugin", [name, "reservation"] if "reserve" in points else [name]) }}

PLUGIN = {{ name }}()
"""The plugin with its default args; it keeps no state between calls."""
{%- if node_points or pod_points %}
KEY = "example.com/tier"
{%- endif %}
{%- if per_node_points %}
WEB = make_pod("web").obj()
"""Filter and Score do not look at the pod; any pod will do."""
{%- endif %}
{%- if node_points %}


def node(name: str, tier: str | None = None) -> NodeInfo:
    """A node, with the label `KEY: tier` when a tier is given."""
    builder = make_node(name)
    if tier is not None:
        builder = builder.label(KEY, tier)
    return NodeInfo(builder.obj())
{%- endif %}
{%- if pod_points %}


def pod(name: str, tier: str | None = None) -> Pod:
    """A pod in the default namespace, asking for `KEY: tier` when a tier is given."""
    builder = make_pod(name).namespace("default")
    if tier is not None:
        builder = builder.label(KEY, tier)
    return builder.obj()
{%- endif %}
{%- if "pre_enqueue" in points %}


@pytest.mark.parametrize("tier", [None, "gold", "bronze"])
def test_pre_enqueue_admits_a_pod_asking_for_a_listed_value_or_none(tier: str | None) -> None:
    assert PLUGIN.pre_enqueue(pod=pod("web", tier)) is None


def test_pre_enqueue_gates_a_pod_asking_for_an_unlisted_value() -> None:
    assert PLUGIN.pre_enqueue(pod=pod("web", "platinum")) == Status(
        Code.UNSCHEDULABLE_AND_UNRESOLVABLE,
        "pod wants example.com/tier=platinum, which is not a listed value",
    )
{%- endif %}
{%- if "queue_sort" in points %}


def test_queue_sort_puts_preferred_requests_first_then_the_oldest() -> None:
    def compare(a: QueuedPodInfo, b: QueuedPodInfo) -> int:
        if PLUGIN.queue_sort_less(pod_info_a=a, pod_info_b=b):
            return -1
        return 1 if PLUGIN.queue_sort_less(pod_info_a=b, pod_info_b=a) else 0

    queued = [
        QueuedPodInfo(PodInfo(pod("no-tier")), timestamp=1.0),
        QueuedPodInfo(PodInfo(pod("bronze", "bronze")), timestamp=2.0),
        QueuedPodInfo(PodInfo(pod("gold-later", "gold")), timestamp=5.0),
        QueuedPodInfo(PodInfo(pod("gold-first", "gold")), timestamp=3.0),
        QueuedPodInfo(PodInfo(pod("unlisted", "tin")), timestamp=0.5),
    ]
    ordered = sorted(queued, key=cmp_to_key(compare))
    assert [q.pod.metadata.name for q in ordered] == [
        "gold-first",
        "gold-later",
        "bronze",
        "unlisted",
        "no-tier",
    ]
{%- endif %}
{%- if "pre_filter" in points %}


def test_pre_filter_keeps_only_the_nodes_with_a_listed_value() -> None:
    nodes = [node("n1", "gold"), node("n2"), node("n3", "tin"), node("n4", "bronze")]
    assert PLUGIN.pre_filter(nodes=nodes) == PreFilterResult(frozenset({"n1", "n4"}))


def test_pre_filter_rejects_the_pod_when_no_node_has_a_listed_value() -> None:
    assert PLUGIN.pre_filter(nodes=[node("n1"), node("n2", "tin")]) == Status(
        Code.UNSCHEDULABLE_AND_UNRESOLVABLE,
        "node(s) didn't have a listed value of label example.com/tier",
    )
{%- endif %}
{%- if "filter" in points %}


@pytest.mark.parametrize(
    ("tier", "code"),
    [
        ("gold", Code.SUCCESS),
        ("bronze", Code.SUCCESS),
        ("tin", Code.UNSCHEDULABLE_AND_UNRESOLVABLE),
        (None, Code.UNSCHEDULABLE_AND_UNRESOLVABLE),
    ],
)
def test_filter_passes_only_nodes_with_a_listed_value(tier: str | None, code: Code) -> None:
    status = PLUGIN.filter(state=CycleState(), pod=WEB, node_info=node("n1", tier))
    assert code_of(status) == code


def test_filter_says_which_label_was_missing() -> None:
    assert PLUGIN.filter(state=CycleState(), pod=WEB, node_info=node("n1")) == Status(
        Code.UNSCHEDULABLE_AND_UNRESOLVABLE,
        "node(s) didn't have a listed value of label example.com/tier",
    )
{%- endif %}
{%- if "post_filter" in points %}


def test_post_filter_says_it_cannot_make_room() -> None:
    rejected = {
        "n1": Status(Code.UNSCHEDULABLE, "Insufficient cpu"),
        "n2": Status(Code.UNSCHEDULABLE_AND_UNRESOLVABLE, "node(s) had untolerated taint(s)"),
    }
    assert PLUGIN.post_filter(filtered_node_status_map=rejected) == Status(
        Code.UNSCHEDULABLE, f"{PLUGIN.name} cannot make room on any of 2 node(s)"
    )
{%- endif %}
{%- if "pre_score" in points %}


@pytest.mark.parametrize(
    ("tiers", "code"),
    [
        (["gold", None], Code.SUCCESS),
        (["tin", "bronze"], Code.SUCCESS),
        (["tin", None], Code.SKIP),
        ([], Code.SKIP),
    ],
)
def test_pre_score_skips_score_when_no_node_has_a_listed_value(
    tiers: list[str | None], code: Code
) -> None:
    nodes = [node(f"n{i}", tier) for i, tier in enumerate(tiers)]
    assert code_of(PLUGIN.pre_score(nodes=nodes)) == code
{%- endif %}
{%- if "score" in points %}


def test_score_ranks_nodes_by_label_value_and_normalizes_to_100() -> None:
    nodes = [node("n1", "bronze"), node("n2", "gold"), node("n3"), node("n4", "silver")]
    raw = [PLUGIN.score(state=CycleState(), pod=WEB, node_info=n) for n in nodes]
    assert raw == [1, 3, 0, 2]
    scores = NodeScoreList([n.name for n in nodes], np.array(raw, dtype=np.int64))
    PLUGIN.normalize_score(scores=scores)
    assert scores.as_dict() == {"n1": 33, "n2": 100, "n3": 0, "n4": 66}


def test_args_choose_the_label_and_the_order() -> None:
    args = {{ name }}Args(label_key="zone", values=("b", "a"))
    plugin = {{ name }}(args)
    a = NodeInfo(make_node("a").label("zone", "a").obj())
    b = NodeInfo(make_node("b").label("zone", "b").obj())
    scores = [plugin.score(state=CycleState(), pod=WEB, node_info=n) for n in (a, b)]
    assert scores == [1, 2]


def test_normalize_leaves_all_zero_scores_at_zero() -> None:
    scores = NodeScoreList(["n1", "n2"], np.zeros(2, dtype=np.int64))
    PLUGIN.normalize_score(scores=scores)
    assert scores.as_dict() == {"n1": 0, "n2": 0}
{%- endif %}
{%- if "reserve" in points %}


def test_reserve_notes_the_claim_and_unreserve_gives_it_back() -> None:
    state = CycleState()
    PLUGIN.reserve(state=state, node_name="n1")
    claim = reservation(state)
    assert claim is not None and claim.node_name == "n1"
    assert reservation(state.clone()) == claim
    PLUGIN.unreserve(state=state)
    assert reservation(state) is None


def test_unreserve_without_a_reservation_is_harmless() -> None:
    state = CycleState()
    PLUGIN.unreserve(state=state)
    PLUGIN.unreserve(state=state)
    assert reservation(state) is None
{%- endif %}
{%- if "permit" in points %}


@pytest.mark.parametrize("tier", [None, "gold", "silver"])
def test_permit_allows_a_pod_asking_for_a_listed_value_or_none(tier: str | None) -> None:
    assert PLUGIN.permit(pod=pod("web", tier)) is None


def test_permit_rejects_a_pod_asking_for_an_unlisted_value() -> None:
    assert PLUGIN.permit(pod=pod("web", "platinum")) == Status(
        Code.UNSCHEDULABLE, "pod wants example.com/tier=platinum, which is not a listed value"
    )
{%- endif %}
{%- if "pre_bind" in points %}


@pytest.mark.parametrize("tier", [None, "gold"])
def test_pre_bind_passes_a_pod_asking_for_a_listed_value_or_none(tier: str | None) -> None:
    assert PLUGIN.pre_bind(pod=pod("web", tier), node_name="n1") is None


def test_pre_bind_fails_a_pod_asking_for_an_unlisted_value() -> None:
    assert PLUGIN.pre_bind(pod=pod("web", "platinum"), node_name="n1") == Status(
        Code.UNSCHEDULABLE, "pod wants example.com/tier=platinum, which is not a listed value"
    )
{%- endif %}
{%- if "bind" in points %}


def test_bind_binds_a_pod_asking_for_a_listed_value_through_the_client() -> None:
    web = pod("web", "gold")
    nodes = [make_node("n1").obj()]
    harness = PluginHarness({{ name }}, nodes=nodes, pods=[web])
    assert harness.plugin.bind(pod=web, node_name="n1") is None
    bound = harness.cluster.get_pod(web.uid)
    assert bound is not None and bound.spec.node_name == "n1"


@pytest.mark.parametrize("tier", [None, "platinum"])
def test_bind_skips_other_pods_for_the_next_bind_plugin(tier: str | None) -> None:
    web = pod("web", tier)
    nodes = [make_node("n1").obj()]
    harness = PluginHarness({{ name }}, nodes=nodes, pods=[web])
    assert harness.plugin.bind(pod=web, node_name="n1") == Status(Code.SKIP)
    unbound = harness.cluster.get_pod(web.uid)
    assert unbound is not None and not unbound.spec.node_name
{%- endif %}
{%- if "post_bind" in points %}


def test_post_bind_logs_the_binding(caplog: pytest.LogCaptureFixture) -> None:
    with caplog.at_level(logging.INFO):
        PLUGIN.post_bind(pod=pod("web"), node_name="n1")
    assert caplog.messages == [f"{PLUGIN.name}: bound default/web to n1"]
{%- endif %}
