"""`/healthz`, `/livez`, `/readyz` and `/metrics`, on a thread of their own.

Each check is a named callable; a probe answers 200 `ok` when every check of
its kind passes, else 500 listing the failing ones as upstream's healthz
handlers do (`[-]leaderElection failed`). `/metrics` serves the scheduler's
Prometheus text exposition. Given a TLS context it serves HTTPS; given an
`authorize` check (`kubesched.cluster.apiserver.secure.DelegatedAuth`), every
request is put to it first (health checks pass it anonymously).
"""

from __future__ import annotations

import ssl
import threading
from collections.abc import Callable, Mapping
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

Check = Callable[[], bool]
Authorize = Callable[[str, str, "str | None"], "tuple[int, str]"]
"""(path, verb, Authorization header) -> (HTTP status, reason); 200 lets it through."""
PROMETHEUS_TEXT = "text/plain; version=0.0.4; charset=utf-8"


def _report(checks: Mapping[str, Check]) -> tuple[int, str]:
    failed = [name for name, check in checks.items() if not _passes(check)]
    if not failed:
        return 200, "ok"
    lines = [
        f"[{'-' if n in failed else '+'}]{n} {'failed' if n in failed else 'ok'}" for n in checks
    ]
    return 500, "\n".join([*lines, "healthz check failed"])


def _passes(check: Check) -> bool:
    try:
        return bool(check())
    except Exception:  # a check that raises has failed
        return False


class HealthServer:
    """Serves the probes and the metrics until `close`."""

    def __init__(
        self,
        address: str,
        port: int,
        *,
        health: Mapping[str, Check],
        ready: Mapping[str, Check],
        metrics: Callable[[], bytes],
        tls: ssl.SSLContext | None = None,
        authorize: Authorize | None = None,
    ) -> None:
        self.secure = tls is not None
        routes: dict[str, Callable[[], tuple[int, str, bytes]]] = {
            "/healthz": lambda: self._probe(health),
            "/livez": lambda: self._probe(health),
            "/readyz": lambda: self._probe({**health, **ready}),
            "/metrics": lambda: (200, PROMETHEUS_TEXT, metrics()),
        }

        class Handler(BaseHTTPRequestHandler):
            def do_GET(self) -> None:
                path = self.path.split("?", 1)[0]
                route = routes.get(path)
                denied = (
                    authorize(path, "get", self.headers.get("Authorization"))
                    if authorize is not None and route is not None
                    else (200, "")
                )
                if denied[0] != 200:
                    status, kind = denied[0], "text/plain; charset=utf-8"
                    body = (denied[1] + "\n").encode()
                elif route is None:
                    status, kind, body = 404, "text/plain", b"404 page not found\n"
                else:
                    status, kind, body = route()
                self.send_response(status)
                self.send_header("Content-Type", kind)
                self.send_header("Content-Length", str(len(body)))
                self.end_headers()
                self.wfile.write(body)

            def log_message(self, format: str, *args: object) -> None:
                return

        self._server = ThreadingHTTPServer((address, port), Handler)
        self._server.daemon_threads = True
        if tls is not None:  # the handshake happens on each request's own thread
            self._server.socket = tls.wrap_socket(
                self._server.socket, server_side=True, do_handshake_on_connect=False
            )
        self._thread = threading.Thread(
            target=self._server.serve_forever, name="kubesched-health", daemon=True
        )

    @staticmethod
    def _probe(checks: Mapping[str, Check]) -> tuple[int, str, bytes]:
        status, text = _report(checks)
        return status, "text/plain; charset=utf-8", text.encode()

    @property
    def port(self) -> int:
        return int(self._server.server_address[1])

    def start(self) -> None:
        self._thread.start()

    def close(self) -> None:
        self._server.shutdown()
        self._server.server_close()
        self._thread.join(5)
