"""A fake Kubernetes API server on 127.0.0.1, for testing a scheduler on the wire.

    with FakeApiServer() as server:
        server.create(node)                       # kubesched.api objects or raw JSON
        kubeconfig = server.write_kubeconfig(tmp_path / "kubeconfig")
        ...                                       # run `kubesched run --kubeconfig ...`
        server.get("v1", "pods", "default", "web")["spec"]["nodeName"]

It is a real HTTP/1.1 server (threads of the standard library) serving the
REST shapes a scheduler uses, for any resource path: list (with
resourceVersion, limit/continue, fieldSelector), chunked watch streams with
ADDED, MODIFIED, DELETED, BOOKMARK and ERROR events (410 Gone after
`compact`), create, get, replace with resourceVersion preconditions (409
Conflict), strategic merge and merge patches (the status subresource too),
delete, the pods/binding subresource (409 for a bound pod) and /version.
Tests can also make chosen requests slow (`slow`). TokenReview and
SubjectAccessReview answer from `users` and `allowed`.
Requests need the bearer token of the kubeconfig it writes. Tests can make
it fail requests (`fail`), drop every open watch (`drop_watches`) and read
what it was asked (`requests`). It is not an API server: no admission, no
validation, no defaulting beyond uid, resourceVersion and creationTimestamp.
"""

from __future__ import annotations

import json
import re
import socket
import threading
import time
from collections.abc import Callable
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any
from urllib.parse import parse_qs, urlsplit

from attrs import define

from kubesched.api import unstructure
from kubesched.testing._apiserver_kinds import KINDS as _KINDS
from kubesched.testing._apiserver_kinds import NAMESPACED as _NAMESPACED
from kubesched.testing._apiserver_reviews import answer_review
from kubesched.testing._apiserver_state import Resource, State, StatusError, selects

TOKEN = "kubesched-test-token"
_PATH = re.compile(
    r"^/(?:api/(?P<core>v1)|apis/(?P<group>[^/]+/[^/]+))"
    r"(?:/namespaces/(?P<ns>[^/]+))?/(?P<plural>[^/]+)(?:/(?P<name>[^/]+))?(?:/(?P<sub>[^/]+))?$"
)


@define
class Request:
    """A request as the server saw it."""

    method: str
    path: str
    query: dict[str, str]
    body: Any = None


@define
class _Failure:
    method: str
    pattern: re.Pattern[str]
    code: int
    times: int
    when: Callable[[Request], bool] | None
    before: Callable[[], object] | None


class FakeApiServer:
    """The server; a context manager that starts and stops it."""

    def __init__(self) -> None:
        self.state = State()
        self.requests: list[Request] = []
        self._failures: list[_Failure] = []
        self._slow: list[tuple[str, re.Pattern[str], float]] = []
        self.users: dict[str, str] = {}  # token -> user, for TokenReview
        self.allowed: set[tuple[str, str, str]] = set()  # (user, verb, path) allowed
        self._drops = 0
        self._stopping = False
        self._lock = threading.Lock()
        server = self

        class Handler(_Handler):
            api = server

        self._http = _Server(("127.0.0.1", 0), Handler)
        self._http.daemon_threads = True
        self._thread = threading.Thread(target=self._http.serve_forever, daemon=True)

    # -- life ------------------------------------------------------------------------

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self._http.server_address[1]}"

    def start(self) -> FakeApiServer:
        self._thread.start()
        return self

    def close(self) -> None:
        with self.state.cond:
            self._stopping = True
            self.state.cond.notify_all()
        self._http.shutdown()
        self._http.server_close()
        self._thread.join(5)

    def __enter__(self) -> FakeApiServer:
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.close()

    def write_kubeconfig(self, path: Path, token: str = TOKEN) -> Path:
        """A kubeconfig for this server (JSON is YAML)."""
        config = {
            "apiVersion": "v1",
            "kind": "Config",
            "clusters": [{"name": "fake", "cluster": {"server": self.url}}],
            "users": [{"name": "scheduler", "user": {"token": token}}],
            "contexts": [{"name": "fake", "context": {"cluster": "fake", "user": "scheduler"}}],
            "current-context": "fake",
        }
        path.write_text(json.dumps(config))
        return path

    # -- what tests do to the cluster ------------------------------------------------

    def create(self, obj: Any, resource: Resource | None = None) -> dict[str, Any]:
        """Create a kubesched.api object (or raw JSON with `resource`); the stored object."""
        raw = obj
        if not isinstance(obj, dict):
            group_version, plural, kind = _KINDS[type(obj)]
            raw = {"apiVersion": group_version, "kind": kind, **unstructure(obj)}
            if kind in _NAMESPACED:
                raw["metadata"].setdefault("namespace", "default")
            resource = (group_version, plural)
        assert resource is not None, "raw objects need their resource"
        namespace = (raw.get("metadata") or {}).get("namespace", "")
        return self.state.create(resource, namespace, raw)

    def get(self, group_version: str, plural: str, namespace: str, name: str) -> dict[str, Any]:
        return self.state.get((group_version, plural), namespace, name)

    def items(self, group_version: str, plural: str) -> list[dict[str, Any]]:
        return self.state.list((group_version, plural), "")[0]

    def patch(
        self, group_version: str, plural: str, namespace: str, name: str, patch: dict[str, Any]
    ) -> dict[str, Any]:
        return self.state.patch((group_version, plural), namespace, name, patch, strategic=True)

    def delete(self, group_version: str, plural: str, namespace: str, name: str) -> None:
        self.state.delete((group_version, plural), namespace, name)

    def fail(
        self,
        method: str,
        path_pattern: str,
        code: int,
        times: int = 1,
        when: Callable[[Request], bool] | None = None,
    ) -> None:
        """Answer the next `times` requests matching method, path (a regex searched in it)
        and `when` with `code`."""
        with self._lock:
            self._failures.append(
                _Failure(method, re.compile(path_pattern), code, times, when, None)
            )

    def slow(self, method: str, path_pattern: str, seconds: float) -> None:
        """Answer requests matching method and path (regex) after `seconds`; 0 ends it."""
        with self._lock:
            self._slow = [x for x in self._slow if (x[0], x[1].pattern) != (method, path_pattern)]
            if seconds > 0:
                self._slow.append((method, re.compile(path_pattern), seconds))

    def clear_failures(self) -> None:
        """Serve every request again."""
        with self._lock:
            self._failures.clear()

    def before(self, method: str, path_pattern: str, action: Callable[[], object]) -> None:
        """Run `action` once, just before serving the next request matching method and path
        (to make a race happen: bind a pod elsewhere just before our bind arrives)."""
        with self._lock:
            self._failures.append(_Failure(method, re.compile(path_pattern), 0, 1, None, action))

    def drop_watches(self) -> None:
        """Cut every open watch stream, mid-stream, as a dropped connection does."""
        with self.state.cond:
            self._drops += 1
            self.state.cond.notify_all()

    def _cut(self) -> Callable[[], bool]:
        """For a watch starting now: has it been cut (or the server stopped) since?"""
        drops = self._drops
        return lambda: self._stopping or drops != self._drops

    def compact(self) -> None:
        self.state.compact()

    def watches(self, plural: str) -> list[Request]:
        return [
            r
            for r in self.requests
            if r.query.get("watch") == "true" and r.path.endswith(f"/{plural}")
        ]

    def wait_for(self, predicate: Callable[[], Any], timeout: float = 30.0) -> Any:
        """Poll `predicate` until it returns something true; AssertionError after `timeout`."""
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            value = predicate()
            if value:
                return value
            time.sleep(0.02)
        raise AssertionError(f"timed out after {timeout}s waiting for {predicate}")

    def authorize(self, method: str, path: str, query: dict[str, str]) -> None:
        """Raise StatusError (403) for a request to refuse: none here; `RbacApiServer` refuses."""

    def _injected(self, request: Request) -> int | None:
        action = None
        with self._lock:
            delay = next(
                (d for m, p, d in self._slow if m == request.method and p.search(request.path)),
                0.0,
            )
            for failure in self._failures:
                if (
                    failure.times
                    and failure.method == request.method
                    and failure.pattern.search(request.path)
                    and (failure.when is None or failure.when(request))
                ):
                    failure.times -= 1
                    if failure.before is None:
                        return failure.code
                    action = failure.before
                    break
        if delay:
            time.sleep(delay)
        if action is not None:
            action()
        return None


class _Server(ThreadingHTTPServer):
    daemon_threads = True

    def handle_error(self, request: Any, client_address: Any) -> None:
        """A client that hangs up (a scheduler stopping, a cut watch) is no error."""


class _Handler(BaseHTTPRequestHandler):
    api: FakeApiServer
    protocol_version = "HTTP/1.1"
    disable_nagle_algorithm = True

    def log_message(self, format: str, *args: object) -> None:
        return

    def _send(self, code: int, body: Any) -> None:
        data = json.dumps(body).encode()
        self.send_response(code)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)

    def _handle(self, method: str) -> None:
        url = urlsplit(self.path)
        query = {k: v[-1] for k, v in parse_qs(url.query, keep_blank_values=True).items()}
        length = int(self.headers.get("Content-Length") or 0)
        body = json.loads(self.rfile.read(length)) if length else None
        request = Request(method, url.path, query, body)
        self.api.requests.append(request)
        if self.headers.get("Authorization") != f"Bearer {TOKEN}":
            self._send(401, StatusError(401, "Unauthorized", "Unauthorized").status())
            return
        code = self.api._injected(request)
        if code is not None:
            self._send(code, StatusError(code, "Injected", f"injected failure {code}").status())
            return
        if url.path.rstrip("/") == "/version":
            self._send(200, {"major": "1", "minor": "36", "gitVersion": "v1.36.0"})
            return
        try:
            self._route(method, url.path, query, body)
        except StatusError as exc:
            self._send(exc.code, exc.status())

    def _route(self, method: str, path: str, query: dict[str, str], body: Any) -> None:
        self.api.authorize(method, path, query)  # reviews too: they need RBAC's leave
        review = answer_review(path, body, self.api.users, self.api.allowed)
        if review is not None:
            self._send(201, review)
            return
        matched = _PATH.match(path)
        if matched is None:
            raise StatusError(404, "NotFound", f"the server could not find {path}")
        resource = (matched["core"] or matched["group"], matched["plural"])
        ns, name, sub = matched["ns"] or "", matched["name"], matched["sub"]
        state = self.api.state
        if name is None:
            if method == "GET" and query.get("watch") in ("true", "True", "1"):
                self._watch(resource, ns, query)
            elif method == "GET":
                self._send(200, self._list(resource, ns, query))
            elif method == "POST":
                self._send(201, state.create(resource, ns, body))
            else:
                raise StatusError(405, "MethodNotAllowed", f"{method} is not allowed")
        elif sub == "binding" and method == "POST":
            self._send(201, self._bind(ns, name, body))
        elif method == "GET":
            self._send(200, state.get(resource, ns, name))
        elif method == "PUT":
            self._send(200, state.update(resource, ns, name, body, check=True))
        elif method == "PATCH":
            strategic = "strategic" in (self.headers.get("Content-Type") or "")
            self._send(200, state.patch(resource, ns, name, body, strategic))
        elif method == "DELETE":
            self._send(200, state.delete(resource, ns, name))
        else:
            raise StatusError(405, "MethodNotAllowed", f"{method} is not allowed")

    def _list(self, resource: Resource, ns: str, query: dict[str, str]) -> dict[str, Any]:
        items, version = self.api.state.list(resource, ns)
        selector = query.get("fieldSelector", "")
        items = [o for o in items if selects(selector, o)]
        start = int(query.get("continue") or 0)
        limit = int(query.get("limit") or 0) or len(items)
        page, rest = items[start : start + limit], items[start + limit :]
        meta: dict[str, Any] = {"resourceVersion": str(version)}
        if rest:
            meta["continue"] = str(start + limit)
        return {"kind": "List", "apiVersion": resource[0], "metadata": meta, "items": page}

    def _bind(self, ns: str, name: str, binding: Any) -> dict[str, Any]:
        state = self.api.state
        with state.cond:
            pod = state.get(("v1", "pods"), ns, name)
            node = pod.get("spec", {}).get("nodeName")
            if node:
                raise StatusError(
                    409,
                    "Conflict",
                    f'Operation cannot be fulfilled on pods/binding "{name}": pod {name} is '
                    f'already assigned to node "{node}"',
                )
            target = binding["target"]["name"]
            patch = {
                "spec": {"nodeName": target},
                "status": {"conditions": [{"type": "PodScheduled", "status": "True"}]},
            }
            state.patch(("v1", "pods"), ns, name, patch, strategic=True)
        return {"kind": "Status", "apiVersion": "v1", "status": "Success", "code": 201}

    def _watch(self, resource: Resource, ns: str, query: dict[str, str]) -> None:
        since = int(query.get("resourceVersion") or 0)
        timeout = float(query.get("timeoutSeconds") or 1800)
        bookmarks = query.get("allowWatchBookmarks") == "true"
        self.send_response(200)
        self.send_header("Content-Type", "application/json")
        self.send_header("Transfer-Encoding", "chunked")
        self.end_headers()
        selector = query.get("fieldSelector", "")
        events = self.api.state.watch(
            resource, ns, selector, since, timeout, bookmarks, self.api._cut
        )
        for event in events:
            if event is None:  # cut the stream: no final chunk
                self.close_connection = True
                self.connection.shutdown(socket.SHUT_RDWR)
                return
            line = json.dumps(event).encode() + b"\n"
            self.wfile.write(b"%x\r\n%s\r\n" % (len(line), line))
            self.wfile.flush()
        self.wfile.write(b"0\r\n\r\n")

    def do_GET(self) -> None:
        self._handle("GET")

    def do_POST(self) -> None:
        self._handle("POST")

    def do_PUT(self) -> None:
        self._handle("PUT")

    def do_PATCH(self) -> None:
        self._handle("PATCH")

    def do_DELETE(self) -> None:
        self._handle("DELETE")
