"""Loading config files with upstream's strictness: every problem, each with its field path."""

from __future__ import annotations

import json
from datetime import timedelta
from pathlib import Path

import pytest

from kubesched.config import Plugin, load_config, parse_config
from kubesched.errors import ConfigError
from kubesched.framework._registry import Registry

HEADER = "apiVersion: kubescheduler.config.k8s.io/v1\nkind: KubeSchedulerConfiguration\n"


def errors_of(text: str, registry: Registry) -> list[str]:
    with pytest.raises(ConfigError) as info:
        parse_config(text, registry)
    return info.value.errors


def test_minimal_documented_config(kubesched_registry: Registry) -> None:
    cfg = parse_config(
        HEADER + "clientConnection:\n  kubeconfig: /etc/srv/kubernetes/kube-scheduler/kubeconfig\n",
        kubesched_registry,
    )
    assert cfg.client_connection.kubeconfig == "/etc/srv/kubernetes/kube-scheduler/kubeconfig"
    assert cfg.client_connection.qps == 50
    assert [p.scheduler_name for p in cfg.profiles] == ["default-scheduler"]


def test_json_is_accepted(kubesched_registry: Registry) -> None:
    document = {
        "apiVersion": "kubescheduler.config.k8s.io/v1",
        "kind": "KubeSchedulerConfiguration",
        "parallelism": 4,
        "leaderElection": {"leaderElect": False, "leaseDuration": "1m30s"},
        "profiles": [{"schedulerName": "a", "percentageOfNodesToScore": 20}],
    }
    cfg = parse_config(json.dumps(document), kubesched_registry)
    assert cfg.parallelism == 4
    assert cfg.leader_election.leader_elect is False
    assert cfg.leader_election.lease_duration == timedelta(seconds=90)
    assert cfg.profiles[0].percentage_of_nodes_to_score == 20


@pytest.mark.parametrize(
    ("body", "expected"),
    [
        (
            "profiles:\n- plugins:\n    score:\n      enabled:\n      - name: NodeName\n"
            "      - name: TaintToleration\n        wieght: 3\n",
            ['profiles[0].plugins.score.enabled[1].wieght: unknown field, did you mean "weight"?'],
        ),
        (
            "profiles:\n- plugins:\n    score:\n      enabled:\n      - name: TaintToleration\n"
            "        weight: high\n",
            ['profiles[0].plugins.score.enabled[0].weight: expected an integer, got string "high"'],
        ),
        ("parallelism: '16'\n", ['parallelism: expected an integer, got string "16"']),
        ("parallelism: 16.5\n", ["parallelism: expected an integer, got number 16.5"]),
        ("parallelism: true\n", ["parallelism: expected an integer, got boolean true"]),
        ("enableProfiling: 1\n", ["enableProfiling: expected a boolean, got number 1"]),
        ("profiles: {}\n", ["profiles: expected an array, got object"]),
        ("profiles: [3]\n", ["profiles[0]: expected an object, got number 3"]),
        (
            "profiles:\n- plugins:\n    filter:\n      enabled: NodeName\n",
            ['profiles[0].plugins.filter.enabled: expected an array, got string "NodeName"'],
        ),
        (
            "leaderElection:\n  leaseDuration: 15\n",
            [
                "leaderElection.leaseDuration: "
                'expected a duration string such as "15s", got number 15'
            ],
        ),
        (
            "leaderElection:\n  retryPeriod: 2 seconds\n",
            [
                'leaderElection.retryPeriod: invalid duration "2 seconds" '
                '(examples: "15s", "1m30s", "500ms")'
            ],
        ),
        (
            "schedulerName: x\n",
            ["schedulerName: unknown field"],
        ),
        (
            "percentageOfNodesToScor: 10\n",
            ['percentageOfNodesToScor: unknown field, did you mean "percentageOfNodesToScore"?'],
        ),
        (
            "extenders:\n- urlPrefix: http://x\n  enableHttps: true\n",
            ['extenders[0].enableHttps: unknown field, did you mean "enableHTTPS"?'],
        ),
    ],
    ids=[
        "unknown-nested-field",
        "wrong-type-nested",
        "string-for-int",
        "float-for-int",
        "bool-for-int",
        "int-for-bool",
        "object-for-list",
        "scalar-for-object",
        "string-for-list",
        "number-for-duration",
        "bad-duration",
        "profile-field-at-top",
        "misspelled-top-level",
        "case-matters",
    ],
)
def test_strict_structure(body: str, expected: list[str], kubesched_registry: Registry) -> None:
    assert errors_of(HEADER + body, kubesched_registry) == expected


def test_every_problem_is_reported(kubesched_registry: Registry) -> None:
    body = "parallelism: x\nbogus: 1\nprofiles:\n- schedulerName: 3\n  extra: true\n"
    assert errors_of(HEADER + body, kubesched_registry) == [
        'parallelism: expected an integer, got string "x"',
        "profiles[0].schedulerName: expected a string, got number 3",
        "profiles[0].extra: unknown field",
        "bogus: unknown field",
    ]


def test_duplicate_fields(kubesched_registry: Registry) -> None:
    body = "parallelism: 4\nprofiles:\n- schedulerName: a\n  schedulerName: b\nparallelism: 8\n"
    assert errors_of(HEADER + body, kubesched_registry) == [
        "profiles[0].schedulerName: duplicate field (line 6)",
        "parallelism: duplicate field (line 7)",
    ]


def test_duplicate_fields_in_json(kubesched_registry: Registry) -> None:
    text = (
        '{"apiVersion": "kubescheduler.config.k8s.io/v1", "kind": "KubeSchedulerConfiguration",'
        ' "parallelism": 1, "parallelism": 2}'
    )
    assert errors_of(text, kubesched_registry) == ["parallelism: duplicate field (line 1)"]


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        (
            HEADER + "profiles:\n  - schedulerName: a\n   plugins: {}\n",
            "line 5, column 4: invalid YAML: ",
        ),
        ('{"apiVersion": "x",', "line 1, column 20: invalid YAML: "),
        (HEADER + "---\n" + HEADER, "line 3, column 1: invalid YAML: "),
    ],
    ids=["bad-indentation", "truncated-json", "two-documents"],
)
def test_syntax_errors_say_where(text: str, expected: str, kubesched_registry: Registry) -> None:
    [line] = errors_of(text, kubesched_registry)
    assert line.startswith(expected)


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        (
            "apiVersion: kubescheduler.config.k8s.io/v1beta3\nkind: KubeSchedulerConfiguration\n",
            [
                'apiVersion: Unsupported value: "kubescheduler.config.k8s.io/v1beta3": '
                'supported values: "kubescheduler.config.k8s.io/v1"'
            ],
        ),
        (
            "apiVersion: kubescheduler.config.k8s.io/v1\nkind: KubeletConfiguration\n",
            [
                'kind: Unsupported value: "KubeletConfiguration": '
                'supported values: "KubeSchedulerConfiguration"'
            ],
        ),
        (
            "parallelism: 3\n",
            [
                'apiVersion: Required value: must be "kubescheduler.config.k8s.io/v1"',
                'kind: Required value: must be "KubeSchedulerConfiguration"',
            ],
        ),
        (
            "",
            ["expected a KubeSchedulerConfiguration object, got null"],
        ),
        ("- a\n- b\n", ["expected a KubeSchedulerConfiguration object, got array"]),
    ],
    ids=["old-version", "other-kind", "missing-type", "empty", "not-an-object"],
)
def test_type_meta(text: str, expected: list[str], kubesched_registry: Registry) -> None:
    assert errors_of(text, kubesched_registry) == expected


def test_null_means_unset(kubesched_registry: Registry) -> None:
    body = "parallelism: null\nprofiles:\n- schedulerName: a\n  plugins:\n    score: null\n"
    cfg = parse_config(HEADER + body, kubesched_registry)
    assert cfg.parallelism == 16
    # The whole default multiPoint set, nothing at score.
    assert cfg.profiles[0].plugins is not None
    assert cfg.profiles[0].plugins.score.enabled == []


def test_dates_stay_strings(kubesched_registry: Registry) -> None:
    body = "profiles:\n- schedulerName: 2024-01-01\n"
    cfg = parse_config(HEADER + body, kubesched_registry)
    assert cfg.profiles[0].scheduler_name == "2024-01-01"


def test_weights_and_order_survive_loading(kubesched_registry: Registry) -> None:
    body = (
        "profiles:\n- plugins:\n    score:\n      enabled:\n      - name: NodeAffinity\n"
        "        weight: 7\n      - name: TaintToleration\n"
    )
    cfg = parse_config(HEADER + body, kubesched_registry)
    assert cfg.profiles[0].plugins is not None
    assert cfg.profiles[0].plugins.score.enabled == [
        Plugin("NodeAffinity", 7),
        Plugin("TaintToleration"),
    ]


def test_load_config_names_the_file(tmp_path: Path, kubesched_registry: Registry) -> None:
    path = tmp_path / "scheduler.yaml"
    path.write_text(HEADER + "parallelism: 0\n")
    with pytest.raises(ConfigError) as info:
        load_config(path, kubesched_registry)
    assert info.value.file == str(path)
    assert str(info.value) == (
        f"{path}: parallelism: Invalid value: 0: should be an integer value greater than zero"
    )


def test_load_config_reads_a_valid_file(tmp_path: Path, kubesched_registry: Registry) -> None:
    path = tmp_path / "scheduler.json"
    path.write_text(
        json.dumps(
            {"apiVersion": "kubescheduler.config.k8s.io/v1", "kind": "KubeSchedulerConfiguration"}
        )
    )
    assert load_config(path, kubesched_registry).parallelism == 16


@pytest.mark.parametrize(
    ("content", "expected"),
    [
        (None, "cannot read the file: No such file or directory"),
        (b"\xff\xfe", "cannot read the file: not UTF-8 text (invalid start byte at byte 0)"),
    ],
    ids=["missing", "binary"],
)
def test_unreadable_files(
    content: bytes | None, expected: str, tmp_path: Path, kubesched_registry: Registry
) -> None:
    path = tmp_path / "scheduler.yaml"
    if content is not None:
        path.write_bytes(content)
    with pytest.raises(ConfigError) as info:
        load_config(path, kubesched_registry)
    assert info.value.errors == [expected]


def test_yaml_merge_keys(kubesched_registry: Registry) -> None:
    body = (
        "profiles:\n- &base\n  schedulerName: a\n  percentageOfNodesToScore: 30\n"
        "- <<: *base\n  schedulerName: b\n"
    )
    cfg = parse_config(HEADER + body, kubesched_registry)
    assert [(p.scheduler_name, p.percentage_of_nodes_to_score) for p in cfg.profiles] == [
        ("a", 30),
        ("b", 30),
    ]


@pytest.mark.parametrize(
    ("body", "expected"),
    [
        (
            "parallelism: !foo 3\n",
            "line 3, column 14: invalid YAML: could not determine a constructor for the tag '!foo'",
        ),
        ("profiles:\n- <<: 3\n", "profiles[0]: a merge key needs a mapping (line 4)"),
    ],
    ids=["unknown-tag", "merge-of-a-scalar"],
)
def test_yaml_that_is_not_data(body: str, expected: str, kubesched_registry: Registry) -> None:
    assert errors_of(HEADER + body, kubesched_registry) == [expected]
