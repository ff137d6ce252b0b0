"""The `kubesched` command, and what a command a plugin adds shares with the core ones:
`run_command` (its error, exit-code and signal conventions, for a stand-alone console
script), `output_option` (`-o table|json|yaml`), `DelayedProgress` (a progress bar on a
terminal only, after a delay) and `stage` (what an interruption says the command was
doing)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from kubesched.cli._interrupt import stage
from kubesched.cli._options import output_option
from kubesched.cli.main import cli, main, run_command

if TYPE_CHECKING:
    from kubesched.cli._progress import DelayedProgress

__all__ = ["DelayedProgress", "cli", "main", "output_option", "run_command", "stage"]


def __getattr__(name: str) -> Any:
    """`DelayedProgress` is imported on first use: `kubesched --help` loads no framework."""
    if name == "DelayedProgress":
        from kubesched.cli._progress import DelayedProgress

        return DelayedProgress
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
