"""`kubesched simulate --explain` on a cluster larger than the explanation: the short view by
default (output bounded whatever the cluster's size), `--explain-nodes all|N`, the effective
request and free amounts, in JSON, YAML and the table; devices in the table."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import jsonschema
import yaml
from click.testing import CliRunner

from kubesched.cli.main import cli

REPO = Path(__file__).resolve().parents[2]
SCHEMA = json.loads(
    (REPO / "docs/reference/schemas/simulation-result.schema.json").read_text(encoding="utf-8")
)
GI = 2**30


def cluster(nodes: int) -> str:
    """`nodes` workers (every third tainted, every fifth too small), and three pods."""
    docs = []
    for i in range(nodes):
        cpu = "1" if i % 5 == 4 else "8"
        taints = "taints: [{key: dedicated, value: gpu, effect: NoSchedule}]" if i % 3 == 2 else ""
        docs.append(
            f"apiVersion: v1\nkind: Node\nmetadata: {{name: node-{i:03d}}}\n"
            f"spec: {{{taints}}}\n"
            f'status: {{allocatable: {{cpu: "{cpu}", memory: 16Gi, pods: "20"}}}}'
        )
    for name, cpu in (("web", "2"), ("api", "2"), ("huge", "64")):
        docs.append(
            f"apiVersion: v1\nkind: Pod\nmetadata: {{name: {name}, namespace: shop}}\n"
            "spec:\n  containers: [{name: c, resources: {requests: {cpu: "
            f'"{cpu}", memory: 1Gi}}}}}}]\n'
            "  initContainers: [{name: i, restartPolicy: Always, resources: {requests: "
            "{cpu: 500m}}}]\n"
            "  overhead: {cpu: 100m}"
        )
    return "\n---\n".join(docs) + "\n"


def simulate(tmp_path: Path, nodes: int, *args: str) -> tuple[int, str]:
    path = tmp_path / f"cluster-{nodes}.yaml"
    if not path.exists():
        path.write_text(cluster(nodes), encoding="utf-8")
    result = CliRunner().invoke(cli, ["simulate", str(path), *args], catch_exceptions=False)
    return result.exit_code, result.output


def results(tmp_path: Path, nodes: int, *args: str) -> list[dict[str, Any]]:
    code, out = simulate(tmp_path, nodes, "-o", "json", "--explain", *args)
    assert code == 0, out
    document = json.loads(out)
    jsonschema.validate(document, SCHEMA)
    assert document["apiVersion"] == "kubesched.io/v1alpha2"
    return list(document["results"])


def test_the_default_view_does_not_grow_with_the_cluster(tmp_path: Path) -> None:
    small, large = results(tmp_path, 30), results(tmp_path, 300)
    every = results(tmp_path, 300, "--explain-nodes", "all")
    for result, whole in zip(
        large, every, strict=True
    ):  # past 100 nodes, not every node is looked at
        counted = sum(g["count"] for g in result["nodesNotShown"])
        assert counted + len(result["nodes"]) == len(whole["nodes"])
    for result in (*small, *large):
        assert len(result["nodes"]) <= 4
        assert result["node"] is None or result["node"] in result["nodes"]
        assert all(n["filter"]["code"] == "Success" for n in result["nodes"].values())
        assert all(len(g["examples"]) <= 3 for g in result["nodesNotShown"])
    for a, b in zip(small, large, strict=True):
        assert len(json.dumps(b)) < 1.2 * len(json.dumps(a))  # names are one digit longer


def test_the_groups_say_why_the_other_nodes_failed(tmp_path: Path) -> None:
    web = results(tmp_path, 30)[0]
    groups = {
        (g["filter"]["plugin"], tuple(g["filter"]["reasons"])): (g["count"], g["examples"])
        for g in web["nodesNotShown"]
    }
    assert groups[("TaintToleration", ("node(s) had untolerated taint(s)",))] == (
        10,
        ["node-002", "node-005", "node-008"],
    )
    assert groups[("NodeResourcesFit", ("Insufficient cpu",))][0] == 4  # 6 small, 2 tainted
    assert groups[(None, ())][0] == 30 - 10 - 4 - 4  # passed, scored below the 4 shown
    huge = results(tmp_path, 30)[2]
    assert huge["status"] == "Unschedulable" and huge["nodes"] == {}
    assert sum(g["count"] for g in huge["nodesNotShown"]) == 30


def test_all_shows_every_node_and_n_the_n_best(tmp_path: Path) -> None:
    every = results(tmp_path, 30, "--explain-nodes", "all")
    assert all(len(r["nodes"]) == 30 and r["nodesNotShown"] == [] for r in every)
    chosen_only = results(tmp_path, 30, "--explain-nodes", "0")
    assert [list(r["nodes"]) for r in chosen_only[:2]] == [[r["node"]] for r in every[:2]]
    best = results(tmp_path, 30, "--explain-nodes", "6")[0]
    totals = sorted((n["total"] for n in every[0]["nodes"].values() if n["total"]), reverse=True)
    shown = sorted((n["total"] for n in best["nodes"].values()), reverse=True)
    assert len(shown) in (6, 7)  # and the chosen node, when a tie left it out of the six
    assert shown[:6] == totals[:6]


def test_request_and_free_amounts(tmp_path: Path) -> None:
    web, api, _ = results(tmp_path, 30, "--explain-nodes", "all")
    # 2 cpu + a 500m sidecar + 100m overhead; memory from the container
    assert web["request"] == {"pods": 1, "cpu": 2600, "memory": GI}
    node = api["nodes"][web["node"]]["resources"]
    assert node == {
        "pods": {"allocatable": 20, "requested": 1, "free": 19},
        "cpu": {"allocatable": 8000, "requested": 2600, "free": 5400},
        "memory": {"allocatable": 16 * GI, "requested": GI, "free": 15 * GI},
    }
    assert api["nodes"]["node-004"]["resources"]["cpu"]["free"] == 1000


def test_pod_level_resources_follow_the_gate() -> None:
    example = str(REPO / "examples" / "feature-gates" / "pod-level-resources.yaml")
    runner = CliRunner()
    on = runner.invoke(cli, ["simulate", example, "-o", "json", "--explain"])
    off = runner.invoke(
        cli,
        ["simulate", example, "-o", "json", "--explain", "--feature-gates=PodLevelResources=false"],
    )
    assert json.loads(on.output)["results"][0]["request"] == {"pods": 1, "cpu": 3000}
    assert json.loads(off.output)["results"][0]["request"] == {"pods": 1, "cpu": 1000}


def test_yaml_carries_the_same_short_view(tmp_path: Path) -> None:
    code, out = simulate(tmp_path, 30, "-o", "yaml", "--explain-pod", "shop/web")
    assert code == 0, out
    document = yaml.safe_load(out)
    explained = [r for r in document["results"] if "nodes" in r]
    assert [r["pod"] for r in explained] == ["shop/web"]
    assert explained[0] == results(tmp_path, 30)[0]


def test_the_table_shows_the_request_free_amounts_and_groups(tmp_path: Path) -> None:
    code, out = simulate(tmp_path, 300, "--explain-pod", "shop/web", "--nodes", "none")
    assert code == 0, out
    assert "effective request: pods 1, cpu 2.6, memory 1Gi" in out
    assert "free/allocatable" in out
    assert "Other nodes, by verdict" in out
    assert (
        "TaintToleration: node(s) had untolerated taint(s) │ node-002, node-005, node-008, ..."
        in out
    )
    assert "passed, scored below the nodes shown" in out
    assert out.count("│ node-") < 12  # 4 nodes shown, a few examples: not 300 rows
    _, every = simulate(tmp_path, 30, "--explain-pod", "shop/web", "--explain-nodes", "all")
    assert "Other nodes, by verdict" not in every
    assert every.count("│ node-") >= 30


def test_a_bad_value_is_one_line_and_exit_2(tmp_path: Path) -> None:
    code, out = simulate(tmp_path, 3, "--explain", "--explain-nodes", "most")
    assert code == 2
    assert "'most' is not summary, all or a number of nodes" in out
    assert "Traceback" not in out


def test_the_table_lists_the_devices_a_pod_got() -> None:
    example = str(REPO / "examples" / "dra" / "cluster.yaml")
    out = CliRunner().invoke(cli, ["simulate", example, "--nodes", "none"]).output
    assert "Devices" in out
    assert "gpu.example.com/gpu-t4/gpu-0, gpu.example.com/gpu-t4/gpu-1" in out
    plain = CliRunner().invoke(cli, ["simulate", str(REPO / "examples" / "quickstart")]).output
    assert "Devices" not in plain


def test_the_installed_command_streams_the_short_view(tmp_path: Path) -> None:
    path = tmp_path / "cluster.yaml"
    path.write_text(cluster(60), encoding="utf-8")
    done = subprocess.run(
        [
            str(Path(sys.executable).parent / "kubesched"),
            "simulate",
            str(path),
            "-o",
            "json",
            "--explain",
        ],
        capture_output=True,
        text=True,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    document = json.loads(done.stdout)
    jsonschema.validate(document, SCHEMA)
    web = document["results"][0]
    assert len(web["nodes"]) == 4
    assert sum(g["count"] for g in web["nodesNotShown"]) == 56
