"""One connection to the API server: an asyncio loop in its own thread, and kr8s under it.

The scheduler is synchronous; every watch, the leader election and the event
writes run as tasks on this loop, and the scheduler's own calls (bind, status
patch, delete) wait for their result from its thread (`call`). kr8s loads
the kubeconfig (or the pod's service account), handles TLS, exec plugins and
re-authentication on 401; requests and streams go through its public
`call_api`, so every list, watch and write is ours to shape. Requests other
than watches are paced by the configuration's clientConnection qps and burst.
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import contextlib
import json
import logging
import threading
import time
from collections.abc import AsyncIterator, Coroutine, Mapping, Sequence
from contextlib import asynccontextmanager
from typing import Any, TypeVar

from kubesched.cluster.apiserver.kubeconfig import check_kubeconfig, redact
from kubesched.errors import KubeschedError

T = TypeVar("T")

RUN_EXTRA = "kubesched-core[run]"
JSON = "application/json"
log = logging.getLogger(__name__)
STRATEGIC_MERGE_PATCH = "application/strategic-merge-patch+json"
MERGE_PATCH = "application/merge-patch+json"


class ApiError(KubeschedError):
    """A request the API server answered with an error (a `Status` object), or could not answer."""

    def __init__(self, code: int, reason: str, message: str) -> None:
        super().__init__(message)
        self.code = code
        self.reason = reason
        self.message = message

    @classmethod
    def from_status(cls, code: int, body: Any) -> ApiError:
        if isinstance(body, Mapping):
            message = str(body.get("message") or f"the server answered {code}")
            return cls(int(body.get("code") or code), str(body.get("reason") or ""), message)
        return cls(code, "", f"the server answered {code}")


def transport_error(exc: BaseException) -> ApiError:
    """A request that got no answer, as an ApiError with code 0 (ConnectionRefused when the
    connection was refused, which upstream retries)."""
    name = type(exc).__name__
    reason = "ConnectionRefused" if name in ("ConnectError", "ConnectionRefusedError") else name
    return ApiError(0, reason, f"cannot reach the API server: {exc or name}")


def connect_problem(exc: BaseException, secrets: Sequence[str]) -> str:
    """One line for a failed connection: the credentials refused (401, 403: retrying cannot
    help), or why the server could not be reached, with every secret blanked out."""
    response = getattr(exc, "response", None)
    status = getattr(response, "status_code", None)
    if status in (401, 403):
        return f"the API server refused the credentials (HTTP {status})"
    detail = redact(str(exc) or type(exc).__name__, secrets)
    if len(detail) > 300:
        detail = detail[:300] + "..."
    return f"cannot reach the API server: {detail}"


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


class _Pacer:
    """A token bucket: `qps` requests a second, `burst` at once (client-go's flowcontrol)."""

    def __init__(self, qps: float, burst: int) -> None:
        self.qps, self.burst = qps, max(1, burst)
        self._tokens = float(self.burst)
        self._last = time.monotonic()

    async def take(self) -> None:
        if self.qps <= 0:
            return
        now = time.monotonic()
        self._tokens = min(self.burst, self._tokens + (now - self._last) * self.qps)
        self._last = now
        self._tokens -= 1
        if self._tokens < 0:
            await asyncio.sleep(-self._tokens / self.qps)


class ApiSession:
    """The loop thread and the kr8s client; `start` connects, `close` ends both."""

    def __init__(
        self,
        kubeconfig: str | None = None,
        *,
        request_timeout: float = 10.0,
        qps: float = 50.0,
        burst: int = 100,
        context: str | None = None,
    ) -> None:
        self.kubeconfig = kubeconfig or None
        self.context = context or None
        """A context of the kubeconfig other than its current one."""
        self.request_timeout = request_timeout
        self.loop = asyncio.new_event_loop()
        self._thread = threading.Thread(target=self._serve, name="kubesched-apiserver", daemon=True)
        self._pacer = _Pacer(qps, burst)
        self._api: Any = None

    def _serve(self) -> None:
        asyncio.set_event_loop(self.loop)
        self.loop.run_forever()

    def start(self) -> None:
        """Start the loop and connect (reads the credentials, asks the server its version)."""
        kr8s = import_kr8s()
        check = check_kubeconfig(self.kubeconfig)  # names what is wrong with the file
        for warning in check.warnings:
            log.warning("%s", warning)
        self._thread.start()

        async def connect() -> Any:
            return await kr8s.api(kubeconfig=self.kubeconfig, context=self.context)

        try:
            self._api = self.call(connect(), timeout=self.request_timeout * 3)
        except Exception as exc:
            self.close()
            raise KubeschedError(connect_problem(exc, check.secrets)) from None

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
        self,
        method: str,
        group_version: str,
        path: tuple[str, str],
        *,
        params: Mapping[str, str] | None = None,
        body: Any = None,
        content_type: str = JSON,
        timeout: float | None = None,
    ) -> tuple[int, Any]:
        """One request: (HTTP status, decoded JSON body or None)."""
        await self._pacer.take()
        base, url = path
        kwargs: dict[str, Any] = {"timeout": timeout or self.request_timeout}
        if params:
            kwargs["params"] = dict(params)
        if body is not None:
            kwargs["content"] = json.dumps(body).encode()
            kwargs["headers"] = {"Content-Type": content_type}
        try:
            async with self._api.call_api(
                method, version=group_version, base=base, url=url, raise_for_status=False, **kwargs
            ) as response:
                content = response.content
                status = int(response.status_code)
        except asyncio.CancelledError:
            raise
        except Exception as exc:  # the transport's errors (httpx, kr8s), whatever their type
            raise transport_error(exc) from exc
        try:
            return status, json.loads(content) if content else None
        except ValueError:
            return status, None

    async def checked(
        self, method: str, group_version: str, path: tuple[str, str], **kw: Any
    ) -> Any:
        """`request`, raising ApiError unless the server answered 2xx."""
        status, body = await self.request(method, group_version, path, **kw)
        if status >= 300:
            raise ApiError.from_status(status, body)
        return body

    @asynccontextmanager
    async def stream(
        self,
        group_version: str,
        path: tuple[str, str],
        params: Mapping[str, str],
        read_timeout: float,
    ) -> AsyncIterator[tuple[int, AsyncIterator[str]]]:
        """A streaming GET (a watch): (HTTP status, its lines)."""
        base, url = path
        import httpx  # kr8s' transport; present whenever kr8s is

        timeout = httpx.Timeout(self.request_timeout, read=read_timeout)
        async with self._api.call_api(
            "GET",
            version=group_version,
            base=base,
            url=url,
            params=dict(params),
            stream=True,
            raise_for_status=False,
            timeout=timeout,
        ) as response:
            yield int(response.status_code), response.aiter_lines()

    def close(self) -> None:
        """Cancel every task, stop the loop and wait for its thread."""
        if not self._thread.is_alive():
            return

        async def shutdown() -> None:
            tasks = [t for t in asyncio.all_tasks() if t is not asyncio.current_task()]
            for task in tasks:
                task.cancel()
            await asyncio.gather(*tasks, return_exceptions=True)
            client = getattr(self._api, "_session", None)  # kr8s has no public close
            if client is not None:
                await client.aclose()

        with contextlib.suppress(Exception):  # what is left is dropped with the loop
            asyncio.run_coroutine_threadsafe(shutdown(), self.loop).result(5)
        self.loop.call_soon_threadsafe(self.loop.stop)
        self._thread.join(5)
