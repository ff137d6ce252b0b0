"""A lean HTTP/1.1 client on asyncio's streams, for the requests the scheduler sends most.

Binds, status patches and events are small requests with small answers, thousands a
minute under a backlog. Through httpx each one cost about 1 ms of CPU (its transport,
httpcore's connection pool and anyio's TLS stream, layered over asyncio's own); here a
request is one write of its bytes on a kept-alive connection and one read of the
answer (`Content-Length` or chunked). Lists, watches and everything at start-up stay
on httpx (`client.RestClient`), and so does any server reached through a proxy.

A connection is reused while the server keeps it open; a reused connection the
server closed meanwhile (its idle timeout) is replaced and the request sent again
once, when not one byte of an answer came back. At most `max_connections`
requests are in flight; the others wait for a connection.
"""

from __future__ import annotations

import asyncio
import ssl
from collections.abc import Iterable
from urllib.parse import urlencode, urlsplit

MAX_HEADER_LINES = 200


class ProtocolError(Exception):
    """An answer that is not HTTP/1.1 as expected."""


class _Connection:
    def __init__(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        self.reader, self.writer = reader, writer

    def close(self) -> None:
        self.writer.close()


class _StaleConnection(Exception):
    """A reused connection the server had closed: nothing of an answer came back."""


class Http11Pool:
    """Kept-alive connections to one server (`https://host:port/prefix` or `http://...`)."""

    def __init__(
        self,
        server: str,
        *,
        ssl_context: ssl.SSLContext | None,
        server_hostname: str | None = None,
        max_connections: int = 20,
    ) -> None:
        parts = urlsplit(server)
        self.tls = parts.scheme == "https"
        self.host = parts.hostname or "localhost"
        self.port = parts.port or (443 if self.tls else 80)
        self.prefix = parts.path.rstrip("/")
        default_port = (self.tls and self.port == 443) or (not self.tls and self.port == 80)
        host = f"[{self.host}]" if ":" in self.host else self.host
        self.host_header = host if default_port else f"{host}:{self.port}"
        self.ssl_context = (ssl_context or ssl.create_default_context()) if self.tls else None
        self.server_hostname = server_hostname if self.tls else None
        self._idle: list[_Connection] = []
        self._slots = asyncio.Semaphore(max(1, max_connections))

    def target(self, path: str, params: dict[str, str] | None) -> str:
        """The request target of a path relative to the server's (`api/v1/...`)."""
        target = f"{self.prefix}/{path.lstrip('/')}"
        return f"{target}?{urlencode(params)}" if params else target

    async def request(
        self,
        method: str,
        target: str,
        headers: Iterable[tuple[str, str]],
        body: bytes | None,
        timeout: float,
    ) -> tuple[int, bytes]:
        """Send one request and read its answer: (HTTP status, body)."""
        head = [f"{method} {target} HTTP/1.1", f"Host: {self.host_header}"]
        head += [f"{name}: {value}" for name, value in headers]
        if body is not None or method in ("POST", "PUT", "PATCH"):
            head.append(f"Content-Length: {len(body or b'')}")
        data = ("\r\n".join(head) + "\r\n\r\n").encode("latin-1") + (body or b"")
        async with self._slots:
            return await asyncio.wait_for(self._send(data, method), timeout)

    async def _send(self, data: bytes, method: str) -> tuple[int, bytes]:
        while self._idle:
            connection = self._idle.pop()
            if connection.reader.at_eof() or connection.writer.is_closing():
                connection.close()
                continue
            try:
                return await self._exchange(connection, data, method, reused=True)
            except _StaleConnection:
                continue
        return await self._exchange(await self._open(), data, method, reused=False)

    async def _open(self) -> _Connection:
        reader, writer = await asyncio.open_connection(
            self.host,
            self.port,
            ssl=self.ssl_context,
            server_hostname=(self.server_hostname or self.host) if self.tls else None,
            limit=1 << 20,
        )
        return _Connection(reader, writer)

    async def _exchange(
        self, connection: _Connection, data: bytes, method: str, *, reused: bool
    ) -> tuple[int, bytes]:
        keep = False
        try:
            try:
                connection.writer.write(data)
                await connection.writer.drain()
                status_line = await connection.reader.readline()
            except (ConnectionError, OSError):
                if reused:
                    raise _StaleConnection() from None
                raise
            if not status_line:
                if reused:
                    raise _StaleConnection()
                raise ProtocolError("the server closed the connection without an answer")
            status, keep, body = await _read_answer(connection.reader, status_line, method)
            return status, body
        finally:
            if keep:
                self._idle.append(connection)
            else:
                connection.close()

    async def aclose(self) -> None:
        idle, self._idle = self._idle, []
        for connection in idle:
            connection.close()


async def _read_answer(
    reader: asyncio.StreamReader, status_line: bytes, method: str
) -> tuple[int, bool, bytes]:
    """(status, may the connection be reused, body) of an answer whose first line is read."""
    parts = status_line.split(None, 2)
    if len(parts) < 2 or not parts[0].startswith(b"HTTP/1.") or not parts[1].isdigit():
        raise ProtocolError(f"not an HTTP/1.1 answer: {status_line[:80]!r}")
    status = int(parts[1])
    keep = parts[0] == b"HTTP/1.1"
    length: int | None = None
    chunked = False
    for _ in range(MAX_HEADER_LINES):
        line = await reader.readline()
        if line in (b"\r\n", b"\n", b""):
            break
        name, _, value = line.partition(b":")
        name = name.strip().lower()
        value = value.strip()
        if name == b"content-length":
            length = int(value)
        elif name == b"transfer-encoding":
            chunked = b"chunked" in value.lower()
        elif name == b"connection":
            token = value.lower()
            keep = (keep and b"close" not in token) or b"keep-alive" in token
    else:
        raise ProtocolError("too many header lines")
    if method == "HEAD" or status in (204, 304) or 100 <= status < 200:
        return status, keep, b""
    if chunked:
        return status, keep, await _read_chunks(reader)
    if length is not None:
        return status, keep, await reader.readexactly(length)
    return status, False, await reader.read()  # delimited by the end of the connection


async def _read_chunks(reader: asyncio.StreamReader) -> bytes:
    body = bytearray()
    while True:
        size_line = await reader.readline()
        if not size_line:
            raise ProtocolError("the connection ended inside a chunked body")
        size = int(size_line.split(b";", 1)[0].strip(), 16)
        if size == 0:
            while (await reader.readline()) not in (b"\r\n", b"\n", b""):
                pass  # trailers
            return bytes(body)
        body += await reader.readexactly(size)
        await reader.readexactly(2)
