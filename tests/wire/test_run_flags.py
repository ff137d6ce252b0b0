"""--kube-api-qps and --kube-api-burst as kube-scheduler's: defaults 50 and 100, applied only
without --config (the file decides otherwise, and the flags are said to be ignored)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

import kubesched.cli.serve
from kubesched.cli.main import cli

seen: list[Any] = []


class Recorded:
    def __init__(self, cfg: Any, profiles: Any, registry: Any, options: Any) -> None:
        seen.append(cfg)

    def run(self) -> int:
        return 0

    def stop(self) -> None:
        return None


@pytest.fixture
def recorded(monkeypatch: pytest.MonkeyPatch) -> list[Any]:
    seen.clear()
    monkeypatch.setattr(kubesched.cli.serve, "Server", Recorded)
    return seen


@pytest.mark.parametrize(
    ("argv", "expected"),
    [
        ([], (50.0, 100)),
        (["--kube-api-qps", "300"], (300.0, 100)),
        (["--kube-api-qps", "300", "--kube-api-burst", "600"], (300.0, 600)),
    ],
)
def test_without_config_the_flags_set_the_client_connection(
    recorded: list[Any], argv: list[str], expected: tuple[float, int]
) -> None:
    result = CliRunner().invoke(cli, ["run", *argv])
    assert result.exit_code == 0, result.output
    conn = recorded[0].client_connection
    assert (conn.qps, conn.burst) == expected


def test_with_config_the_file_decides_and_the_flags_are_said_to_be_ignored(
    recorded: list[Any], tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    config = tmp_path / "config.yaml"
    config.write_text(
        "apiVersion: kubescheduler.config.k8s.io/v1\nkind: KubeSchedulerConfiguration\n"
        "clientConnection: {qps: 7, burst: 9}\n"
    )
    result = CliRunner().invoke(
        cli, ["run", "--config", str(config), "--kube-api-qps", "300", "--kube-api-burst", "1"]
    )
    assert result.exit_code == 0, result.output
    conn = recorded[0].client_connection
    assert (conn.qps, conn.burst) == (7.0, 9)
    assert (
        "--kube-api-qps and --kube-api-burst ignored: --config is given "
        "(set clientConnection.qps and .burst there)"
    ) in caplog.text
