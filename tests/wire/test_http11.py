"""The lean HTTP/1.1 client of binds, status patches and events (`http11.Http11Pool`), against
a small asyncio server that answers as told: lengths, chunks, closed and reused connections."""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable, Coroutine
from concurrent.futures import ThreadPoolExecutor

import pytest

from kubesched.cluster.apiserver.http11 import Http11Pool, ProtocolError

Answer = Callable[[bytes], bytes | None]
"""The raw answer to one request head (None: close the connection without one)."""


class Server:
    """Counts connections and requests; answers each request with `answer(head)`."""

    def __init__(self, answer: Answer) -> None:
        self.answer = answer
        self.connections = 0
        self.requests: list[bytes] = []
        self.writers: list[asyncio.StreamWriter] = []

    async def handle(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        self.connections += 1
        self.writers.append(writer)
        try:
            while True:
                head = await reader.readuntil(b"\r\n\r\n")
                length = next(
                    (
                        int(line.split(b":")[1])
                        for line in head.split(b"\r\n")
                        if line.lower().startswith(b"content-length:")
                    ),
                    0,
                )
                body = await reader.readexactly(length)
                self.requests.append(head + body)
                raw = self.answer(head)
                if raw is None:
                    break
                writer.write(raw)
                await writer.drain()
                if b"Connection: close" in raw or raw.startswith(b"HTTP/1.0"):
                    break
        except (asyncio.IncompleteReadError, ConnectionError):
            pass
        writer.close()


def run(answer: Answer, body: Callable[[Http11Pool, Server], Awaitable[None]]) -> Server:
    server = Server(answer)

    async def main() -> None:
        listening = await asyncio.start_server(server.handle, "127.0.0.1", 0)
        port = listening.sockets[0].getsockname()[1]
        pool = Http11Pool(f"http://127.0.0.1:{port}/prefix/", ssl_context=None, max_connections=2)
        try:
            await body(pool, server)
        finally:
            await pool.aclose()
            listening.close()

    on_own_loop(main())
    return server


def on_own_loop(main: Coroutine[None, None, None]) -> None:
    """Run `main` on a loop of its own in a thread of its own, as the client runs on the
    scheduler's loop thread. (The report tests' session-wide browser, Playwright's sync API,
    keeps an asyncio loop running on the main thread of their worker, where asyncio.run then
    refuses to start.)"""
    with ThreadPoolExecutor(1) as thread:
        thread.submit(asyncio.run, main).result()


def length_answer(text: bytes, status: int = 201) -> bytes:
    return b"HTTP/1.1 %d X\r\nContent-Length: %d\r\n\r\n%s" % (status, len(text), text)


def test_answers_are_read_and_the_connection_is_kept() -> None:
    seen: list[tuple[int, bytes]] = []

    async def body(pool: Http11Pool, _: Server) -> None:
        for i in range(3):
            target = pool.target("api/v1/pods", {"a": f"b c{i}"})
            seen.append(await pool.request("POST", target, [("X-T", "1")], b"{}", 5.0))

    server = run(lambda head: length_answer(b'{"ok":true}'), body)
    assert seen == [(201, b'{"ok":true}')] * 3
    assert server.connections == 1
    first = server.requests[0]
    assert first.startswith(b"POST /prefix/api/v1/pods?a=b+c0 HTTP/1.1\r\n")
    assert b"\r\nHost: 127.0.0.1:" in first and b"\r\nX-T: 1\r\n" in first
    assert b"\r\nContent-Length: 2\r\n\r\n{}" in first


def test_chunked_answers() -> None:
    seen: list[tuple[int, bytes]] = []
    chunked = (
        b"HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n"
        b"4\r\nabcd\r\n3;ext=1\r\nefg\r\n0\r\nTrailer: x\r\n\r\n"
    )

    async def body(pool: Http11Pool, _: Server) -> None:
        seen.append(await pool.request("GET", "/x", [], None, 5.0))
        seen.append(await pool.request("GET", "/x", [], None, 5.0))

    server = run(lambda head: chunked, body)
    assert seen == [(200, b"abcdefg")] * 2
    assert server.connections == 1


def test_connection_close_and_http10_open_a_new_connection() -> None:
    answers = iter(
        [
            b"HTTP/1.1 200 OK\r\nConnection: close\r\nContent-Length: 1\r\n\r\na",
            b"HTTP/1.0 404 Not Found\r\n\r\nnot here",
            length_answer(b"c", 200),
        ]
    )
    seen: list[tuple[int, bytes]] = []

    async def body(pool: Http11Pool, _: Server) -> None:
        for _i in range(3):
            seen.append(await pool.request("GET", "/x", [], None, 5.0))

    server = run(lambda head: next(answers), body)
    assert seen == [(200, b"a"), (404, b"not here"), (200, b"c")]
    assert server.connections == 3


def test_a_kept_connection_the_server_closed_is_replaced_once() -> None:
    seen: list[tuple[int, bytes]] = []

    async def body(pool: Http11Pool, server: Server) -> None:
        seen.append(await pool.request("GET", "/x", [], None, 5.0))
        for writer in server.writers:  # the server's idle timeout
            writer.close()
        await asyncio.sleep(0.05)
        seen.append(await pool.request("POST", "/x", [], b"{}", 5.0))

    server = run(lambda head: length_answer(b"ok", 200), body)
    assert seen == [(200, b"ok"), (200, b"ok")]
    assert server.connections == 2
    assert len(server.requests) == 2


def test_no_answer_on_a_new_connection_is_an_error() -> None:
    async def body(pool: Http11Pool, _: Server) -> None:
        with pytest.raises(ProtocolError, match="without an answer"):
            await pool.request("GET", "/x", [], None, 5.0)

    run(lambda head: None, body)


def test_a_slow_answer_times_out_and_its_connection_is_dropped() -> None:
    async def body(pool: Http11Pool, _: Server) -> None:
        with pytest.raises(asyncio.TimeoutError):
            await pool.request("GET", "/slow", [], None, 0.2)
        assert pool._idle == []

    def answer(head: bytes) -> bytes:
        if b"/slow" in head:
            return b"HTTP/1.1 200 OK\r\nContent-Length: 10\r\n\r\nonly"  # 4 of 10 bytes
        return length_answer(b"", 200)

    run(answer, body)


def test_a_refused_connection_is_a_connection_error() -> None:
    async def main() -> None:
        listening = await asyncio.start_server(lambda r, w: None, "127.0.0.1", 0)
        port = listening.sockets[0].getsockname()[1]
        listening.close()
        await listening.wait_closed()
        pool = Http11Pool(f"http://127.0.0.1:{port}", ssl_context=None)
        with pytest.raises(ConnectionRefusedError):
            await pool.request("GET", "/", [], None, 5.0)

    on_own_loop(main())


def test_host_header_and_tls_defaults() -> None:
    pool = Http11Pool("https://example.test", ssl_context=None, server_hostname="api.test")
    assert (pool.tls, pool.port, pool.host_header, pool.prefix) == (True, 443, "example.test", "")
    assert pool.server_hostname == "api.test" and pool.ssl_context is not None
    assert pool.target("/api/v1/x", None) == "/api/v1/x"
    six = Http11Pool("http://[::1]:8080/k8s", ssl_context=None)
    assert (six.host, six.host_header, six.ssl_context) == ("::1", "[::1]:8080", None)
    assert six.target("api", {"q": "1"}) == "/k8s/api?q=1"
