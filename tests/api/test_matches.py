"""The match endpoints of the contract, every success and error path, on SQLite and PostgreSQL."""

from __future__ import annotations

import asyncio
from typing import Any

from litestar import Litestar
from litestar.testing import AsyncTestClient

from api.app import create_app
from api.server.settings import Settings
from tests.conftest import problem

Client = AsyncTestClient[Litestar]


def game(winner: int, *points: int) -> dict[str, Any]:
    """A Tschau Sepp game written down as the penalty points of each seat."""
    return {"winner": winner, "penalty": list(points)}


async def test_health_answers_ok_once_the_database_answers(client: Client) -> None:
    response = await client.get("/api/v1/health")
    assert response.status_code == 200
    assert response.json() == {"status": "ok"}


async def test_every_response_carries_the_security_headers(client: Client) -> None:
    for path in ("/api/v1/health", "/api/v1/nowhere"):
        headers = (await client.get(path)).headers
        assert "frame-ancestors 'none'" in headers["content-security-policy"]
        assert headers["x-content-type-options"] == "nosniff"
        assert headers["referrer-policy"] == "no-referrer"


async def test_the_games_list_describes_every_game_of_the_registry(client: Client) -> None:
    response = await client.get("/api/v1/games")
    assert response.status_code == 200
    games = {g["id"]: g for g in response.json()}
    assert "tschau-sepp" in games
    assert {"name", "min_players", "max_players", "options"} <= set(games["tschau-sepp"])
    one = await client.get("/api/v1/games/tschau-sepp")
    assert one.json() == games["tschau-sepp"]
    problem(await client.get("/api/v1/games/skat"), 404)


async def test_a_new_match_has_tokens_defaults_and_a_location(new_table: Any) -> None:
    table = await new_table()
    body = table.created
    assert table.token != table.view_token
    assert len(table.token) >= 32  # 24 random bytes, url-safe
    assert body["players"] == [{"seat": 0, "name": "Ann"}, {"seat": 1, "name": "Bea"},
                               {"seat": 2, "name": "Cem"}]
    assert body["options"]["games"] == 5
    assert body["status"] == "in_progress"
    assert body["rounds"] == []
    assert body["version"] == 1
    assert body["created_at"].endswith(("Z", "+00:00"))


async def test_creating_names_every_bad_player_and_option(client: Client) -> None:
    body = problem(await client.post("/api/v1/matches", json={
        "game": "tschau-sepp", "players": ["Ann", " ", "C" * 41], "options": {"games": 0},
    }), 422)
    paths = {e["path"] for e in body["errors"]}
    assert {"players[1]", "players[2]"} <= paths
    body = problem(await client.post("/api/v1/matches", json={
        "game": "tschau-sepp", "players": ["Ann", "Bea"], "options": {"games": 0, "x": 1},
    }), 422)
    assert {"options.games", "options.x"} <= {e["path"] for e in body["errors"]}


async def test_an_unknown_game_is_named_in_the_errors(client: Client) -> None:
    body = problem(await client.post("/api/v1/matches", json={
        "game": "skat", "players": ["Ann", "Bea"]}), 422)
    assert body["errors"][0]["path"] == "game"


async def test_reading_a_match_gives_its_version_as_etag(client: Client, new_table: Any) -> None:
    table = await new_table()
    response = await client.get(table.url)
    assert response.status_code == 200
    assert response.headers["etag"] == '"1"'
    assert response.json()["id"] == table.id
    problem(await client.get("/api/v1/matches/nosuchmatch"), 404)


async def test_recording_a_round_returns_it_with_the_new_standings(new_table: Any) -> None:
    table = await new_table()
    response = await table.record(game(0, 0, 6, 7))
    assert response.status_code == 201, response.text
    written = response.json()
    assert written["number"] == 1
    assert written["result"]["penalty"] == [0, 6, 7]
    assert written["totals"]["penalty"] == [0, 6, 7]
    assert written["version"] == 2
    assert written["status"] == "in_progress"
    match = await table.read()
    assert [r["number"] for r in match["rounds"]] == [1]
    assert match["standings"][0]["name"] == "Ann"
    assert match["next_dealer"] == (table.created["next_dealer"] + 1) % 3


async def test_the_entry_may_come_wrapped_in_an_entry_key(new_table: Any) -> None:
    table = await new_table()
    response = await table.record({"entry": game(1, 4, 0, 3)})
    assert response.status_code == 201, response.text
    assert response.json()["entry"] == game(1, 4, 0, 3)


async def test_an_invalid_entry_is_422_naming_every_field_and_stores_nothing(
    new_table: Any,
) -> None:
    table = await new_table()
    body = problem(await table.record({"winner": 7, "penalty": [0, -1, "x"]}), 422)
    assert body["errors"]
    assert all(e["path"] for e in body["errors"])
    assert (await table.read())["version"] == 1


async def test_writes_need_the_write_token(client: Client, new_table: Any) -> None:
    table = await new_table()
    url = f"{table.url}/rounds"
    problem(await client.post(url, json=game(0, 0, 3, 4)), 401)
    response = await client.post(url, json=game(0, 0, 3, 4), headers={"Authorization": "Basic x"})
    assert problem(response, 401)
    assert response.headers["www-authenticate"] == "Bearer"
    problem(await client.post(url, json=game(0, 0, 3, 4), headers=table.auth("wrong")), 403)
    problem(await client.post(url, json=game(0, 0, 3, 4), headers=table.auth(table.view_token)),
            403)
    problem(await client.post("/api/v1/matches/nosuchmatch/rounds", json=game(0, 0, 3, 4),
                              headers=table.auth()), 404)


async def test_a_private_match_is_read_only_with_one_of_its_tokens(
    client: Client, new_table: Any,
) -> None:
    table = await new_table(private=True)
    for path in ("", "/history", "/export", "/events"):
        problem(await client.get(f"{table.url}{path}"), 401)
        problem(await client.get(f"{table.url}{path}", headers=table.auth("nope")), 403)
    problem(await client.post(f"{table.url}/guide", json={}), 401)
    for token in (table.token, table.view_token):
        response = await client.get(table.url, headers=table.auth(token))
        assert response.status_code == 200
        assert response.json()["private"] is True


async def test_a_public_match_is_read_without_a_token(client: Client, new_table: Any) -> None:
    table = await new_table()
    assert (await client.get(table.url)).status_code == 200
    assert (await client.get(table.url, headers=table.auth("stale"))).status_code == 200


async def test_a_repeated_idempotency_key_returns_the_first_response_once(
    new_table: Any,
) -> None:
    table = await new_table()
    first = await table.record(game(0, 0, 6, 7), **{"Idempotency-Key": "k-1"})
    again = await table.record(game(0, 0, 6, 7), **{"Idempotency-Key": "k-1"})
    assert first.status_code == again.status_code == 201
    assert again.json() == first.json()
    match = await table.read()
    assert len(match["rounds"]) == 1
    assert match["version"] == 2


async def test_an_idempotency_key_reused_with_another_body_is_422(new_table: Any) -> None:
    table = await new_table()
    assert (await table.record(game(0, 0, 6, 7), **{"Idempotency-Key": "k"})).status_code == 201
    problem(await table.record(game(0, 0, 6, 8), **{"Idempotency-Key": "k"}), 422)
    assert len((await table.read())["rounds"]) == 1


async def test_concurrent_duplicates_with_one_key_store_one_round(new_table: Any) -> None:
    table = await new_table()
    answers = await asyncio.gather(*(
        table.record(game(0, 0, 6, 7), **{"Idempotency-Key": "same"}) for _ in range(6)))
    assert {a.status_code for a in answers} == {201}
    assert len({a.json()["version"] for a in answers}) == 1
    assert len((await table.read())["rounds"]) == 1


async def test_concurrent_rounds_get_consecutive_numbers(new_table: Any) -> None:
    table = await new_table({"games": 20})
    answers = await asyncio.gather(*(table.record(game(0, 0, 3, 6 + n)) for n in range(8)))
    assert sorted(a.json()["number"] for a in answers) == list(range(1, 9))
    match = await table.read()
    assert [r["number"] for r in match["rounds"]] == list(range(1, 9))
    assert match["version"] == 9


async def test_a_round_after_the_match_is_decided_is_409(new_table: Any) -> None:
    table = await new_table({"games": 2})
    assert (await table.record(game(0, 0, 6, 7))).status_code == 201
    last = await table.record(game(1, 3, 0, 7))
    assert last.json()["status"] == "finished"
    assert last.json()["winners"] == [0]
    problem(await table.record(game(0, 0, 3, 3)), 409)
    match = await table.read()
    assert match["status"] == "finished"
    assert match["reason"]["code"]


async def test_a_correction_refolds_every_later_round(client: Client, new_table: Any) -> None:
    table = await new_table()
    await table.record(game(0, 0, 6, 7))
    await table.record(game(1, 3, 0, 7))
    response = await client.put(f"{table.url}/rounds/1", json=game(2, 10, 6, 0),
                                headers={**table.auth(), "If-Match": '"3"'})
    assert response.status_code == 200, response.text
    assert response.json()["totals"]["penalty"] == [10, 6, 0]
    assert response.json()["version"] == 4
    match = await table.read()
    assert match["rounds"][1]["totals"]["penalty"] == [13, 6, 7]
    assert match["standings"][0]["name"] == "Bea"


async def test_a_stale_if_match_is_412_and_changes_nothing(client: Client, new_table: Any) -> None:
    table = await new_table()
    await table.record(game(0, 0, 6, 7))
    for stale in ('"1"', "1", 'W/"1"'):
        problem(await client.put(f"{table.url}/rounds/1", json=game(1, 3, 0, 4),
                                 headers={**table.auth(), "If-Match": stale}), 412)
        problem(await client.delete(f"{table.url}/rounds/1",
                                    headers={**table.auth(), "If-Match": stale}), 412)
    problem(await client.put(f"{table.url}/rounds/1", json=game(1, 3, 0, 4),
                             headers={**table.auth(), "If-Match": "seven"}), 412)
    response = await client.put(f"{table.url}/rounds/1", json=game(1, 3, 0, 4),
                                headers={**table.auth(), "If-Match": "2"})
    assert response.status_code == 200
    assert (await table.read())["rounds"][0]["entry"] == game(1, 3, 0, 4)


async def test_a_round_posted_with_a_stale_if_match_is_412_and_stores_nothing(
    new_table: Any,
) -> None:
    """Two phones enter round 2: the one that saw version 2 stores it, the other is refused."""
    table = await new_table()
    await table.record(game(0, 0, 6, 7))
    assert (await table.record(game(1, 3, 0, 7), **{"If-Match": '"2"'})).status_code == 201
    for stale in ('"2"', "2", 'W/"2"', '"1"', "seven"):
        said = problem(await table.record(game(2, 10, 6, 0), **{"If-Match": stale}), 412)
        assert "version 3" in said["detail"]
    match = await table.read()
    assert (len(match["rounds"]), match["version"]) == (2, 3)
    assert [item["action"] for item in (await table.client.get(
        f"{table.url}/history")).json()].count("round_added") == 2
    # The current version, "*", or none at all: the round is appended.
    for if_match in ('"3"', "*"):
        assert (await table.record(game(2, 10, 6, 0), **{"If-Match": if_match})).status_code == 201
    assert (await table.record(game(2, 10, 6, 0))).status_code == 201
    assert len((await table.read())["rounds"]) == 5


async def test_a_resent_round_answers_its_first_response_whatever_its_if_match(
    new_table: Any,
) -> None:
    """The answer was lost: the phone sends its round again with the version it saw before it,
    even after another phone's round; the stored answer wins over the precondition."""
    table = await new_table()
    first = await table.record(game(0, 0, 6, 7), **{"If-Match": '"1"', "Idempotency-Key": "a"})
    assert first.status_code == 201
    again = await table.record(game(0, 0, 6, 7), **{"If-Match": '"1"', "Idempotency-Key": "a"})
    assert (again.status_code, again.json()) == (201, first.json())
    assert (await table.record(game(1, 3, 0, 7))).status_code == 201
    again = await table.record(game(0, 0, 6, 7), **{"If-Match": '"1"', "Idempotency-Key": "a"})
    assert (again.status_code, again.json()) == (201, first.json())
    # A new key with the stale version is a question for the phone, and stores nothing.
    problem(await table.record(game(0, 0, 6, 7), **{"If-Match": '"1"', "Idempotency-Key": "b"}),
            412)
    match = await table.read()
    assert (len(match["rounds"]), match["version"]) == (2, 3)
    # Refused, the key was not kept: the same key with the current version stores the round.
    kept = await table.record(game(0, 0, 6, 7), **{"If-Match": '"3"', "Idempotency-Key": "b"})
    assert (kept.status_code, kept.json()["number"]) == (201, 3)


async def test_correcting_a_round_that_does_not_exist_is_404(
    client: Client, new_table: Any,
) -> None:
    table = await new_table()
    problem(await client.put(f"{table.url}/rounds/1", json=game(0, 0, 3, 3),
                             headers=table.auth()), 404)
    problem(await client.put(f"{table.url}/rounds/0", json=game(0, 0, 3, 3),
                             headers=table.auth()), 400)


async def test_an_invalid_correction_is_422_and_keeps_the_round(
    client: Client, new_table: Any,
) -> None:
    table = await new_table()
    await table.record(game(0, 0, 6, 7))
    problem(await client.put(f"{table.url}/rounds/1", json={"winner": "x"},
                             headers=table.auth()), 422)
    assert (await table.read())["rounds"][0]["entry"] == game(0, 0, 6, 7)


async def test_a_correction_that_would_end_the_match_early_is_409(
    client: Client, new_table: Any,
) -> None:
    table = await new_table({"limit": 50})
    await table.record(game(0, 0, 6, 7))
    await table.record(game(0, 0, 3, 3))
    body = problem(await client.put(f"{table.url}/rounds/1", json=game(0, 0, 60, 7),
                                    headers=table.auth()), 409)
    assert "round 1" in body["detail"]
    assert (await table.read())["rounds"][0]["entry"] == game(0, 0, 6, 7)


async def test_only_the_last_round_can_be_undone(client: Client, new_table: Any) -> None:
    table = await new_table({"games": 2})
    await table.record(game(0, 0, 6, 7))
    await table.record(game(1, 3, 0, 7))
    problem(await client.delete(f"{table.url}/rounds/1", headers=table.auth()), 409)
    problem(await client.delete(f"{table.url}/rounds/3", headers=table.auth()), 404)
    problem(await client.delete(f"{table.url}/rounds/2"), 401)
    response = await client.delete(f"{table.url}/rounds/2",
                                   headers={**table.auth(), "If-Match": '"3"'})
    assert response.status_code == 204
    match = await table.read()
    assert match["status"] == "in_progress"
    assert match["winners"] == []
    assert [r["number"] for r in match["rounds"]] == [1]
    assert match["version"] == 4
    assert (await table.record(game(2, 3, 4, 0))).json()["number"] == 2


async def test_the_history_keeps_every_old_entry(client: Client, new_table: Any) -> None:
    table = await new_table()
    await table.record(game(0, 0, 6, 7))
    await client.put(f"{table.url}/rounds/1", json=game(1, 4, 0, 7), headers=table.auth())
    await client.delete(f"{table.url}/rounds/1", headers=table.auth())
    response = await client.get(f"{table.url}/history")
    assert response.status_code == 200
    history = response.json()
    assert [h["action"] for h in history] == [
        "create", "round_added", "round_corrected", "round_undone"]
    assert history[2]["old_entry"] == game(0, 0, 6, 7)
    assert history[2]["new_entry"] == game(1, 4, 0, 7)
    assert history[3]["old_entry"] == game(1, 4, 0, 7)
    assert {h["token_kind"] for h in history} == {"match"}
    assert all(h["at"].endswith(("Z", "+00:00")) for h in history)


async def test_the_guide_reports_running_numbers_for_a_partial_entry(
    client: Client, new_table: Any,
) -> None:
    table = await new_table()
    await table.record(game(0, 0, 6, 7))
    response = await client.post(f"{table.url}/guide", json={"winner": 1})
    assert response.status_code == 200, response.text
    assert response.json()["guide"]["totals"]["games"] == 2
    corrected = await client.post(f"{table.url}/guide?round=1", json={"winner": 1})
    assert corrected.json()["guide"]["totals"]["games"] == 1
    problem(await client.post(f"{table.url}/guide?round=3", json={}), 404)


async def test_the_csv_export_has_a_bom_crlf_and_per_seat_columns(
    client: Client, new_table: Any,
) -> None:
    table = await new_table(players=["Jörg", "Bea", "Cem"])
    await table.record(game(0, 0, 6, 7))
    await table.record(game(1, 3, 0, 7))
    response = await client.get(f"{table.url}/export?format=csv")
    assert response.status_code == 200
    assert response.headers["content-type"].startswith("text/csv")
    assert f'filename="tschau-sepp-{table.id}.csv"' in response.headers["content-disposition"]
    text = response.content.decode("utf-8")
    # A round of Tschau Sepp is a game (rules.md): its sheet's first column says so.
    assert text.startswith("\ufeffGame,")
    lines = text[1:].split("\r\n")
    header = lines[0].split(",")
    assert "Jörg: penalty points" in header
    assert "Jörg: total penalty points" in header
    second = dict(zip(header, lines[2].split(","), strict=True))
    assert second["Game"] == "2"
    assert second["Jörg: total penalty points"] == "3"
    assert second["Cem: total penalty points"] == "14"


async def test_the_csv_export_with_semicolons_starts_with_its_headings(
    client: Client, new_table: Any,
) -> None:
    table = await new_table()
    await table.record(game(0, 0, 6, 7))
    response = await client.get(f"{table.url}/export?format=csv&sep=;")
    text = response.content.decode("utf-8")
    # No sep=; line: LibreOffice shows it as a row, and Excel then ignores the BOM.
    assert text.startswith("\ufeffGame;")
    problem(await client.get(f"{table.url}/export?format=xls"), 400)


async def test_the_json_export_holds_every_round_with_totals(
    client: Client, new_table: Any,
) -> None:
    table = await new_table()
    await table.record(game(0, 0, 6, 7))
    response = await client.get(f"{table.url}/export?format=json")
    assert response.status_code == 200
    assert "attachment" in response.headers["content-disposition"]
    sheet = response.json()
    assert sheet["match"]["rounds"][0]["totals"]["penalty"] == [0, 6, 7]
    assert "token" not in sheet["match"]


async def test_every_game_can_be_set_up_and_guided_with_its_defaults(client: Client) -> None:
    games = (await client.get("/api/v1/games")).json()
    for described in games:
        players = [f"P{seat}" for seat in range(max(3, described["min_players"]))]
        # A text option without a default (the score pad's title) is the one a game requires.
        required = {o["name"]: "Pad" for o in described["options"]
                    if o["kind"] == "text" and o["default"] is None}
        response = await client.post("/api/v1/matches", json={
            "game": described["id"], "players": players, "options": required})
        assert response.status_code == 201, response.text
        created = response.json()
        assert {o["name"] for o in described["options"]} <= set(created["options"])
        # The stored, filled-in options are read again for every fold and guide.
        guide = await client.post(f"/api/v1/matches/{created['id']}/guide", json={})
        assert guide.status_code == 200, guide.text
        sheet = await client.get(f"/api/v1/matches/{created['id']}/export")
        # No round yet: the heading alone, its columns without any player's (who has none yet).
        heading, = sheet.content.decode("utf-8").removeprefix("\ufeff").splitlines()
        first = "Game" if described["id"] == "tschau-sepp" else "Round"
        assert heading.startswith(f"{first},")
        assert heading.endswith(",Match winner,Place,Played on")


async def test_two_server_processes_on_one_database_never_share_a_round_number(
    settings: Settings, new_table: Any,
) -> None:
    table = await new_table({"games": 20})
    async with AsyncTestClient(app=create_app(settings)) as other:
        url = f"{table.url}/rounds"
        answers = await asyncio.gather(*(
            (table.client if n % 2 else other).post(url, json=game(0, 0, 3, 6 + n),
                                                    headers=table.auth())
            for n in range(10)))
    assert sorted(a.json()["number"] for a in answers) == list(range(1, 11))
    assert [r["number"] for r in (await table.read())["rounds"]] == list(range(1, 11))


async def test_ping_answers_without_the_database(client: Client) -> None:
    response = await client.get("/api/v1/ping")
    assert response.status_code == 200
    assert response.json() == {"status": "ok"}


async def test_health_is_503_while_the_database_does_not_answer() -> None:
    down = Settings(database_url="postgresql+asyncpg://postgres@127.0.0.1:9/none")
    async with AsyncTestClient(app=create_app(down)) as client:
        problem(await client.get("/api/v1/health"), 503)
