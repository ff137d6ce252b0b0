"""`--explain-nodes summary|all|N`: how many nodes an explanation shows."""

from __future__ import annotations

import click

from kubesched.scheduler.explain import TOP_NODES

SUMMARY, ALL = "summary", "all"


def explain_nodes(ctx: click.Context, param: click.Parameter, value: str) -> int | None:
    """`summary`: the chosen node and the 3 best-scored ones (3); `all`: every node (None);
    N: the chosen node and the N best-scored ones (0: the chosen node alone)."""
    text = value.strip().lower()
    if text == SUMMARY:
        return TOP_NODES
    if text == ALL:
        return None
    if text.isdigit():
        return int(text)
    raise click.BadParameter(f"{value!r} is not summary, all or a number of nodes (0 or more)")
