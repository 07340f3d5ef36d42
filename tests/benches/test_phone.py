"""The benches' phones (``bench.harness.Phone``) speak HTTP/1.1 by hand: a late answer is never
taken for the next request's, a connection is kept and reopened when it must be, and an answer
they cannot read stops them at once.

bench/load.py proves the rest at scale against the real server (every acknowledged round stored
once); what it cannot show reliably is an answer that arrives after its phone gave up on it,
which here a scripted server sends every time.
"""

from __future__ import annotations

import asyncio
import contextlib
import random
from collections import Counter
from collections.abc import AsyncIterator

import msgspec
import pytest

from bench.harness import Chaos, Phone, Tally, UnreadableAnswer

LATE = 1.0  # seconds the scripted server takes for a late answer, far beyond the phone's wait
NO_CHAOS = Chaos(timeout_share=0.0, close_share=0.0)


class ScriptedServer:
    """Answers each request in order on its connection, as the path says: ``/late`` after
    ``LATE`` seconds, ``/late-once`` so the first time only, ``/fails-once`` 503 the first time,
    ``/bye`` with ``Connection: close`` (and closes), ``/chunked`` chunked; any other at once.
    A JSON answer tells which connection (numbered from 1) and path it answers."""

    def __init__(self) -> None:
        self.connections = 0
        self.asked: Counter[str] = Counter()
        self.port = 0
        self._handlers: set[asyncio.Task[None]] = set()

    async def handle(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        task = asyncio.current_task()
        assert task is not None
        self._handlers.add(task)
        self.connections += 1
        connection = self.connections
        try:
            while True:
                head = await reader.readuntil(b"\r\n\r\n")
                request_line, *lines = head.decode().split("\r\n")
                length = next(int(line.split(":")[1]) for line in lines
                              if line.lower().startswith("content-length:"))
                await reader.readexactly(length)
                path = request_line.split()[1]
                self.asked[path] += 1
                if path == "/late" or (path == "/late-once" and self.asked[path] == 1):
                    await asyncio.sleep(LATE)
                writer.write(self.answer(path, connection))
                await writer.drain()
                if path == "/bye":
                    break
        except (asyncio.IncompleteReadError, ConnectionError):
            pass  # the phone hung up
        finally:
            writer.close()
            self._handlers.discard(task)

    def answer(self, path: str, connection: int) -> bytes:
        if path == "/chunked":
            return (b"HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n"
                    b"2\r\n{}\r\n0\r\n\r\n")
        status = "503 Service Unavailable" if (
            path == "/fails-once" and self.asked[path] == 1) else "200 OK"
        body = msgspec.json.encode({"path": path, "connection": connection})
        close = "Connection: close\r\n" if path == "/bye" else ""
        return (f"HTTP/1.1 {status}\r\nContent-Type: application/json\r\n{close}"
                f"Content-Length: {len(body)}\r\n\r\n").encode() + body

    async def stop(self) -> None:
        for task in self._handlers:
            task.cancel()
        await asyncio.gather(*self._handlers, return_exceptions=True)


@pytest.fixture
async def scripted() -> AsyncIterator[ScriptedServer]:
    server = ScriptedServer()
    listening = await asyncio.start_server(server.handle, "127.0.0.1", 0)
    server.port = listening.sockets[0].getsockname()[1]
    try:
        yield server
    finally:
        listening.close()
        await server.stop()
        await listening.wait_closed()


@contextlib.asynccontextmanager
async def phone(server: ScriptedServer, chaos: Chaos = NO_CHAOS,
                tally: Tally | None = None) -> AsyncIterator[Phone]:
    client = Phone(f"http://127.0.0.1:{server.port}", random.Random(1), tally or Tally(), chaos)
    try:
        yield client
    finally:
        await client.close()


async def test_an_answer_given_up_on_is_never_read_as_the_next_requests(
        scripted: ScriptedServer) -> None:
    async with phone(scripted) as client:
        with pytest.raises(TimeoutError):
            async with asyncio.timeout(0.05):
                await client.request("POST", "/late", {})
        # Kept, the connection would bring /late's answer first: the server answers in order.
        answer = await client.request("POST", "/next", {})
    assert answer.status == 200
    assert answer.json() == {"path": "/next", "connection": 2}


async def test_a_phone_that_gives_up_sends_again_and_counts_only_what_it_gave_up_on(
        scripted: ScriptedServer) -> None:
    tally = Tally()
    every_request_hurried = Chaos(timeout_share=1.0, close_share=0.0, short_timeout=0.2)
    async with phone(scripted, every_request_hurried, tally) as client:
        answer = await client.send("POST", "/late-once", {"round": 1})
        fast = await client.send("POST", "/fast", {"round": 2})
    assert answer.json() == {"path": "/late-once", "connection": 2}
    assert fast.json() == {"path": "/fast", "connection": 2}
    assert (tally.dropped_on_purpose, tally.retries, tally.answers[0]) == (1, 1, 2)


async def test_a_phone_keeps_its_connection_until_the_server_closes_it(
        scripted: ScriptedServer) -> None:
    async with phone(scripted) as client:
        first = await client.request("POST", "/first", {})
        bye = await client.request("POST", "/bye", {})
        after = await client.request("POST", "/after", {})
    assert [first.json()["connection"], bye.json()["connection"], after.json()["connection"]] \
        == [1, 1, 2]
    assert client.connections == 2


async def test_a_server_error_is_counted_and_sent_again(scripted: ScriptedServer) -> None:
    tally = Tally()
    async with phone(scripted, tally=tally) as client:
        answer = await client.send("POST", "/fails-once", {})
    assert answer.json()["path"] == "/fails-once"
    assert (tally.server_errors, tally.retries, scripted.asked["/fails-once"]) == (1, 1, 2)
    assert tally.unexpected[0].startswith("POST /fails-once: 503")


async def test_a_chunked_answer_stops_the_phone_at_once_and_says_why(
        scripted: ScriptedServer) -> None:
    tally = Tally()
    async with phone(scripted, tally=tally) as client:
        with pytest.raises(UnreadableAnswer, match="Transfer-Encoding: chunked"):
            await client.send("POST", "/chunked", {})
    assert (scripted.asked["/chunked"], tally.retries) == (1, 0)
