"""What `kubesched simulate` shows of a large result: selection, grouping, wide tables, names
never cut, extended resources, and input from standard input."""

from __future__ import annotations

import io
import json
import re
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from kubesched.api import Selector
from kubesched.cli._selection import parse_label_selector
from kubesched.cli.main import main

LONG = "checkout-" + "x" * 90
CLUSTER = f"""
apiVersion: v1
kind: Node
metadata: {{name: n1}}
status:
  allocatable: {{cpu: "4", memory: 8Gi, pods: "110", nvidia.com/gpu: "2"}}
---
apiVersion: v1
kind: Node
metadata: {{name: n2}}
status:
  allocatable: {{cpu: "4", memory: 8Gi, pods: "110"}}
---
apiVersion: v1
kind: Pod
metadata: {{name: {LONG}, namespace: shop, labels: {{app: checkout, tier: web}}}}
spec:
  containers: [{{name: c, resources: {{requests: {{cpu: "1"}}}}}}]
---
apiVersion: v1
kind: Pod
metadata: {{name: trainer, namespace: ml, labels: {{app: trainer}}}}
spec:
  containers: [{{name: c, resources: {{limits: {{nvidia.com/gpu: "1"}}}}}}]
---
apiVersion: v1
kind: Pod
metadata: {{name: huge-1, namespace: ml, labels: {{app: huge}}}}
spec:
  containers: [{{name: c, resources: {{requests: {{cpu: "64"}}}}}}]
---
apiVersion: v1
kind: Pod
metadata: {{name: huge-2, namespace: ml, labels: {{app: huge}}}}
spec:
  containers: [{{name: c, resources: {{requests: {{cpu: "64"}}}}}}]
"""


@pytest.fixture
def cluster(manifest: Callable[[str], str]) -> str:
    return manifest(CLUSTER)


Run = Callable[..., str]
RunJson = Callable[..., dict[str, Any]]


def pods_in(simulate_json: RunJson, *args: str) -> list[str]:
    return [r["pod"] for r in simulate_json(*args)["results"]]


@pytest.mark.parametrize(
    ("text", "labels", "matches"),
    [
        ("app=web", {"app": "web"}, True),
        ("app==web", {"app": "db"}, False),
        ("app!=web", {}, True),
        ("env in (prod, staging)", {"env": "staging"}, True),
        ("env notin (prod),gpu", {"env": "dev", "gpu": ""}, True),
        ("env notin (prod),gpu", {"env": "dev"}, False),
        ("!gpu", {"gpu": "a100"}, False),
        ("a=1, b in (x,y), !c", {"a": "1", "b": "y"}, True),
        ("", {"anything": "x"}, True),
    ],
)
def test_kubectl_label_selectors(text: str, labels: dict[str, str], matches: bool) -> None:
    selector = parse_label_selector(text)
    assert isinstance(selector, Selector)
    assert selector.matches(labels) is matches


@pytest.mark.parametrize("text", ["app in prod", "a=b=c", "in (x)", "bad key!=x", "a=(b)"])
def test_a_bad_selector_is_a_usage_error(
    capsys: pytest.CaptureFixture[str], cluster: str, text: str
) -> None:
    with pytest.raises(SystemExit) as exited:
        main(["simulate", cluster, "-l", text])
    assert exited.value.code == 2
    err = capsys.readouterr().err
    assert f"invalid label selector {text!r}" in err and len(err.splitlines()) == 1


def test_namespace_selector_and_only_failed_narrow_what_is_shown(
    simulate_json: RunJson, cluster: str
) -> None:
    everyone = pods_in(simulate_json, cluster)
    assert len(everyone) == 4
    assert pods_in(simulate_json, cluster, "-n", "ml") == ["ml/trainer", "ml/huge-1", "ml/huge-2"]
    assert pods_in(simulate_json, cluster, "-l", "app in (huge)") == ["ml/huge-1", "ml/huge-2"]
    assert pods_in(simulate_json, cluster, "-n", "shop", "-l", "app=huge") == []
    assert pods_in(simulate_json, cluster, "--only-failed") == ["ml/huge-1", "ml/huge-2"]
    document = simulate_json(cluster, "-n", "shop")
    assert document["summary"]["unschedulable"] == 2  # the summary still counts every pod


def test_failures_are_grouped_by_reason_after_the_summary(simulate: Run, cluster: str) -> None:
    lines = simulate(cluster).splitlines()
    assert lines[0].startswith("Scheduled: 2   Unschedulable: 2   Errors: 0")
    assert lines[1] == "Pods not scheduled, by reason".ljust(len(lines[1]))
    grouped = next(line for line in lines if "ml/huge-1, ml/huge-2" in line)
    assert grouped.startswith(
        "│    2 │ Unschedulable │ 0/2 nodes are available: 2 Insufficient cpu"
    )


def test_names_are_never_cut_when_piped(simulate: Run, cluster: str) -> None:
    out = simulate(cluster)
    assert f"shop/{LONG}" in out
    assert "…" not in out


def test_wide_output_names_the_profile(simulate: Run, cluster: str) -> None:
    out = simulate(cluster, "-o", "wide")
    header = next(line for line in out.splitlines() if line.startswith("┃ # ┃"))
    assert [cell.strip() for cell in header.strip("┃").split("┃")] == [
        "#",
        "Pod",
        "Profile",
        "Status",
        "Node or reason",
        "Attempts",
    ]
    assert "default-scheduler" in out
    assert "Profile" not in simulate(cluster)


def test_explain_pod_explains_that_pod_only_and_marks_the_chosen_node(
    simulate: Run, simulate_json: RunJson, cluster: str
) -> None:
    document = simulate_json(cluster, "--explain-pod", f"shop/{LONG}")
    explained = {r["pod"] for r in document["results"] if "nodes" in r}
    assert explained == {f"shop/{LONG}"}
    out = simulate(cluster, "--explain-pod", f"shop/{LONG}")
    assert f"shop/{LONG}: last attempt" in out and "huge-1: last attempt" not in out
    [chosen] = [line for line in out.splitlines() if " (chosen) " in line]
    placed = document["results"][0]["node"]
    assert chosen.startswith(f"│ {placed} (chosen)") and "passed" in chosen and " → " in chosen


def test_extended_resources_are_summarised(
    simulate: Run, simulate_json: RunJson, cluster: str
) -> None:
    document = simulate_json(cluster)
    gpu, plain = document["summary"]["nodes"]
    assert gpu["extendedResources"] == {"nvidia.com/gpu": {"requested": 1, "allocatable": 2}}
    assert plain["extendedResources"] == {}
    out = simulate(cluster)
    assert "nvidia.com/gpu" in out and "1/2 (50%)" in out


def test_config_from_standard_input(
    simulate_json: RunJson,
    capsys: pytest.CaptureFixture[str],
    cluster: str,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    config = (
        "apiVersion: kubescheduler.config.k8s.io/v1\nkind: KubeSchedulerConfiguration\n"
        "profiles:\n- schedulerName: default-scheduler\n  plugins:\n"
        "    score: {disabled: [{name: '*'}]}\n"
    )
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(config.encode())))
    assert len(pods_in(simulate_json, cluster, "--config", "-")) == 4
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(b"kind: Nope\n")))
    with pytest.raises(SystemExit) as exited:
        main(["simulate", cluster, "--config", "-"])
    assert exited.value.code == 1
    assert capsys.readouterr().err.startswith("error: <stdin>: ")


def test_cluster_and_config_cannot_both_be_standard_input(
    capsys: pytest.CaptureFixture[str],
) -> None:
    with pytest.raises(SystemExit) as exited:
        main(["simulate", "-", "--config", "-"])
    assert exited.value.code == 2
    assert "cannot both be standard input" in capsys.readouterr().err


def test_a_stray_values_file_in_a_directory_is_skipped(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    (tmp_path / "cluster.yaml").write_text(CLUSTER)
    (tmp_path / "values.yaml").write_text("replicaCount: 3\nimage: {repository: nginx}\n")
    main(["simulate", str(tmp_path), "-o", "json"])
    captured = capsys.readouterr()
    assert len(json.loads(captured.out)["results"]) == 4
    values = tmp_path / "values.yaml"
    assert f"warning: {values}: document 0: skipped, not a Kubernetes object" in captured.err


UNCHECKED = """
apiVersion: v1
kind: Node
metadata: {name: n1}
status: {allocatable: {cpu: "4", memory: 8Gi, pods: "110"}}
---
apiVersion: v1
kind: Pod
metadata: {name: proxy, namespace: edge}
spec:
  containers: [{name: c, ports: [{containerPort: 80, hostPort: 80}]}]
---
apiVersion: v1
kind: Pod
metadata: {name: db-0, namespace: data, labels: {app: db}}
spec:
  containers: [{name: c}]
  affinity:
    podAntiAffinity:
      requiredDuringSchedulingIgnoredDuringExecution:
      - labelSelector: {matchLabels: {app: db}}
        topologyKey: kubernetes.io/hostname
"""
WITHOUT = """apiVersion: kubescheduler.config.k8s.io/v1
kind: KubeSchedulerConfiguration
profiles:
- schedulerName: default-scheduler
  plugins:
    multiPoint:
      disabled: [{name: NodePorts}, {name: InterPodAffinity}]
"""


def test_pods_using_what_their_profile_does_not_check_are_warned_about(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    (tmp_path / "c.yaml").write_text(UNCHECKED)
    (tmp_path / "config.yaml").write_text(WITHOUT)
    main(["simulate", str(tmp_path / "c.yaml"), "--config", str(tmp_path / "config.yaml"),
          "-o", "json"])  # fmt: skip
    captured = capsys.readouterr()
    expected = [
        '1 pod uses hostPorts, which profile "default-scheduler" does not check (NodePorts is '
        "not enabled at filter), so it may be placed where kube-scheduler would not place "
        "it: edge/proxy",
        '1 pod uses required pod anti-affinity, which profile "default-scheduler" does not '
        "check (InterPodAffinity is not enabled at filter), so it may be placed where "
        "kube-scheduler would not place it: data/db-0",
    ]
    assert json.loads(captured.out)["warnings"] == expected
    assert captured.err.splitlines() == [f"warning: {w}" for w in expected]


def test_no_nodes_is_warned_about(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    (tmp_path / "c.yaml").write_text(UNCHECKED.split("---", 1)[1])
    main(["simulate", str(tmp_path / "c.yaml"), "-o", "json"])
    captured = capsys.readouterr()
    assert f"warning: {tmp_path / 'c.yaml'}: no nodes: every pending pod is unschedulable" in (
        captured.err.splitlines()
    )
    assert json.loads(captured.out)["summary"]["unschedulable"] == 2


def test_explain_shows_what_preemption_weighed(simulate: Run, simulate_json: RunJson) -> None:
    example = str(Path(__file__).resolve().parents[2] / "examples" / "preemption")
    document = simulate_json(example, "--explain")
    [result] = document["results"]
    assert result["preemption"] == {
        "candidates": [
            {"node": "node-b", "victims": ["apps/etl-1"], "pdbViolations": 0},
            {"node": "node-a", "victims": ["apps/web-a"], "pdbViolations": 0},
            {"node": "node-c", "victims": ["apps/batch-c"], "pdbViolations": 0},
        ],
        "chosen": "node-c",
        "decidedBy": "latest start of its most important victims",
    }
    assert result["node"] == "node-c" and result["victims"] == ["apps/batch-c"]
    out = simulate(example, "--explain")
    assert "│ node-c (chosen) │ apps/batch-c" in out
    assert "chosen by: latest start of its most important victims" in out
    plain = simulate_json(example)
    assert "preemption" not in plain["results"][0]


def test_explaining_a_pod_that_is_not_there_is_warned_about(
    capsys: pytest.CaptureFixture[str], cluster: str
) -> None:
    main(["simulate", cluster, "--explain-pod", "ml/trainr", "-o", "json"])
    captured = capsys.readouterr()
    warning = "--explain-pod ml/trainr: no pending pod of a profile here has that name"
    assert f"warning: {warning}" in captured.err.splitlines()
    assert warning in json.loads(captured.out)["warnings"]


def node_rows(output: str) -> list[str]:
    """The node names of the Nodes table, if there is one."""
    if "\nNodes" not in output:
        return []
    table = output.split("\nNodes", 1)[1]
    return re.findall(r"^│ (\S+) +│", table, re.M)


def test_the_node_table_follows_the_selection(simulate: Run, cluster: str) -> None:
    """On a 5,000-node dump, `--only-failed -n NS` printed every node; now the node table
    holds the nodes the shown pods touched, unless `--nodes all` or `--nodes none`."""
    assert node_rows(simulate(cluster)) == ["n1", "n2"]  # nothing left out: every node
    assert node_rows(simulate(cluster, "-n", "ml", "-l", "app=trainer")) == ["n1"]
    assert node_rows(simulate(cluster, "--only-failed")) == []  # they went nowhere
    assert node_rows(simulate(cluster, "--only-failed", "--nodes", "all")) == ["n1", "n2"]
    assert node_rows(simulate(cluster, "--nodes", "none")) == []


PREEMPTION = """
apiVersion: v1
kind: Node
metadata: {name: busy}
status: {allocatable: {cpu: "2", memory: 4Gi, pods: "10"}}
---
apiVersion: v1
kind: Node
metadata: {name: idle}
status: {allocatable: {cpu: "1", memory: 4Gi, pods: "10"}}
---
apiVersion: v1
kind: Pod
metadata: {name: low, namespace: batch}
spec:
  nodeName: busy
  priority: 0
  containers: [{name: c, resources: {requests: {cpu: "2"}}}]
---
apiVersion: v1
kind: Pod
metadata: {name: urgent, namespace: web}
spec:
  priority: 100
  containers: [{name: c, resources: {requests: {cpu: "2"}}}]
"""


def test_a_preemptors_nodes_are_the_ones_it_touched(simulate: Run, tmp_path: Path) -> None:
    path = tmp_path / "preemption.yaml"
    path.write_text(PREEMPTION)
    assert node_rows(simulate(str(path), "-n", "web")) == ["busy"]
