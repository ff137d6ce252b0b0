"""kubesched: the Kubernetes scheduling framework as a Python plugin ecosystem.

Plugin authors need `kubesched.hookimpl` and the names in `kubesched.framework`.
"""

from importlib.metadata import PackageNotFoundError, version

from kubesched.framework.hookspecs import hookimpl

try:
    __version__ = version("kubesched-core")
except PackageNotFoundError:  # pragma: no cover - running from a source tree without install
    __version__ = "0.0.0"

__all__ = ["__version__", "hookimpl"]
