"""The score pad through the API, on SQLite and PostgreSQL: its rounds and refusals, the finish
by hand (and its undo), a club's pads as games of their own, a tournament of a pad."""

from __future__ import annotations

import csv
import io
from typing import Any

from litestar import Litestar
from litestar.testing import AsyncTestClient

from api.shared import requests
from tests.api.clubs import MATCHES, TOURNAMENTS, bearer, new_club
from tests.api.test_clubs import expected_ratings
from tests.api.test_exports import table
from tests.conftest import problem

Client = AsyncTestClient[Litestar]
JASS = {"title": "Jass", "round_total": 157, "target": 1000}


def ok(response: Any, status: int = 200) -> Any:
    assert response.status_code == status, response.text
    return response.json()


async def new_pad(client: Client, options: dict[str, Any], players: int = 4,
                  **extra: Any) -> dict[str, Any]:
    return ok(await client.post(MATCHES, json={  # type: ignore[no-any-return]
        "game": "score-pad", "players": ["Ann", "Bea", "Cem", "Dan"][:players],
        "options": options, **extra}, headers=extra.pop("headers", None)), 201)


async def add(client: Client, match: dict[str, Any], *points: int) -> Any:
    return await client.post(f"{MATCHES}/{match['id']}/rounds", json={"points": list(points)},
                             headers=bearer(match["token"]))


async def finish(client: Client, match: dict[str, Any], **headers: str) -> Any:
    return await client.post(f"{MATCHES}/{match['id']}/finish",
                             headers={**bearer(match["token"]), **headers})


async def test_the_games_list_offers_the_score_pad_with_a_text_title(client: Client) -> None:
    pad = ok(await client.get("/api/v1/games/score-pad"))
    assert pad["options"][0]["name"] == "title"
    assert pad["options"][0]["kind"] == "text"
    german = ok(await client.get("/api/v1/games/score-pad",
                                 headers={"Accept-Language": "de"}))
    assert german["options"][4]["label"] == "Punkte pro Runde"


async def test_a_pad_needs_a_title_and_refuses_bad_options_at_their_field(
        client: Client) -> None:
    body = problem(await client.post(MATCHES, json={
        "game": "score-pad", "players": ["Ann", "Bea"], "options": {"winner": "least"}}), 422)
    assert {(e["path"], e["code"]) for e in body["errors"]} == {
        ("options.title", "blank_title"), ("options.winner", "unknown_choice")}
    body = problem(await client.post(MATCHES, json={
        "game": "score-pad", "players": ["Ann", "Bea"], "options": {
            "title": "Jass", "target": 1_000_001, "round_total": -1_000_001,
            "finished_after": 0}}), 422)
    assert {(e["path"], e["code"]) for e in body["errors"]} == {
        ("options.target", "too_large"), ("options.round_total", "too_small"),
        ("options.finished_after", "too_small")}
    match = await new_pad(client, {"title": "Skat", "round_total": 0}, players=2)
    body = problem(await add(client, match, -1_000_001, 1_000_001), 422)
    assert {(e["path"], e["code"]) for e in body["errors"]} == {
        ("points[0]", "too_small"), ("points[1]", "too_large")}


async def test_a_round_off_the_round_total_is_422_naming_points_sum_and_total(
        client: Client) -> None:
    match = await new_pad(client, JASS)
    body = problem(await add(client, match, 100, 50, 0, 0), 422)
    assert [(e["path"], e["code"]) for e in body["errors"]] == [("points", "round_total")]
    assert body["errors"][0]["message"] == (
        "The points add up to 150; every round adds up to 157.")
    german = problem(await client.post(
        f"{MATCHES}/{match['id']}/rounds", json={"points": [100, 50, 0, 0]},
        headers={**bearer(match["token"]), "Accept-Language": "de"}), 422)
    assert german["errors"][0]["message"] == (
        "Die Punkte ergeben zusammen 150; jede Runde ergibt 157.")
    body = problem(await add(client, match, 100, 57, 0), 422)
    assert body["errors"][0]["path"] == "points"
    body = problem(await client.post(f"{MATCHES}/{match['id']}/rounds",
                                     json={"points": [100, 57, 0, 0.5]},
                                     headers=bearer(match["token"])), 422)
    assert body["errors"][0]["path"] == "points[3]"
    assert ok(await client.get(f"{MATCHES}/{match['id']}"))["rounds"] == []


async def test_a_jass_to_1000_ends_with_a_reason_in_the_readers_language(
        client: Client) -> None:
    match = await new_pad(client, JASS)
    for _ in range(9):
        assert ok(await add(client, match, 100, 57, 0, 0), 201)["status"] == "in_progress"
    written = ok(await add(client, match, 110, 47, 0, 0), 201)
    assert written["status"] == "finished"
    assert written["winners"] == [0]
    assert written["reason"]["message"] == "Ann reached 1,010 of 1,000."
    french = ok(await client.get(f"{MATCHES}/{match['id']}",
                                 headers={"Accept-Language": "fr"}))
    assert french["reason"]["message"].startswith("Ann a atteint 1")
    assert french["reason"]["message"].endswith("010 sur 1\u202f000.")
    assert [(line["name"], line["rank"], line["points"]) for line in french["standings"]] == [
        ("Ann", 1, 1010), ("Bea", 2, 560), ("Cem", 3, 0), ("Dan", 3, 0)]
    problem(await add(client, match, 100, 57, 0, 0), 409)


async def test_the_guide_fills_the_last_field_from_the_round_total(client: Client) -> None:
    match = await new_pad(client, JASS)
    guided = ok(await client.post(f"{MATCHES}/{match['id']}/guide",
                                  json={"points": [60, 40, None, 0]}))["guide"]
    assert guided["last_points"] == {"side": 2, "points": 57}
    assert guided["totals_after"] == [60, 40, 57, 0]


async def test_finishing_by_hand_decides_the_pad_and_undoing_its_last_round_reopens_it(
        client: Client) -> None:
    match = await new_pad(client, {"title": "Rommé", "winner": "fewest"}, players=3)
    problem(await finish(client, match), 409)  # no round yet
    ok(await add(client, match, 12, 40, 7), 201)
    ok(await add(client, match, 30, 0, 25), 201)
    problem(await finish(client, match, **{"If-Match": '"2"'}), 412)
    finished = ok(await finish(client, match))
    assert finished["status"] == "finished"
    assert finished["winners"] == [2]
    assert finished["reason"]["message"] == "Finished after 2 rounds; Cem wins with 32."
    assert finished["options"]["finished_after"] == 2
    assert finished["version"] == 4
    problem(await finish(client, match), 409)  # finished already
    problem(await add(client, match, 1, 1, 1), 409)
    corrected = ok(await client.put(f"{MATCHES}/{match['id']}/rounds/2",
                                    json={"points": [30, 0, 45]},
                                    headers=bearer(match["token"])))
    assert corrected["status"] == "finished"
    assert corrected["winners"] == [1]
    history = ok(await client.get(f"{MATCHES}/{match['id']}/history",
                                  headers=bearer(match["token"])))
    assert [item["action"] for item in history] == [
        "create", "round_added", "round_added", "finished", "round_corrected"]
    undone = await client.delete(f"{MATCHES}/{match['id']}/rounds/2",
                                 headers=bearer(match["token"]))
    assert undone.status_code == 204, undone.text
    reopened = ok(await client.get(f"{MATCHES}/{match['id']}"))
    assert reopened["status"] == "in_progress"
    assert "finished_after" not in reopened["options"]
    assert ok(await add(client, match, 1, 2, 3), 201)["status"] == "in_progress"
    assert ok(await add(client, match, 1, 2, 3), 201)["status"] == "in_progress"


async def test_a_game_with_an_end_of_its_own_cannot_be_finished_by_hand(client: Client) -> None:
    match = ok(await client.post(MATCHES, json={
        "game": "tschau-sepp", "players": ["Ann", "Bea"], "options": {"games": 3}}), 201)
    ok(await client.post(f"{MATCHES}/{match['id']}/rounds",
                         json={"winner": 0, "penalty": [0, 6]},
                         headers=bearer(match["token"])), 201)
    body = problem(await finish(client, match), 409)
    assert "Tschau Sepp" in body["detail"]
    problem(await client.post(f"{MATCHES}/{match['id']}/finish"), 401)
    problem(await client.post(f"{MATCHES}/{match['id']}/finish",
                              headers=bearer(match["view_token"])), 403)
    problem(await client.post(f"{MATCHES}/nosuchmatch/finish",
                              headers=bearer(match["token"])), 404)


async def test_a_pad_played_for_money_pays_by_points_fewest_being_better(
        client: Client) -> None:
    match = await new_pad(client, {"title": "Hearts", "winner": "fewest", "rounds": 1},
                          players=3, stakes={"currency": "CHF", "per_point": "0.10"})
    written = ok(await add(client, match, 10, 0, 16), 201)
    assert written["settlement"]["pays"] == ["1.00", "0.00", "2.20"]
    assert written["settlement"]["receives"] == ["0.60", "2.60", "0.00"]


async def test_each_title_is_a_game_of_its_own_in_a_club_and_its_pads_are_remembered(
        client: Client) -> None:
    club = await new_club(client)
    jass = await club.start(["Ann", "Bea", "Cem", "Dan"], "score-pad",
                            {**JASS, "target": 300})
    for points in ((100, 57, 0, 0), (100, 57, 0, 0), (110, 47, 0, 0)):
        ok(await club.record(jass, {"points": list(points)}), 201)
    hearts = await club.start(["Ann", "Bea", "Cem"], "score-pad",
                              {"title": "Hearts", "winner": "fewest"})
    ok(await club.record(hearts, {"points": [10, 0, 16]}), 201)
    assert await club.get("/ratings", game="score-pad:Hearts") == []
    ok(await finish(client, hearts))
    members = await club.members()
    assert set(members["Ann"]["games"]) == {"score-pad:Jass", "score-pad:Hearts"}
    assert set(members["Dan"]["games"]) == {"score-pad:Jass"}
    assert members["Ann"]["games"]["score-pad:Jass"]["won"] == 1
    assert members["Bea"]["games"]["score-pad:Hearts"]["won"] == 1
    ladder = await club.get("/ratings", game="score-pad:Jass")
    assert ladder[0]["name"] == "Ann"
    problem(await client.get(f"{club.url}/ratings", params={"game": "score-pad"},
                             headers=club.auth), 422)
    history = await club.get("/history", game="score-pad:Hearts")
    assert [entry["id"] for entry in history["entries"]] == [hearts["id"]]
    ann, bea = members["Ann"]["id"], members["Bea"]["id"]
    together = await club.get("/head-to-head", player=ann, opponent=bea)
    assert {game["game"] for game in together["games"]} == {"score-pad:Jass", "score-pad:Hearts"}
    season = ok(await client.post(f"{club.url}/seasons", headers=club.auth, json={
        "name": "Jass forever", "from": "2020-01-01", "to": "2099-12-31",
        "game": "score-pad:Jass"}), 201)
    standings = await club.get(f"/seasons/{season['id']}/standings")
    assert {line["name"] for line in standings} == {"Ann", "Bea", "Cem", "Dan"}
    assert "score-pad:Jass" in (await club.get())["games"]
    pads = await club.get("/pads")
    assert [(pad["key"], pad["title"], pad["matches"], pad["players"]) for pad in pads] == [
        ("score-pad:Hearts", "Hearts", 1, 3), ("score-pad:Jass", "Jass", 1, 4)]
    assert pads[0]["options"] == {"title": "Hearts", "winner": "fewest", "target": None,
                                  "rounds": None, "round_total": None, "teams": None}
    again = await club.start(["Ann", "Bea", "Cem", "Dan"], "score-pad", pads[1]["options"])
    ok(await club.record(again, {"points": [0, 157, 0, 0]}), 201)
    pads = await club.get("/pads")
    assert [(pad["title"], pad["matches"]) for pad in pads] == [("Jass", 2), ("Hearts", 1)]
    viewer = await client.get(f"{club.url}/pads", headers=bearer(club.view_token))
    assert viewer.status_code == 200
    problem(await client.get(f"{club.url}/pads"), 401)


async def test_a_pads_rating_chart_and_statistics_hold_that_titles_matches_alone(
        client: Client) -> None:
    """``?game=score-pad:Jass``: two Jass evenings, with a Hearts pad and a Tschau Sepp of the
    same members between them; the chart holds each member's rating after each Jass only, as
    openskill rates the two Jass matches alone, and the statistics count those two."""
    club = await new_club(client)
    jass = {"title": "Jass", "round_total": 157, "rounds": 1}
    first = await club.start(["Ann", "Bea", "Cem", "Dan"], "score-pad", jass)
    ok(await club.record(first, {"points": [100, 57, 0, 0]}), 201)
    hearts = await club.start(["Ann", "Bea", "Cem"], "score-pad",
                              {"title": "Hearts", "winner": "fewest", "rounds": 1})
    ok(await club.record(hearts, {"points": [10, 0, 16]}), 201)
    await club.play(["Ann", "Bea"], [0, 3])
    second = await club.start(["Dan", "Cem", "Bea", "Ann"], "score-pad", jass)
    ok(await club.record(second, {"points": [157, 0, 0, 0]}), 201)
    played = [(["Ann", "Bea", "Cem", "Dan"], [1, 2, 3, 3]),
              (["Dan", "Cem", "Bea", "Ann"], [1, 2, 2, 2])]
    after = [expected_ratings(played[:1]), expected_ratings(played)]

    chart = await club.get("/ratings/history", game="score-pad:Jass")
    assert sorted(line["name"] for line in chart) == ["Ann", "Bea", "Cem", "Dan"]
    for line in chart:
        assert [point["match"] for point in line["points"]] == [first["id"], second["id"]]
        assert [(point["mu"], point["sigma"]) for point in line["points"]] == [
            (ratings[line["name"]].mu, ratings[line["name"]].sigma) for ratings in after]
    hearts_chart = await club.get("/ratings/history", game="score-pad:Hearts")
    assert {point["match"] for line in hearts_chart for point in line["points"]} == {
        hearts["id"]}

    statistics = await club.get("/statistics", game="score-pad:Jass")
    assert {row["game"] for row in statistics} == {"score-pad:Jass"}
    assert {row["name"]: (row["played"], row["won"], row["rounds"]) for row in statistics} == {
        "Ann": (2, 1, 2), "Bea": (2, 0, 2), "Cem": (2, 0, 2), "Dan": (2, 1, 2)}
    for row in statistics:
        assert row["rating"]["mu"] == after[1][row["name"]].mu
    every = await club.get("/statistics")
    assert {row["game"] for row in every} == {"score-pad:Jass", "score-pad:Hearts",
                                              "tschau-sepp"}


async def test_a_clubs_results_and_statistics_exports_name_a_pad_by_its_title(
        client: Client) -> None:
    club = await new_club(client)
    jass = await club.start(["Ann", "Bea"], "score-pad", {"title": "Jass", "rounds": 1})
    ok(await club.record(jass, {"points": [100, 57]}), 201)
    await club.play(["Ann", "Bea"], [0, 3])
    url = f"{club.url}/export"
    for language, game, tschau in (("en", "Game", "Tschau Sepp"), ("de", "Spiel", "Tschau Sepp"),
                                   ("fr", "Jeu", "Tschau Sepp"), ("it", "Gioco", "Tschau Sepp")):
        headers = {**club.auth, "Accept-Language": language}
        results = table(await client.get(url, headers=headers))
        assert [row[game] for row in results] == ["Jass", "Jass", tschau, tschau], language
        statistics = table(await client.get(url, params={"table": "statistics"},
                                             headers=headers))
        assert sorted(row[game] for row in statistics) == sorted(
            ["Jass", "Jass", tschau, tschau]), language
    exported = ok(await client.get(url, params={"format": "json"}, headers=club.auth))
    assert [result["game"] for result in exported["results"]] == [
        "score-pad:Jass", "score-pad:Jass", "tschau-sepp", "tschau-sepp"]
    assert {row["game"] for row in exported["statistics"]} == {"score-pad:Jass", "tschau-sepp"}


async def test_a_pad_seats_its_last_matchs_members_again_as_they_are_named_now(
        client: Client) -> None:
    """``last_players``: who sat where at the pad's last match, by their names now (a spelling
    merged since: the member it is); a removed or forgotten member's seat empty (null)."""
    club = await new_club(client)
    await club.start(["Ann", "Bea", "Cem", "Dan"], "score-pad", JASS)
    await club.start(["Eva", "Fay", "Gil"], "score-pad", {"title": "Hearts"})
    last = await club.start(["Dan", " cem ", "Bea", "Ann", "Eva"], "score-pad",
                            {**JASS, "round_total": None})
    ok(await club.record(last, {"points": [1, 2, 3, 4, 5]}), 201)
    members = {name: member["id"] for name, member in (await club.members()).items()}
    jass, hearts = await club.get("/pads")
    assert (jass["title"], jass["players"], jass["matches"]) == ("Jass", 5, 2)
    assert jass["last_players"] == [{"player": members[name], "name": name}
                                    for name in ("Dan", "Cem", "Bea", "Ann", "Eva")]
    assert [p["name"] for p in hearts["last_players"]] == ["Eva", "Fay", "Gil"]

    def member(name: str) -> str:
        return f"{club.url}/players/{members[name]}"

    ok(await client.patch(member("Cem"), json={"name": "Cemal"}, headers=club.auth))
    (hal,) = ok(await client.post(f"{club.url}/players", json={"names": ["Hal"]},
                                  headers=club.auth), 201)["players"]
    ok(await client.post(f"{member('Ann')}/merge", json={"into": hal["id"]}, headers=club.auth))
    assert (await client.delete(member("Bea"), headers=club.auth)).status_code == 204
    ok(await client.post(f"{member('Eva')}/forget", headers=club.auth))
    jass, hearts = await club.get("/pads")
    assert jass["last_players"] == [{"player": members["Dan"], "name": "Dan"},
                                    {"player": members["Cem"], "name": "Cemal"}, None,
                                    {"player": hal["id"], "name": "Hal"}, None]
    assert hearts["last_players"] == [None, {"player": members["Fay"], "name": "Fay"},
                                      {"player": members["Gil"], "name": "Gil"}]


async def test_a_tournament_of_a_pad_plays_pad_rounds_and_names_its_title(
        client: Client) -> None:
    tournament = ok(await client.post(TOURNAMENTS, json={
        "name": "Jassturnier", "game": "score-pad",
        "options": {"title": "Schieber", "round_total": 157, "rounds": 2}, "rounds": 1,
        "table_size": 4, "seating": "random", "seed": 3}), 201)
    auth = bearer(tournament["token"])
    for name in ("Ann", "Bea", "Cem", "Dan"):
        ok(await client.post(f"{TOURNAMENTS}/{tournament['id']}/players", json={"name": name},
                             headers=auth), 201)
    started = ok(await client.post(f"{TOURNAMENTS}/{tournament['id']}/rounds", headers=auth),
                 201)
    (table,) = started["tables"]
    url = f"{MATCHES}/{table['match_id']}/rounds"
    table_auth = bearer(table["table_token"])
    body = problem(await client.post(url, json={"points": [100, 50, 0, 0]},
                                     headers=table_auth), 422)
    assert body["errors"][0]["code"] == "round_total"
    ok(await client.post(url, json={"points": [100, 57, 0, 0]}, headers=table_auth), 201)
    written = ok(await client.post(url, json={"points": [0, 0, 157, 0]}, headers=table_auth),
                 201)
    assert written["status"] == "finished"
    view = ok(await client.get(f"{TOURNAMENTS}/{tournament['id']}", headers=auth))
    assert view["options"]["title"] == "Schieber"
    (played,) = view["round_list"]
    assert played["tables"][0]["state"] in ("finished", "entered", "confirmed")
    await exports_name_the_title(client, tournament["id"], auth, "Schieber")
    saved = ok(await client.get(f"{TOURNAMENTS}/{tournament['id']}/backup", headers=auth))
    restored = ok(await client.post(f"{TOURNAMENTS}/import", json=saved), 201)
    again = ok(await client.get(f"{TOURNAMENTS}/{restored['id']}",
                                headers=bearer(restored["token"])))
    assert again["options"]["title"] == "Schieber"
    (table_again,) = again["round_list"][0]["tables"]
    match_again = ok(await client.get(f"{MATCHES}/{table_again['match_id']}"))
    assert [r["entry"]["points"] for r in match_again["rounds"]] == [[100, 57, 0, 0],
                                                                      [0, 0, 157, 0]]


async def test_a_pad_tournaments_tables_finished_by_hand_give_points_by_place(
        client: Client) -> None:
    """Two tables of a pad without an end: one finished by hand with its table's token, the
    other with the organiser's; each then counts as entered for the tournament, and once
    confirmed its places give the tournament points per place (4, 2, 1, 0; tied places share
    the average of theirs)."""
    tournament = ok(await client.post(TOURNAMENTS, json={
        "name": "Jassturnier", "game": "score-pad",
        "options": {"title": "Schieber", "round_total": 157}, "rounds": 1, "table_size": 4,
        "seating": "random", "seed": 3, "points": {"per_place": {"4": [4, 2, 1, 0]}}}), 201)
    url = f"{TOURNAMENTS}/{tournament['id']}"
    auth = bearer(tournament["token"])
    for name in ("Ann", "Bea", "Cem", "Dan", "Eva", "Fay", "Gil", "Hal"):
        ok(await client.post(f"{url}/players", json={"name": name}, headers=auth), 201)
    first, second = ok(await client.post(f"{url}/rounds", headers=auth), 201)["tables"]
    for table_started, points in ((first, [100, 57, 0, 0]), (second, [0, 0, 157, 0])):
        ok(await client.post(f"{MATCHES}/{table_started['match_id']}/rounds",
                             json={"points": points},
                             headers=bearer(table_started["table_token"])), 201)

    def states(view: dict[str, Any]) -> list[str]:
        return [played["state"] for played in view["round_list"][0]["tables"]]

    assert states(ok(await client.get(url, headers=auth))) == ["playing", "playing"]
    by_table = ok(await finish(client, {"id": first["match_id"],
                                        "token": first["table_token"]}))
    assert by_table["status"] == "finished"
    by_organiser = ok(await finish(client, {"id": second["match_id"],
                                            "token": tournament["token"]}))
    assert by_organiser["winners"] == [2]
    assert states(ok(await client.get(url, headers=auth))) == ["entered", "entered"]
    for number in (1, 2):
        ok(await client.post(f"{url}/rounds/1/tables/{number}/confirm", headers=auth))
    view = ok(await client.get(url, headers=auth))
    assert states(view) == ["confirmed", "confirmed"]
    assert view["status"] == "finished"
    standings = ok(await client.get(f"{url}/standings", headers=auth))
    points = {row["player"]: row["points"] for row in standings["rows"]}
    assert [points[player] for player in first["players"]] == [4, 2, 0.5, 0.5]
    assert [points[player] for player in second["players"]] == [1, 1, 4, 1]


async def exports_name_the_title(client: Client, tournament_id: str, auth: dict[str, str],
                                 title: str) -> None:
    """Every export of the tournament names its game by the pad's title: the CSV in a last
    column (in every language), the JSON by the game's key, the printed standings and both
    paper pages of a round in their heading line."""
    url = f"{TOURNAMENTS}/{tournament_id}/export"
    for language, heading in (("en", "Game"), ("de", "Spiel"), ("fr", "Jeu"), ("it", "Gioco")):
        sheet = await client.get(url, params={"lang": language}, headers=auth)
        header, *rows = list(csv.reader(io.StringIO(sheet.text.removeprefix("\ufeff"))))
        assert header[-2:] == [header[-2], heading], language
        assert [row[-1] for row in rows] == [title] * 4, language
    exported = ok(await client.get(url, params={"format": "json"}, headers=auth))
    assert exported["game_key"] == f"score-pad:{title}"
    assert exported["tournament"]["game"] == "score-pad"
    pages = [await client.get(url, params={"format": "html"}, headers=auth)] + [
        await client.get(f"{TOURNAMENTS}/{tournament_id}/rounds/1/paper",
                         params={"sheet": sheet}, headers=auth) for sheet in ("scores", "seats")]
    for page in pages:
        assert page.status_code == 200, page.text
        meta = next(line for line in page.text.splitlines() if 'class="meta"' in line)
        assert title in meta, meta
        assert "Score pad" not in page.text


async def test_finishing_is_heard_live_by_every_phone_on_the_match(client: Client) -> None:
    match = await new_pad(client, {"title": "Skat"}, players=3)
    ok(await add(client, match, 24, -48, 0), 201)

    async def version() -> int:
        return 2

    events = requests.change_events(client.app.state.broker, match["id"], version,
                                    ping=client.app.state.settings.event_ping)
    await anext(events)
    await anext(events)
    ok(await finish(client, match))
    heard = (await anext(events)).encode()
    # PostgreSQL's notice of the round itself may come after the stream opened.
    if b'"round_added"' in heard:
        heard = (await anext(events)).encode()
    assert heard == (
        b'event: change\r\ndata: {"version":3,"action":"finished","round":1}\r\n\r\n')
    await events.aclose()


async def test_a_pad_exports_as_csv_and_json_with_its_title(client: Client) -> None:
    match = await new_pad(client, {"title": "Doppelkopf", "round_total": 0})
    ok(await add(client, match, 3, 3, -3, -3), 201)
    ok(await add(client, match, -2, 6, -2, -2), 201)
    ok(await finish(client, match))
    sheet = await client.get(f"{MATCHES}/{match['id']}/export", params={"format": "csv"})
    assert sheet.status_code == 200, sheet.text
    lines = sheet.text.lstrip("\ufeff").splitlines()
    assert len(lines) == 3
    assert lines[0].split(",")[1:4] == ["Match winner", "Ann: points", "Ann: total points"]
    # The winner is named on the round after which the pad was finished.
    assert lines[1].split(",")[1] == ""
    assert lines[2].split(",")[:10] == ["2", "Bea", "-2", "1", "6", "9", "-2", "-5", "-2", "-5"]
    exported = ok(await client.get(f"{MATCHES}/{match['id']}/export", params={"format": "json"}))
    assert exported["match"]["options"]["title"] == "Doppelkopf"
    assert exported["match"]["reason"]["code"] == "finished_by_hand"


async def test_a_clubs_backup_brings_its_pads_back_as_games_of_their_own(
        client: Client) -> None:
    club = await new_club(client)
    jass = await club.start(["Ann", "Bea"], "score-pad", {"title": "Jass", "rounds": 1})
    ok(await club.record(jass, {"points": [100, 57]}), 201)
    open_pad = await club.start(["Ann", "Bea"], "score-pad", {"title": "Rommé"})
    ok(await club.record(open_pad, {"points": [5, 30]}), 201)
    ok(await finish(client, open_pad))
    saved = ok(await client.get(f"{club.url}/backup", headers=club.auth))
    assert {played["game"] for played in saved["matches"]} == {"score-pad"}
    imported = ok(await client.post("/api/v1/clubs/import", json=saved), 201)
    again = await new_club(client)
    again.id, again.token = imported["id"], imported["token"]
    members = await again.members()
    assert set(members["Ann"]["games"]) == {"score-pad:Jass", "score-pad:Rommé"}
    assert members["Ann"]["games"]["score-pad:Jass"]["won"] == 1
    assert members["Bea"]["games"]["score-pad:Rommé"]["won"] == 1
    assert [pad["title"] for pad in await again.get("/pads")] == ["Rommé", "Jass"]


async def test_a_club_sets_default_stakes_for_one_pad_or_for_every_pad(client: Client) -> None:
    club = await new_club(client)
    ok(await client.patch(club.url, headers=club.auth, json={"stakes": {
        "score-pad:Jass": {"currency": "CHF", "per_point": "0.01"},
        "score-pad": {"currency": "EUR", "per_point": "0.10"}}}))
    jass = await club.start(["Ann", "Bea"], "score-pad", {"title": "Jass"})
    assert jass["stakes"]["currency"] == "CHF"
    rommé = await club.start(["Ann", "Bea"], "score-pad", {"title": "Rommé", "winner": "fewest"})
    assert rommé["stakes"]["currency"] == "EUR"
    body = problem(await client.patch(club.url, headers=club.auth, json={"stakes": {
        "sea-change:Jass": {"currency": "CHF", "per_point": "0.01"}}}), 422)
    assert body["errors"][0]["path"] == "stakes.sea-change:Jass"
