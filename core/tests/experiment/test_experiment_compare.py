"""`compare` on the example clusters: which pods differ, and each config's view of them."""

from __future__ import annotations

from pathlib import Path

from kubesched.experiment import (
    PLACED_BY_SOME,
    PLACED_DIFFERENTLY,
    cluster_input,
    cluster_objects,
    compare,
    comparison_document,
    config_file,
)
from kubesched.experiment._simulate import simulate
from kubesched.framework import default_registry
from kubesched.scheduler.outcome import SCHEDULED

EXAMPLES = Path(__file__).resolve().parents[3] / "examples"
SPREAD = EXAMPLES / "compare" / "spread.yaml"
PACK = EXAMPLES / "compare" / "pack.yaml"
QUICKSTART = EXAMPLES / "quickstart"


def test_spreading_and_packing_place_the_web_pods_differently_and_packing_strands_checkout() -> (
    None
):
    comparison = compare(
        [config_file(SPREAD), config_file(PACK)],
        cluster_input(QUICKSTART),
        [1, 2],
        default_registry(),
    )
    kinds = {d.pod: d.kind for d in comparison.differences}
    assert kinds == {
        "shop/web-1": PLACED_DIFFERENTLY,
        "shop/web-2": PLACED_DIFFERENTLY,
        "shop/checkout": PLACED_BY_SOME,
    }
    checkout = next(d for d in comparison.differences if d.pod == "shop/checkout")
    spread_place, pack_place = checkout.placements["spread"], checkout.placements["pack"]
    assert spread_place is not None and spread_place.status == SCHEDULED
    assert pack_place is not None and pack_place.node is None
    assert "Insufficient cpu" in pack_place.message
    # under pack, the node spread chose was full: its Filter said so
    pack_view = checkout.explanations["pack"][spread_place.node or ""]
    assert pack_view.filter is not None and pack_view.filter[1] == "NodeResourcesFit"
    spread_metrics, pack_metrics = (runs.metrics for runs in comparison.configs)
    assert [m.scheduled for m in spread_metrics] == [4, 4]
    assert [m.scheduled for m in pack_metrics] == [3, 3]


def test_each_config_scores_its_own_choice_highest_among_the_chosen_nodes() -> None:
    comparison = compare(
        [config_file(SPREAD), config_file(PACK)], cluster_input(QUICKSTART), [0], default_registry()
    )
    moved = [d for d in comparison.differences if d.kind == PLACED_DIFFERENTLY]
    assert moved
    for difference in moved:
        for name, placement in difference.placements.items():
            assert placement is not None and placement.node is not None
            views = difference.explanations[name]
            mine = views[placement.node].total
            assert mine is not None
            for node, view in views.items():
                assert view.evaluated
                assert view.total is not None and view.total <= mine, (difference.pod, name, node)
                contributions = 0
                for _, _, weighted in view.scores:
                    contributions += weighted
                assert contributions == view.total


def test_a_config_compared_with_itself_differs_nowhere() -> None:
    comparison = compare(
        [config_file(SPREAD, "a"), config_file(SPREAD, "b")],
        cluster_input(QUICKSTART),
        [0, 1],
        default_registry(),
    )
    assert comparison.differences == []
    document = comparison_document(comparison)
    assert document["configs"][0]["metrics"] == document["configs"][1]["metrics"]
    assert document["configs"][0]["placements"] == document["configs"][1]["placements"]


def test_explaining_some_pods_records_what_explaining_every_pod_records_for_them() -> None:
    registry = default_registry()
    loaded = config_file(PACK).load(registry)
    objects = cluster_objects(cluster_input(QUICKSTART))
    chosen = {"shop/web-1", "shop/checkout"}
    every = simulate(loaded, registry, objects, 3, explain=True)
    some = simulate(loaded, registry, objects, 3, explain=lambda pod: pod.key in chosen)
    assert [(o.pod, o.node, o.status) for o in every.outcomes] == [
        (o.pod, o.node, o.status) for o in some.outcomes
    ]
    for full, partial in zip(every.outcomes, some.outcomes, strict=True):
        if full.pod in chosen:
            assert partial.nodes == full.nodes and partial.nodes
        else:
            assert partial.nodes is None
