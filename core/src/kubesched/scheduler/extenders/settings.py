"""One extender's settings, as the scheduler uses them (the composition root fills them
from the configuration's `extenders` entries)."""

from __future__ import annotations

from attrs import frozen

DEFAULT_EXTENDER_TIMEOUT = 5.0
"""Seconds an extender call may take when `httpTimeout` is 0 (upstream's
DefaultExtenderTimeout)."""


@frozen
class TLSSettings:
    """How to verify the extender and which client certificate to present. `*_data`
    fields hold PEM, base64-encoded as in the configuration file (plain PEM works too)."""

    insecure: bool = False
    server_name: str = ""
    cert_file: str = ""
    key_file: str = ""
    ca_file: str = ""
    cert_data: str = ""
    key_data: str = ""
    ca_data: str = ""


@frozen
class ExtenderSettings:
    """An extender: where it is, which verbs it serves, and how to reach it."""

    url_prefix: str
    filter_verb: str = ""
    preempt_verb: str = ""
    prioritize_verb: str = ""
    bind_verb: str = ""
    weight: int = 0
    enable_https: bool = False
    tls: TLSSettings | None = None
    http_timeout: float = 0.0
    """Seconds; 0 means DEFAULT_EXTENDER_TIMEOUT."""
    node_cache_capable: bool = False
    managed_resources: frozenset[str] = frozenset()
    ignorable: bool = False
