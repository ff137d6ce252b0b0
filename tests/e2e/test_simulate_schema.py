"""docs/reference/simulate-output.md names every field `simulate --output json` emits."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest

from kubesched.cli.main import main

REPO = Path(__file__).resolve().parents[2]
PAGE = (REPO / "docs" / "reference" / "simulate-output.md").read_text(encoding="utf-8")


def documented(prefix: str) -> set[str]:
    return set(re.findall(rf"^\| `{re.escape(prefix)}\.(\w+)", PAGE, re.M))


def test_every_emitted_field_is_documented(capsys: pytest.CaptureFixture[str]) -> None:
    main(["simulate", str(REPO / "examples" / "quickstart"), "-o", "json", "--explain"])
    document: dict[str, Any] = json.loads(capsys.readouterr().out)
    result = document["results"][0]
    node = next(iter(result["nodes"].values()))
    usage = document["summary"]["nodes"][0]
    top_level = PAGE.split("## Top level", 1)[1].split("\n## ", 1)[0]
    assert set(document) == set(re.findall(r"^\| `(\w+)` \|", top_level, re.M))
    # `devices` appears only for pods with resource claims (tests/e2e/test_dra_simulate.py).
    assert set(result) | {"devices"} == documented("results[]")
    assert set(document["summary"]) - {"nodes"} == documented("summary") - {"nodes"}
    assert set(usage) == documented("summary.nodes[]")
    section = PAGE.split("## `results[].nodes.")[1].split("\n## ")[0]
    rows = set(re.findall(r"^\| `([\w.]+)` \|", section, re.M))
    emitted = {f"filter.{k}" for k in node["filter"]} | (set(node) - {"filter"})
    assert rows == emitted
