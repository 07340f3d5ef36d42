"""A real ``tafelrunde serve`` refuses a request whose body's length is not said exactly once
(RFC 9112 §6.1, §6.3): ``400`` with problem details, then it closes the connection, so nothing
sent after the refused head runs as a request (``api.edge.connections``). Raw sockets, on SQLite:
the framing is read before any database is asked."""

from __future__ import annotations

import json
import socket
from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from bench.harness import Server, scratch_database

pytestmark = pytest.mark.slow

PATIENCE = 10.0  # how late a loaded machine may be, seconds
HIDDEN = b"GET /api/v1/health HTTP/1.1\r\nHost: club\r\n\r\n"
"""The request a smuggler hides in the body: a proxy going by Content-Length never sees it."""


@pytest.fixture
async def server(tmp_path: Path) -> AsyncIterator[Server]:
    async with scratch_database("sqlite", tmp_path, "") as url:
        served = Server(url, tmp_path)
        await served.start()
        try:
            yield served
        finally:
            await served.stop()


def everything_said(server: Server, request: bytes) -> bytes:
    """All the server answers to ``request`` until it closes the connection."""
    with socket.create_connection(("127.0.0.1", server.port), timeout=PATIENCE) as connection:
        connection.sendall(request)
        answer = b""
        while chunk := connection.recv(65536):
            answer += chunk
    return answer


def refused(answer: bytes) -> dict[str, object]:
    """The one answer in ``answer``, which must be a 400 with problem details and a close."""
    head, _, body = answer.partition(b"\r\n\r\n")
    lines = head.decode("latin-1").split("\r\n")
    headers = {name.lower(): value for name, _, value in
               (line.partition(": ") for line in lines[1:])}
    assert lines[0] == "HTTP/1.1 400 Bad Request"
    assert headers["content-type"] == "application/problem+json"
    assert headers["connection"] == "close"
    assert len(body) == int(headers["content-length"]), "a second answer followed the refusal"
    problem: dict[str, object] = json.loads(body)
    problem["language"] = headers["content-language"]
    return problem


def smuggling(*framing: bytes) -> bytes:
    """A POST with ``framing`` headers whose chunked body is empty and then holds ``HIDDEN``."""
    return (b"POST /api/v1/matches HTTP/1.1\r\nHost: club\r\nContent-Type: application/json\r\n"
            + b"".join(line + b"\r\n" for line in framing) + b"\r\n0\r\n\r\n" + HIDDEN)


async def test_length_beside_chunked_is_refused_and_what_it_hid_never_runs(
        server: Server) -> None:
    length = str(len(b"0\r\n\r\n" + HIDDEN)).encode()
    problem = refused(everything_said(server, smuggling(
        b"Content-Length: " + length, b"Transfer-Encoding: chunked")))
    assert problem["status"] == 400
    assert problem["type"] == "about:blank"


async def test_refusal_is_said_in_the_requests_language(server: Server) -> None:
    problem = refused(everything_said(server, smuggling(
        b"Accept-Language: de", b"Transfer-Encoding: chunked", b"Content-Length: 5")))
    assert problem["language"] == "de"
    assert problem["title"] != "Bad Request"


@pytest.mark.parametrize("framing", [
    (b"Content-Length: 5", b"Content-Length: 6"),
    (b"Content-Length: 5, 6",),
    (b"Transfer-Encoding: gzip, chunked",),
    (b"Transfer-Encoding: chunked, gzip",),
    (b"Transfer-Encoding: chunked", b"Transfer-Encoding: chunked"),
], ids=["two-lengths", "two-lengths-in-one", "gzip-then-chunked", "chunked-not-last",
        "chunked-twice"])
async def test_a_length_not_said_exactly_once_is_refused(
        server: Server, framing: tuple[bytes, ...]) -> None:
    problem = refused(everything_said(server, smuggling(*framing)))
    assert problem["status"] == 400


async def test_one_length_said_twice_alike_is_read(server: Server) -> None:
    """RFC 9112 §6.3 lets a recipient take a list of one length repeated: it says one body."""
    answer = everything_said(server, b"GET /api/v1/health HTTP/1.1\r\nHost: club\r\n"
                             b"Content-Length: 0\r\nContent-Length: 0\r\nConnection: close\r\n\r\n")
    assert answer.startswith(b"HTTP/1.1 200 OK\r\n")
