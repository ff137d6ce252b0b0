"""The generated description follows the chosen extension points."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from kubesched.cli.new_plugin import render


@pytest.mark.parametrize(
    ("points", "description"),
    [
        ((), "A kubesched plugin that prefers nodes by the value of one of their labels."),
        (
            ("filter", "permit"),
            "A kubesched plugin (Filter, Permit) that schedules pods by the value of one node "
            "label.",
        ),
        (
            ("queue_sort", "pre_bind", "bind"),
            "A kubesched plugin (QueueSort, PreBind, Bind) that schedules pods by the value of "
            "one node label.",
        ),
    ],
)
def test_the_description_names_the_points(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, points: tuple[str, ...], description: str
) -> None:
    monkeypatch.setenv("COOKIECUTTER_CONFIG", str(tmp_path / "cookiecutter.yaml"))
    (tmp_path / "cookiecutter.yaml").write_text(f"replay_dir: {tmp_path / 'replay'}\n")
    project = render(tmp_path, plugin_name="TierGate", points=points, no_input=True)
    pyproject = (project / "pyproject.toml").read_text().splitlines()
    [line] = [line for line in pyproject if line.startswith("description = ")]
    assert json.loads(line.removeprefix("description = ")) == description
    assert (project / "README.md").read_text().splitlines()[2] == description
