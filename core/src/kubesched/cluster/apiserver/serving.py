"""`/healthz`, `/livez`, `/readyz` and `/metrics` over plain HTTP, on a thread of their own.

Each check is a named callable; a probe answers 200 `ok` when every check of
its kind passes, else 500 listing the failing ones as upstream's healthz
handlers do (`[-]leaderElection failed`). `/metrics` serves the scheduler's
Prometheus text exposition.
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Mapping
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

Check = Callable[[], bool]
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
    ) -> None:
        routes: dict[str, Callable[[], tuple[int, str, bytes]]] = {
            "/healthz": lambda: self._probe(health),
            "/livez": lambda: self._probe(health),
            "/readyz": lambda: self._probe({**health, **ready}),
            "/metrics": lambda: (200, PROMETHEUS_TEXT, metrics()),
        }

        class Handler(BaseHTTPRequestHandler):
            def do_GET(self) -> None:
                route = routes.get(self.path.split("?", 1)[0])
                if route is None:
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
