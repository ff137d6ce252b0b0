"""`kubesched simulate --kubeconfig`: a live cluster's objects, listed read-only with the code
of `kubesched run` (here from the fake API server, with only upstream's scheduler roles),
simulate exactly as the same objects do from a manifest file."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from attrs import evolve

from kubesched.api import PodResourceClaim, unstructure
from kubesched.cli.main import main
from kubesched.testing import make_node, make_pod
from kubesched.testing.rbac import SCHEDULER_ROLES, RbacApiServer

from .test_run_dra import claiming_pod, cluster_with_gpus, gpu_claim

OBJECTS = [
    make_node("n1").capacity(cpu="2", memory="4Gi").label("zone", "a").obj(),
    make_node("n2").capacity(cpu="4", memory="8Gi").label("zone", "b").obj(),
    make_pod("a-running").node("n2").req(cpu="3").priority(0).obj(),
    make_pod("b-web").label("app", "web").req(cpu="1").priority(0).obj(),
    make_pod("c-huge").label("app", "batch").req(cpu="8").priority(0).obj(),
    make_pod("d-vip").label("app", "web").req(cpu="2").priority(100).obj(),
]


@pytest.fixture
def cluster(tmp_path: Path) -> Iterator[RbacApiServer]:
    with RbacApiServer() as server:
        for obj in OBJECTS:
            server.create(obj)
        yield server


def as_manifest(tmp_path: Path) -> str:
    documents = []
    for obj in OBJECTS:
        kind = type(obj).__name__
        raw = {"apiVersion": "v1", "kind": kind, **unstructure(obj)}
        if kind == "Pod":
            raw["metadata"]["namespace"] = "default"
        documents.append(raw)
    path = tmp_path / "cluster.json"
    path.write_text(json.dumps({"apiVersion": "v1", "kind": "List", "items": documents}))
    return str(path)


def simulate(capsys: pytest.CaptureFixture[str], *args: str) -> dict[str, Any]:
    main(["simulate", *args, "--output", "json"])
    document: dict[str, Any] = json.loads(capsys.readouterr().out)
    return document


def failing(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str]:
    with pytest.raises(SystemExit) as exit_info:
        main(["simulate", *args])
    return int(exit_info.value.code or 0), capsys.readouterr().err


def test_a_live_cluster_simulates_as_its_manifest_does(
    cluster: RbacApiServer, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    kubeconfig = str(cluster.write_kubeconfig(tmp_path / "kubeconfig"))
    live = simulate(capsys, "--kubeconfig", kubeconfig)
    from_file = simulate(capsys, as_manifest(tmp_path))
    assert live == from_file
    placed = {r["pod"]: r["node"] for r in live["results"]}
    assert placed == {"default/d-vip": "n1", "default/b-web": "n2", "default/c-huge": None}
    assert {r.method for r in cluster.requests} == {"GET"}  # read-only
    assert cluster.refused == []


def test_the_selector_shows_only_matching_pods(
    cluster: RbacApiServer, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    kubeconfig = str(cluster.write_kubeconfig(tmp_path / "kubeconfig"))
    shown = simulate(capsys, "--kubeconfig", kubeconfig, "--selector", "app=web")
    assert sorted(r["pod"] for r in shown["results"]) == ["default/b-web", "default/d-vip"]


def test_an_unknown_context_is_one_line_and_exit_2(
    cluster: RbacApiServer, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    kubeconfig = str(cluster.write_kubeconfig(tmp_path / "kubeconfig"))
    code, err = failing(capsys, "--kubeconfig", kubeconfig, "--context", "prod")
    assert code == 2
    assert err == f"error: {kubeconfig}: field contexts: no context named prod\n"
    assert cluster.requests == []


def test_a_named_context_is_used(
    cluster: RbacApiServer, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = cluster.write_kubeconfig(tmp_path / "kubeconfig")
    config = json.loads(path.read_text())
    config["contexts"].append({"name": "other", "context": config["contexts"][0]["context"]})
    config["contexts"][0]["context"] = {"cluster": "nowhere", "user": "scheduler"}
    config["clusters"].append({"name": "nowhere", "cluster": {"server": "http://127.0.0.1:9"}})
    path.write_text(json.dumps(config))
    shown = simulate(capsys, "--kubeconfig", str(path), "--context", "other")
    assert len(shown["results"]) == 3


def test_cluster_and_kubeconfig_together_are_a_usage_error(
    cluster: RbacApiServer, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    kubeconfig = str(cluster.write_kubeconfig(tmp_path / "kubeconfig"))
    code, err = failing(capsys, as_manifest(tmp_path), "--kubeconfig", kubeconfig)
    assert code == 2
    assert "give either CLUSTER or --kubeconfig" in err
    code, err = failing(capsys)
    assert code == 2
    assert "give either CLUSTER or --kubeconfig" in err


def test_a_kind_it_may_not_list_is_one_line_and_exit_1(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr("kubesched.cli._live.LIST_TIMEOUT", 1.5)
    no_nodes = [r for r in SCHEDULER_ROLES if "nodes" not in r.resources]
    with RbacApiServer(no_nodes) as server:
        kubeconfig = str(server.write_kubeconfig(tmp_path / "kubeconfig"))
        code, err = failing(capsys, "--kubeconfig", kubeconfig)
    assert code == 1
    assert err.startswith(f"error: {server.url}: could not list nodes within 2s: listing nodes ")
    assert 'nodes is forbidden: User "system:kube-scheduler" cannot list resource "nodes"' in err
    assert err.count("\n") == 1


def test_a_server_that_does_not_answer_is_one_error_and_exit_1(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr("kubesched.cli._live.LIST_TIMEOUT", 1.5)
    with RbacApiServer() as server:
        kubeconfig = str(server.write_kubeconfig(tmp_path / "kubeconfig"))
    code, err = failing(capsys, "--kubeconfig", kubeconfig)  # the server is gone now
    assert code == 1
    assert err.splitlines()[-1] == "error: the API server did not answer within 2s"


def test_a_live_clusters_devices_and_claims_are_simulated(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    with RbacApiServer() as server:
        cluster_with_gpus(server, {"cpu-only": 0, "gpu-node": 1})
        server.create(gpu_claim("train"))
        pod = claiming_pod("trainer", PodResourceClaim("gpu", resource_claim_name="train"))
        server.create(evolve(pod, spec=evolve(pod.spec, scheduler_name="default-scheduler")))
        kubeconfig = str(server.write_kubeconfig(tmp_path / "kubeconfig"))
        live = simulate(capsys, "--kubeconfig", kubeconfig)
        (result,) = live["results"]
        assert (result["pod"], result["node"]) == ("default/trainer", "gpu-node")
        assert result["devices"] == {"default/train": ["gpu.example.com/gpu-node/gpu-0"]}
        assert {r.method for r in server.requests} == {"GET"}  # read-only
        assert server.refused == []
