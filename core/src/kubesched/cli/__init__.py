"""The `kubesched` command."""

from kubesched.cli.main import cli, main

__all__ = ["cli", "main"]
