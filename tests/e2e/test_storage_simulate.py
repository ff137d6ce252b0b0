"""examples/storage through `kubesched simulate`: claims bound to the smallest fitting zoned
volume, or provisioned where the class allows, and the result says which."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
import yaml

from kubesched.cli.main import main

EXAMPLE = Path(__file__).resolve().parents[2] / "examples" / "storage"


def simulate(capsys: pytest.CaptureFixture[str], cluster: Path) -> dict[str, dict[str, object]]:
    main(["simulate", str(cluster), "-o", "json"])
    document = json.loads(capsys.readouterr().out)
    return {r["pod"]: r for r in document["results"]}


def test_statefulset_claims_bind_to_zoned_volumes(capsys: pytest.CaptureFixture[str]) -> None:
    results = simulate(capsys, EXAMPLE)
    web = [results[f"shop/web-{i}"] for i in range(3)]
    assert all(r["status"] == "Scheduled" for r in web)
    zone_of = {"disk-a-10g": "node-a", "disk-b-10g": "node-b", "disk-b-50g": "node-b"}
    bound = {}
    for r in web:
        ((claim, volume),) = r["volumes"].items()  # type: ignore[attr-defined]
        assert r["node"] == zone_of[volume]
        bound[claim] = volume
    assert sorted(bound.values()) == ["disk-a-10g", "disk-b-10g", "disk-b-50g"]
    db = results["shop/db-0"]
    assert db["node"] == "node-c"
    ((claim, volume),) = db["volumes"].items()  # type: ignore[attr-defined]
    assert claim == "shop/data-db-0" and str(volume).startswith("pvc-")


def test_without_the_big_disk_the_third_pod_waits(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    document = yaml.safe_load((EXAMPLE / "cluster.yaml").read_text())
    document["items"] = [o for o in document["items"] if o["metadata"]["name"] != "disk-b-50g"]
    (tmp_path / "cluster.yaml").write_text(yaml.safe_dump(document))
    results = simulate(capsys, tmp_path / "cluster.yaml")
    pending = [r for name, r in results.items() if name.startswith("shop/web") and not r["node"]]
    (waiting,) = pending
    assert waiting["volumes"] == {}
    assert waiting["message"] == (
        "0/3 nodes are available: 3 node(s) didn't find available persistent volumes to bind. "
        "preemption: 0/3 nodes are available: 3 Preemption is not helpful for scheduling."
    )
