"""Makes `sweep_testlib` importable by these tests; the example grid fixture."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).parent))

from sweep_testlib import EXAMPLES, write_grid


@pytest.fixture
def example_grid(tmp_path: Path) -> Path:
    """2 configs x 2 example clusters x 3 seeds = 12 cells."""
    return write_grid(
        tmp_path,
        f"""\
        - cluster: {EXAMPLES / "quickstart"}
        - cluster: {EXAMPLES / "preemption/cluster.yaml"}
        """,
    )
