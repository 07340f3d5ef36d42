"""A member's own data on SQLite and PostgreSQL (GDPR articles 15 and 17): everything the club
holds about one member exported, and a member forgotten: after it no answer about the club, its
matches and tournaments (the Kasse, its settlement and payments, a tournament's paper sheets,
table tokens and clock among them), no export, no backup and no event stream holds the old name
or spelling, while everybody else's results, ratings and seasons are what they were."""

from __future__ import annotations

import json
from contextlib import AsyncExitStack
from pathlib import Path
from typing import Any, TypeAlias

import httpx
import pytest
from litestar.testing import AsyncTestClient

from api.clubs.ledger import events_channel as club_channel
from api.server import backup, cli
from api.server.settings import Settings
from api.shared.live import Broker, Subscription
from api.shared.requests import change_events
from api.tournaments.access import events_channel as tournament_channel
from tests.api.clubs import CLUBS, MATCHES, TOURNAMENTS, Club, bearer, new_club, tschau_round
from tests.conftest import problem

Client: TypeAlias = "AsyncTestClient[Any]"
NAME = "Quirinus Obermaier"
ALIAS = "Quiri Obermaier"
OLD = (NAME.casefold(), ALIAS.casefold(), "quirinus", "obermaier")
SEASON = {"name": "Herbst", "from": "2026-11-01", "to": "2026-11-30"}
NOVEMBER = "from=2026-11-01&to=2026-11-30"
STAKES = {"currency": "CHF", "per_point": "0.05", "per_match_lost": "0.50"}


async def played(club: Club, players: list[str], penalties: list[int], day: str,
                 key: str | None = None, location: str | None = None) -> dict[str, Any]:
    match = await club.start(players, played_at=f"2026-11-{day}T20:00:00+01:00",
                             **({"location": location} if location else {}))
    headers = bearer(match["token"]) | ({"Idempotency-Key": key} if key else {})
    recorded = await club.client.post(f"{MATCHES}/{match['id']}/rounds",
                                      json=tschau_round(penalties), headers=headers)
    assert recorded.status_code == 201, recorded.text
    return match


async def club_tournament(client: Client, club: Club, names: list[str]) -> dict[str, Any]:
    """A one-round club tournament of one table, finished."""
    made = await client.post(TOURNAMENTS, headers=club.auth, json={
        "name": "Clubmeisterschaft", "game": "tschau-sepp", "options": {"games": 1},
        "rounds": 1, "table_size": 4, "seating": "random", "seed": 3, "club": club.id})
    assert made.status_code == 201, made.text
    tournament = made.json()
    organiser = bearer(tournament["token"])
    for name in names:
        added = await client.post(f"{TOURNAMENTS}/{tournament['id']}/players",
                                  json={"name": name}, headers=organiser)
        assert added.status_code == 201, added.text
    started = (await client.post(f"{TOURNAMENTS}/{tournament['id']}/rounds",
                                 headers=organiser)).json()
    (table,) = started["tables"]
    entered = await client.post(f"{MATCHES}/{table['match_id']}/rounds",
                                json=tschau_round([0, 3, 4, 6]),
                                headers=bearer(table["table_token"]))
    assert entered.status_code == 201, entered.text
    return tournament


async def a_club_with_quirinus(client: Client) -> tuple[Club, list[dict[str, Any]],
                                                         dict[str, Any], int]:
    """Quirinus (with an old spelling merged in) in club matches, a tournament and a season."""
    club = await new_club(client)
    await played(club, [ALIAS, "Ann"], [3, 0], "03")
    alias_id = (await club.members())[ALIAS]["id"]
    await played(club, [NAME, "Bea"], [0, 3], "04")
    quirinus = (await club.members())[NAME]["id"]
    merged = await client.post(f"{club.url}/players/{alias_id}/merge", json={"into": quirinus},
                               headers=club.auth)
    assert merged.status_code == 200, merged.text
    matches = [
        await played(club, ["Ann", NAME, "Bea"], [3, 0, 6], "05", key="key-1",
                     location="Rössli"),
        await played(club, ["Bea", "Ann"], [0, 3], "05"),
        await played(club, [NAME, "Cem"], [3, 0], "12", key="key-2"),
    ]
    tournament = await club_tournament(client, club, ["Ann", NAME, "Cem", "Dan"])
    season = await client.post(f"{club.url}/seasons", json=SEASON, headers=club.auth)
    assert season.status_code == 201, season.text
    return club, matches, tournament, quirinus


async def test_the_export_holds_everything_about_the_member_and_names_nobody_else(
        client: Client) -> None:
    club, matches, tournament, quirinus = await a_club_with_quirinus(client)
    url = f"{club.url}/players/{quirinus}/data"
    problem(await client.get(url), 401)
    problem(await client.get(url, headers=bearer(club.view_token)), 403)
    problem(await client.get(f"{club.url}/players/99/data", headers=club.auth), 404)
    answer = await client.get(url, headers=club.auth)
    assert answer.status_code == 200, answer.text
    assert "attachment" in answer.headers["content-disposition"]
    data = answer.json()
    assert data["format"] == "tafelrunde-member-data"
    assert data["club"] == {"id": club.id, "name": "Donnerstagsrunde"}
    assert data["member"]["name"] == NAME
    assert data["member"]["aliases"] == [ALIAS]
    assert data["statistics"]["tschau-sepp"]["played"] == 5
    assert [point["match"] for point in data["ratings"][0]["points"]][-1] is not None
    assert len(data["ratings"][0]["points"]) == 5
    ids = {m["id"] for m in data["matches"]}
    assert {matches[0]["id"], matches[2]["id"]} <= ids
    assert matches[1]["id"] not in ids
    assert len(data["matches"]) == 5  # two as the alias and as himself, two more, the table
    sheet = next(m for m in data["matches"] if m["id"] == matches[0]["id"])
    assert sheet["seats"] == [1]
    assert sheet["players"] == 3
    assert sheet["rank"] == 1
    assert sheet["location"] == "Rössli"
    assert sheet["evening"] == "2026-11-05"
    assert sheet["rounds"][0]["entry"] == {"penalty": 0}
    assert sheet["standing"]["seat"] == 1
    assert "name" not in sheet["standing"]
    (played_in,) = data["tournaments"]
    assert played_in["id"] == tournament["id"]
    assert played_in["registered_as"] == NAME
    (season,) = data["seasons"]
    assert season["season"]["name"] == "Herbst"
    assert season["standing"]["player"] == quirinus
    assert [night["date"] for night in season["standing"]["line"]] == [
        "2026-11-03", "2026-11-04", "2026-11-05", "2026-11-12", *[
            night["date"] for night in season["standing"]["line"][4:]]]
    text = answer.text.casefold()
    for other in ("ann", "bea", "cem", "dan"):  # nobody else is named
        assert f'"{other}"' not in text


async def everything(client: Client, club: Club, matches: list[dict[str, Any]],
                     tournament: dict[str, Any], quirinus: int,
                     members: list[int]) -> dict[str, httpx.Response]:
    """Every answer about the club, its matches and its tournament, every export and backup."""
    auth, answers = club.auth, {}
    paths = ["", "/players", "/ratings?game=tschau-sepp", "/ratings/history?game=tschau-sepp",
             "/statistics", "/statistics?since=2000-01-01T00:00:00Z", "/history",
             f"/history?player={quirinus}", "/export?format=csv",
             "/export?format=csv&table=statistics", "/export?format=json", "/backup",
             "/seasons", "/seasons/1/standings", "/seasons/1/standings?format=csv", "/audit",
             "/payments", "/kasse", "/kasse?format=csv", f"/settlement?{NOVEMBER}",
             f"/settlement?{NOVEMBER}&format=csv", "/pads",
             f"/players/{quirinus}/data", *[f"/players/{m}" for m in members],
             *[f"/head-to-head?player={quirinus}&opponent={m}" for m in members
               if m != quirinus]]
    for language in ("de", "en"):
        for path in paths:
            answers[f"club{path} {language}"] = await client.get(
                f"{club.url}{path}", headers={**auth, "Accept-Language": language})
    history = (await client.get(f"{club.url}/history", headers=auth)).json()["entries"]
    match_ids = {m["id"] for m in matches} | {e["id"] for e in history if e["kind"] == "match"}
    tables = (await client.get(f"{TOURNAMENTS}/{tournament['id']}")).json()
    for round_ in tables["round_list"]:
        match_ids |= {table["match_id"] for table in round_["tables"]}
    for match_id in sorted(match_ids):
        for path in ("", "/history", "/export?format=csv", "/export?format=json"):
            answers[f"match {match_id}{path}"] = await client.get(
                f"{MATCHES}/{match_id}{path}", headers=auth)
    for match, key in ((matches[0], "key-1"), (matches[2], "key-2")):  # replays
        answers[f"replay {key}"] = await client.post(
            f"{MATCHES}/{match['id']}/rounds", json=tschau_round([3, 0, 6][:len(
                match["players"])]), headers={**bearer(match["token"]), "Idempotency-Key": key})
    organiser = bearer(tournament["token"])
    for path in ("", "/standings", "/players/2", "/export?format=csv",
                 "/export?format=html", "/export?format=json", "/backup", "/rounds/1/paper",
                 "/rounds/1/tokens", "/clock"):
        answers[f"tournament{path}"] = await client.get(
            f"{TOURNAMENTS}/{tournament['id']}{path}", headers=organiser)
    return answers


async def for_money(club: Club, quirinus: int) -> None:
    """A match played for money on the 6th, and payments whose free text names Quirinus."""
    match = await club.start([NAME, "Dan"], played_at="2026-11-06T20:00:00+01:00",
                             stakes=STAKES)
    recorded = await club.record(match, tschau_round([6, 0]))
    assert recorded.status_code == 201, recorded.text
    for recorded_by, note in ((NAME, "Abend"), ("Kassierin Vreni", f"Schulden von {ALIAS}")):
        paid = await club.client.post(f"{club.url}/payments", headers=club.auth, json={
            "player": quirinus, "amount": "0.50", "currency": "CHF", "note": note,
            "recorded_by": recorded_by})
        assert paid.status_code == 201, paid.text


def channels(club: Club, matches: set[str], tournament: dict[str, Any]) -> list[str]:
    return [club_channel(club.id), *sorted(matches), tournament_channel(tournament["id"])]


async def streams_said(broker: Broker, keys: list[str],
                       subscriptions: list[Subscription]) -> dict[str, bytes]:
    """What each event stream sends: the changes its subscription heard (while the member was
    forgotten), and a new stream's opening, byte for byte as it is written."""
    said: dict[str, bytes] = {}
    for key, subscription in zip(keys, subscriptions, strict=True):
        heard = b""
        while (change := await subscription.next(0.05)) is not None:
            heard += f"{change.version} {change.action} {change.round}".encode()

        async def version() -> int:
            return 1

        opening = change_events(broker, key, version, ping=60)  # read before any ping
        heard += (await anext(opening)).encode() + (await anext(opening)).encode()
        await opening.aclose()
        said[key] = heard
    return said


async def test_a_forgotten_member_is_named_nowhere_and_everybody_elses_results_stay(
        client: Client) -> None:
    club, matches, tournament, quirinus = await a_club_with_quirinus(client)
    await for_money(club, quirinus)
    members = [m["id"] for m in await club.get("/players")]
    before = await everything(client, club, matches, tournament, quirinus, members)
    assert all(answer.status_code in (200, 201) for answer in before.values()), [
        (name, answer.status_code) for name, answer in before.items()
        if answer.status_code not in (200, 201)]
    named = [name for name, answer in before.items() if NAME in answer.text]
    assert len(named) > 40  # the grep below looks where the name was

    url = f"{club.url}/players/{quirinus}/forget"
    problem(await client.post(url), 401)
    problem(await client.post(url, headers=bearer(club.view_token)), 403)
    ladder = {r["name"]: r for r in await club.get("/ratings", game="tschau-sepp")}
    standings = {r["name"]: r for r in await club.get("/seasons/1/standings")}
    broker: Broker = client.app.state.broker
    keys = channels(club, {k.split(" ")[1] for k in before if k.startswith("match ")},
                    tournament)
    async with AsyncExitStack() as stack:
        subscriptions = [await stack.enter_async_context(broker.subscribe(key)) for key in keys]
        forgotten = await client.post(url, headers={**club.auth, "Accept-Language": "de"})
        assert forgotten.status_code == 200, forgotten.text
        streams = await streams_said(broker, keys, subscriptions)
    assert forgotten.json()["name"] == f"Ehemaliges Mitglied {quirinus}"
    assert forgotten.json()["member"] == quirinus
    assert b"member_forgotten" in streams[club_channel(club.id)]
    assert all(b"current" in said for said in streams.values())
    assert not [(key, said) for key, said in streams.items()
                if [old for old in OLD if old.encode() in said.lower()]]

    after = await everything(client, club, matches, tournament, quirinus, members)
    assert after.keys() == before.keys()
    for name, answer in after.items():
        gone = name.startswith(f"club/players/{quirinus} ")  # no longer listed
        assert answer.status_code in ((404,) if gone else (200, 201)), (
            name, answer.status_code, answer.text)
        text = answer.content.decode("utf-8").casefold()
        assert not [old for old in OLD if old in text], (name, answer.text[:400])
    payments = (await client.get(f"{club.url}/payments", headers=club.auth)).json()
    assert {(p["recorded_by"], p["note"]) for p in payments} == {
        (f"#{quirinus}", "Abend"), ("Kassierin Vreni", f"Schulden von #{quirinus}")}

    # Everybody else is where they were: ratings and season points and ranks (the ladder
    # lists members only, so its ranks close up where the forgotten member stood).
    rated = ("player", "mu", "sigma", "ordinal", "played", "won", "rated")
    assert {r["name"]: [r[k] for k in rated]
            for r in await club.get("/ratings", game="tschau-sepp")} == {
        name: [row[k] for k in rated] for name, row in ladder.items() if name != NAME}
    rows = await club.get("/seasons/1/standings")
    assert {r["name"]: r for r in rows if r["player"] != quirinus} == {
        name: row for name, row in standings.items() if name != NAME}
    mine = next(r for r in rows if r["player"] == quirinus)
    assert mine["name"] == f"Former member {quirinus}"
    assert {k: v for k, v in mine.items() if k != "name"} == {
        k: v for k, v in standings[NAME].items() if k != "name"}

    audit = await club.get("/audit")
    assert [(r["action"], r["member"], r["token_kind"]) for r in audit] == [
        ("member_forgotten", quirinus, "club")]
    problem(await client.get(f"{club.url}/audit", headers=bearer(club.view_token)), 403)
    # The name is free again: a new member may take it, and forgetting twice changes nothing.
    again = await client.post(url, headers=club.auth)
    assert again.status_code == 200, again.text
    await played(club, [NAME, "Ann"], [0, 3], "20")
    assert NAME in await club.members()


async def test_a_removed_member_can_still_be_forgotten_and_replays_lose_the_name(
        client: Client) -> None:
    club = await new_club(client)
    match = await played(club, [NAME, "Ann"], [0, 3], "03", key="only")
    removed = await client.delete(f"{club.url}/players/1", headers=club.auth)
    assert removed.status_code == 204, removed.text
    replay = {**bearer(match["token"]), "Idempotency-Key": "only"}
    still = await client.post(f"{MATCHES}/{match['id']}/rounds", json=tschau_round([0, 3]),
                              headers=replay)
    assert NAME in still.text  # removing alone kept the stored answer of the round
    forgotten = await client.post(f"{club.url}/players/1/forget", headers=club.auth)
    assert forgotten.status_code == 200, forgotten.text
    assert forgotten.json()["name"] == "Former member 1"
    gone = await client.post(f"{MATCHES}/{match['id']}/rounds", json=tschau_round([0, 3]),
                             headers=replay)
    assert gone.status_code == 201
    assert NAME not in gone.text
    assert [s["name"] for s in gone.json()["standings"]] == ["#1", "Ann"]
    problem(await client.post(f"{CLUBS}/{club.id}/players/7/forget", headers=club.auth), 404)


async def test_the_season_table_comes_as_csv_in_the_readers_language(client: Client) -> None:
    club = await new_club(client)
    await played(club, ["Ann", "Bea", "Cem"], [0, 3, 6], "05")
    await played(club, ["Bea", "Ann"], [0, 6], "12")
    made = await client.post(f"{club.url}/seasons", json={**SEASON, "best": 1},
                             headers=club.auth)
    assert made.status_code == 201, made.text
    sheet = await client.get(f"{club.url}/seasons/1/standings",
                             params={"format": "csv", "sep": ";", "decimal": ","},
                             headers={**club.auth, "Accept-Language": "de"})
    assert sheet.status_code == 200, sheet.text
    assert sheet.headers["content-type"].startswith("text/csv")
    assert "season-1.csv" in sheet.headers["content-disposition"]
    lines = sheet.content.decode("utf-8").removeprefix("\ufeff").split("\r\n")
    assert lines[0] == ("Rang;Mitglied Nr.;Name;Punkte;Abende;Bester Abend;Gezählte Abende;"
                        "Gestrichene Abende")
    assert lines[1] == "1;1;Ann;1;2;1;2026-11-05;2026-11-12"
    assert lines[2] == "1;2;Bea;1;2;1;2026-11-12;2026-11-05"
    assert lines[3] == "3;3;Cem;0;1;0;2026-11-05;"


async def test_the_match_sheet_says_when_in_the_clubs_zone_and_where(client: Client) -> None:
    club = await new_club(client)
    zoned = await client.patch(club.url, json={"time_zone": "America/New_York"},
                               headers=club.auth)
    assert zoned.status_code == 200, zoned.text
    match = await played(club, ["Ann", "Bea"], [0, 3], "05", location="Rössli")
    sheet = await client.get(f"{MATCHES}/{match['id']}/export?format=csv&lang=de")
    header, row, *_ = sheet.content.decode("utf-8").removeprefix("\ufeff").split("\r\n")
    assert header.split(",")[-2:] == ["Ort", "Gespielt am"]
    assert row.split(",")[-2:] == ["Rössli", "2026-11-05 14:00"]  # 20:00 in Zurich
    alone = (await client.post(MATCHES, json={
        "game": "tschau-sepp", "players": ["Ann", "Bea"], "options": {"games": 1},
        "played_at": "2026-11-05T20:00:00+01:00"})).json()
    recorded = await client.post(f"{MATCHES}/{alone['id']}/rounds", json=tschau_round([0, 3]),
                                 headers=bearer(alone["token"]))
    assert recorded.status_code == 201, recorded.text
    sheet = await client.get(f"{MATCHES}/{alone['id']}/export?format=csv")
    header, row, *_ = sheet.content.decode("utf-8").removeprefix("\ufeff").split("\r\n")
    assert header.split(",")[-2:] == ["Place", "Played on"]
    assert row.split(",")[-2:] == ["", "2026-11-05 19:00"]  # UTC without a club


async def test_the_servers_backup_file_holds_no_forgotten_name(
        client: Client, settings: Settings, tmp_path: Path,
        monkeypatch: pytest.MonkeyPatch) -> None:
    """``tafelrunde backup`` copies the SQLite file page by page, free space included: the name
    must be gone from the pages, not only from the rows (PostgreSQL: pg_dump writes rows)."""
    club, _matches, _tournament, quirinus = await a_club_with_quirinus(client)
    forgotten = await client.post(f"{club.url}/players/{quirinus}/forget", headers=club.auth)
    assert forgotten.status_code == 200, forgotten.text
    monkeypatch.setenv("TAFELRUNDE_DATABASE_URL", settings.database_url)
    saved = tmp_path / "backup.db"
    if not settings.database_url.startswith("sqlite"):
        # PostgreSQL is backed up with pg_dump, which writes rows: the grep above covers them.
        assert cli.main(["backup", str(saved)]) == backup.NOT_SQLITE
        assert not saved.exists()
        return
    assert cli.main(["backup", str(saved)]) == 0
    held = saved.read_bytes().lower()
    assert [old for old in OLD if old.encode() in held] == []


async def test_the_export_holds_the_members_payments_and_not_who_recorded_them(
        client: Client) -> None:
    club, _matches, _tournament, quirinus = await a_club_with_quirinus(client)
    ann = (await club.members())["Ann"]["id"]
    for player, amount in ((quirinus, "5.00"), (ann, "2.00"), (quirinus, "-1.50")):
        paid = await client.post(f"{club.url}/payments", headers=club.auth, json={
            "player": player, "amount": amount, "currency": "CHF", "note": "Abend",
            "recorded_by": "Kassierin Vreni"})
        assert paid.status_code == 201, paid.text
    data = (await client.get(f"{club.url}/players/{quirinus}/data", headers=club.auth)).json()
    assert [(p["amount"], p["player"]) for p in data["payments"]] == [
        ("5.00", quirinus), ("-1.50", quirinus)]
    assert "Vreni" not in json.dumps(data)


async def test_forgetting_replaces_the_name_only_as_a_whole_word_in_payments(
        client: Client) -> None:
    """A payment's free text loses the member's name and aliases as whole words, whatever the
    case; a longer word that only begins with it, or a nickname, cannot be told from another
    word and stays (the README says so)."""
    club = await new_club(client)
    await played(club, ["Jo", "Ann"], [0, 3], "03")
    notes = ["Bier für JO und Ann", "Jonas zahlt, Jo nicht", "Jo", "für Jo-Jo"]
    for note in notes:
        paid = await client.post(f"{club.url}/payments", headers=club.auth, json={
            "player": 2, "amount": "1.00", "currency": "CHF", "note": note,
            "recorded_by": "jo"})
        assert paid.status_code == 201, paid.text
    forgotten = await client.post(f"{club.url}/players/1/forget", headers=club.auth)
    assert forgotten.status_code == 200, forgotten.text
    payments = (await client.get(f"{club.url}/payments", headers=club.auth)).json()
    assert sorted((p["note"], p["recorded_by"]) for p in payments) == sorted([
        ("Bier für #1 und Ann", "#1"), ("Jonas zahlt, #1 nicht", "#1"), ("#1", "#1"),
        ("für #1-#1", "#1")])
