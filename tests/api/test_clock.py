"""The round clock of the contract (issue 27), on SQLite and PostgreSQL: start, pause, resume,
extend every table or one, each refusal, ``remaining_s`` counted from the server's time, the
clock in the tournament and the player's view and on the event stream, stored so that a second
app on the same database (a restart, another worker) answers the same clock."""

from __future__ import annotations

import asyncio
from datetime import UTC, datetime, timedelta
from typing import Any

from litestar import Litestar
from litestar.testing import AsyncTestClient
from sqlalchemy.ext.asyncio import AsyncSession, create_async_engine

from api.app import create_app
from api.server.settings import Settings
from api.tournaments.access import events_channel
from api.tournaments.models import TournamentRow
from tests.api.test_tournaments import (
    BASE,
    NAMES,
    bearer,
    confirm,
    enter,
    new_tournament,
    ok,
    register,
    result,
    start,
)
from tests.conftest import problem

Client = AsyncTestClient[Litestar]


async def clock(client: Client, tournament: dict[str, Any], body: dict[str, Any],
                token: str | None = None) -> Any:
    return await client.post(f"{BASE}/{tournament['id']}/clock", json=body,
                             headers=bearer(token or tournament["token"]))


def ends(answer: dict[str, Any]) -> datetime:
    return datetime.fromisoformat(answer["ends_at"])


async def playing(client: Client) -> dict[str, Any]:
    tournament = await new_tournament(client)
    await register(client, tournament, NAMES[:8])
    await start(client, tournament)
    return tournament


async def test_start_pause_resume_and_extend(client: Client) -> None:
    tournament = await playing(client)
    before = datetime.now(UTC)
    running = ok(await clock(client, tournament, {"action": "start", "minutes": 40}))
    assert running["state"] == "running"
    assert running["tables"] == {}
    assert before + timedelta(minutes=40) <= ends(running) <= datetime.now(UTC) + timedelta(
        minutes=40)
    assert 40 * 60 - 5 <= running["remaining_s"] <= 40 * 60
    # The server's time of the answer is ends_at - remaining_s, to the second.
    server_time = ends(running) - timedelta(seconds=running["remaining_s"])
    assert abs((server_time - datetime.now(UTC)).total_seconds()) < 5

    paused = ok(await clock(client, tournament, {"action": "pause"}))
    assert paused["state"] == "paused"
    assert paused["ends_at"] is None
    assert 40 * 60 - 5 <= paused["remaining_s"] <= 40 * 60
    problem(await clock(client, tournament, {"action": "pause"}), 409)
    longer = ok(await clock(client, tournament, {"action": "extend", "minutes": 5}))
    assert longer["remaining_s"] == paused["remaining_s"] + 300
    table = ok(await clock(client, tournament, {"action": "extend", "minutes": 2, "table": 2}))
    assert table["tables"] == {"2": {"ends_at": None,
                                     "remaining_s": longer["remaining_s"] + 120}}

    resumed = ok(await clock(client, tournament, {"action": "resume"}))
    assert resumed["state"] == "running"
    assert abs(resumed["remaining_s"] - longer["remaining_s"]) <= 2
    problem(await clock(client, tournament, {"action": "resume"}), 409)
    assert ends(resumed["tables"]["2"]) == ends(resumed) + timedelta(minutes=2)
    everyone = ok(await clock(client, tournament, {"action": "extend", "minutes": 5}))
    assert ends(everyone) == ends(resumed) + timedelta(minutes=5)
    assert ends(everyone["tables"]["2"]) == ends(resumed["tables"]["2"]) + timedelta(minutes=5)
    again = ok(await clock(client, tournament, {"action": "start", "minutes": 10}))
    assert again["tables"] == {}
    assert again["remaining_s"] <= 600


async def test_refusals_change_nothing(client: Client) -> None:
    tournament = await playing(client)
    for action in ("pause", "resume"):
        problem(await clock(client, tournament, {"action": action}), 409)
    problem(await clock(client, tournament, {"action": "extend", "minutes": 5}), 409)
    for minutes in (0, -5, 601, 10**6):
        body = problem(await clock(client, tournament, {"action": "start", "minutes": minutes}),
                       422)
        assert body["errors"][0]["path"] == "minutes"
    problem(await clock(client, tournament, {"action": "start"}), 422)
    ok(await clock(client, tournament, {"action": "start", "minutes": 30}))
    for table in (0, 3, 99):
        body = problem(await clock(client, tournament, {"action": "extend", "minutes": 5,
                                                         "table": table}), 422)
        assert body["errors"][0]["path"] == "table"
    problem(await clock(client, tournament, {"action": "stop"}), 400)
    problem(await clock(client, tournament, {"action": "start", "minutes": "5"}), 400)
    problem(await clock(client, tournament, {"action": "start", "minutes": 5, "x": 1}), 400)
    problem(await client.post(f"{BASE}/{tournament['id']}/clock",
                              json={"action": "pause"}), 401)
    for token in ("wrong", tournament["view_token"]):
        problem(await clock(client, tournament, {"action": "pause"}, token), 403)
    problem(await clock(client, {"id": "nope", "token": "x"}, {"action": "pause"}), 404)
    view = ok(await client.get(f"{BASE}/{tournament['id']}"))
    assert view["clock"]["state"] == "running"
    assert 29 * 60 <= view["clock"]["remaining_s"] <= 30 * 60


async def test_a_clock_that_ran_out_says_zero_and_extends_from_now(
    client: Client, settings: Settings,
) -> None:
    tournament = await playing(client)
    ok(await clock(client, tournament, {"action": "start", "minutes": 1}))
    # Moved to a minute ago by hand: the test cannot wait a minute.
    await _shift_clock(settings, tournament["id"], timedelta(minutes=-2))
    view = ok(await client.get(f"{BASE}/{tournament['id']}"))
    assert view["clock"]["state"] == "running"
    assert view["clock"]["remaining_s"] == 0
    assert view["status"] == "running"  # the round does not end by itself
    extended = ok(await clock(client, tournament, {"action": "extend", "minutes": 5}))
    assert 295 <= extended["remaining_s"] <= 300
    one = ok(await clock(client, tournament, {"action": "extend", "minutes": 1, "table": 1}))
    assert 355 <= one["tables"]["1"]["remaining_s"] <= 360


async def _shift_clock(settings: Settings, tournament_id: str, by: timedelta) -> None:
    """The stored clock moved, behind the API (its own connection: the app runs on another
    loop); the version too, as kept answers go by version."""
    engine = create_async_engine(settings.database_url)
    try:
        async with AsyncSession(engine) as session:
            row = await session.get(TournamentRow, tournament_id)
            assert row is not None
            stored = dict(row.clock)
            stored["ends_at"] = (datetime.fromisoformat(stored["ends_at"]) + by).isoformat()
            row.clock = stored
            row.version += 1
            await session.commit()
    finally:
        await engine.dispose()


async def test_a_second_app_on_the_same_database_shows_the_same_clock(
    client: Client, settings: Settings,
) -> None:
    tournament = await playing(client)
    started = ok(await clock(client, tournament, {"action": "start", "minutes": 25}))
    ok(await clock(client, tournament, {"action": "extend", "minutes": 3, "table": 1}))
    async with AsyncTestClient(app=create_app(settings)) as other:
        seen = ok(await other.get(f"{BASE}/{tournament['id']}"))["clock"]
        assert seen["state"] == "running"
        assert seen["ends_at"] == started["ends_at"]
        assert ends(seen["tables"]["1"]) == ends(started) + timedelta(minutes=3)
        paused = ok(await clock(other, tournament, {"action": "pause"}))
    assert ok(await client.get(f"{BASE}/{tournament['id']}"))["clock"]["remaining_s"] == \
        paused["remaining_s"]


async def test_the_clock_is_in_the_player_view_and_on_the_event_stream(client: Client) -> None:
    tournament = await playing(client)
    version = ok(await client.get(f"{BASE}/{tournament['id']}"))["version"]
    broker = client.app.state.broker
    async with broker.subscribe(events_channel(tournament["id"])) as queue:
        ok(await clock(client, tournament, {"action": "start", "minutes": 30}))
        while (change := await asyncio.wait_for(queue.get(), 30)).version <= version:
            pass
    assert change.action == "clock"
    assert change.version == version + 1
    view = ok(await client.get(f"{BASE}/{tournament['id']}/players/1"))
    assert view["clock"]["state"] == "running"
    assert view["version"] == version + 1
    # A new round stops the clock: the last round's time is not the new round's.
    await start_next(client, tournament)
    assert ok(await client.get(f"{BASE}/{tournament['id']}"))["clock"]["state"] == "stopped"


async def start_next(client: Client, tournament: dict[str, Any]) -> None:
    view = ok(await client.get(f"{BASE}/{tournament['id']}", headers=bearer(tournament["token"])))
    tokens = ok(await client.get(f"{BASE}/{tournament['id']}/rounds/1/tokens",
                                 headers=bearer(tournament["token"])))
    for table in tokens["tables"]:
        ok(await enter(client, table, result(4, 0)), 201)
        ok(await confirm(client, tournament, 1, table["table"], table["table_token"]))
    assert view["current_round"] == 1
    await start(client, tournament)


async def test_a_tables_phone_reads_the_clock_of_a_private_tournament(client: Client) -> None:
    tournament = await new_tournament(client, private=True, check_in=True, warn_minutes=4)
    await register(client, tournament, NAMES[:3])
    player = ok(await client.post(f"{BASE}/{tournament['id']}/check-in", json={
        "code": tournament["check_in_code"], "name": NAMES[3]}), 201)
    started = await start(client, tournament)
    ok(await clock(client, tournament, {"action": "start", "minutes": 20}))
    url = f"{BASE}/{tournament['id']}/clock"
    for token in (started["tables"][0]["table_token"], player["player_token"],
                  tournament["view_token"], tournament["token"]):
        seen = ok(await client.get(url, headers=bearer(token)))
        assert seen["state"] == "running"
        assert seen["warn_minutes"] == 4
        assert seen["version"] == ok(await client.get(
            f"{BASE}/{tournament['id']}", headers=bearer(tournament["token"])))["version"]
    problem(await client.get(url), 401)
    other = await new_tournament(client)
    for wrong in ("wrong", other["token"]):
        problem(await client.get(url, headers=bearer(wrong)), 403)
    public = await new_tournament(client)
    assert ok(await client.get(f"{BASE}/{public['id']}/clock"))["state"] == "stopped"
    problem(await client.get(f"{BASE}/nope/clock"), 404)
