"""What an event stream sends, byte for byte: a browser's ``EventSource`` fires a ``message``
event for every block with a ``data:`` line, even an empty one, so the comments that open the
stream and keep it alive must carry none."""

from __future__ import annotations

import pytest

from api.shared import requests
from api.shared.live import Change, MemoryBroker


async def version() -> int:
    return 3


async def test_the_stream_opens_with_a_bare_comment_then_the_version() -> None:
    broker = MemoryBroker()
    events = requests.change_events(broker, "m1", version)
    assert (await anext(events)).encode() == b": subscribed\r\n\r\n"
    assert (await anext(events)).encode() == b'event: current\r\ndata: {"version":3}\r\n\r\n'
    await broker.publish("m1", Change(4, "round_added", 2))
    assert (await anext(events)).encode() == (
        b'event: change\r\ndata: {"version":4,"action":"round_added","round":2}\r\n\r\n')
    await events.aclose()


async def test_a_quiet_stream_is_kept_alive_by_comments_a_browser_ignores(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(requests, "PING_SECONDS", 0.01)
    events = requests.change_events(MemoryBroker(), "m1", version)
    await anext(events)
    await anext(events)
    assert (await anext(events)).encode() == b": ping\r\n\r\n"
    await events.aclose()
