"""What an event stream sends, byte for byte: a browser's ``EventSource`` fires a ``message``
event for every block with a ``data:`` line, even an empty one, so the comments that open the
stream and keep it alive must carry none."""

from __future__ import annotations

import asyncio
import json

import pytest

from api.server.settings import Settings
from api.shared import live, requests
from api.shared.live import Change, MemoryBroker

PING = Settings().event_ping


async def version() -> int:
    return 3


async def test_the_stream_opens_with_a_bare_comment_then_the_version() -> None:
    broker = MemoryBroker()
    events = requests.change_events(broker, "m1", version, ping=PING)
    assert (await anext(events)).encode() == b": subscribed\r\n\r\n"
    assert (await anext(events)).encode() == b'event: current\r\ndata: {"version":3}\r\n\r\n'
    await broker.publish("m1", Change(4, "round_added", 2))
    assert (await anext(events)).encode() == (
        b'event: change\r\ndata: {"version":4,"action":"round_added","round":2}\r\n\r\n')
    await events.aclose()


async def test_a_quiet_stream_is_kept_alive_by_comments_a_browser_ignores() -> None:
    events = requests.change_events(MemoryBroker(), "m1", version, ping=0.01)
    await anext(events)
    await anext(events)
    assert (await anext(events)).encode() == b": ping\r\n\r\n"
    await events.aclose()


class FakeSocket:
    def __init__(self) -> None:
        self.written: list[bytes] = []
        self.closing = False

    def write(self, data: bytes) -> None:
        self.written.append(data)

    def is_closing(self) -> bool:
        return self.closing


async def test_once_handed_over_a_stream_s_socket_gets_each_change_from_the_broker() -> None:
    """The broker writes the same bytes to every socket, encoded once, framed as a chunk of an
    HTTP/1.1 answer (or plain for HTTP/1.0); a change heard before the hand-over is sent by the
    stream first, in order, and a closed socket is written no more."""
    broker = MemoryBroker()
    chunked, plain, closed = FakeSocket(), FakeSocket(), FakeSocket()
    streams = [requests.change_events(broker, "t1", version, (socket, socket is not plain),
                                      ping=PING)
               for socket in (chunked, plain, closed)]
    for events in streams:
        await anext(events)
        await anext(events)
    await broker.publish("t1", Change(4, "table_round_added", 1))  # before any hand-over
    heard = [await anext(events) for events in streams]
    assert {event.encode() for event in heard} == {
        b'event: change\r\ndata: {"version":4,"action":"table_round_added","round":1}\r\n\r\n'}
    # Each stream hands its socket over while it waits for the next change.
    waiting = [asyncio.ensure_future(anext(events)) for events in streams]
    await asyncio.sleep(0)
    closed.closing = True
    await broker.publish("t1", Change(5, "table_confirmed", 1))
    event = b'event: change\r\ndata: {"version":5,"action":"table_confirmed","round":1}\r\n\r\n'
    assert plain.written == [event]
    assert chunked.written == [b"%x\r\n%b\r\n" % (len(event), event)]
    assert closed.written == []
    assert not any(task.done() for task in waiting)  # nothing for the streams to send
    for task in waiting:  # a stream ends as when its client goes: cancelled
        task.cancel()
    await asyncio.gather(*waiting, return_exceptions=True)
    await broker.publish("t1", Change(6, "table_confirmed", 1))
    assert len(chunked.written) == 1  # unsubscribed with its stream


async def test_changes_close_together_reach_a_handed_over_socket_as_the_newest(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A change alone is written at once; those that follow within the spacing are held and
    only the newest (the highest version, whatever order they came in) is written, at its end:
    a burst of writes costs a few fan-outs, and no follower is left behind."""
    monkeypatch.setattr(live, "FAN_OUT_SECONDS", 0.05)
    broker = MemoryBroker()
    socket = FakeSocket()
    events = requests.change_events(broker, "t1", version, (socket, False), ping=PING)
    await anext(events)
    await anext(events)
    waiting = asyncio.ensure_future(anext(events))  # hands its socket over
    await asyncio.sleep(0)

    def versions() -> list[int]:
        return [json.loads(written.split(b"data: ")[1])["version"] for written in socket.written]

    await broker.publish("t1", Change(4, "table_round_added", 1))
    assert versions() == [4]
    for number in (6, 5, 7, 5):
        await broker.publish("t1", Change(number, "table_round_added", 1))
    assert versions() == [4]
    await asyncio.sleep(0.1)
    assert versions() == [4, 7]
    await asyncio.sleep(0.1)  # past the spacing: the next change alone goes at once
    await broker.publish("t1", Change(8, "table_confirmed", 1))
    assert versions() == [4, 7, 8]
    waiting.cancel()
    await asyncio.gather(waiting, return_exceptions=True)
