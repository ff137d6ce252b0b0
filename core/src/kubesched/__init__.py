"""kubesched: the Kubernetes scheduling framework as a Python plugin ecosystem.

Plugin authors need `kubesched.hookimpl` and the names in `kubesched.framework`.
`hookimpl` is imported on first use, so `kubesched --version` and `--help` start
without loading the framework.
"""

from __future__ import annotations

from importlib.metadata import PackageNotFoundError, version
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from kubesched.framework.hookspecs import hookimpl

try:
    __version__ = version("kubesched-core")
except PackageNotFoundError:  # pragma: no cover - running from a source tree without install
    __version__ = "0.0.0"

__all__ = ["__version__", "hookimpl"]


def __getattr__(name: str) -> Any:
    if name == "hookimpl":
        from kubesched.framework.hookspecs import hookimpl

        return hookimpl
    raise AttributeError(f"module 'kubesched' has no attribute {name!r}")
