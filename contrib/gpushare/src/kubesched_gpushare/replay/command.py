"""`kubesched openb`: the OpenB replay as a command of `kubesched` (entry-point group
`kubesched.commands`), the same as `kubesched-openb` with the same arguments."""

from __future__ import annotations

import click

from kubesched_gpushare.replay.cli import main


@click.command(
    name="openb",
    context_settings={"ignore_unknown_options": True, "allow_extra_args": True},
    add_help_option=False,
)
@click.pass_context
def openb(ctx: click.Context) -> None:
    """Replay the OpenB trace as the FGD study does (`kubesched openb --help`)."""
    ctx.exit(main(list(ctx.args), prog="kubesched openb"))
