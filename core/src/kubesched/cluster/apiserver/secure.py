"""Secure serving as kube-scheduler's: HTTPS with a self-signed certificate when none is given,
and `/metrics` authenticated and authorized by the API server.

A request to a protected path carries a bearer token; a TokenReview asks the API
server whose it is (401 when nobody's), and a SubjectAccessReview whether that
user may `get` the path (403 when not), as kube-scheduler's delegated
authentication and authorization do. Answers are cached for 10 seconds.
Health checks (`/healthz`, `/readyz`, `/livez`) are served to anyone, as
upstream's always-allowed paths.
"""

from __future__ import annotations

import datetime
import ipaddress
import os
import ssl
import tempfile
import threading
import time
from collections.abc import Mapping
from typing import Any

from kubesched.cluster.apiserver.session import ApiError, ApiSession, api_path

ALWAYS_ALLOWED = frozenset({"/healthz", "/readyz", "/livez"})
CACHE_SECONDS = 10.0


def self_signed_context(host: str = "localhost") -> ssl.SSLContext:
    """A server TLS context with a fresh self-signed certificate for `host` and 127.0.0.1
    (kube-scheduler's MaybeDefaultWithSelfSignedCerts). The key never leaves memory except
    for the instant the ssl module reads it from a private temporary file."""
    from cryptography import x509
    from cryptography.hazmat.primitives import hashes, serialization
    from cryptography.hazmat.primitives.asymmetric import ec
    from cryptography.x509.oid import NameOID

    key = ec.generate_private_key(ec.SECP256R1())
    now = datetime.datetime.now(datetime.timezone.utc)
    name = x509.Name([x509.NameAttribute(NameOID.COMMON_NAME, f"{host}@{int(time.time())}")])
    cert = (
        x509.CertificateBuilder()
        .subject_name(name)
        .issuer_name(name)
        .public_key(key.public_key())
        .serial_number(x509.random_serial_number())
        .not_valid_before(now - datetime.timedelta(hours=1))
        .not_valid_after(now + datetime.timedelta(days=365))
        .add_extension(
            x509.SubjectAlternativeName(
                [x509.DNSName(host), x509.IPAddress(ipaddress.ip_address("127.0.0.1"))]
            ),
            critical=False,
        )
        .sign(key, hashes.SHA256())
    )
    pem = cert.public_bytes(serialization.Encoding.PEM) + key.private_bytes(
        serialization.Encoding.PEM,
        serialization.PrivateFormat.PKCS8,
        serialization.NoEncryption(),
    )
    context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
    with tempfile.TemporaryDirectory() as tmp:
        path = os.path.join(tmp, "serving.pem")
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
        with os.fdopen(fd, "wb") as out:
            out.write(pem)
        context.load_cert_chain(path)
    return context


def file_context(cert_file: str, key_file: str) -> ssl.SSLContext:
    """A server TLS context from --tls-cert-file and --tls-private-key-file."""
    context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
    context.load_cert_chain(cert_file, key_file)
    return context


class DelegatedAuth:
    """Bearer tokens checked by TokenReview, access by SubjectAccessReview, both cached."""

    def __init__(self, session: ApiSession, timeout: float = 10.0) -> None:
        self.session = session
        self.client = session.client("auth", max_connections=4)
        self.timeout = timeout
        self._tokens: dict[str, tuple[float, Mapping[str, Any] | None]] = {}
        self._access: dict[tuple[str, str, str], tuple[float, bool]] = {}
        self._lock = threading.Lock()

    def check(self, path: str, verb: str, authorization: str | None) -> tuple[int, str]:
        """(HTTP status, reason): 200 to serve, 401 unauthenticated, 403 forbidden."""
        if path in ALWAYS_ALLOWED:
            return 200, ""
        token = (authorization or "")[len("Bearer ") :] if authorization else ""
        if not authorization or not authorization.startswith("Bearer ") or not token:
            return 401, "Unauthorized"
        try:
            user = self._user(token)
            if user is None:
                return 401, "Unauthorized"
            if not self._allowed(user, verb, path):
                name = user.get("username", "")
                return 403, f'forbidden: User "{name}" cannot {verb} path "{path}"'
        except ApiError as exc:
            return 500, f"authorization failed: {exc.message}"
        return 200, ""

    def _user(self, token: str) -> Mapping[str, Any] | None:
        now = time.monotonic()
        with self._lock:
            cached = self._tokens.get(token)
        if cached is not None and now - cached[0] < CACHE_SECONDS:
            return cached[1]
        review = {
            "apiVersion": "authentication.k8s.io/v1",
            "kind": "TokenReview",
            "spec": {"token": token},
        }
        path = api_path("authentication.k8s.io/v1", "tokenreviews")
        coro = self.client.checked("POST", "authentication.k8s.io/v1", path, body=review)
        status = (self.session.call(coro, self.timeout) or {}).get("status") or {}
        user = status.get("user") if status.get("authenticated") else None
        with self._lock:
            self._tokens[token] = (now, user)
        return user

    def _allowed(self, user: Mapping[str, Any], verb: str, path: str) -> bool:
        name = str(user.get("username", ""))
        key = (name, verb, path)
        now = time.monotonic()
        with self._lock:
            cached = self._access.get(key)
        if cached is not None and now - cached[0] < CACHE_SECONDS:
            return cached[1]
        review = {
            "apiVersion": "authorization.k8s.io/v1",
            "kind": "SubjectAccessReview",
            "spec": {
                "user": name,
                "uid": user.get("uid", ""),
                "groups": list(user.get("groups") or []),
                "extra": dict(user.get("extra") or {}),
                "nonResourceAttributes": {"path": path, "verb": verb},
            },
        }
        gv = "authorization.k8s.io/v1"
        coro = self.client.checked("POST", gv, api_path(gv, "subjectaccessreviews"), body=review)
        allowed = bool(
            ((self.session.call(coro, self.timeout) or {}).get("status") or {}).get("allowed")
        )
        with self._lock:
            self._access[key] = (now, allowed)
        return allowed
