"""`kubesched-openb`: the former name of `kubesched openb`, kept for one release.

It runs the same click command with the same options and conventions, after one
`warning:` line saying so; kubesched-gpushare 0.2 removes it.
"""

from __future__ import annotations

import sys
from typing import Any

import click

from kubesched.cli import run_command
from kubesched_gpushare.replay.command import openb

DEPRECATION = (
    "kubesched-openb is deprecated and will be removed in kubesched-gpushare 0.2: "
    "run `kubesched openb`, which takes the same options"
)


def main(argv: list[str] | None = None) -> Any:
    """The console script: a deprecation warning, then `kubesched openb ARGS...`."""
    click.echo(f"warning: {DEPRECATION}", err=True)
    args = sys.argv[1:] if argv is None else argv
    return run_command(openb, args, "kubesched-openb")


if __name__ == "__main__":
    sys.exit(main())
