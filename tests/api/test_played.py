"""When and where a match was played, and the club's time zone, on SQLite and PostgreSQL: a
sheet typed in later keeps its evening in the match, its exports, the club's history (ordered
by it, each entry's evening the local date in the club's time zone), head-to-head and backup."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from typing import Any

import pytest
from litestar.testing import AsyncTestClient
from openskill.models import PlackettLuce

from tests.api.clubs import CLUBS, MATCHES, bearer, new_club, tschau_round
from tests.conftest import problem

Client = AsyncTestClient  # type: ignore[type-arg]
NEW = {"game": "tschau-sepp", "players": ["Ann", "Bea"], "options": {"games": 1}}


async def test_a_match_keeps_when_and_where_it_was_played_in_its_answers_and_exports(
        client: Client) -> None:
    made = await client.post(MATCHES, json={
        **NEW, "played_at": "2026-11-20T23:30:00+01:00", "location": "  Rössli, Bern "})
    assert made.status_code == 201, made.text
    match = made.json()
    assert match["played_at"] == "2026-11-20T22:30:00Z"
    assert match["location"] == "Rössli, Bern"
    read = (await client.get(f"{MATCHES}/{match['id']}")).json()
    assert (read["played_at"], read["location"]) == (match["played_at"], "Rössli, Bern")
    recorded = await client.post(f"{MATCHES}/{match['id']}/rounds", json=tschau_round([0, 3]),
                                 headers=bearer(match["token"]))
    assert recorded.status_code == 201
    after = (await client.get(f"{MATCHES}/{match['id']}")).json()
    assert (after["played_at"], after["location"]) == (match["played_at"], "Rössli, Bern")
    sheet = (await client.get(f"{MATCHES}/{match['id']}/export", params={"format": "json"})).json()
    assert (sheet["match"]["played_at"], sheet["match"]["location"]) == (
        match["played_at"], "Rössli, Bern")


async def test_without_played_at_a_match_was_played_when_it_was_created(
        client: Client) -> None:
    match = (await client.post(MATCHES, json={**NEW, "location": "   "})).json()
    assert match["played_at"] == match["created_at"]
    assert match["location"] is None


@pytest.mark.parametrize(("field", "value", "code"), [
    ("played_at", "2026-11-20T20:00:00", "not_a_moment"),  # no offset: which evening?
    ("played_at", "20.11.2026 20:00", "not_a_moment"),
    ("played_at", "2026-13-40T20:00:00Z", "not_a_moment"),
    ("played_at", "0001-01-01T00:00:00+01:00", "not_a_moment"),  # before year 1 in UTC
    ("played_at", "1899-12-31T23:00:00Z", "too_early"),
    ("played_at", "9999-12-31T23:59:59+00:00", "in_the_future"),
    ("location", "x" * 81, "name_too_long"),
    ("location", "Bern\x07", "control_character"),
])
async def test_a_moment_or_place_that_cannot_be_is_422_at_its_field_in_the_request_language(
        client: Client, field: str, value: str, code: str) -> None:
    body = problem(await client.post(MATCHES, json={**NEW, field: value},
                                     headers={"Accept-Language": "de"}), 422)
    assert [(e["path"], e["code"]) for e in body["errors"]] == [(field, code)]
    english = problem(await client.post(MATCHES, json={**NEW, field: value}), 422)
    assert body["errors"][0]["message"] != english["errors"][0]["message"]


async def test_a_clock_running_a_little_fast_is_allowed_more_is_the_future(
        client: Client) -> None:
    soon = datetime.now(UTC) + timedelta(minutes=2)
    made = await client.post(MATCHES, json={**NEW, "played_at": soon.isoformat()})
    assert made.status_code == 201, made.text
    later = datetime.now(UTC) + timedelta(minutes=10)
    body = problem(await client.post(MATCHES, json={**NEW, "played_at": later.isoformat()}),
                   422)
    assert body["errors"][0]["code"] == "in_the_future"


async def test_a_wrongly_typed_played_at_is_400_at_the_field(client: Client) -> None:
    body = problem(await client.post(MATCHES, json={**NEW, "played_at": 1700000000}), 400)
    assert body["errors"][0]["path"] == "played_at"


async def test_a_club_has_a_time_zone_it_may_change_and_a_bad_one_is_422(
        client: Client) -> None:
    club = await new_club(client)
    assert (await club.get())["time_zone"] == "Europe/Zurich"
    changed = await client.patch(club.url, json={"time_zone": "America/New_York"},
                                 headers=club.auth)
    assert changed.status_code == 200, changed.text
    assert changed.json()["time_zone"] == "America/New_York"
    assert changed.json()["name"] == "Donnerstagsrunde"
    for bad in ("Mars/Olympus", "europe/zurich", "/etc/passwd", "../../x", "x" * 65):
        body = problem(await client.patch(club.url, json={"time_zone": bad}, headers={
            **club.auth, "Accept-Language": "fr"}), 422 if len(bad) <= 64 else 400)
        assert body["errors"][0]["path"] == "time_zone"
    renamed = await client.patch(club.url, json={"name": "Freitagsrunde"}, headers=club.auth)
    assert renamed.json()["time_zone"] == "America/New_York"
    problem(await client.patch(club.url, json={"time_zone": "UTC"},
                               headers=bearer(club.view_token)), 403)


async def _played(club: Any, players: list[str], at: str | None,
                  location: str | None = None) -> dict[str, Any]:
    extra = {} if at is None else {"played_at": at}
    match = await club.start(players, **extra, **({"location": location} if location else {}))
    recorded = await club.record(match, tschau_round([0] + [3] * (len(players) - 1)))
    assert recorded.status_code == 201
    return match


async def test_the_club_history_lists_evenings_by_when_played_in_the_club_time_zone(
        client: Client) -> None:
    club = await new_club(client)
    today = await _played(club, ["Ann", "Bea"], None, "Clubhaus")
    typed_in_later = await _played(club, ["Ann", "Cem"], "2026-11-20T23:30:00Z", "Rössli")
    earlier = await _played(club, ["Bea", "Cem"], "2026-11-19T19:00:00+01:00")
    history = await club.get("/history")
    assert [e["id"] for e in history["entries"]] == [
        today["id"], typed_in_later["id"], earlier["id"]]
    by_id = {e["id"]: e for e in history["entries"]}
    assert by_id[typed_in_later["id"]]["evening"] == "2026-11-21"  # 00:30 in Zurich
    assert by_id[typed_in_later["id"]]["location"] == "Rössli"
    assert by_id[earlier["id"]]["evening"] == "2026-11-19"
    assert by_id[earlier["id"]]["location"] is None
    assert by_id[today["id"]]["location"] == "Clubhaus"
    november = await club.get("/history", since="2026-11-20T00:00:00Z",
                              until="2026-11-21T00:00:00Z")
    assert [e["id"] for e in november["entries"]] == [typed_in_later["id"]]
    await client.patch(club.url, json={"time_zone": "UTC"}, headers=club.auth)
    utc_history = {e["id"]: e for e in (await club.get("/history"))["entries"]}
    assert utc_history[typed_in_later["id"]]["evening"] == "2026-11-20"
    h2h = await club.get("/head-to-head", player=1, opponent=3)
    assert [m["id"] for m in h2h["matches"]] == [typed_in_later["id"]]
    assert h2h["matches"][0]["evening"] == "2026-11-20"


async def test_head_to_head_lists_the_latest_evening_first_not_the_latest_finished(
        client: Client) -> None:
    club = await new_club(client)
    late_evening = await _played(club, ["Ann", "Bea"], "2026-11-27T20:00:00Z")
    typed_in_later = await _played(club, ["Ann", "Bea"], "2026-11-20T20:00:00Z")
    h2h = await club.get("/head-to-head", player=1, opponent=2)
    assert [m["id"] for m in h2h["matches"]] == [late_evening["id"], typed_in_later["id"]]


async def test_a_club_backup_keeps_time_zone_played_at_and_location(client: Client) -> None:
    club = await new_club(client)
    await client.patch(club.url, json={"time_zone": "Europe/Berlin"}, headers=club.auth)
    match = await _played(club, ["Ann", "Bea"], "2026-11-20T20:00:00Z", "Rössli")
    backup = await club.get("/backup")
    assert backup["time_zone"] == "Europe/Berlin"
    assert (backup["matches"][0]["played_at"], backup["matches"][0]["location"]) == (
        "2026-11-20T20:00:00Z", "Rössli")
    imported = await client.post(f"{CLUBS}/import", json=backup)
    assert imported.status_code == 201, imported.text
    assert imported.json()["time_zone"] == "Europe/Berlin"
    copy = await new_club_of(client, imported.json())
    (entry,) = (await copy.get("/history"))["entries"]
    assert (entry["played_at"], entry["location"], entry["evening"]) == (
        "2026-11-20T20:00:00Z", "Rössli", "2026-11-20")
    assert entry["id"] != match["id"]
    copied = (await client.get(f"{MATCHES}/{entry['id']}", headers=copy.auth)).json()
    assert (copied["played_at"], copied["location"]) == ("2026-11-20T20:00:00Z", "Rössli")


async def test_a_backup_without_them_imports_as_played_when_created_in_zurich(
        client: Client) -> None:
    club = await new_club(client)
    await _played(club, ["Ann", "Bea"], None)
    backup = await club.get("/backup")
    del backup["time_zone"]
    for played in backup["matches"]:
        del played["played_at"], played["location"]
    imported = (await client.post(f"{CLUBS}/import", json=backup)).json()
    assert imported["time_zone"] == "Europe/Zurich"
    copy = await new_club_of(client, imported)
    (entry,) = (await copy.get("/history"))["entries"]
    assert entry["played_at"] == backup["matches"][0]["created_at"]


@pytest.mark.parametrize(("change", "path"), [
    ({"time_zone": "Nowhere/City"}, "time_zone"),
    ({"matches": [{"location": "Bern\x00"}]}, "matches[0].location"),
])
async def test_a_backup_with_a_bad_time_zone_or_location_is_422_at_it(
        client: Client, change: dict[str, Any], path: str) -> None:
    club = await new_club(client)
    await _played(club, ["Ann", "Bea"], None)
    backup = await club.get("/backup")
    if "matches" in change:
        backup["matches"][0].update(change["matches"][0])
    else:
        backup.update(change)
    body = problem(await client.post(f"{CLUBS}/import", json=backup), 422)
    assert [e["path"] for e in body["errors"]] == [path]


async def new_club_of(client: Client, created: dict[str, Any]) -> Any:
    from tests.api.clubs import Club
    return Club(client, created["id"], created["token"], created["view_token"])


# --- members before they play ------------------------------------------------------------------


async def test_members_are_added_by_name_each_once_and_existing_ones_said_so(
        client: Client) -> None:
    club = await new_club(client)
    await club.play(["Ann", "Bea"], [0, 3])
    added = await client.post(f"{club.url}/players", headers=club.auth, json={
        "names": ["  cem", "ANN", "Dora", "Cem ", "dora", "Élodie"]})
    assert added.status_code == 201, added.text
    assert added.json()["players"] == [
        {"id": 3, "name": "cem", "added": True}, {"id": 1, "name": "Ann", "added": False},
        {"id": 4, "name": "Dora", "added": True}, {"id": 5, "name": "Élodie", "added": True}]
    members = await club.members()
    assert set(members) == {"Ann", "Bea", "cem", "Dora", "Élodie"}
    assert members["Dora"]["games"] == {}
    version = (await club.get())["version"]
    again = await client.post(f"{club.url}/players", headers=club.auth,
                              json={"names": ["dora"]})
    assert again.json()["players"] == [{"id": 4, "name": "Dora", "added": False}]
    assert (await club.get())["version"] == version  # nothing new, nothing changed
    match = await club.start(["Dora", "Élodie"])
    assert [p["name"] for p in match["players"]] == ["Dora", "Élodie"]
    assert [p["id"] for p in (await club.get())["players"]] == [1, 2, 3, 4, 5]


async def test_a_merged_spelling_is_its_member(client: Client) -> None:
    club = await new_club(client)
    await client.post(f"{club.url}/players", headers=club.auth, json={"names": ["Ann", "Anne"]})
    merged = await client.post(f"{club.url}/players/2/merge", headers=club.auth,
                               json={"into": 1})
    assert merged.status_code == 200, merged.text
    added = await client.post(f"{club.url}/players", headers=club.auth,
                              json={"names": ["anne", "Ann"]})
    assert added.json()["players"] == [{"id": 1, "name": "Ann", "added": False}]


@pytest.mark.parametrize(("names", "status", "path"), [
    (["Ann", "   "], 422, "names[1]"),
    (["Ann", "x" * 41], 422, "names[1]"),
    (["Ann\x00"], 422, "names[0]"),
    ([], 400, "names"),
    (["Ann", 7], 400, "names[1]"),
])
async def test_names_that_cannot_be_members_add_nobody(
        client: Client, names: list[Any], status: int, path: str) -> None:
    club = await new_club(client)
    body = problem(await client.post(f"{club.url}/players", headers={
        **club.auth, "Accept-Language": "it"}, json={"names": names}), status)
    assert body["errors"][0]["path"] == path
    assert await club.members() == {}


async def test_adding_members_needs_the_club_token(client: Client) -> None:
    club = await new_club(client)
    problem(await client.post(f"{club.url}/players", json={"names": ["Ann"]}), 401)
    problem(await client.post(f"{club.url}/players", headers=bearer(club.view_token),
                              json={"names": ["Ann"]}), 403)
    problem(await client.post(f"{CLUBS}/nosuchclub/players", headers=club.auth,
                              json={"names": ["Ann"]}), 404)
    assert await club.members() == {}


async def test_a_sheet_typed_in_later_is_counted_and_rated_on_its_evening(
        client: Client) -> None:
    """Ann beats Bea on the 27th; the sheet of the 20th (Bea beat Ann) is typed in after it.
    Ratings, streaks, last places, the rating history, the statistics' dates and the results
    export all go by evening: as if the 20th had been typed in first."""
    club = await new_club(client)
    later = await _played(club, ["Ann", "Bea"], "2026-11-27T20:00:00Z")
    earlier = await _played(club, ["Bea", "Ann"], "2026-11-20T20:00:00Z")
    model = PlackettLuce()
    ann, bea = model.rating(), model.rating()
    [[bea], [ann]] = model.rate([[bea], [ann]], ranks=[1, 2])  # the 20th
    [[ann], [bea]] = model.rate([[ann], [bea]], ranks=[1, 2])  # the 27th
    members = await club.members()
    shown = members["Ann"]["games"]["tschau-sepp"]
    assert (shown["rating"]["mu"], shown["rating"]["sigma"]) == (ann.mu, ann.sigma)
    assert members["Bea"]["games"]["tschau-sepp"]["rating"]["mu"] == bea.mu
    assert shown["streak"] == 1  # won on the 27th, the latest evening
    assert [last["match"] for last in shown["last"]] == [later["id"], earlier["id"]]
    history = await club.get("/ratings/history", game="tschau-sepp", player=1)
    assert [(p["match"], p["played_at"][:10]) for p in history[0]["points"]] == [
        (earlier["id"], "2026-11-20"), (later["id"], "2026-11-27")]
    assert history[0]["points"][-1]["mu"] == ann.mu
    week = await club.get("/statistics", since="2026-11-26T00:00:00Z",
                          until="2026-11-28T00:00:00Z")
    assert {(row["name"], row["won"]) for row in week} == {("Ann", 1), ("Bea", 0)}
    exported = await club.get("/export", format="json")
    assert [(r["match"], r["finish"], r["evening"]) for r in exported["results"]][::2] == [
        (earlier["id"], 2, "2026-11-20"), (later["id"], 1, "2026-11-27")]
    undone = await client.delete(f"{MATCHES}/{earlier['id']}/rounds/1",
                                 headers=bearer(earlier["token"]))
    assert undone.status_code == 204
    [[alone], _] = model.rate([[model.rating()], [model.rating()]], ranks=[1, 2])
    assert (await club.members())["Ann"]["games"]["tschau-sepp"]["rating"]["mu"] == alone.mu
