"""What the config layer knows of plugins: names and args types, handed in as data.

The config layer never loads a plugin itself. Whoever loads a configuration
passes a catalog of the installed plugins (the framework's Registry is one).
"""

from __future__ import annotations

from typing import Protocol


class PluginCatalog(Protocol):
    """The installed plugins, as far as a configuration needs to know them."""

    def __contains__(self, name: object) -> bool:
        """Is a plugin of this name installed?"""
        ...

    def args_type(self, name: str) -> type | None:
        """The attrs class its args structure into, or None (args stay as written)."""
        ...

    def args_kind(self, name: str) -> str:
        """The `kind` of its args in a config file (upstream's `<Name>Args`)."""
        ...
