"""The fake API server in a child process, driven over HTTP: what the benchmarks of
`kubesched run`'s client path share (every request a real round trip, and the server's
CPU not counted in this process)."""

from __future__ import annotations

import json
import subprocess
import sys
import urllib.request
from pathlib import Path
from typing import Any

TOKEN = "kubesched-test-token"
"""The fake server's admin token (`kubesched.testing.apiserver.TOKEN`), written out so that
a client measured in an interpreter without kubesched can import this module."""

SERVE = """
import sys
from kubesched.testing.apiserver import FakeApiServer
with FakeApiServer() as server:
    print(server.url, flush=True)
    sys.stdin.read()
"""


class RemoteApiServer:
    """The fake API server run by `python` (this interpreter by default)."""

    def __init__(self, python: str = sys.executable) -> None:
        self.process = subprocess.Popen(
            [python, "-c", SERVE], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True
        )
        assert self.process.stdout is not None
        self.url = self.process.stdout.readline().strip()

    def call(self, method: str, path: str, body: Any = None) -> Any:
        data = json.dumps(body).encode() if body is not None else None
        request = urllib.request.Request(self.url + path, data=data, method=method)
        request.add_header("Authorization", f"Bearer {TOKEN}")
        request.add_header("Content-Type", "application/json")
        with urllib.request.urlopen(request) as answer:
            return json.loads(answer.read())

    def kubeconfig(self, path: Path) -> Path:
        """Write a kubeconfig for this server (the admin token) to `path`."""
        config = {
            "apiVersion": "v1",
            "kind": "Config",
            "clusters": [{"name": "b", "cluster": {"server": self.url}}],
            "users": [{"name": "b", "user": {"token": TOKEN}}],
            "contexts": [{"name": "b", "context": {"cluster": "b", "user": "b"}}],
            "current-context": "b",
        }
        path.write_text(json.dumps(config))
        return path

    def close(self) -> None:
        assert self.process.stdin is not None
        self.process.stdin.close()
        self.process.wait(30)
