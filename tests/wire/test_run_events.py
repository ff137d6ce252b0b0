"""Events of the same kind about the same object become a series, as client-go's do; and an
object the watch cannot load is skipped, not fatal."""

from __future__ import annotations

import logging
from pathlib import Path

import pytest

from kubesched.cluster.apiserver import ApiEventRecorder, ApiServerCluster, ApiSession
from kubesched.testing import make_node, make_pod
from kubesched.testing.apiserver import FakeApiServer


def test_repeats_become_a_series(apiserver: FakeApiServer, kubeconfig: Path) -> None:
    session = ApiSession(str(kubeconfig))
    session.start()
    try:
        recorder = ApiEventRecorder(session, lambda obj: "my-scheduler", "host")
        session.spawn(recorder.run())
        pod = make_pod("p").namespace("default").uid("u1").obj()
        for _ in range(3):
            recorder.event(pod, "Warning", "FailedScheduling", "Scheduling", "0/1 nodes")
        recorder.event(pod, "Normal", "Scheduled", "Binding", "Successfully assigned")
        apiserver.wait_for(lambda: recorder.written == 3)
    finally:
        session.close()
    by_reason = {e["reason"]: e for e in apiserver.items("events.k8s.io/v1", "events")}
    assert set(by_reason) == {"FailedScheduling", "Scheduled"}
    failed = by_reason["FailedScheduling"]
    assert failed["series"]["count"] == 2  # the third is counted, written later
    assert failed["regarding"] == {
        "apiVersion": "v1",
        "kind": "Pod",
        "namespace": "default",
        "name": "p",
        "uid": "u1",
    }
    assert failed["metadata"]["name"].startswith("p.")
    assert "series" not in by_reason["Scheduled"]


def test_an_object_that_does_not_load_is_skipped(
    apiserver: FakeApiServer, kubeconfig: Path, caplog: pytest.LogCaptureFixture
) -> None:
    apiserver.create(make_node("good").obj())
    bad = {"metadata": {"name": "bad"}, "status": {"allocatable": {"cpu": "lots"}}}
    apiserver.create(bad, ("v1", "nodes"))
    session = ApiSession(str(kubeconfig))
    session.start()
    try:
        cluster = ApiServerCluster(session)
        with caplog.at_level(logging.WARNING, "kubesched.run"):
            cluster.start()
            assert cluster.wait_synced(10)
        assert [n.name for n in cluster.nodes()] == ["good"]
        assert "skipped Node bad: field status.allocatable.cpu: invalid quantity" in caplog.text
    finally:
        session.close()
