"""The one-file HTML report of a kubesched result document.

`render_html(document)` turns the JSON document of `kubesched simulate` into
one self-contained HTML page (styles, scripts and data inlined; no network
needed to open it). Each document kind has its own template and script.
Rendering needs the `report` extra (Jinja2): `pip install 'kubesched-core[report]'`.
"""

from __future__ import annotations

import os
import tempfile
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from kubesched.errors import KubeschedError
from kubesched.report._document import (
    API_VERSION,
    SUPPORTED_KINDS,
    check_document,
    read_document,
)

__all__ = [
    "API_VERSION",
    "EXTRA_HINT",
    "SUPPORTED_KINDS",
    "ReportExtraMissing",
    "check_document",
    "ensure_available",
    "read_document",
    "render_html",
    "write_html",
]

EXTRA_HINT = "HTML reports need the report extra: pip install 'kubesched-core[report]'"
"""The one line a user sees when Jinja2 is not installed."""


class ReportExtraMissing(KubeschedError):
    """The `report` extra (Jinja2) is not installed."""

    def __init__(self) -> None:
        super().__init__(EXTRA_HINT)


def ensure_available() -> None:
    """ReportExtraMissing unless the libraries the report renders with are importable."""
    try:
        import jinja2  # noqa: F401
    except ImportError:
        raise ReportExtraMissing() from None


def render_html(
    document: Mapping[str, Any],
    *,
    configuration: Mapping[str, Any] | None = None,
    title: str | None = None,
) -> str:
    """The HTML page of a result document; `configuration` (the effective configuration, as
    `kubesched config show` prints it) is shown on the page when given."""
    ensure_available()
    check_document(document)
    if document["kind"] == "ReplayResult":
        from kubesched.report._replay import render_replay

        return render_replay(document, title)
    if document["kind"] == "ComparisonResult":
        from kubesched.report._compare import render_comparison

        return render_comparison(document, title)
    from kubesched.report._simulation import render_simulation

    return render_simulation(document, configuration, title)


def write_html(path: str | Path, html: str) -> None:
    """Write `html` to `path` whole or not at all (a temporary file, then a rename)."""
    target = Path(path)
    handle, temporary = tempfile.mkstemp(
        dir=target.parent if str(target.parent) else ".", prefix=f".{target.name}.", suffix=".tmp"
    )
    try:
        with os.fdopen(handle, "w", encoding="utf-8") as out:
            out.write(html)
        umask = os.umask(0)
        os.umask(umask)
        os.chmod(temporary, 0o666 & ~umask)
        os.replace(temporary, target)
    except BaseException:
        Path(temporary).unlink(missing_ok=True)
        raise
