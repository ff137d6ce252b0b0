"""One client of the API server: its own connection pool (httpx), token bucket and timeout.

`RestClient` sends a request as raw JSON (msgspec) and answers (HTTP status, decoded
body); `checked` raises `ApiError` unless the answer is 2xx; `stream` opens a
watch. Requests (not watches) wait for a token of the client's bucket
(`clientConnection.qps` a second, `burst` at once), as client-go's rate limiter.
A 401 makes the session read its credentials again once (an expired token of an
exec plugin). Every request is reported to the session's observers (the
rest_client_* metrics). A client made `lean` (binds, status patches, events: many
small requests) sends its requests through `http11.Http11Pool` instead of httpx,
when the server is reached without a proxy; its watches would still use httpx.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import AsyncIterator, Callable, Mapping
from contextlib import asynccontextmanager
from typing import Any

import msgspec

from kubesched.errors import KubeschedError

JSON = "application/json"


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


class Pacer:
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


RequestObserver = Callable[[str, str, int, float], None]
"""Called after every request with (client, method, HTTP status or 0, seconds)."""


class RestClient:
    """One clientset: its own connection pool, token bucket and timeout."""

    def __init__(
        self,
        session: Any,  # the ApiSession: credentials, the loop's HTTP clients, observers
        name: str,
        *,
        qps: float,
        burst: int,
        timeout: float,
        max_connections: int = 20,
        lean: bool = False,
    ) -> None:
        self.session, self.name = session, name
        self.request_timeout = timeout
        self.pacer = Pacer(qps, burst)
        self._max_connections = max_connections
        self._http: Any = None
        self._lean = lean
        self._pool: Any = None

    def _client(self) -> Any:
        if self._http is None:
            self._http = self.session._new_http(self._max_connections)
        return self._http

    def _lean_pool(self) -> Any:
        """The lean connection pool of this client, or None (not lean, or behind a proxy)."""
        if self._lean and self._pool is None:
            self._pool = self.session._new_lean(self._max_connections)
            self._lean = self._pool is not None
        return self._pool

    async def _lean_request(
        self,
        pool: Any,
        method: str,
        url: str,
        params: Mapping[str, str] | None,
        headers: dict[str, str],
        data: bytes | None,
        timeout: float,
    ) -> tuple[int, bytes]:
        target = pool.target(url, dict(params) if params else None)
        return await pool.request(method, target, headers.items(), data, timeout)  # type: ignore[no-any-return]

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
        await self.pacer.take()
        kwargs: dict[str, Any] = {"timeout": timeout or self.request_timeout}
        kwargs.update(self.session._extensions())
        if params:
            kwargs["params"] = dict(params)
        headers = self.session._headers()
        if body is not None:
            kwargs["content"] = msgspec.json.encode(body)
            headers["Content-Type"] = content_type
        url = _url(group_version, path)
        started = time.perf_counter()
        status = 0
        pool = self._lean_pool()
        try:
            for attempt in (0, 1):
                if pool is not None:
                    status, content = await self._lean_request(
                        pool, method, url, params, headers, kwargs.get("content"), kwargs["timeout"]
                    )
                else:
                    response = await self._client().request(method, url, headers=headers, **kwargs)
                    status, content = int(response.status_code), response.content
                if status != 401 or attempt:
                    break
                headers = await self.session._reauthenticate()
        except asyncio.CancelledError:
            raise
        except Exception as exc:  # the transport's errors (httpx), whatever their type
            raise transport_error(exc) from exc
        finally:
            self.session._observe(self.name, method, status, time.perf_counter() - started)
        try:
            return status, msgspec.json.decode(content) if content else None
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
        """A streaming GET (a watch): (HTTP status, its lines). Not paced."""
        import httpx

        timeout = httpx.Timeout(self.request_timeout, read=read_timeout)
        async with self._client().stream(
            "GET",
            _url(group_version, path),
            params=dict(params),
            headers=self.session._headers(),
            timeout=timeout,
            **self.session._extensions(),
        ) as response:
            self.session._observe(self.name, "WATCH", int(response.status_code), 0.0)
            yield int(response.status_code), response.aiter_lines()

    async def aclose(self) -> None:
        if self._http is not None:
            await self._http.aclose()
        if self._pool is not None:
            await self._pool.aclose()


def _url(group_version: str, path: tuple[str, str]) -> str:
    base, rest = path
    return "/".join(part for part in (base, group_version, rest) if part)
