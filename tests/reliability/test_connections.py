"""A real ``tafelrunde serve`` holds connections only while they do their part: a request's head
and body in time, an answer read, no more connections than its limit; an event stream that is
read stays open however quiet the match is (``api.edge.connections``). Measured with raw sockets, on
both databases."""

from __future__ import annotations

import asyncio
import socket
import time
from collections.abc import AsyncIterator, Callable
from contextlib import AbstractAsyncContextManager, AsyncExitStack, ExitStack, asynccontextmanager
from pathlib import Path

import httpx
import pytest
from sqlalchemy import func, select

from api.db.engine import create_engine
from api.db.models import MatchRow
from bench.harness import DEFAULT_POSTGRES_URL, Server, scratch_database
from tests.conftest import next_change

pytestmark = pytest.mark.slow

TIMEOUT = 1  # header, body, idle and send timeout of the servers here, seconds
LIMIT = 4  # their connection limit
PATIENCE = 10.0  # how late a loaded machine may be, seconds
EARLY = 0.05  # how early an event loop's timer may fire (its clock's resolution, and more)
Serving = Callable[[], AbstractAsyncContextManager[Server]]


@pytest.fixture
def guarded(server_database: tuple[str, str], tmp_path: Path) -> Serving:
    """A server with 1-second timeouts and a limit of 4 connections, on a new database."""
    kind, postgres_url = server_database

    @asynccontextmanager
    async def serving() -> AsyncIterator[Server]:
        async with scratch_database(kind, tmp_path, postgres_url or DEFAULT_POSTGRES_URL) as url:
            server = Server(url, tmp_path, env={
                "TAFELRUNDE_HEADER_TIMEOUT": str(TIMEOUT), "TAFELRUNDE_BODY_TIMEOUT": str(TIMEOUT),
                "TAFELRUNDE_IDLE_TIMEOUT": str(TIMEOUT),
                "TAFELRUNDE_SEND_TIMEOUT": str(TIMEOUT),
                "TAFELRUNDE_MAX_CONNECTIONS": str(LIMIT)})
            await server.start()
            try:
                yield server
            finally:
                await server.stop()

    return serving


def connect(server: Server) -> socket.socket:
    return socket.create_connection(("127.0.0.1", server.port), timeout=PATIENCE)


SLOW_HEAD = b"GET /api/v1/health HTTP/1.1\r\nHost: club\r\nAccept: */*\r\n\r\n"


def dribble(server: Server) -> tuple[int, float]:
    """Send ``SLOW_HEAD`` a byte every 0.2 s until the server has closed the connection:
    (bytes sent, seconds taken)."""
    with connect(server) as connection:
        began = time.monotonic()
        for sent, byte in enumerate(SLOW_HEAD):
            try:
                connection.send(bytes([byte]))
            except OSError:  # the server has closed: a reset, or a broken pipe
                return sent, time.monotonic() - began
            time.sleep(0.2)
    return len(SLOW_HEAD), time.monotonic() - began


def closed_after(connection: socket.socket, began: float) -> float:
    """Seconds from ``began`` until the server closed ``connection`` (which sends nothing)."""
    assert connection.recv(1024) == b""
    return time.monotonic() - began


async def test_a_connection_that_sends_nothing_or_its_head_too_slowly_is_closed(
    guarded: Serving,
) -> None:
    async with guarded() as server:
        with connect(server) as silent:
            began = time.monotonic()
            closed = await asyncio.to_thread(closed_after, silent, began)
            assert TIMEOUT - EARLY <= closed < PATIENCE

        # A byte every 0.2 s: each byte in time, the head as a whole not.
        sent, seconds = await asyncio.to_thread(dribble, server)
        assert sent < len(SLOW_HEAD)
        assert seconds >= TIMEOUT - EARLY

        # A head sent whole is answered, and the connection then waits the idle time.
        with connect(server) as prompt:
            prompt.sendall(b"GET /api/v1/health HTTP/1.1\r\nHost: club\r\n\r\n")
            answered = b""
            while not answered.endswith(b'{"status":"ok"}'):
                answered += await asyncio.to_thread(prompt.recv, 4096)
            assert answered.startswith(b"HTTP/1.1 200 ")
            began = time.monotonic()
            closed = await asyncio.to_thread(closed_after, prompt, began)
            assert TIMEOUT - EARLY <= closed < PATIENCE


SLOW_BODY = b'{"game": "tschau-sepp", "players": ["Ann", "Bea"]}'
SLOW_POST = (b"POST /api/v1/matches HTTP/1.1\r\nHost: club\r\nContent-Type: application/json\r\n"
             b"Content-Length: " + str(len(SLOW_BODY)).encode() + b"\r\n\r\n")


def trickle_body(server: Server) -> tuple[int, float, bytes]:
    """Send ``SLOW_POST``'s head at once, then its body a byte every 0.2 s until the server
    closes the connection: (body bytes sent, seconds from the head, what the server answered)."""
    with connect(server) as connection:
        connection.sendall(SLOW_POST)
        began = time.monotonic()
        sent = 0
        while sent < len(SLOW_BODY):
            try:
                connection.send(SLOW_BODY[sent:sent + 1])
            except OSError:  # the server has closed: a reset, or a broken pipe
                break
            sent += 1
            time.sleep(0.2)
        seconds = time.monotonic() - began
        try:
            answered = connection.recv(4096)
        except ConnectionResetError:
            answered = b""
    return sent, seconds, answered


async def matches_stored(database_url: str) -> int:
    engine = create_engine(database_url)
    try:
        async with engine.connect() as connection:
            return int((await connection.execute(
                select(func.count()).select_from(MatchRow))).scalar_one())
    finally:
        await engine.dispose()


async def test_a_body_sent_too_slowly_is_cut_off_and_stores_nothing(guarded: Serving) -> None:
    """A byte of the body every 0.2 s: each byte in time, the body as a whole not (it would take
    2 s of the server's 1)."""
    async with guarded() as server:
        sent, seconds, answered = await asyncio.to_thread(trickle_body, server)
        assert sent < len(SLOW_BODY)
        assert seconds >= TIMEOUT - EARLY
        assert answered == b""  # closed without an answer
        assert await matches_stored(server.database_url) == 0
        # The client left: nothing went wrong in the server.
        assert "error" not in server.log_tail().lower()
        async with httpx.AsyncClient(base_url=server.url, timeout=PATIENCE) as http:
            # The same body sent at once is answered.
            created = await http.post("/api/v1/matches", content=SLOW_BODY,
                                      headers={"Content-Type": "application/json"})
            assert created.status_code == 201, created.text
        assert await matches_stored(server.database_url) == 1


def read_slowly(server: Server, pause: float) -> tuple[int, int, str]:
    """Ask for the OpenAPI document (130 kB uncompressed), take nothing for ``pause`` seconds,
    then read: (bytes announced, bytes received, how it ended). A client that pauses has a 4 KiB
    receive window, so the server's writing must pause too; one that reads at once keeps the
    kernel's, so that a test process starved of CPU for a second on a loaded machine is not
    taken for a client that stopped reading (seen: 133,058 of 133,405 bytes at a load of 25)."""
    connection = socket.socket()
    if pause:
        connection.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
    connection.settimeout(PATIENCE)
    connection.connect(("127.0.0.1", server.port))
    connection.sendall(b"GET /schema/openapi.json HTTP/1.1\r\nHost: club\r\n"
                       b"Accept-Encoding: identity\r\n\r\n")
    time.sleep(pause)
    received = b""
    ended = "complete"
    try:
        while b"\r\n\r\n" not in received or len(received) < announced(received):
            chunk = connection.recv(65536)
            if not chunk:
                ended = "closed"
                break
            received += chunk
    except ConnectionResetError:
        ended = "reset"
    finally:
        connection.close()
    return announced(received), len(received.partition(b"\r\n\r\n")[2]), ended


def announced(received: bytes) -> int:
    head = received.partition(b"\r\n\r\n")[0].lower()
    return int(head.split(b"content-length: ", 1)[1].split(b"\r\n", 1)[0])


async def test_a_client_that_stops_reading_an_answer_is_dropped(guarded: Serving) -> None:
    async with guarded() as server:
        length, received, ended = await asyncio.to_thread(read_slowly, server, 0)
        assert (received, ended) == (length, "complete")
        assert length > 100_000  # far more than the socket buffers take: writing must pause

        length, received, ended = await asyncio.to_thread(read_slowly, server, TIMEOUT + 3)
        assert ended in ("reset", "closed")
        assert received < length


async def test_an_event_stream_outlives_every_timeout_and_still_hears_changes(
    guarded: Serving,
) -> None:
    async with guarded() as server, \
            httpx.AsyncClient(base_url=server.url, timeout=PATIENCE) as http:
        created = (await http.post("/api/v1/matches", json={
            "game": "tschau-sepp", "players": ["Ann", "Bea"]})).json()
        url = f"/api/v1/matches/{created['id']}"
        async with http.stream("GET", f"{url}/events") as stream:
            lines = stream.aiter_lines()
            assert (await anext(lines)).startswith(":")  # subscribed
            await asyncio.sleep(3 * TIMEOUT + 0.5)  # quiet for longer than any timeout
            posted = await http.post(f"{url}/rounds", json={"winner": 0, "penalty": [0, 4]},
                                     headers={"Authorization": f"Bearer {created['token']}"})
            assert posted.status_code == 201
            change = await asyncio.wait_for(next_change(lines), PATIENCE)
        assert change == {"version": 2, "action": "round_added", "round": 1}


async def test_beyond_its_limit_of_connections_the_server_answers_503_until_one_closes(
    guarded: Serving,
) -> None:
    async with guarded() as server, AsyncExitStack() as streams:
        async with httpx.AsyncClient(base_url=server.url) as http:
            created = (await http.post("/api/v1/matches", json={
                "game": "tschau-sepp", "players": ["Ann", "Bea"]})).json()
        events = f"{server.url}/api/v1/matches/{created['id']}/events"
        # Each phone its own connection: an event stream held open, as on a club night.
        phones = [await streams.enter_async_context(httpx.AsyncClient(timeout=PATIENCE))
                  for _ in range(LIMIT + 1)]
        for phone in phones[:LIMIT]:
            stream = await streams.enter_async_context(phone.stream("GET", events))
            assert stream.status_code == 200

        refused = await phones[LIMIT].get(f"{server.url}/api/v1/health",
                                          headers={"Accept-Language": "fr"})
        assert refused.status_code == 503
        assert refused.headers["content-type"] == "application/problem+json"
        assert refused.headers["retry-after"] == "5"
        assert refused.headers["content-language"] == "fr"
        assert refused.json() == {"type": "about:blank", "title": "Service indisponible",
                                  "status": 503, "detail": "Service indisponible", "errors": []}

        await phones[0].aclose()  # one phone leaves: its stream's connection closes
        assert await answered_in_time(phones[LIMIT], f"{server.url}/api/v1/health") == 200


async def answered_in_time(http: httpx.AsyncClient, url: str) -> int:
    """The status of ``url`` once it is not 503, or 503 after ``PATIENCE`` seconds: the server
    learns of a closed connection when its event loop next looks."""
    deadline = time.monotonic() + PATIENCE
    status = 503
    while status == 503 and time.monotonic() < deadline:
        status = (await http.get(url)).status_code
    return status


PER_ADDRESS = 3  # connections per client address of the crowded servers here
CLIENT, OTHER, PROXY = "127.0.0.2", "127.0.0.3", "127.0.0.4"  # client addresses on loopback
HEALTH = b"GET /api/v1/health HTTP/1.1\r\nHost: club\r\nConnection: close\r\n\r\n"


@pytest.fixture
async def crowded(tmp_path: Path) -> AsyncIterator[Server]:
    """A server with a limit of 4 connections, 3 per address (127.0.0.4, a trusted proxy, is
    not capped), and a header timeout far longer than these tests wait: no connection here is
    closed for its silence by the timeout."""
    async with scratch_database("sqlite", tmp_path, DEFAULT_POSTGRES_URL) as url:
        server = Server(url, tmp_path, env={
            "TAFELRUNDE_HEADER_TIMEOUT": "600", "TAFELRUNDE_MAX_CONNECTIONS": str(LIMIT),
            "TAFELRUNDE_MAX_CONNECTIONS_PER_ADDRESS": str(PER_ADDRESS),
            "TAFELRUNDE_TRUSTED_PROXIES": PROXY})
        await server.start()
        try:
            yield server
        finally:
            await server.stop()


def connect_from(server: Server, source: str) -> socket.socket:
    """A connection from ``source`` (a loopback address other than the server's)."""
    return socket.create_connection(("127.0.0.1", server.port), timeout=PATIENCE,
                                    source_address=(source, 0))


def closed_within(connection: socket.socket, seconds: float) -> bool:
    """Whether the server closes ``connection`` (which sends nothing) within ``seconds``."""
    connection.settimeout(seconds)
    try:
        return connection.recv(1024) == b""
    except TimeoutError:
        return False
    except ConnectionResetError:
        return True
    finally:
        connection.settimeout(PATIENCE)


def health_from(server: Server, source: str) -> bytes:
    """The status line of ``/api/v1/health`` asked from ``source``."""
    with connect_from(server, source) as connection:
        connection.sendall(HEALTH)
        answer = b""
        while chunk := connection.recv(65536):
            answer += chunk
    return answer.partition(b"\r\n")[0]


async def test_one_address_holds_no_more_than_its_share_of_connections(
        crowded: Server) -> None:
    with ExitStack() as held:
        silent = [held.enter_context(connect_from(crowded, CLIENT))
                  for _ in range(PER_ADDRESS + 2)]
        began = time.monotonic()
        beyond = [closed_within(connection, PATIENCE) for connection in silent[PER_ADDRESS:]]
        assert beyond == [True, True]
        assert time.monotonic() - began < PATIENCE / 2, "closed by a timeout, not at once"
        assert [closed_within(connection, 0.5) for connection in silent[:PER_ADDRESS]] == \
            [False] * PER_ADDRESS
        assert health_from(crowded, OTHER) == b"HTTP/1.1 200 OK"

        silent[0].close()  # one of its own closes: the address may open another
        again = held.enter_context(connect_from(crowded, CLIENT))
        assert not closed_within(again, 1.0)


async def test_silent_connections_make_room_for_a_client_that_speaks(crowded: Server) -> None:
    """Four connections that never send a byte fill the server; a fifth that asks is answered,
    and the oldest silent one is closed for it, time after time, however often they come."""
    with ExitStack() as held:
        silent = [held.enter_context(connect_from(crowded, source))
                  for source in (CLIENT, CLIENT, CLIENT, OTHER)]
        for _ in range(3):
            assert health_from(crowded, OTHER) == b"HTTP/1.1 200 OK"
            shed = [connection for connection in silent if closed_within(connection, 0.5)]
            assert len(shed) == 1
            silent.remove(shed[0])
            silent.append(held.enter_context(connect_from(crowded, CLIENT)))  # it comes back


async def test_a_trusted_proxy_brings_more_connections_than_one_address_may(
        crowded: Server) -> None:
    with ExitStack() as held:
        through_proxy = [held.enter_context(connect_from(crowded, PROXY))
                         for _ in range(PER_ADDRESS + 1)]
        assert [closed_within(connection, 0.5) for connection in through_proxy] == \
            [False] * (PER_ADDRESS + 1)
