"""The authorisation matrix: every write endpoint of the served OpenAPI schema, tried with every
kind of wrong credential, is refused (401/403) and changes nothing; the right credential works.

A new write endpoint without a rule here fails ``test_every_write_endpoint_has_a_rule``: whoever
adds one decides who may call it. Intentionally open endpoints are listed with that decision.
"""

from __future__ import annotations

from collections.abc import AsyncIterator, Awaitable, Callable
from dataclasses import dataclass, replace
from typing import Any

import pytest
from litestar import Litestar
from litestar.testing import AsyncTestClient

from api.app import create_app
from api.server.settings import Settings

Client = AsyncTestClient[Litestar]
Snapshot = Callable[[], Awaitable[dict[str, list[tuple[Any, ...]]]]]
WRITE_METHODS = ("post", "put", "patch", "delete")
NAMES = ["Ann", "Bea", "Cem", "Dan", "Eva", "Fay", "Gus", "Hal"]
M = "/api/v1/matches"
T = "/api/v1/tournaments"
C = "/api/v1/clubs"


def bearer(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


def tschau(winner: int, points: int, seats: int) -> dict[str, Any]:
    # From 6 up every number of points is a hand's worth under the face table.
    return {"winner": winner,
            "penalty": [0 if s == winner else 6 + points + s for s in range(seats)]}


@dataclass
class World:
    """Two plain matches, a running tournament (two tables, table 2 decided, neither confirmed)
    and a second tournament still registering players, each with its own tokens."""

    a: dict[str, Any]
    b: dict[str, Any]
    running: dict[str, Any]
    registering: dict[str, Any]
    tables: list[dict[str, Any]]
    player_id: int  # the running tournament's first player
    backup: dict[str, Any]
    club: dict[str, Any]  # members 1 Ann, 2 Bea played a club match; 3 Cem, 4 Dan, 5 Eva another
    other_club: dict[str, Any]
    club_match: dict[str, Any]  # Cem, Dan and Eva's, after one of its two games
    club_backup: dict[str, Any]
    player_token: str  # a player who checked in late to the running tournament: reads only
    pad: dict[str, Any]  # a score pad after one round: it ends when finished
    pad_tournament: dict[str, Any]  # of a pad without an end: two tables, one round each
    pad_tables: list[dict[str, Any]]
    club_pad: dict[str, Any]  # the club's pad after one round


async def ok(answer: Awaitable[Any], status: int) -> Any:
    response = await answer
    assert response.status_code == status, response.text
    return response.json()


async def build(client: Client) -> World:
    matches = [await ok(client.post(M, json={"game": "tschau-sepp", "players": NAMES[:3],
                                             "options": {"games": 100}}), 201) for _ in "ab"]
    for n in range(2):
        await ok(client.post(f"{M}/{matches[0]['id']}/rounds", json=tschau(n, 3, 3),
                             headers=bearer(matches[0]["token"])), 201)
    tournaments, player_ids = [], []
    for _ in range(2):
        tournament = await ok(client.post(T, json={
            "name": "Club night", "game": "tschau-sepp", "options": {"games": 2}, "rounds": 2,
            "table_size": 4, "seating": "random", "seed": 1, "check_in": True,
            "late_check_in": True}), 201)
        for name in NAMES:
            player = await ok(client.post(f"{T}/{tournament['id']}/players", json={"name": name},
                                          headers=bearer(tournament["token"])), 201)
            player_ids.append(player["id"])
        tournaments.append(tournament)
    running, registering = tournaments
    started = await ok(client.post(f"{T}/{running['id']}/rounds",
                                   headers=bearer(running["token"])), 201)
    tables = started["tables"]
    checked_in = await ok(client.post(f"{T}/{running['id']}/check-in", json={
        "code": running["check_in_code"], "name": "Zed"}), 201)
    for number, table in enumerate(tables, start=1):
        for game in range(number):  # table 1 plays one game of two, table 2 both
            await ok(client.post(f"{M}/{table['match_id']}/rounds", json=tschau(game, 2, 4),
                                 headers={**bearer(table["table_token"]),
                                          "X-Device-Id": f"enter-{number}"}), 201)
    backup = await ok(client.get(f"{T}/{running['id']}/backup",
                                 headers=bearer(running["token"])), 200)
    clubs = [await ok(client.post(C, json={"name": name}), 201) for name in ("Club", "Other")]
    club_matches = []
    for players in (NAMES[:2], NAMES[2:5]):
        club_match = await ok(client.post(M, json={
            "game": "tschau-sepp", "players": players, "options": {"games": 2},
            "club": clubs[0]["id"]}, headers=bearer(clubs[0]["token"])), 201)
        await ok(client.post(f"{M}/{club_match['id']}/rounds", json=tschau(0, 3, len(players)),
                             headers=bearer(club_match["token"])), 201)
        club_matches.append(club_match)
    club_backup = await ok(client.get(f"{C}/{clubs[0]['id']}/backup",
                                      headers=bearer(clubs[0]["token"])), 200)
    pad = await ok(client.post(M, json={"game": "score-pad", "players": NAMES[:2],
                                        "options": {"title": "Jass"}}), 201)
    await ok(client.post(f"{M}/{pad['id']}/rounds", json={"points": [57, 100]},
                         headers=bearer(pad["token"])), 201)
    pad_tournament = await ok(client.post(T, json={
        "name": "Jass night", "game": "score-pad", "options": {"title": "Jass"}, "rounds": 1,
        "table_size": 4, "seating": "random", "seed": 1}), 201)
    for name in NAMES:
        await ok(client.post(f"{T}/{pad_tournament['id']}/players", json={"name": name},
                             headers=bearer(pad_tournament["token"])), 201)
    pad_tables = (await ok(client.post(f"{T}/{pad_tournament['id']}/rounds",
                                       headers=bearer(pad_tournament["token"])), 201))["tables"]
    for table in pad_tables:
        await ok(client.post(f"{M}/{table['match_id']}/rounds", json={"points": [1, 2, 3, 4]},
                             headers=bearer(table["table_token"])), 201)
    club_pad = await ok(client.post(M, json={
        "game": "score-pad", "players": NAMES[:2], "options": {"title": "Jass"},
        "club": clubs[0]["id"]}, headers=bearer(clubs[0]["token"])), 201)
    await ok(client.post(f"{M}/{club_pad['id']}/rounds", json={"points": [57, 100]},
                         headers=bearer(club_pad["token"])), 201)
    return World(matches[0], matches[1], running, registering, tables, player_ids[0], backup,
                 clubs[0], clubs[1], club_matches[1], club_backup, checked_in["player_token"],
                 pad, pad_tournament, pad_tables, club_pad)


@dataclass(frozen=True, slots=True)
class Call:
    path: str
    body: Any = None
    headers: dict[str, str] | None = None


@dataclass(frozen=True, slots=True)
class Rule:
    """Who may call an endpoint, a valid call per target, and the right token for it."""

    decision: str
    calls: Callable[[World], list[tuple[Call, str, dict[str, str]]]]
    """Per target: the call, the right token, and the wrong credentials by name."""
    success: int


def refusals(world: World, own_view: str, **extra: str) -> dict[str, str]:
    """Wrong credentials everyone may try (header values; empty string: no header at all)."""
    return {
        "no token": "",
        "malformed: no scheme": world.a["token"],
        "malformed: Basic": "Basic QW5uOnNlY3JldA==",
        "malformed: empty bearer": "Bearer ",
        "malformed: oversized": "Bearer " + "x" * 300,
        "another match's token": f"Bearer {world.b['token']}",
        "another table's token": f"Bearer {world.tables[1]['table_token']}",
        "read-only view token": f"Bearer {own_view}",
        "another tournament's organiser token": f"Bearer {world.registering['token']}",
        "a player's token (reads only)": f"Bearer {world.player_token}",
        **{name: f"Bearer {value}" for name, value in extra.items()},
    }


def match_targets(tail: str, body: Callable[[int], Any], headers: dict[str, str] | None = None,
                  ) -> Callable[[World], list[tuple[Call, str, dict[str, str]]]]:
    """A plain match and a tournament table's match (table 1), each with its own wrong tokens."""
    def calls(world: World) -> list[tuple[Call, str, dict[str, str]]]:
        table = world.tables[0]
        plain = refusals(world, world.a["view_token"])
        at_table = refusals(world, world.running["view_token"])
        at_table["another match's token"] = f"Bearer {world.a['token']}"
        of_club = refusals(world, world.club["view_token"], **{
            "another club's token": world.other_club["token"]})
        return [
            (Call(f"{M}/{world.a['id']}{tail}", body(3), headers), world.a["token"], plain),
            (Call(f"{M}/{table['match_id']}{tail}", body(4), headers), table["table_token"],
             at_table),
            (Call(f"{M}/{world.club_match['id']}{tail}", body(3), headers),
             world.club["token"], of_club),
        ]
    return calls


def club_target(path: Callable[[World], str], body: Any = None,
                ) -> Callable[[World], list[tuple[Call, str, dict[str, str]]]]:
    """The club's own token only: its view token reads, another club's token is another's."""
    def calls(world: World) -> list[tuple[Call, str, dict[str, str]]]:
        wrong = refusals(world, world.club["view_token"], **{
            "another club's token": world.other_club["token"],
            "a club match's own token": world.club_match["token"]})
        return [(Call(path(world), body), world.club["token"], wrong)]
    return calls


def organiser_target(path: Callable[[World], str], body: Any = None,
                     tournament: str = "running",
                     ) -> Callable[[World], list[tuple[Call, str, dict[str, str]]]]:
    def calls(world: World) -> list[tuple[Call, str, dict[str, str]]]:
        own = getattr(world, tournament)
        other = world.running if own is world.registering else world.registering
        wrong = refusals(world, own["view_token"],
                         **{"a table token (organiser only)": world.tables[0]["table_token"]})
        wrong["another tournament's organiser token"] = f"Bearer {other['token']}"
        return [(Call(path(world), body), own["token"], wrong)]
    return calls


def confirm_target(world: World) -> list[tuple[Call, str, dict[str, str]]]:
    """Table 2 is decided; its own token (from another phone) or the organiser may confirm."""
    path = f"{T}/{world.running['id']}/rounds/1/tables/2/confirm"
    wrong = refusals(world, world.running["view_token"])
    wrong["another table's token"] = f"Bearer {world.tables[0]['table_token']}"
    return [(Call(path, headers={"X-Device-Id": "confirm-2"}), world.tables[1]["table_token"],
             wrong)]


def finish_targets(world: World) -> list[tuple[Call, str, dict[str, str]]]:
    """A pad with its own token; a pad tournament's table 1 with that table's token and table 2
    with the organiser's (each refusing the other table's token); the club's pad with the club
    token (its owner's)."""
    first, second = world.pad_tables
    at_tables = []
    for table, token, other in ((first, first["table_token"], second),
                                (second, world.pad_tournament["token"], first)):
        wrong = refusals(world, world.pad_tournament["view_token"], **{
            "the other table's token": other["table_token"]})
        wrong["another match's token"] = f"Bearer {world.pad['token']}"
        at_tables.append((Call(f"{M}/{table['match_id']}/finish"), token, wrong))
    of_club = refusals(world, world.club["view_token"], **{
        "another club's token": world.other_club["token"]})
    return [
        (Call(f"{M}/{world.pad['id']}/finish"), world.pad["token"],
         refusals(world, world.pad["view_token"])),
        *at_tables,
        (Call(f"{M}/{world.club_pad['id']}/finish"), world.club["token"], of_club),
    ]


def phone_target(world: World) -> list[tuple[Call, str, dict[str, str]]]:
    path = f"{T}/{world.running['id']}/rounds/1/tables/1/phones"
    wrong = refusals(world, world.running["view_token"], **{
        "the organiser's token (a phone needs the table's)": world.running["token"]})
    return [(Call(path), world.tables[0]["table_token"], wrong)]


def open_target(path: Callable[[World], str], body: Callable[[World], Any],
                ) -> Callable[[World], list[tuple[Call, str, dict[str, str]]]]:
    def calls(world: World) -> list[tuple[Call, str, dict[str, str]]]:
        return [(Call(path(world), body(world)), "", {})]
    return calls


OPEN = "open"
MATRIX: dict[tuple[str, str], Rule] = {
    ("POST", M): Rule(
        f"{OPEN}: anyone may start a match; the answer holds its new tokens, shown once",
        open_target(lambda w: M, lambda w: {"game": "tschau-sepp", "players": NAMES[:2]}), 201),
    ("POST", f"{M}/{{match_id}}/guide"): Rule(
        f"{OPEN}: the guide only reads (public match; a private one needs a read token) and "
        "stores nothing",
        open_target(lambda w: f"{M}/{w.a['id']}/guide", lambda w: {"winner": 0}), 200),
    ("POST", f"{M}/{{match_id}}/rounds"): Rule(
        "the match's write token, a table's token for its own match, or the organiser's",
        match_targets("/rounds", lambda seats: tschau(1, 9, seats)), 201),
    ("PUT", f"{M}/{{match_id}}/rounds/{{number}}"): Rule(
        "the match's write token, a table's token for its own match, or the organiser's",
        match_targets("/rounds/1", lambda seats: tschau(2, 7, seats)), 200),
    ("DELETE", f"{M}/{{match_id}}/rounds/{{number}}"): Rule(
        "the match's write token, a table's token for its own match, or the organiser's",
        lambda world: [
            (Call(f"{M}/{world.a['id']}/rounds/2"), world.a["token"],
             refusals(world, world.a["view_token"])),
            *match_targets("/rounds/1", lambda seats: None)(world)[1:],
        ], 204),
    ("POST", f"{M}/{{match_id}}/finish"): Rule(
        "the match's write token, a table's token for its own match, or its owner's (the "
        "organiser's, the club's), as for its rounds",
        finish_targets, 200),
    ("POST", C): Rule(
        f"{OPEN}: anyone may found a club; the answer holds its token and view token, once",
        open_target(lambda w: C, lambda w: {"name": "Another club"}), 201),
    ("POST", f"{C}/import"): Rule(
        f"{OPEN}: importing a club's backup creates a new club with new ids and tokens; it "
        "cannot touch an existing one",
        open_target(lambda w: f"{C}/import", lambda w: w.club_backup), 201),
    ("PATCH", f"{C}/{{club_id}}"): Rule(
        "the club token only",
        club_target(lambda w: f"{C}/{w.club['id']}", {"name": "Renamed"}), 200),
    ("PATCH", f"{C}/{{club_id}}/players/{{member_id}}"): Rule(
        "the club token only",
        club_target(lambda w: f"{C}/{w.club['id']}/players/2", {"name": "Beatrice"}), 200),
    ("POST", f"{C}/{{club_id}}/players/{{member_id}}/merge"): Rule(
        "the club token only",
        club_target(lambda w: f"{C}/{w.club['id']}/players/1/merge", {"into": 3}), 200),
    ("DELETE", f"{C}/{{club_id}}/players/{{member_id}}"): Rule(
        "the club token only",
        club_target(lambda w: f"{C}/{w.club['id']}/players/4"), 204),
    ("POST", f"{C}/{{club_id}}/players"): Rule(
        "the club token only",
        club_target(lambda w: f"{C}/{w.club['id']}/players", {"names": ["Newcomer"]}), 201),
    ("POST", f"{C}/{{club_id}}/players/{{member_id}}/forget"): Rule(
        "the club token only: forgetting a member (GDPR art. 17) is the organiser's",
        club_target(lambda w: f"{C}/{w.club['id']}/players/5/forget"), 200),
    ("POST", f"{C}/{{club_id}}/seasons"): Rule(
        "the club token only",
        club_target(lambda w: f"{C}/{w.club['id']}/seasons",
                    {"name": "Jahreswertung", "from": "2026-01-01", "to": "2026-12-31"}), 201),
    ("POST", f"{C}/{{club_id}}/payments"): Rule(
        "the club token only: the view token reads the Kasse, never writes it",
        club_target(lambda w: f"{C}/{w.club['id']}/payments",
                    {"player": 2, "amount": "1.50", "currency": "CHF", "note": "Abend"}), 201),
    ("POST", T): Rule(
        f"{OPEN}: anyone may organise a tournament; the answer holds the organiser token",
        open_target(lambda w: T, lambda w: {"name": "Another night", "game": "sea-change",
                                             "rounds": 2, "table_size": 3}), 201),
    ("POST", f"{T}/import"): Rule(
        f"{OPEN}: importing a backup creates a new tournament with new ids and tokens; it "
        "cannot touch an existing one",
        open_target(lambda w: f"{T}/import", lambda w: w.backup), 201),
    ("POST", f"{T}/{{tournament_id}}/players"): Rule(
        "organiser only",
        organiser_target(lambda w: f"{T}/{w.running['id']}/players", {"name": "Ivy"}), 201),
    ("PATCH", f"{T}/{{tournament_id}}/players/{{player_id}}"): Rule(
        "organiser only",
        organiser_target(lambda w: f"{T}/{w.running['id']}/players/{w.player_id}",
                         {"active": False}), 200),
    ("POST", f"{T}/{{tournament_id}}/check-in"): Rule(
        f"{OPEN}: the tournament's check-in code is the key (a wrong one is 403, rate-limited "
        "like a token); the answer holds the new player's token, which writes nothing",
        open_target(lambda w: f"{T}/{w.registering['id']}/check-in",
                    lambda w: {"code": w.registering["check_in_code"], "name": "Walk-in"}), 201),
    ("POST", f"{T}/{{tournament_id}}/clock"): Rule(
        "organiser only",
        organiser_target(lambda w: f"{T}/{w.running['id']}/clock",
                         {"action": "start", "minutes": 30}), 200),
    ("POST", f"{T}/{{tournament_id}}/rounds"): Rule(
        "organiser only",
        organiser_target(lambda w: f"{T}/{w.registering['id']}/rounds",
                         tournament="registering"), 201),
    ("POST", f"{T}/{{tournament_id}}/rounds/{{number}}/tables/{{table}}/confirm"): Rule(
        "the organiser, or the table's own token from another phone than the one that entered",
        confirm_target, 200),
    ("POST", f"{T}/{{tournament_id}}/rounds/{{number}}/tables/{{table}}/phones"): Rule(
        "the table's own token only: a phone at that table gets its key (the organiser "
        "confirms without one)",
        phone_target, 201),
}

CLUB_ONLY_READS = ["/backup", "/players/1/data", "/audit"]
ORGANISER_READS = [
    f"{T}/{{tournament_id}}/rounds/1/tokens",
    f"{T}/{{tournament_id}}/backup",
]


@pytest.fixture
async def app_client(settings: Settings) -> AsyncIterator[Client]:
    """The app with the failed-token limit out of the way: this test fails tokens on purpose."""
    app = create_app(replace(settings, auth_failures_per_minute=1_000_000))
    async with AsyncTestClient(app=app) as client:
        yield client


async def call(client: Client, method: str, request: Call, authorization: str) -> Any:
    headers = dict(request.headers or {})
    if authorization:
        headers["Authorization"] = authorization
    return await client.request(method, request.path, json=request.body, headers=headers)


async def test_every_write_endpoint_has_a_rule(app_client: Client) -> None:
    schema = (await app_client.get("/schema/openapi.json")).json()
    writes = {(method.upper(), path) for path, item in schema["paths"].items()
              for method in item if method in WRITE_METHODS}
    assert writes == set(MATRIX)


@pytest.mark.parametrize(("method", "path"), list(MATRIX))
async def test_wrong_credentials_are_refused_and_change_nothing(
    app_client: Client, everything_stored: Snapshot, method: str, path: str,
) -> None:
    rule = MATRIX[(method, path)]
    world = await build(app_client)
    for request, token, wrong in rule.calls(world):
        before = await everything_stored()
        for name, authorization in wrong.items():
            response = await call(app_client, method, request, authorization)
            expected = 401 if name == "no token" or name.startswith("malformed") else 403
            assert response.status_code == expected, (name, request.path, response.text)
            assert response.headers["content-type"].startswith("application/problem+json")
        assert await everything_stored() == before, request.path
        right = await call(app_client, method, request, f"Bearer {token}" if token else "")
        assert right.status_code == rule.success, (request.path, right.text)
        if rule.decision.startswith(OPEN) and method == "POST" and rule.success == 200:
            assert await everything_stored() == before  # open, and read-only


async def test_organiser_only_reads_refuse_table_and_view_tokens(app_client: Client) -> None:
    world = await build(app_client)
    own = world.running
    for template in ORGANISER_READS:
        path = template.format(tournament_id=own["id"])
        for token in (world.tables[0]["table_token"], own["view_token"], world.a["token"],
                      world.registering["token"], world.player_token):
            assert (await app_client.get(path, headers=bearer(token))).status_code == 403
        assert (await app_client.get(path)).status_code == 401
        assert (await app_client.get(path, headers=bearer(own["token"]))).status_code == 200


async def test_a_table_token_cannot_change_its_match_once_the_table_is_confirmed(
    app_client: Client, everything_stored: Snapshot,
) -> None:
    world = await build(app_client)
    table = world.tables[1]
    await ok(app_client.post(f"{T}/{world.running['id']}/rounds/1/tables/2/confirm",
                             headers={**bearer(table["table_token"]), "X-Device-Id": "other"}),
             200)
    path = f"{M}/{table['match_id']}/rounds/2"
    before = await everything_stored()
    for method, body in (("PUT", tschau(3, 5, 4)), ("DELETE", None)):
        response = await call(app_client, method, Call(path, body),
                              f"Bearer {table['table_token']}")
        assert response.status_code == 403, response.text
    assert await everything_stored() == before
    corrected = await call(app_client, "PUT", Call(path, tschau(3, 5, 4)),
                           f"Bearer {world.running['token']}")
    assert corrected.status_code == 200, corrected.text


CLUB_READS = ["", "/export", "/export?format=json", "/players", "/players/1",
              "/ratings?game=tschau-sepp", "/ratings/history?game=tschau-sepp", "/statistics",
              "/history",
              "/head-to-head?player=1&opponent=2", "/settlement",
              "/settlement?from=2026-01-01&to=2026-12-31&format=csv", "/payments", "/kasse",
              "/kasse?format=csv", "/seasons"]


async def test_club_reads_need_one_of_its_two_tokens(app_client: Client) -> None:
    world = await build(app_client)
    for tail in CLUB_READS:
        path = f"{C}/{world.club['id']}{tail}"
        assert (await app_client.get(path)).status_code == 401, path
        for token in (world.other_club["token"], world.club_match["token"], world.a["token"]):
            assert (await app_client.get(path, headers=bearer(token))).status_code == 403
        for token in (world.club["token"], world.club["view_token"]):
            assert (await app_client.get(path, headers=bearer(token))).status_code == 200


async def test_a_club_match_is_started_with_the_club_token_only(
    app_client: Client, everything_stored: Snapshot,
) -> None:
    world = await build(app_client)
    request = Call(M, {"game": "tschau-sepp", "players": ["Ann", "Ivy"],
                       "club": world.club["id"]})
    before = await everything_stored()
    wrong = refusals(world, world.club["view_token"],
                     **{"another club's token": world.other_club["token"]})
    for name, authorization in wrong.items():
        response = await call(app_client, "POST", request, authorization)
        expected = 401 if name == "no token" or name.startswith("malformed") else 403
        assert response.status_code == expected, (name, response.text)
    assert await everything_stored() == before
    right = await call(app_client, "POST", request, f"Bearer {world.club['token']}")
    assert right.status_code == 201, right.text


async def test_a_clubs_backup_needs_the_club_token(app_client: Client) -> None:
    world = await build(app_client)
    for tail in CLUB_ONLY_READS:
        path = f"{C}/{world.club['id']}{tail}"
        assert (await app_client.get(path)).status_code == 401
        for token in (world.club["view_token"], world.other_club["token"]):
            assert (await app_client.get(path, headers=bearer(token))).status_code == 403
        assert (await app_client.get(path, headers=bearer(world.club["token"]))).status_code \
            == 200
