"""The HTTP side of one extender: a pooled httpx client, its TLS settings and timeout.

Each extender keeps one `httpx.Client` for the scheduler's life, so calls
reuse connections. As upstream's: every call is a POST of JSON to
`<urlPrefix>/<verb>`, a non-200 answer is an error ("failed <verb> with
extender at URL <url>, code <n>"), the timeout covers connecting, sending and
reading and defaults to 5 s. With `enableHTTPS` and no CA, the server's
certificate is not verified (upstream's makeTransport); `tlsConfig` adds a CA,
a client certificate, a server name for SNI and verification, or `insecure`.
"""

from __future__ import annotations

import base64
import binascii
import json
import os
import ssl
import tempfile
import weakref
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

from kubesched.framework import ExtenderError
from kubesched.scheduler.extenders.settings import (
    DEFAULT_EXTENDER_TIMEOUT,
    ExtenderSettings,
    TLSSettings,
)

INSTALL_HINT = 'extenders need the httpx package: pip install "kubesched-core[extenders]"'


def _pem(data: str, what: str, url: str) -> bytes:
    """`*Data` fields hold PEM, base64-encoded as Kubernetes encodes []byte in JSON; plain
    PEM is accepted too."""
    if "-----BEGIN" in data:
        return data.encode()
    try:
        return base64.b64decode(data, validate=True)
    except (binascii.Error, ValueError):
        raise ExtenderError(f'extender "{url}": tlsConfig.{what} is not base64 PEM') from None


@contextmanager
def _as_file(data: bytes) -> Iterator[str]:
    fd, path = tempfile.mkstemp(suffix=".pem")
    try:
        with os.fdopen(fd, "wb") as f:
            f.write(data)
        yield path
    finally:
        os.unlink(path)


def ssl_context(config: ExtenderSettings) -> ssl.SSLContext:
    """The TLS context httpx should use for this extender."""
    tls = config.tls or TLSSettings()
    url = config.url_prefix
    has_ca = bool(tls.ca_file or tls.ca_data)
    if tls.insecure or (config.enable_https and not has_ca):
        ctx = ssl.create_default_context()
        ctx.check_hostname = False
        ctx.verify_mode = ssl.CERT_NONE
    else:
        ctx = ssl.create_default_context()
    try:
        if tls.ca_file:
            ctx.load_verify_locations(cafile=tls.ca_file)
        if tls.ca_data:
            ctx.load_verify_locations(cadata=_pem(tls.ca_data, "caData", url).decode())
        if tls.cert_file or tls.key_file:
            ctx.load_cert_chain(tls.cert_file, tls.key_file or None)
        elif tls.cert_data or tls.key_data:
            cert = _pem(tls.cert_data, "certData", url)
            key = _pem(tls.key_data, "keyData", url)
            with _as_file(cert) as cert_path, _as_file(key) as key_path:
                ctx.load_cert_chain(cert_path, key_path)
    except (OSError, ssl.SSLError) as exc:
        raise ExtenderError(f'extender "{url}": bad tlsConfig: {exc}') from None
    return ctx


class ExtenderClient:
    """POSTs JSON to one extender's verbs over one pooled connection."""

    def __init__(self, config: ExtenderSettings) -> None:
        try:
            import httpx
        except ImportError:  # pragma: no cover - depends on the installation
            raise ExtenderError(INSTALL_HINT) from None
        self._httpx = httpx
        self.url = config.url_prefix
        self.timeout = config.http_timeout or DEFAULT_EXTENDER_TIMEOUT
        tls = config.tls
        self._extensions: dict[str, Any] = {}
        if tls is not None and tls.server_name:
            self._extensions["sni_hostname"] = tls.server_name
        self._client = httpx.Client(
            verify=ssl_context(config),
            timeout=httpx.Timeout(self.timeout),
            trust_env=False,
        )
        weakref.finalize(self, self._client.close)  # pooled connections close with us

    def post(self, verb: str, body: Any) -> Any:
        """The decoded JSON answer of `verb`; ExtenderError naming the URL on any failure."""
        url = self.url.rstrip("/") + "/" + verb
        try:
            response = self._client.post(
                url,
                content=json.dumps(body, separators=(",", ":")),
                headers={"Content-Type": "application/json"},
                extensions=self._extensions,
            )
        except self._httpx.TimeoutException:
            raise ExtenderError(
                f'Post "{url}": no answer within the extender timeout ({self.timeout:g}s)'
            ) from None
        except Exception as exc:  # refused, reset, TLS, a URL httpx cannot use, ...
            raise ExtenderError(f'Post "{url}": {_reason(exc)}') from None
        if response.status_code != 200:
            raise ExtenderError(
                f"failed {verb} with extender at URL {url}, code {response.status_code}"
            )
        try:
            return response.json()
        except ValueError as exc:
            raise ExtenderError(
                f'extender "{self.url}": malformed {verb} response: not JSON ({exc})'
            ) from None

    def close(self) -> None:
        self._client.close()


def _reason(exc: Exception) -> str:
    """The root cause of an httpx error, in a line."""
    cause: BaseException = exc
    while cause.__cause__ is not None or cause.__context__ is not None:
        nxt = cause.__cause__ or cause.__context__
        assert nxt is not None
        cause = nxt
    text = str(cause) or str(exc) or type(exc).__name__
    return text.splitlines()[0]
