"""The testing helpers type-check the way the docs use them, under `mypy --strict` (the
generated plugin project's setting)."""

from __future__ import annotations

import subprocess
import sys
import textwrap
from pathlib import Path

SNIPPET = textwrap.dedent(
    """
    from typing import Any

    from attrs import frozen

    from kubesched import hookimpl
    from kubesched.framework import NodeInfo
    from kubesched.testing import PluginHarness, make_node


    @frozen
    class BuddyArgs:
        wait_seconds: int = 1


    class Buddy:
        name = "Buddy"
        args_type = BuddyArgs

        def __init__(self, args: BuddyArgs | None, handle: Any) -> None:
            self.args = args or BuddyArgs()

        @hookimpl
        def score(self, node_info: NodeInfo) -> int:
            return self.args.wait_seconds


    harness = PluginHarness(Buddy, {"waitSeconds": 5}, nodes=[make_node("n").obj()])
    seconds: int = harness.plugin.args.wait_seconds
    prebuilt = PluginHarness(Buddy(None, None))
    also: int = prebuilt.plugin.args.wait_seconds
    reveal_type(harness.plugin)
    """
)


def test_harness_plugin_has_the_plugin_class_type(tmp_path: Path) -> None:
    module = tmp_path / "snippet.py"
    module.write_text(SNIPPET)
    done = subprocess.run(
        [sys.executable, "-m", "mypy", "--strict", "--no-incremental", str(module)],
        capture_output=True,
        text=True,
        check=False,
        cwd=tmp_path,
    )
    assert done.returncode == 0, done.stdout + done.stderr
    assert 'Revealed type is "snippet.Buddy"' in done.stdout
