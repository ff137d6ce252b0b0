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


def test_a_terminating_pod_is_never_reported_as_a_new_victim() -> None:
    """Upstream's prepareCandidate leaves a victim already being deleted alone; it is not
    one of the pods this preemption evicted, at this attempt or the next."""
    from datetime import datetime, timezone

    node = make_node("n1").capacity(cpu="2", memory="4Gi", pods=10).obj()
    old = (
        make_pod("old").namespace("default").priority(1).node("n1").req(cpu="1")
        .deletion_timestamp(datetime(2024, 1, 1, tzinfo=timezone.utc)).obj()
    )  # fmt: skip
    low = make_pod("low").namespace("default").priority(1).node("n1").req(cpu="1").obj()
    urgent = make_pod("urgent").namespace("default").priority(100).req(cpu="2").obj()
    run = simulate([node], [old, low, urgent])
    outcome = run.outcome("default/urgent")
    assert outcome.victims == ["default/low"]
    assert outcome.attempts >= 2, "tried again once the victim was gone"
    assert {p.metadata.name for p in run.cluster.pods()} == {"old", "urgent"}


def test_a_pre_filter_rejection_names_its_plugin_on_every_node() -> None:
    from kubesched import hookimpl
    from kubesched.framework import Code, Status

    class Gatekeeper:
        name = "Gatekeeper"

        def __init__(self, args: object, handle: object) -> None:
            pass

        @hookimpl
        def pre_filter(self) -> Status:
            return Status(Code.UNSCHEDULABLE_AND_UNRESOLVABLE, "no entry")

    nodes = [make_node(f"n{i}").capacity(cpu="2", memory="4Gi", pods=10).obj() for i in range(2)]
    cfg = {"profiles": [{"plugins": {"preFilter": {"enabled": [{"name": "Gatekeeper"}]}}}]}
    pod = make_pod("p").namespace("default").obj()
    run = simulate(nodes, [pod], cfg, plugins={"Gatekeeper": Gatekeeper}, explain=True)
    document = result_document(run.result, explain=True)
    [result] = document["results"]
    assert result["message"].startswith("0/2 nodes are available: no entry. preemption: ")
    assert {n: v["filter"]["plugin"] for n, v in result["nodes"].items()} == {
        "n0": "Gatekeeper",
        "n1": "Gatekeeper",
    }
