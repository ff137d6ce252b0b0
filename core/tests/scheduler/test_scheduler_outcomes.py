"""Every pending pod ends with one result that says what became of it."""

from __future__ import annotations

from kubesched.scheduler import result_document
from kubesched.testing import make_node, make_pod, simulate


def test_a_victim_bound_earlier_in_the_run_is_reported_preempted_not_scheduled() -> None:
    node = make_node("n1").capacity(cpu="2", memory="4Gi", pods=10).obj()
    low = make_pod("low").namespace("default").priority(1).req(cpu="2").obj()
    urgent = make_pod("urgent").namespace("default").priority(100).req(cpu="2").obj()
    run = simulate([node], [low])
    assert run.placements == {"default/low": "n1"}
    run.cluster.add_pod(urgent)
    result = run.resume()
    victim, preemptor = run.outcome("default/low"), run.outcome("default/urgent")
    assert (victim.status, victim.node, victim.preempted_by) == (
        "Preempted",
        None,
        "default/urgent",
    )
    assert victim.message == "preempted by default/urgent"
    assert (preemptor.status, preemptor.node, preemptor.victims) == (
        "Scheduled",
        "n1",
        ["default/low"],
    )
    assert [p.metadata.name for p in run.cluster.pods()] == ["urgent"]
    document = result_document(result)
    assert document["summary"]["preempted"] == 1
    assert document["summary"]["scheduled"] == 1
    [low_doc] = [r for r in document["results"] if r["pod"] == "default/low"]
    assert (low_doc["status"], low_doc["node"], low_doc["preemptedBy"]) == (
        "Preempted",
        None,
        "default/urgent",
    )


def test_a_bound_pod_deleted_otherwise_is_reported_deleted() -> None:
    node = make_node("n1").capacity(cpu="2", memory="4Gi", pods=10).obj()
    run = simulate([node], [make_pod("p").namespace("default").req(cpu="1").obj()])
    [bound] = run.cluster.pods()
    run.cluster.delete_pod(bound)
    run.resume()
    outcome = run.outcome("default/p")
    assert (outcome.status, outcome.node, outcome.preempted_by) == ("Deleted", None, None)
