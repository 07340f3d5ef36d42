"""Clubs over HTTP on SQLite and PostgreSQL: the club and its tokens, members made by playing,
statistics and ratings of finished matches, corrections and undos, ladders, history and
head-to-head, renaming, merging and removing members."""

from __future__ import annotations

from typing import Any

import pytest
from litestar.testing import AsyncTestClient
from openskill.models import PlackettLuce

from tests.api.clubs import CLUBS, MATCHES, TOURNAMENTS, bearer, new_club, tschau_round
from tests.conftest import problem

Client = AsyncTestClient  # type: ignore[type-arg]


async def test_a_club_answers_with_its_tokens_once_and_is_read_with_either(
        client: Client) -> None:
    created = await client.post(CLUBS, json={"name": "  Donnerstagsrunde "})
    assert created.status_code == 201
    body = created.json()
    assert body["name"] == "Donnerstagsrunde"
    assert {"id", "token", "view_token"} <= set(body)
    assert created.headers["location"] == f"{CLUBS}/{body['id']}"
    for token in (body["token"], body["view_token"]):
        read = await client.get(f"{CLUBS}/{body['id']}", headers=bearer(token))
        assert read.status_code == 200
        assert "token" not in read.json()
        assert read.json()["players"] == []
        assert read.headers["etag"] == f'"{read.json()["version"]}"'
    problem(await client.get(f"{CLUBS}/{body['id']}"), 401)
    problem(await client.get(f"{CLUBS}/{body['id']}", headers=bearer("x" * 32)), 403)
    problem(await client.get(f"{CLUBS}/nosuchclub", headers=bearer(body["token"])), 404)


@pytest.mark.parametrize(("name", "code"), [
    ("   ", "blank_name"), ("x" * 61, None), ("Club\x00night", "control_character"),
])
async def test_a_club_name_that_cannot_be_used_is_refused_at_the_field(
        client: Client, name: str, code: str | None) -> None:
    answer = await client.post(CLUBS, json={"name": name})
    body = problem(answer, 400 if code is None else 422)
    assert body["errors"][0]["path"] == "name"
    if code is not None:
        assert body["errors"][0]["code"] == code
    problem(await client.post(CLUBS, json={"name": "Ok", "colour": "red"}), 400)


async def test_members_are_made_by_playing_and_found_again_ignoring_case_and_spaces(
        client: Client) -> None:
    club = await new_club(client)
    await club.start(["Ann", "Bea", "Cem"])
    await club.start(["  ann ", "BEA", "Dan"])
    club_view = await club.get()
    assert [(p["id"], p["name"]) for p in club_view["players"]] == [
        (1, "Ann"), (2, "Bea"), (3, "Cem"), (4, "Dan")]
    assert club_view["version"] == 3  # created, then two matches started


async def test_starting_a_club_match_needs_the_club_token_and_changes_nothing_otherwise(
        client: Client) -> None:
    club = await new_club(client)
    other = await new_club(client, "Other")
    body = {"game": "tschau-sepp", "players": ["Ann", "Bea"], "club": club.id}
    problem(await client.post(MATCHES, json=body), 401)
    refused = problem(await client.post(MATCHES, json=body, headers=bearer(club.view_token)),
                      403)
    assert "view key" in refused["detail"]
    problem(await client.post(MATCHES, json=body, headers=bearer(other.token)), 403)
    unknown = problem(await client.post(MATCHES, json={**body, "club": "nosuchclub"},
                                        headers=club.auth), 422)
    assert unknown["errors"][0]["path"] == "club"
    twice = problem(await client.post(MATCHES, json={**body, "players": ["Ann", "Bea", " ANN"]},
                                      headers=club.auth), 422)
    assert [(e["path"], e["code"]) for e in twice["errors"]] == [
        ("players[2]", "same_member_twice")]
    club_view = await club.get()
    assert club_view["players"] == []
    assert club_view["version"] == 1


async def test_only_finished_club_matches_count(client: Client) -> None:
    club = await new_club(client)
    await club.play(["Ann", "Bea", "Cem"], [0, 4, 9])
    await club.start(["Ann", "Bea", "Cem"])  # never finished
    plain = (await client.post(MATCHES, json={"game": "tschau-sepp", "players": ["Ann", "Bea"],
                                              "options": {"games": 1}})).json()
    await client.post(f"{MATCHES}/{plain['id']}/rounds", json=tschau_round([0, 6]),
                      headers=bearer(plain["token"]))
    members = await club.members()
    assert {name: m["games"]["tschau-sepp"]["played"] for name, m in members.items()} == {
        "Ann": 1, "Bea": 1, "Cem": 1}
    assert (await club.get())["finished_matches"] == 1


async def test_tschau_sepp_statistics_count_wins_shared_wins_penalties_and_streaks(
        client: Client) -> None:
    club = await new_club(client)
    await club.play(["Ann", "Bea", "Cem"], [0, 4, 10])
    await club.play(["Ann", "Bea", "Cem"], [0, 6, 6])
    await club.play(["Bea", "Ann"], [0, 3])
    match = await club.start(["Ann", "Bea"], options={"games": 2})
    for penalties in ([0, 3], [3, 0]):  # one game each: a shared win on penalty and wins
        assert (await club.record(match, tschau_round(penalties))).status_code == 201
    ann = (await club.members())["Ann"]["games"]["tschau-sepp"]
    assert (ann["played"], ann["won"], ann["rounds"]) == (4, 3, 5)
    assert ann["win_rate"] == 0.75
    assert (ann["streak"], ann["longest_streak"]) == (1, 2)
    measures = {m["id"]: m for m in ann["measures"]}
    assert measures["penalty_per_game"]["average"] == pytest.approx(6 / 5)
    assert measures["penalty_per_game"]["best"] == 0
    assert measures["penalty_per_game"]["better"] == "lower"
    assert measures["games_won_per_match"]["average"] == pytest.approx(3 / 4)
    assert measures["games_won_per_match"]["best"] == 1
    assert [(r["rank"], r["won"]) for r in ann["last"]] == [(1, True), (2, False), (1, True),
                                                           (1, True)]


async def test_sea_change_statistics_are_vp_and_card_points_per_round(client: Client) -> None:
    club = await new_club(client)
    match = await club.start(["Ann", "Bea", "Cem", "Dan"], game="sea-change",
                             options={"target_vp": 2})
    for scores in ([5, 3, -1, 2], [1, 6, 2, 0], [4, 2, 2, 1]):
        recorded = await club.record(match, {"final_trump": "yellow", "scores": scores,
                                             "trump_zero": 0})
        assert recorded.status_code == 201, recorded.text
    members = await club.members()
    ann = members["Ann"]["games"]["sea-change"]
    assert (ann["played"], ann["won"], ann["rounds"]) == (1, 1, 3)
    measures = {m["id"]: (m["average"], m["best"]) for m in ann["measures"]}
    assert measures["vp_per_round"] == (pytest.approx(2 / 3), pytest.approx(2 / 3))
    assert measures["points_per_round"] == (pytest.approx(10 / 3), pytest.approx(10 / 3))
    assert members["Bea"]["games"]["sea-change"]["won"] == 0


def expected_ratings(matches: list[tuple[list[str], list[int]]]) -> dict[str, Any]:
    """openskill's own answer: every match rated in order, one player per team."""
    model = PlackettLuce()
    ratings: dict[str, Any] = {}
    for names, ranks in matches:
        teams = [[ratings.get(name) or model.rating(name=name)] for name in names]
        for [rated] in model.rate(teams, ranks=ranks):
            ratings[rated.name] = rated
    return ratings


def penalties_for(ranks: list[int]) -> list[int]:
    """Tschau Sepp penalties that give these final ranks (1 = went out first)."""
    return [0 if rank == 1 else 3 * rank for rank in ranks]


SEQUENCES = {
    "three rivals": [(["Ann", "Bea", "Cem"], [1, 2, 3]), (["Cem", "Ann", "Bea"], [1, 3, 2]),
                     (["Bea", "Cem"], [1, 2])],
    "ties": [(["Ann", "Bea", "Cem", "Dan"], [1, 2, 2, 4]), (["Dan", "Ann", "Bea"], [1, 2, 2]),
             (["Ann", "Dan"], [1, 2])],
    "newcomer": [(["Ann", "Bea"], [1, 2]), (["Ann", "Bea"], [1, 2]),
                 (["Eva", "Ann", "Bea"], [1, 2, 3])],
}


@pytest.mark.parametrize("sequence", sorted(SEQUENCES))
async def test_ratings_are_openskills_own_for_hand_made_sequences(client: Client,
                                                                  sequence: str) -> None:
    club = await new_club(client)
    for names, ranks in SEQUENCES[sequence]:
        await club.play(names, penalties_for(ranks))
    expected = expected_ratings(SEQUENCES[sequence])
    members = await club.members()
    for name, rating in expected.items():
        stored = members[name]["games"]["tschau-sepp"]["rating"]
        assert stored["mu"] == rating.mu
        assert stored["sigma"] == rating.sigma
        assert stored["ordinal"] == pytest.approx(rating.mu - 3 * rating.sigma)
    ladder = await club.get("/ratings", game="tschau-sepp")
    assert [row["name"] for row in ladder] == sorted(
        expected, key=lambda name: -expected[name].ordinal())
    assert [row["rank"] for row in ladder] == list(range(1, len(expected) + 1))
    assert all({"player", "name", "rank", "mu", "sigma", "ordinal", "played"} <= set(row)
               for row in ladder)


async def test_a_correction_rerates_from_that_match_on_and_an_undo_takes_it_out(
        client: Client) -> None:
    club = await new_club(client)
    first = await club.play(["Ann", "Bea", "Cem"], [0, 3, 6])
    await club.play(["Ann", "Bea"], [0, 3])
    await club.play(["Bea", "Cem"], [0, 3])
    corrected = await client.put(f"{MATCHES}/{first['id']}/rounds/1",
                                 json=tschau_round([6, 0, 3]), headers=bearer(first["token"]))
    assert corrected.status_code == 200, corrected.text
    expected = expected_ratings([(["Ann", "Bea", "Cem"], [3, 1, 2]), (["Ann", "Bea"], [1, 2]),
                                 (["Bea", "Cem"], [1, 2])])
    members = await club.members()
    for name, rating in expected.items():
        assert members[name]["games"]["tschau-sepp"]["rating"]["mu"] == rating.mu
    assert members["Ann"]["games"]["tschau-sepp"]["won"] == 1
    assert [r["finish"] for r in members["Ann"]["games"]["tschau-sepp"]["last"]] == [2, 1]
    undone = await client.delete(f"{MATCHES}/{first['id']}/rounds/1",
                                 headers=bearer(first["token"]))
    assert undone.status_code == 204
    expected = expected_ratings([(["Ann", "Bea"], [1, 2]), (["Bea", "Cem"], [1, 2])])
    members = await club.members()
    for name, rating in expected.items():
        assert members[name]["games"]["tschau-sepp"]["rating"]["mu"] == rating.mu
        assert members[name]["games"]["tschau-sepp"]["rating"]["sigma"] == rating.sigma
    assert members["Ann"]["games"]["tschau-sepp"]["played"] == 1
    assert (await club.get())["finished_matches"] == 2
    # Finished again, it is the club's latest to finish, and still the first one played: it is
    # rated first, before the two played after it.
    again = await club.record(first, tschau_round([0, 3, 6]))
    assert again.status_code == 201
    expected = expected_ratings([(["Ann", "Bea", "Cem"], [1, 2, 3]), (["Ann", "Bea"], [1, 2]),
                                 (["Bea", "Cem"], [1, 2])])
    members = await club.members()
    for name, rating in expected.items():
        assert members[name]["games"]["tschau-sepp"]["rating"]["mu"] == rating.mu


async def test_a_player_who_only_played_unfinished_matches_has_no_game_statistics(
        client: Client) -> None:
    club = await new_club(client)
    match = await club.play(["Ann", "Bea"], [0, 6])
    await client.delete(f"{MATCHES}/{match['id']}/rounds/1", headers=bearer(match["token"]))
    assert {m["name"]: m["games"] for m in await club.get("/players")} == {"Ann": {}, "Bea": {}}
    assert await club.get("/ratings", game="tschau-sepp") == []


async def test_the_ladder_needs_a_known_game(client: Client) -> None:
    club = await new_club(client)
    body = problem(await client.get(f"{club.url}/ratings", params={"game": "chess"},
                                    headers=club.auth), 422)
    assert body["errors"][0]["path"] == "game"
    problem(await client.get(f"{club.url}/ratings", headers=club.auth), 400)


async def test_the_club_token_writes_its_own_matches_and_both_tokens_read_private_ones(
        client: Client) -> None:
    club = await new_club(client)
    match = await club.start(["Ann", "Bea"], private=True)
    url = f"{MATCHES}/{match['id']}"
    problem(await client.post(f"{url}/rounds", json=tschau_round([0, 4]),
                              headers=bearer(club.view_token)), 403)
    recorded = await client.post(f"{url}/rounds", json=tschau_round([0, 4]), headers=club.auth)
    assert recorded.status_code == 201, recorded.text
    for token in (club.token, club.view_token):
        assert (await client.get(url, headers=bearer(token))).status_code == 200
    problem(await client.get(url), 401)
    plain = (await client.post(MATCHES, json={"game": "tschau-sepp", "players": ["A", "B"],
                                              "private": True})).json()
    problem(await client.get(f"{MATCHES}/{plain['id']}", headers=club.auth), 403)
    problem(await client.post(f"{MATCHES}/{plain['id']}/rounds", json=tschau_round([0, 4]),
                              headers=club.auth), 403)


async def test_history_is_newest_first_filtered_and_paged(client: Client) -> None:
    club = await new_club(client)
    first = await club.play(["Ann", "Bea"], [0, 3])
    second = await club.play(["Bea", "Cem"], [3, 0])
    running = await club.start(["Cem", "Dan", "Eva"], game="seven-seals")
    history = await club.get("/history")
    assert [e["id"] for e in history["entries"]] == [running["id"], second["id"], first["id"]]
    assert history["next_offset"] is None
    latest = history["entries"][1]
    assert latest["kind"] == "match"
    assert latest["status"] == "finished"
    assert latest["finish"] == 2
    assert [(p["name"], p["rank"], p["won"]) for p in latest["players"]] == [
        ("Bea", 2, False), ("Cem", 1, True)]
    assert history["entries"][0]["players"][0]["rank"] is None
    ids = [e["id"] for e in (await club.get("/history", player=2))["entries"]]
    assert ids == [second["id"], first["id"]]
    ids = [e["id"] for e in (await club.get("/history", game="seven-seals"))["entries"]]
    assert ids == [running["id"]]
    page = await club.get("/history", limit=2, offset=1)
    assert [e["id"] for e in page["entries"]] == [second["id"], first["id"]]
    page = await club.get("/history", limit=1)
    assert page["next_offset"] == 1
    since = history["entries"][1]["played_at"]
    ids = [e["id"] for e in (await club.get("/history", since=since))["entries"]]
    assert ids == [running["id"], second["id"]]
    ids = [e["id"] for e in (await club.get("/history", until=since))["entries"]]
    assert ids == [first["id"]]


@pytest.mark.parametrize("where", ["/history", "/statistics"])
@pytest.mark.parametrize("given", ["0", "1767222000", "-1.5"])
async def test_a_range_bound_is_a_moment_in_words_never_a_bare_number(
        client: Client, where: str, given: str) -> None:
    """A number was read as a Unix timestamp (``until=0``: 1970) and answered 200."""
    club = await new_club(client)
    for bound in ("since", "until"):
        body = problem(await client.get(f"{CLUBS}/{club.id}{where}", params={bound: given},
                                        headers=club.auth), 400)
        assert [e["path"] for e in body["errors"]] == [bound]


async def test_head_to_head_counts_who_finished_ahead_per_game(client: Client) -> None:
    club = await new_club(client)
    await club.play(["Ann", "Bea", "Cem"], [0, 3, 6])
    await club.play(["Ann", "Bea"], [6, 0])
    await club.play(["Bea", "Cem", "Ann"], [0, 6, 6])
    await club.play(["Cem", "Dan"], [0, 6])
    h2h = await club.get("/head-to-head", player=1, opponent=3)
    assert h2h["player"] == {"id": 1, "name": "Ann"}
    assert h2h["games"] == [{"game": "tschau-sepp", "played": 2, "player_ahead": 1,
                             "opponent_ahead": 0, "tied": 1, "partners": 0, "player_won": 1,
                             "opponent_won": 0}]
    assert len(h2h["matches"]) == 2
    same = problem(await client.get(f"{club.url}/head-to-head", params={
        "player": 1, "opponent": 1}, headers=club.auth), 422)
    assert same["errors"][0]["path"] == "opponent"
    problem(await client.get(f"{club.url}/head-to-head", params={
        "player": 1, "opponent": 99}, headers=club.auth), 404)


async def test_statistics_over_a_date_range_count_the_matches_played_in_it(
        client: Client) -> None:
    club = await new_club(client)
    await club.play(["Ann", "Bea"], [0, 3])
    await club.play(["Ann", "Bea"], [3, 0])
    second = (await club.get("/history"))["entries"][0]["played_at"]
    rows = await club.get("/statistics", since=second)
    assert {(r["name"], r["played"], r["won"]) for r in rows} == {("Ann", 1, 0), ("Bea", 1, 1)}
    assert all(r["rating"] is None for r in rows)
    rows = await club.get("/statistics", until=second)
    assert {(r["name"], r["played"], r["won"]) for r in rows} == {("Ann", 1, 1), ("Bea", 1, 0)}
    everything = await club.get("/statistics")
    assert {(r["name"], r["played"]) for r in everything} == {("Ann", 2), ("Bea", 2)}
    assert all(r["rating"] is not None for r in everything)


async def test_renaming_a_member_keeps_their_results_and_refuses_anothers_name(
        client: Client) -> None:
    club = await new_club(client)
    await club.play(["Ann", "Bea"], [0, 3])
    renamed = await client.patch(f"{club.url}/players/1", json={"name": " Anna "},
                                 headers=club.auth)
    assert renamed.status_code == 200, renamed.text
    assert renamed.json()["name"] == "Anna"
    assert renamed.json()["games"]["tschau-sepp"]["won"] == 1
    taken = problem(await client.patch(f"{club.url}/players/1", json={"name": "BEA"},
                                       headers=club.auth), 422)
    assert taken["errors"][0]["code"] == "name_taken"
    problem(await client.patch(f"{club.url}/players/1", json={"name": "X"},
                               headers=bearer(club.view_token)), 403)
    await club.start(["anna", "Bea"])
    assert [p["name"] for p in (await club.get())["players"]] == ["Anna", "Bea"]


async def test_merging_two_spellings_replays_as_if_they_had_always_been_one(
        client: Client) -> None:
    club = await new_club(client)
    await club.play(["Ann", "Bea", "Cem"], [0, 3, 6])
    await club.play(["Anne", "Cem"], [3, 0])
    await club.play(["Ann", "Bea"], [3, 0])
    merged = await client.post(f"{club.url}/players/4/merge", json={"into": 1},
                               headers=club.auth)
    assert merged.status_code == 200, merged.text
    assert merged.json()["aliases"] == ["Anne"]
    games = merged.json()["games"]["tschau-sepp"]
    assert (games["played"], games["won"], games["streak"]) == (3, 1, -2)
    expected = expected_ratings([(["Ann", "Bea", "Cem"], [1, 2, 3]), (["Ann", "Cem"], [2, 1]),
                                 (["Ann", "Bea"], [2, 1])])
    members = await club.members()
    assert set(members) == {"Ann", "Bea", "Cem"}
    for name, rating in expected.items():
        assert members[name]["games"]["tschau-sepp"]["rating"]["mu"] == rating.mu
        assert members[name]["games"]["tschau-sepp"]["rating"]["sigma"] == rating.sigma
    again = await club.start(["ANNE", "Cem"])  # the old spelling finds the merged member
    assert again["players"][0]["name"] == "ANNE"
    assert (await club.get("/players/4"))["id"] == 1
    together = problem(await client.post(f"{club.url}/players/2/merge", json={"into": 1},
                                         headers=club.auth), 409)
    assert together["errors"][0]["code"] == "played_together"
    unknown = problem(await client.post(f"{club.url}/players/2/merge", json={"into": 99},
                                        headers=club.auth), 422)
    assert unknown["errors"][0]["path"] == "into"


async def test_a_renamed_member_takes_back_an_alias_by_swapping_spellings(
        client: Client) -> None:
    club = await new_club(client)
    await club.play(["Ann", "Bea"], [0, 3])
    await club.play(["Anne", "Bea"], [0, 3])
    await client.post(f"{club.url}/players/3/merge", json={"into": 1}, headers=club.auth)
    swapped = await client.patch(f"{club.url}/players/1", json={"name": "Anne"},
                                 headers=club.auth)
    assert (swapped.json()["name"], swapped.json()["aliases"]) == ("Anne", ["Ann"])


async def test_a_removed_member_leaves_their_results_and_loses_their_name_everywhere(
        client: Client) -> None:
    club = await new_club(client)
    match = await club.play(["Ann", "Bea", "Cem"], [0, 3, 6])
    before = {m["name"]: m["games"] for m in await club.get("/players")}
    removed = await client.delete(f"{club.url}/players/1", headers=club.auth)
    assert removed.status_code == 204, removed.text
    after = {m["name"]: m["games"] for m in await club.get("/players")}
    assert set(after) == {"Bea", "Cem"}
    assert after["Bea"] == before["Bea"]
    entry = (await club.get("/history"))["entries"][0]
    assert entry["players"][0]["name"] == "Former member 1"
    shown = (await client.get(f"{MATCHES}/{match['id']}")).json()
    assert [p["name"] for p in shown["players"]] == ["#1", "Bea", "Cem"]
    assert shown["standings"][0]["name"] == "#1"
    assert all("Ann" not in str(value) for value in shown.values())
    newcomer = await club.start(["Ann", "Bea"])  # a new Ann is a new member
    assert (await club.get())["players"][-1] == {"id": 4, "name": "Ann", "aliases": [],
                                                 "played": 0}
    del newcomer
    problem(await client.delete(f"{club.url}/players/1", headers=club.auth), 404)


async def test_a_club_tournament_seats_members_and_its_finished_tables_count(
        client: Client) -> None:
    club = await new_club(client)
    await club.play(["Ann", "Bea"], [0, 3])
    body = {"name": "Clubmeisterschaft", "game": "tschau-sepp", "options": {"games": 1},
            "rounds": 1, "table_size": 4, "seating": "random", "seed": 3, "club": club.id}
    problem(await client.post(TOURNAMENTS, json=body), 401)
    problem(await client.post(TOURNAMENTS, json=body, headers=bearer(club.view_token)), 403)
    tournament = await client.post(TOURNAMENTS, json=body, headers=club.auth)
    assert tournament.status_code == 201, tournament.text
    tournament_id, organiser = tournament.json()["id"], bearer(tournament.json()["token"])
    for name in ["ann", "Bea", "Cem", "Dan"]:
        added = await client.post(f"{TOURNAMENTS}/{tournament_id}/players",
                                  json={"name": name}, headers=organiser)
        assert added.status_code == 201, added.text
    twice = problem(await client.post(f"{TOURNAMENTS}/{tournament_id}/players",
                                      json={"name": "Dan"}, headers=organiser), 422)
    assert twice["errors"][0]["path"] == "name"
    club_view = await club.get()
    assert [p["name"] for p in club_view["players"]] == ["Ann", "Bea", "Cem", "Dan"]
    started = (await client.post(f"{TOURNAMENTS}/{tournament_id}/rounds",
                                 headers=organiser)).json()
    (table,) = started["tables"]
    entered = await client.post(f"{MATCHES}/{table['match_id']}/rounds",
                                json=tschau_round([0, 3, 4, 6]),
                                headers=bearer(table["table_token"]))
    assert entered.status_code == 201, entered.text
    members = await club.members()
    assert {name: m["games"]["tschau-sepp"]["played"] for name, m in members.items()} == {
        "Ann": 2, "Bea": 2, "Cem": 1, "Dan": 1}
    history = (await club.get("/history"))["entries"]
    assert [(e["kind"], e["name"]) for e in history] == [
        ("tournament", "Clubmeisterschaft"), ("match", None)]
    assert [p["name"] for p in history[0]["players"]] == ["Ann", "Bea", "Cem", "Dan"]
    only_cem = (await club.get("/history", player=3))["entries"]
    assert [e["kind"] for e in only_cem] == ["tournament"]
    # The club token cannot write a tournament table's match: the tournament's rules hold.
    problem(await client.delete(f"{MATCHES}/{table['match_id']}/rounds/1", headers=club.auth),
            403)
