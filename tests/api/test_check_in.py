"""Check-in by the tournament's code, the player token, and paid players (issue 27), on SQLite and
PostgreSQL: who sees the code, every refusal of a check-in, what the player token reads and that
it writes nothing, the player's view when a round starts, and the backup keeping it all."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

import pytest
from litestar import Litestar
from litestar.testing import AsyncTestClient
from sqlalchemy.ext.asyncio import AsyncSession, create_async_engine

from api.app import create_app
from api.edge.problems import Forbidden
from api.server.settings import Settings
from api.tournaments import service
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


async def check_in(client: Client, tournament: dict[str, Any], name: str, club: str | None = None,
                   code: str | None = None) -> Any:
    body: dict[str, Any] = {"code": tournament["check_in_code"] if code is None else code,
                            "name": name}
    if club is not None:
        body["club"] = club
    return await client.post(f"{BASE}/{tournament['id']}/check-in", json=body)


async def test_a_tournament_with_check_in_shows_its_code_to_the_organiser_only(
    client: Client,
) -> None:
    tournament = await new_tournament(client, check_in=True, private=True)
    code = tournament["check_in_code"]
    assert isinstance(code, str)
    assert len(code) >= 8
    assert tournament["check_in"] is True
    assert tournament["warn_minutes"] == 5
    tid = tournament["id"]
    organiser = ok(await client.get(f"{BASE}/{tid}", headers=bearer(tournament["token"])))
    assert organiser["check_in_code"] == code
    viewer = ok(await client.get(f"{BASE}/{tid}", headers=bearer(tournament["view_token"])))
    assert viewer["check_in_code"] is None
    assert code not in (await client.get(f"{BASE}/{tid}/export?format=json",
                                         headers=bearer(tournament["view_token"]))).text
    plain = await new_tournament(client)
    assert plain["check_in"] is False
    assert plain["check_in_code"] is None
    problem(await check_in(client, plain, "Ann", code="anything"), 403)


async def test_a_player_checks_in_once_and_gets_a_token(client: Client) -> None:
    tournament = await new_tournament(client, check_in=True)
    checked = ok(await check_in(client, tournament, "  Ann ", "Bern"), 201)
    assert checked["player"] == {"id": 1, "name": "Ann", "club": "Bern", "active": True,
                                 "paid": False}
    assert len(checked["player_token"]) >= 32
    for same in ("ann", " ANN  "):
        problem(await check_in(client, tournament, same), 409)
    problem(await check_in(client, tournament, "Bea", code="wrong-code"), 403)
    problem(await check_in(client, tournament, "Bea", code=""), 403)
    problem(await check_in(client, tournament, "Bea", code="wröng"), 403)
    for bad, field in (({"name": "   "}, "name"), ({"name": "Bea\u0000"}, "name"),
                       ({"name": "Bea", "club": "x" * 61}, "club")):
        body = {"code": tournament["check_in_code"], **bad}
        response = await client.post(f"{BASE}/{tournament['id']}/check-in", json=body)
        assert response.status_code in (400, 422), response.text
        assert any(e["path"] == field for e in response.json()["errors"]), response.text
    problem(await client.post(f"{BASE}/{tournament['id']}/check-in",
                              json={"code": tournament["check_in_code"]}), 400)
    problem(await client.post(f"{BASE}/nope/check-in",
                              json={"code": "x", "name": "Bea"}), 404)
    view = ok(await client.get(f"{BASE}/{tournament['id']}", headers=bearer(tournament["token"])))
    assert [p["name"] for p in view["players"]] == ["Ann"]


async def test_check_in_closes_with_round_1_unless_late_check_in(client: Client) -> None:
    closed = await new_tournament(client, check_in=True)
    late = await new_tournament(client, check_in=True, late_check_in=True)
    for tournament in (closed, late):
        for name in NAMES[:4]:
            ok(await check_in(client, tournament, name), 201)
        await start(client, tournament)
    problem(await check_in(client, closed, "Zoe"), 409)
    zoe = ok(await check_in(client, late, "Zoe"), 201)["player"]
    # The organiser can still add a late entry to either.
    await register(client, closed, ["Yan"])
    view = ok(await client.get(f"{BASE}/{late['id']}/players/{zoe['id']}",
                               headers=bearer(late["token"])))
    assert view["current"] is None  # plays from the next round


@pytest.fixture
async def unlimited(settings: Settings) -> Any:
    async with AsyncTestClient(app=create_app(replace(settings, auth_failures_per_minute=0))) \
            as test_client:
        yield test_client


async def test_a_player_token_reads_its_own_view_and_writes_nothing(
    unlimited: Client, settings: Settings,
) -> None:
    client = unlimited
    tournament = await new_tournament(client, check_in=True, private=True, rounds=1)
    tokens = {}
    for name in NAMES[:4]:
        checked = ok(await check_in(client, tournament, name), 201)
        tokens[checked["player"]["id"]] = checked["player_token"]
    tid = tournament["id"]
    ann = bearer(tokens[1])
    ok(await client.get(f"{BASE}/{tid}/players/1", headers=ann))
    problem(await client.get(f"{BASE}/{tid}/players/2", headers=ann), 403)
    problem(await client.get(f"{BASE}/{tid}/players/1"), 401)
    for path in ("", "/standings", "/export", "/backup", "/rounds/1/tokens"):
        problem(await client.get(f"{BASE}/{tid}{path}", headers=ann), 403)
    started = await start(client, tournament)
    table = started["tables"][0]
    writes: list[tuple[str, str, Any]] = [
        ("post", f"{BASE}/{tid}/players", {"name": "Zoe"}),
        ("patch", f"{BASE}/{tid}/players/1", {"paid": True}),
        ("post", f"{BASE}/{tid}/rounds", None),
        ("post", f"{BASE}/{tid}/clock", {"action": "start", "minutes": 30}),
        ("post", f"{BASE}/{tid}/rounds/1/tables/1/confirm", None),
        ("post", f"{BASE}/{tid}/rounds/1/tables/1/phones", None),
        ("post", f"/api/v1/matches/{table['match_id']}/rounds", result(4, 0)),
    ]
    for method, url, body in writes:
        kwargs: dict[str, Any] = {"json": body} if body is not None else {}
        problem(await getattr(client, method)(url, headers=ann, **kwargs), 403)
    # The events of a private tournament follow with the player's token (asked of the check the
    # endpoint makes: an event stream that is allowed never ends).
    engine = create_async_engine(settings.database_url)
    try:
        async with AsyncSession(engine) as session:
            await service.events_readable(session, tid, f"Bearer {tokens[1]}")
            with pytest.raises(Forbidden):
                await service.events_readable(session, tid, "Bearer wrong")
    finally:
        await engine.dispose()
    problem(await client.get(f"{BASE}/{tid}/events", headers=bearer("wrong")), 403)


async def test_the_player_view_says_table_seat_who_sits_where_and_who_deals(
    client: Client,
) -> None:
    tournament = await new_tournament(client, check_in=True, rounds=2, warn_minutes=3)
    tokens = {}
    for name in NAMES[:8]:
        checked = ok(await check_in(client, tournament, name), 201)
        tokens[checked["player"]["id"]] = checked["player_token"]
    tid = tournament["id"]
    before = ok(await client.get(f"{BASE}/{tid}/players/5", headers=bearer(tokens[5])))
    assert before["current"] is None
    assert before["tournament_name"] == "Club night"
    assert before["warn_minutes"] == 3
    assert before["clock"] == {"state": "stopped", "ends_at": None, "remaining_s": 0,
                               "tables": {}}
    started = await start(client, tournament)
    table = next(t for t in started["tables"] if 5 in t["players"])
    view = ok(await client.get(f"{BASE}/{tid}/players/5", headers=bearer(tokens[5])))
    seat = table["players"].index(5)
    assert view["current"]["table"] == table["table"]
    assert view["current"]["seat"] == seat
    assert [s["name"] for s in view["current"]["seats"]] == [NAMES[p - 1]
                                                            for p in table["players"]]
    assert view["current"]["dealer"] == 3
    ok(await enter(client, table, result(4, seat)), 201)
    ok(await confirm(client, tournament, 1, table["table"], table["table_token"]))
    after = ok(await client.get(f"{BASE}/{tid}/players/5", headers=bearer(tokens[5])))
    assert after["tables"][0]["place"] == 1
    assert after["standing"]["rank"] == 1
    assert after["version"] > view["version"]


async def test_the_organiser_marks_players_paid_and_the_backup_keeps_it(client: Client) -> None:
    tournament = await new_tournament(client, check_in=True, late_check_in=True, warn_minutes=2)
    await register(client, tournament, NAMES[:3])
    tid = tournament["id"]
    auth = bearer(tournament["token"])
    paid = ok(await client.patch(f"{BASE}/{tid}/players/2", json={"paid": True}, headers=auth))
    assert paid["paid"] is True
    problem(await client.patch(f"{BASE}/{tid}/players/2", json={"paid": "yes"}, headers=auth), 400)
    view = ok(await client.get(f"{BASE}/{tid}", headers=auth))
    assert [p["paid"] for p in view["players"]] == [False, True, False]
    saved = ok(await client.get(f"{BASE}/{tid}/backup", headers=auth))
    assert saved["tournament"]["check_in"] is True
    assert saved["tournament"]["late_check_in"] is True
    assert saved["tournament"]["warn_minutes"] == 2
    assert [p["paid"] for p in saved["players"]] == [False, True, False]
    assert tournament["check_in_code"] not in str(saved)
    restored = ok(await client.post(f"{BASE}/import", json=saved), 201)
    assert [p["paid"] for p in restored["players"]] == [False, True, False]
    assert restored["check_in"] is True
    assert restored["warn_minutes"] == 2
    assert restored["check_in_code"] not in (None, tournament["check_in_code"])
    assert restored["clock"]["state"] == "stopped"


async def test_a_check_in_moves_the_tournament_to_a_new_version(client: Client) -> None:
    tournament = await new_tournament(client, check_in=True)
    before = ok(await client.get(f"{BASE}/{tournament['id']}"))["version"]
    ok(await check_in(client, tournament, "Ann"), 201)
    after = ok(await client.get(f"{BASE}/{tournament['id']}"))
    assert after["version"] == before + 1
    assert after["players"][0]["name"] == "Ann"


@pytest.mark.parametrize("language", ["de", "fr", "it"])
async def test_every_refusal_of_a_check_in_is_said_in_the_phones_language_at_its_field(
    unlimited: Client, language: str,
) -> None:
    """A wrong code (403), a name taken (409) and a check-in closed (409) in German, French and
    Italian, never in English, each naming the field the check-in form shows it at; the same
    paths and codes as in English."""
    client = unlimited
    tournament = await new_tournament(client, check_in=True)
    ok(await check_in(client, tournament, "Ann"), 201)
    for name in NAMES[1:4]:
        ok(await check_in(client, tournament, name), 201)
    url = f"{BASE}/{tournament['id']}/check-in"

    async def refused(status: int, said_in: str, **body: str) -> dict[str, Any]:
        sent = {"code": tournament["check_in_code"], "name": "Zoe", **body}
        return problem(await client.post(url, json=sent, headers={"Accept-Language": said_in}),
                       status)

    async def both(status: int, path: str, rule: str, **body: str) -> None:
        english, said = await refused(status, "en", **body), await refused(status, language,
                                                                             **body)
        assert [(e["path"], e["code"]) for e in said["errors"]] == [(path, rule)], said
        assert [(e["path"], e["code"]) for e in english["errors"]] == [(path, rule)], english
        for key in ("title", "detail"):
            assert said[key] != english[key], (key, said)
        assert said["errors"][0]["message"] != english["errors"][0]["message"]
        assert said["errors"][0]["message"] == said["detail"]

    await both(403, "code", "wrong_code", code="wrong-code")
    await both(409, "name", "duplicate_name", name=" ann ")
    await start(client, tournament)
    await both(409, "code", "check_in_closed")
