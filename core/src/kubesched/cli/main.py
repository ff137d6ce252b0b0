"""The `kubesched` command group; subcommands live in sibling modules, one each."""

from __future__ import annotations

import sys

import click

from kubesched import __version__
from kubesched.errors import ConfigError, InputError, KubeschedError


@click.group(context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(__version__, prog_name="kubesched")
def cli() -> None:
    """kubesched: the Kubernetes scheduling framework as a Python plugin ecosystem."""


def main() -> None:
    """Entry point: run the CLI, turning user errors into one line and an exit code."""
    try:
        cli.main(standalone_mode=False)
    except click.exceptions.Abort:
        click.echo("Aborted!", err=True)
        sys.exit(1)
    except click.ClickException as exc:
        exc.show()
        sys.exit(exc.exit_code)
    except ConfigError as exc:
        click.echo(f"error: {exc}", err=True)
        sys.exit(1)
    except InputError as exc:
        click.echo(f"error: {exc}", err=True)
        sys.exit(2)
    except KubeschedError as exc:
        click.echo(f"error: {exc}", err=True)
        sys.exit(1)
