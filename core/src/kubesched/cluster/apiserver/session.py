"""The API server's connection: an asyncio loop in its own thread, the credentials, and one
`RestClient` per purpose.

The scheduler is synchronous; every watch, the leader election and the event
writes run as tasks on this loop, and the scheduler's own calls (bind, status
patch, delete) wait for their result from its thread (`call`). kr8s reads the
credentials (the kubeconfig, merged as client-go merges `$KUBECONFIG`, or the
pod's service account; TLS, exec plugins, re-authentication); every request
goes through a `RestClient` on plain httpx: its own connection pool, its own
token bucket (clientConnection qps and burst) and its own timeout, as
kube-scheduler gives the scheduler, its events and its leader election
clientsets of their own, so that a backlog of one never starves another.
Watches are not paced, as client-go does not pace them.
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import contextlib
import logging
import random
import threading
import warnings
from collections.abc import Callable, Coroutine, Mapping, Sequence
from typing import Any, TypeVar

from kubesched.cluster.apiserver.client import JSON as JSON
from kubesched.cluster.apiserver.client import ApiError as ApiError
from kubesched.cluster.apiserver.client import Pacer as Pacer
from kubesched.cluster.apiserver.client import RequestObserver as RequestObserver
from kubesched.cluster.apiserver.client import RestClient as RestClient
from kubesched.cluster.apiserver.client import transport_error as transport_error
from kubesched.cluster.apiserver.kubeconfig import KubeconfigCheck, check_kubeconfig, redact
from kubesched.errors import KubeschedError

T = TypeVar("T")

RUN_EXTRA = "kubesched-core[run]"
log = logging.getLogger(__name__)
STRATEGIC_MERGE_PATCH = "application/strategic-merge-patch+json"
MERGE_PATCH = "application/merge-patch+json"


class Stopped(KubeschedError):
    """Asked to stop while still waiting for the API server to answer."""


def refused_status(exc: BaseException) -> int | None:
    """401 or 403 when `exc` is the API server refusing the credentials, else None."""
    if isinstance(exc, ApiError):
        return exc.code if exc.code in (401, 403) else None
    response = getattr(exc, "response", None)
    status = getattr(response, "status_code", None)
    return status if status in (401, 403) else None


def connect_problem(exc: BaseException, secrets: Sequence[str]) -> str:
    """One line for a failed connection: the credentials refused (401, 403: retrying cannot
    help), or why the server could not be reached, with every secret blanked out."""
    status = refused_status(exc)
    if status is not None:
        what = "Unauthorized" if status == 401 else "Forbidden"
        return f"the API server refused the credentials (HTTP {status} {what})"
    if isinstance(exc, ApiError) and exc.code:
        message = redact(exc.message, secrets)
        return f"the API server answered HTTP {exc.code} ({exc.reason or 'error'}): {message}"
    detail = redact(str(exc) or type(exc).__name__, secrets)
    if len(detail) > 300:
        detail = detail[:300] + "..."
    return f"cannot reach the API server: {detail}"


def failure_class(exc: BaseException) -> str:
    """What kind of failure a connection attempt met, for one log line per kind."""
    if isinstance(exc, ApiError):
        return f"HTTP {exc.code}" if exc.code else exc.reason
    status = getattr(getattr(exc, "response", None), "status_code", None)
    if status is not None:
        return f"HTTP {status}"
    return type(exc).__name__


def import_kr8s() -> Any:
    """The kr8s asyncio module, or a KubeschedError naming the extra that installs it."""
    try:
        import kr8s.asyncio
    except ImportError:
        raise KubeschedError(
            f"kubesched run needs the Kubernetes client: pip install '{RUN_EXTRA}'"
        ) from None
    return kr8s.asyncio


def api_path(group_version: str, plural: str, namespace: str = "", *rest: str) -> tuple[str, str]:
    """(base, the path under `base/group_version`) of a resource, as kr8s' call_api takes them."""
    base = "/api" if group_version == "v1" else "/apis"
    parts = ["namespaces", namespace] if namespace else []
    return base, "/".join([*parts, plural, *rest])


NO_CREDENTIALS = (
    "no credentials for the API server: no kubeconfig (--kubeconfig, "
    "clientConnection.kubeconfig, $KUBECONFIG or ~/.kube/config) and no service account "
    "(not running in a pod)"
)


class ApiSession:
    """The loop thread, the credentials and the clients; `start` connects, `close` ends all.

    `client(name)` is the RestClient of one purpose (created on first use, with the
    session's qps, burst and timeout unless given); `request`, `checked` and `stream`
    use the `main` one (listings and watches).
    """

    def __init__(
        self,
        kubeconfig: str | None = None,
        *,
        request_timeout: float = 10.0,
        qps: float = 50.0,
        burst: int = 100,
        connect_backoff: Callable[[], float] | None = None,
        stopping: threading.Event | None = None,
        context: str | None = None,
    ) -> None:
        self.kubeconfig = kubeconfig or None
        self.context = context or None
        """A context of the kubeconfig other than its current one."""
        self.request_timeout = request_timeout
        self.qps, self.burst = qps, burst
        self.loop = asyncio.new_event_loop()
        self._thread = threading.Thread(target=self._serve, name="kubesched-apiserver", daemon=True)
        self._api: Any = None
        self._ssl: Any = None
        self._token: str | None = None
        self._clients: dict[str, RestClient] = {}
        self._connect_backoff = connect_backoff or _connect_backoff()
        self._stopping = stopping or threading.Event()
        self.observers: list[RequestObserver] = []
        """Called after every request (the rest_client_* metrics)."""
        self.check = KubeconfigCheck()

    def _serve(self) -> None:
        asyncio.set_event_loop(self.loop)
        self.loop.run_forever()

    def start(self) -> None:
        """Start the loop and connect: read the credentials, then ask the server its version
        until it answers (with backoff, as kube-scheduler waits for its API server). Refused
        credentials or none at all end it at once (KubeschedError)."""
        kr8s = import_kr8s()
        self.check = check = check_kubeconfig(self.kubeconfig)  # names what is wrong with it
        for warning in check.warnings:
            log.warning("%s", warning)
        self._thread.start()
        source: Any = check.merged if check.merged is not None else self.kubeconfig

        # kr8s warns of API servers newer than it knows (two lines on every start): the
        # scheduler speaks only stable APIs, so that warning is not the operator's to read.
        warnings.filterwarnings("ignore", message=r".*Kubernetes version", category=UserWarning)

        async def credentials() -> Any:
            return await kr8s.api(kubeconfig=source, context=self.context)

        try:
            self._api = self._connect(credentials, check)
        except BaseException:
            self.close()
            raise

    def _connect(self, credentials: Callable[[], Coroutine[Any, Any, Any]], check: Any) -> Any:
        seen: set[str] = set()
        attempts = 0
        while True:
            attempts += 1
            try:
                api = self.call(credentials(), timeout=self.request_timeout * 3)
                self.call(self._prepare(api), timeout=self.request_timeout)
                self.call(self.client("main").checked("GET", "", ("/version", "")))
                if attempts > 1:
                    log.info("the API server answered after %d attempts", attempts)
                return api
            except ApiError as exc:
                error: BaseException = exc
            except KubeschedError:
                raise
            except Exception as exc:
                if _no_credentials(exc):
                    raise KubeschedError(NO_CREDENTIALS) from None
                if refused_status(exc) is not None:
                    raise KubeschedError(connect_problem(exc, check.secrets)) from None
                error = exc
            if refused_status(error) is not None:
                raise KubeschedError(connect_problem(error, check.secrets)) from None
            kind = failure_class(error)
            delay = self._connect_backoff()
            if kind not in seen:
                seen.add(kind)
                log.warning(
                    "%s; retrying with backoff until it answers (next in %.1fs)",
                    connect_problem(error, check.secrets),
                    delay,
                )
            if self._stopping.wait(delay):
                raise Stopped("stopped before the API server answered")

    async def _prepare(self, api: Any) -> None:
        self._api = api
        self._ssl = await api.auth.ssl_context()
        self._token = api.auth.token

    def _new_http(self, max_connections: int) -> Any:
        import httpx

        auth = self._api.auth
        return httpx.AsyncClient(
            base_url=str(auth.server),
            verify=self._ssl if self._ssl is not None else True,
            limits=httpx.Limits(
                max_connections=max_connections, max_keepalive_connections=max_connections
            ),
            proxy=getattr(auth, "proxy", None),
        )

    def _new_lean(self, max_connections: int) -> Any:
        """A lean HTTP/1.1 pool to the server (`http11`), or None when a proxy is in the way."""
        from kubesched.cluster.apiserver.http11 import Http11Pool

        auth = self._api.auth
        if getattr(auth, "proxy", None):
            return None
        return Http11Pool(
            str(auth.server),
            ssl_context=self._ssl,
            server_hostname=getattr(auth, "tls_server_name", None) or None,
            max_connections=max_connections,
        )

    def _extensions(self) -> dict[str, Any]:
        sni = getattr(self._api.auth, "tls_server_name", None) if self._api is not None else None
        return {"extensions": {"sni_hostname": sni}} if sni else {}

    def _headers(self) -> dict[str, str]:
        headers = {"Accept": JSON, "User-Agent": "kubesched"}
        if self._token:
            headers["Authorization"] = f"Bearer {self._token}"
        return headers

    async def _reauthenticate(self) -> dict[str, str]:
        """A 401: read the credentials again (an exec plugin's token may have expired)."""
        if self._api is not None:
            await self._api.auth.reauthenticate()
            self._token = self._api.auth.token
        return self._headers()

    def _observe(self, client: str, method: str, status: int, seconds: float) -> None:
        for observer in self.observers:
            observer(client, method, status, seconds)

    def client(
        self,
        name: str,
        *,
        qps: float | None = None,
        burst: int | None = None,
        timeout: float | None = None,
        max_connections: int = 20,
        lean: bool = False,
    ) -> RestClient:
        """The client of one purpose (`main`, `binding`, `status`, `events`, `leader`);
        `lean`: its requests go through `http11` (many small ones), not httpx."""
        found = self._clients.get(name)
        if found is None:
            found = self._clients[name] = RestClient(
                self,
                name,
                qps=self.qps if qps is None else qps,
                burst=self.burst if burst is None else burst,
                timeout=timeout or self.request_timeout,
                max_connections=max_connections,
                lean=lean,
            )
        return found

    @property
    def server(self) -> str:
        return str(self._api.auth.server) if self._api is not None else ""

    def call(self, coro: Coroutine[Any, Any, T], timeout: float | None = None) -> T:
        """Run `coro` on the loop and wait for its result (from any other thread)."""
        future = asyncio.run_coroutine_threadsafe(coro, self.loop)
        try:
            return future.result(timeout)
        except concurrent.futures.TimeoutError:
            future.cancel()
            raise ApiError(504, "Timeout", "the API server did not answer in time") from None

    def spawn(self, coro: Coroutine[Any, Any, Any]) -> concurrent.futures.Future[Any]:
        """Run `coro` on the loop without waiting for it."""
        return asyncio.run_coroutine_threadsafe(coro, self.loop)

    async def request(
        self, method: str, group_version: str, path: tuple[str, str], **kw: Any
    ) -> tuple[int, Any]:
        """One request of the `main` client: (HTTP status, decoded JSON body or None)."""
        return await self.client("main").request(method, group_version, path, **kw)

    async def checked(
        self, method: str, group_version: str, path: tuple[str, str], **kw: Any
    ) -> Any:
        """`request`, raising ApiError unless the server answered 2xx."""
        return await self.client("main").checked(method, group_version, path, **kw)

    def stream(
        self,
        group_version: str,
        path: tuple[str, str],
        params: Mapping[str, str],
        read_timeout: float,
    ) -> Any:
        """A watch on the `main` client."""
        return self.client("main").stream(group_version, path, params, read_timeout)

    def close(self) -> None:
        """Cancel every task, stop the loop and wait for its thread."""
        if not self._thread.is_alive():
            return

        async def shutdown() -> None:
            tasks = [t for t in asyncio.all_tasks() if t is not asyncio.current_task()]
            for task in tasks:
                task.cancel()
            await asyncio.gather(*tasks, return_exceptions=True)
            for client in self._clients.values():
                await client.aclose()
            kr8s_session = getattr(self._api, "_session", None)  # kr8s has no public close
            if kr8s_session is not None:
                await kr8s_session.aclose()

        with contextlib.suppress(Exception):  # what is left is dropped with the loop
            asyncio.run_coroutine_threadsafe(shutdown(), self.loop).result(5)
        self.loop.call_soon_threadsafe(self.loop.stop)
        self._thread.join(5)


def _no_credentials(exc: BaseException) -> bool:
    """kr8s found neither a kubeconfig nor a service account."""
    return isinstance(exc, ValueError) and "valid credentials" in str(exc)


def _connect_backoff() -> Callable[[], float]:
    """client-go's reflector backoff at start: 0.8 s doubling to 30 s, with jitter."""
    state = {"delay": 0.0}

    def next_delay() -> float:
        state["delay"] = min(30.0, state["delay"] * 2.0) if state["delay"] else 0.8
        return state["delay"] * (1.0 + random.random())

    return next_delay
