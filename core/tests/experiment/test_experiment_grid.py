"""Grid files: configs, variations, inputs and seeds; every mistake one line naming the field."""

from __future__ import annotations

import textwrap
from pathlib import Path

import pytest

from kubesched.errors import InputError
from kubesched.experiment._grid import load_grid

CONFIG = """\
apiVersion: kubescheduler.config.k8s.io/v1
kind: KubeSchedulerConfiguration
profiles:
- schedulerName: default-scheduler
  pluginConfig:
  - name: NodeResourcesFit
    args: {scoringStrategy: {type: LeastAllocated}}
"""
NODES = """\
apiVersion: v1
kind: Node
metadata: {name: n1}
status: {allocatable: {cpu: "4", memory: 8Gi, pods: "110"}}
"""


@pytest.fixture
def folder(tmp_path: Path) -> Path:
    (tmp_path / "spread.yaml").write_text(CONFIG)
    (tmp_path / "cluster.yaml").write_text(NODES)
    return tmp_path


def grid(folder: Path, body: str) -> Path:
    path = folder / "grid.yaml"
    text = "apiVersion: kubesched.io/v1alpha1\nkind: Sweep\n" + textwrap.dedent(body)
    path.write_text(text)
    return path


def test_a_grid_has_its_configs_variations_inputs_and_seeds(folder: Path) -> None:
    loaded = load_grid(
        grid(
            folder,
            """
            configs:
            - file: spread.yaml
            - base: spread.yaml
              variations:
              - name: pack
                pluginArgs: {NodeResourcesFit: {scoringStrategy: {type: MostAllocated}}}
              - name: ratio
                pluginArgs: {NodeResourcesBalancedAllocation: {resources: [{name: cpu, weight: 1}]}}
            inputs:
            - cluster: cluster.yaml
              name: tiny
            - scenario: cluster.yaml
              name: trace
              format: openb
              options: {gpuSharing: true, nodes: 4}
              replay: {ties: first, dropUnschedulable: true}
            seeds: 1-3,7
            """,
        )
    )
    assert [c.name for c in loaded.configs] == ["spread", "pack", "ratio"]
    pack = loaded.configs[1].document["profiles"][0]["pluginConfig"]
    assert pack == [
        {"name": "NodeResourcesFit", "args": {"scoringStrategy": {"type": "MostAllocated"}}}
    ]
    ratio = loaded.configs[2].document["profiles"][0]["pluginConfig"]
    assert [e["name"] for e in ratio] == ["NodeResourcesFit", "NodeResourcesBalancedAllocation"]
    assert len({c.digest for c in loaded.configs}) == 3
    assert [(s.kind, s.name) for s in loaded.inputs] == [("cluster", "tiny"), ("scenario", "trace")]
    trace = loaded.inputs[1]
    assert (trace.format, trace.options) == ("openb", {"gpuSharing": "true", "nodes": "4"})
    assert trace.replay == {"ties": "first", "dropUnschedulable": True}
    assert loaded.inputs[0].path == str(folder / "cluster.yaml")
    assert loaded.seeds == [1, 2, 3, 7]


def test_a_variation_leaves_the_base_config_unchanged(folder: Path) -> None:
    loaded = load_grid(
        grid(
            folder,
            """
            configs:
            - base: spread.yaml
              variations:
              - name: pack
                pluginArgs: {NodeResourcesFit: {scoringStrategy: {type: MostAllocated}}}
              - {name: plain}
            inputs: [{cluster: cluster.yaml}]
            """,
        )
    )
    plain = loaded.configs[1].document["profiles"][0]["pluginConfig"][0]
    assert plain["args"]["scoringStrategy"]["type"] == "LeastAllocated"
    assert loaded.seeds == [0]


@pytest.mark.parametrize(
    ("body", "field", "message"),
    [
        ("configs: []\ninputs: [{cluster: cluster.yaml}]\n", "configs", "non-empty list"),
        (
            "configs: [{file: nope.yaml}]\ninputs: [{cluster: cluster.yaml}]\n",
            "configs[0].file",
            "no such file",
        ),
        (
            "configs: [{path: spread.yaml}]\ninputs: [{cluster: cluster.yaml}]\n",
            "configs[0]",
            "needs `file`",
        ),
        (
            "configs: [{file: spread.yaml, weight: 2}]\ninputs: [{cluster: cluster.yaml}]\n",
            "configs[0].weight",
            "unknown field",
        ),
        (
            "configs: [{base: spread.yaml, variations: [{pluginArgs: {}}]}]\n"
            "inputs: [{cluster: cluster.yaml}]\n",
            "configs[0].variations[0].name",
            "non-empty string",
        ),
        (
            "configs: [{base: spread.yaml, variations: [{name: a, pluginArgs: {Fit: 3}}]}]\n"
            "inputs: [{cluster: cluster.yaml}]\n",
            "configs[0].variations[0].pluginArgs.Fit",
            "mapping",
        ),
        (
            "configs: [{file: spread.yaml}, {file: spread.yaml, name: again}]\n"
            "inputs: [{cluster: cluster.yaml}]\n",
            "configs[1]",
            "same configuration as configs[0]",
        ),
        (
            "configs: [{file: spread.yaml}]\ninputs: [{cluster: cluster.yaml}]\nseeds: [1, x]\n",
            "seeds[1]",
            "not an integer",
        ),
        (
            "configs: [{file: spread.yaml}]\ninputs: [{cluster: cluster.yaml}]\nseeds: 5-1\n",
            "seeds",
            "range",
        ),
        (
            "configs: [{file: spread.yaml}]\ninputs: [{cluster: missing}]\n",
            "inputs[0].cluster",
            "no such file",
        ),
        ("configs: [{file: spread.yaml}]\ninputs: [{trace: x}]\n", "inputs[0]", "needs `cluster`"),
        (
            "configs: [{file: spread.yaml}]\n"
            "inputs: [{scenario: cluster.yaml, replay: {tie: first}}]\n",
            "inputs[0].replay.tie",
            "unknown field",
        ),
        (
            "configs: [{file: spread.yaml}]\n"
            "inputs: [{scenario: cluster.yaml, options: {a: [1]}}]\n",
            "inputs[0].options.a",
            "scalar",
        ),
    ],
)
def test_a_mistake_names_the_file_and_the_field(
    folder: Path, body: str, field: str, message: str
) -> None:
    path = grid(folder, body)
    with pytest.raises(InputError) as caught:
        load_grid(path)
    assert caught.value.file == str(path)
    assert caught.value.field == field
    assert message in caught.value.message
    assert "\n" not in str(caught.value)


def test_the_version_and_kind_are_checked(folder: Path) -> None:
    path = folder / "grid.yaml"
    path.write_text("apiVersion: v1\nkind: Sweep\n")
    with pytest.raises(InputError, match=r"field apiVersion: must be kubesched\.io/v1alpha1"):
        load_grid(path)
    path.write_text("apiVersion: kubesched.io/v1alpha1\nkind: Grid\n")
    with pytest.raises(InputError, match="field kind: must be Sweep"):
        load_grid(path)
    path.write_text("configs: [\n")
    with pytest.raises(InputError, match="not YAML"):
        load_grid(path)
