"""Helpers of the sweep tests: a small grid over the example clusters, and tables compared
without the columns that say how fast and where a row was computed."""

from __future__ import annotations

import textwrap
from pathlib import Path
from typing import Any

from kubesched.experiment._cell_run import TIMING

REPO = Path(__file__).resolve().parents[2]
EXAMPLES = REPO / "examples"


def write_grid(folder: Path, inputs: str, seeds: str = "1-3", name: str = "grid.yaml") -> Path:
    """A grid of the two example configs (spread, and pack as a plugin-args variation)."""
    path = folder / name
    path.write_text(
        textwrap.dedent(
            f"""\
            apiVersion: kubesched.io/v1alpha1
            kind: Sweep
            configs:
            - file: {EXAMPLES / "compare/spread.yaml"}
            - base: {EXAMPLES / "compare/spread.yaml"}
              variations:
              - name: pack
                pluginArgs: {{NodeResourcesFit: {{scoringStrategy: {{type: MostAllocated}}}}}}
            inputs:
            """
        )
        + textwrap.indent(textwrap.dedent(inputs), "")
        + f"seeds: {seeds}\n"
    )
    return path


def without_timing(rows: list[dict[str, Any]]) -> list[dict[str, Any]]:
    return [{k: v for k, v in row.items() if k not in TIMING} for row in rows]
