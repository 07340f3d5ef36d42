"""The club's money on SQLite and PostgreSQL: the settlement of an evening or any period, the
Kasse with its payments, and how corrections, merges, backups and exports carry them."""

from __future__ import annotations

from typing import Any

from litestar.testing import AsyncTestClient
from sqlalchemy.ext.asyncio import AsyncSession, create_async_engine
from sqlmodel import select

from api.clubs.models import ClubPaymentRow, ClubRow
from api.db.models import MatchRow
from api.server.settings import Settings
from tests.api.clubs import CLUBS, MATCHES, Club, bearer, new_club, tschau_round
from tests.conftest import problem

Client = AsyncTestClient  # type: ignore[type-arg]
FIVE_RAPPEN = {"currency": "CHF", "per_point": "0.05"}
TEN_AND_A_FEE = {"currency": "CHF", "per_point": "0.10", "per_match_lost": "0.50"}


def evening(day: str, hour: int = 20) -> str:
    """A moment of that November evening in Zurich (UTC+1)."""
    return f"2026-11-{day}T{hour:02d}:00:00+01:00"


async def sheet(club: Club, players: list[str], penalties: list[int],
                **extra: Any) -> dict[str, Any]:
    match = await club.start(players, **extra)
    recorded = await club.record(match, tschau_round(penalties))
    assert recorded.status_code == 201, recorded.text
    assert recorded.json()["status"] == "finished"
    return match


async def three_matches(club: Club, **when: Any) -> list[dict[str, Any]]:
    """Ann 0, Bea 7, Cem 13 at 5 Rappen (Bea pays 0.35, Cem 0.95; Ann gets 1.00, Bea 0.30);
    Ann 0, Bea 4 at 10 Rappen and 0.50 for the lost match (Bea pays Ann 0.40 and the pot 0.50);
    Bea 0, Cem 4 at 5 Rappen (Cem pays Bea 0.20)."""
    return [await sheet(club, ["Ann", "Bea", "Cem"], [0, 7, 13], stakes=FIVE_RAPPEN, **when),
            await sheet(club, ["Ann", "Bea"], [0, 4], stakes=TEN_AND_A_FEE, **when),
            await sheet(club, ["Bea", "Cem"], [0, 4], stakes=FIVE_RAPPEN, **when)]


def lines(money: dict[str, Any]) -> dict[str, tuple[str, str, str]]:
    return {line["name"]: (line["pays"], line["receives"], line["net"])
            for line in money["members"]}


async def pay(club: Club, player: int, amount: str, currency: str = "CHF",
              **extra: Any) -> dict[str, Any]:
    response = await club.client.post(f"{club.url}/payments", headers=club.auth, json={
        "player": player, "amount": amount, "currency": currency, **extra})
    assert response.status_code == 201, response.text
    body: dict[str, Any] = response.json()
    return body


def dues(kasse: dict[str, Any]) -> dict[tuple[str, str], tuple[str, str, str]]:
    return {(pot["currency"], line["name"]): (line["owes"], line["paid"], line["due"])
            for pot in kasse["currencies"] for line in pot["members"]}


async def test_tonights_settlement_sums_the_evenings_matches_and_nets_them(
        client: Client) -> None:
    club = await new_club(client)
    await three_matches(club)
    await sheet(club, ["Ann", "Cem"], [0, 9])  # not for money
    await sheet(club, ["Ann", "Cem"], [0, 9], stakes=FIVE_RAPPEN,
                played_at="2026-01-05T20:00:00+01:00")  # another evening
    tonight = await club.get("/settlement")
    assert tonight["from"] == tonight["to"]
    assert tonight["matches"] == 3
    assert tonight["time_zone"] == "Europe/Zurich"
    (chf,) = tonight["currencies"]
    assert chf["currency"] == "CHF"
    assert lines(chf) == {"Ann": ("0.00", "1.40", "1.40"), "Bea": ("1.25", "0.50", "-0.75"),
                          "Cem": ("1.15", "0.00", "-1.15")}
    assert chf["pot"] == "0.50"
    ids = {line["name"]: line["player"] for line in chf["members"]}
    assert chf["transfers"] == [  # by payer: Bea joined before Cem
        {"from": ids["Bea"], "to": ids["Ann"], "amount": "0.25"},
        {"from": ids["Cem"], "to": ids["Ann"], "amount": "1.15"}]
    viewed = await client.get(f"{club.url}/settlement", headers=bearer(club.view_token))
    assert viewed.status_code == 200
    assert viewed.json() == tonight


async def test_a_period_counts_its_evenings_by_played_at_in_the_clubs_time_zone(
        client: Client) -> None:
    club = await new_club(client)
    await sheet(club, ["Ann", "Bea"], [0, 3], stakes=FIVE_RAPPEN, played_at=evening("05"))
    # 23:30 UTC on the 5th is the 6th in Zurich.
    await sheet(club, ["Ann", "Bea"], [0, 4], stakes=FIVE_RAPPEN,
                played_at="2026-11-05T23:30:00Z")
    await sheet(club, ["Ann", "Bea"], [0, 6], stakes={"currency": "EUR", "per_point": "0.01"},
                played_at=evening("12"))

    async def bea_pays(**period: str) -> dict[str, str]:
        settled = await club.get("/settlement", **period)
        return {money["currency"]: lines(money)["Bea"][0] for money in settled["currencies"]}

    assert await bea_pays(**{"from": "2026-11-05", "to": "2026-11-05"}) == {"CHF": "0.15"}
    assert await bea_pays(**{"from": "2026-11-06", "to": "2026-11-06"}) == {"CHF": "0.20"}
    assert await bea_pays(**{"from": "2026-11-01", "to": "2026-11-30"}) == {
        "CHF": "0.35", "EUR": "0.06"}
    assert await bea_pays(**{"from": "2026-11-06"}) == {"CHF": "0.20", "EUR": "0.06"}
    assert await bea_pays(to="2026-11-06") == {"CHF": "0.35"}
    assert await bea_pays(**{"from": "0001-01-01", "to": "9999-12-31"}) == {
        "CHF": "0.35", "EUR": "0.06"}
    renamed = await client.patch(club.url, json={"time_zone": "UTC"}, headers=club.auth)
    assert renamed.status_code == 200, renamed.text
    assert await bea_pays(**{"from": "2026-11-05", "to": "2026-11-05"}) == {"CHF": "0.35"}


async def test_a_bad_period_is_refused_at_its_parameter(client: Client) -> None:
    club = await new_club(client)
    for params, paths in (({"from": "5.11.2026"}, ["from"]),
                          ({"from": "2026-02-30", "to": "tomorrow"}, ["from", "to"]),
                          ({"from": "2026-11-06", "to": "2026-11-05"}, ["to"])):
        refused = problem(await client.get(f"{club.url}/settlement", params=params,
                                           headers=club.auth), 422)
        assert [error["path"] for error in refused["errors"]] == paths
    german = problem(await client.get(f"{club.url}/settlement", params={"to": "x"}, headers={
        **club.auth, "Accept-Language": "de"}), 422)
    assert "Datum" in german["errors"][0]["message"]


async def test_payments_set_against_what_each_member_owes_the_pot(client: Client) -> None:
    club = await new_club(client)
    await three_matches(club)
    await sheet(club, ["Ann", "Cem"], [0, 3], stakes={
        "currency": "EUR", "per_point": "0", "to": "pot", "per_match_lost": "2"})
    members = {name: member["id"] for name, member in (await club.members()).items()}
    kasse = await club.get("/kasse")
    assert dues(kasse) == {("CHF", "Bea"): ("0.50", "0.00", "0.50"),
                           ("EUR", "Cem"): ("2.00", "0.00", "2.00")}
    assert [pot["balance"] for pot in kasse["currencies"]] == ["0.00", "0.00"]
    paid = await pay(club, members["Bea"], "5", note="Abend 5.11.", recorded_by="Kassier Urs")
    assert {key: paid[key] for key in ("id", "player", "name", "amount", "currency", "note",
                                       "recorded_by")} == {
        "id": 1, "player": members["Bea"], "name": "Bea", "amount": "5.00", "currency": "CHF",
        "note": "Abend 5.11.", "recorded_by": "Kassier Urs"}
    await pay(club, members["Bea"], "-4.50", note="Storno: zu viel bezahlt")
    await pay(club, members["Cem"], "1.25", "EUR")
    kasse = await club.get("/kasse")
    assert dues(kasse) == {("CHF", "Bea"): ("0.50", "0.50", "0.00"),
                           ("EUR", "Cem"): ("2.00", "1.25", "0.75")}
    assert [pot["balance"] for pot in kasse["currencies"]] == ["0.50", "1.25"]
    listed = await club.get("/payments")
    assert [(p["id"], p["amount"], p["currency"]) for p in listed] == [
        (3, "1.25", "EUR"), (2, "-4.50", "CHF"), (1, "5.00", "CHF")]
    viewed = await client.get(f"{club.url}/kasse", headers=bearer(club.view_token))
    assert viewed.status_code == 200
    assert viewed.json() == kasse


async def test_a_correction_moves_the_due_amounts_and_payments_stay(client: Client) -> None:
    club = await new_club(client)
    matches = await three_matches(club)
    bea = (await club.members())["Bea"]["id"]
    await pay(club, bea, "0.50")
    version = (await club.get())["version"]
    corrected = await client.put(f"{MATCHES}/{matches[1]['id']}/rounds/1",
                                 json=tschau_round([4, 0]), headers=bearer(matches[1]["token"]))
    assert corrected.status_code == 200, corrected.text
    assert dues(await club.get("/kasse")) == {("CHF", "Bea"): ("0.00", "0.50", "-0.50"),
                                              ("CHF", "Ann"): ("0.50", "0.00", "0.50")}
    (chf,) = (await club.get("/settlement"))["currencies"]
    assert lines(chf)["Ann"] == ("0.90", "1.00", "0.10")
    assert (await club.get())["version"] > version
    undone = await client.delete(f"{MATCHES}/{matches[1]['id']}/rounds/1",
                                 headers=bearer(matches[1]["token"]))
    assert undone.status_code in (200, 204), undone.text
    assert dues(await club.get("/kasse")) == {("CHF", "Bea"): ("0.00", "0.50", "-0.50")}
    assert (await club.get("/settlement"))["matches"] == 2
    assert len(await club.get("/payments")) == 1


async def test_a_bad_payment_is_refused_at_its_field_and_records_nothing(client: Client) -> None:
    club = await new_club(client)
    await club.play(["Ann", "Bea"], [0, 3])
    version = (await club.get())["version"]
    for body, path, status in (
            ({"amount": "0"}, "amount", 422), ({"amount": "0.00"}, "amount", 422),
            ({"amount": "1.234"}, "amount", 422), ({"amount": "1,50"}, "amount", 422),
            ({"amount": 5}, "amount", 400), ({"currency": "USD"}, "currency", 422),
            ({"player": 99}, "player", 422), ({"note": "x" * 201}, "note", 400),
            ({"note": "bar\u0007"}, "note", 422), ({"player": 0}, "player", 400)):
        response = await client.post(f"{club.url}/payments", headers=club.auth, json={
            "player": 1, "amount": "5.00", "currency": "CHF", **body})
        refused = problem(response, status)
        assert [error["path"] for error in refused["errors"]] == [path], (body, refused)
    view = await client.post(f"{club.url}/payments", headers=bearer(club.view_token),
                             json={"player": 1, "amount": "5.00", "currency": "CHF"})
    problem(view, 403)
    assert await club.get("/payments") == []
    assert (await club.get())["version"] == version


async def test_merging_two_members_moves_their_payments(client: Client) -> None:
    club = await new_club(client)
    await sheet(club, ["Ann", "Bea"], [0, 3], stakes={
        "currency": "CHF", "per_point": "0", "per_match_lost": "1"})
    await sheet(club, ["Ann", "Beatrice"], [0, 3], stakes={
        "currency": "CHF", "per_point": "0", "per_match_lost": "1"})
    members = {name: member["id"] for name, member in (await club.members()).items()}
    await pay(club, members["Beatrice"], "1")
    merged = await client.post(f"{club.url}/players/{members['Beatrice']}/merge",
                               json={"into": members["Bea"]}, headers=club.auth)
    assert merged.status_code == 200, merged.text
    assert dues(await club.get("/kasse")) == {("CHF", "Bea"): ("2.00", "1.00", "1.00")}
    assert [(p["player"], p["name"]) for p in await club.get("/payments")] == [
        (members["Bea"], "Bea")]
    # A payment for the merged spelling's id is the member's it became.
    assert (await pay(club, members["Beatrice"], "1"))["player"] == members["Bea"]
    removed = await client.delete(f"{club.url}/players/{members['Bea']}", headers=club.auth)
    assert removed.status_code == 204, removed.text
    assert dues(await club.get("/kasse")) == {
        ("CHF", f"Former member {members['Bea']}"): ("2.00", "2.00", "0.00")}


async def test_the_backup_restores_the_payments_and_the_export_holds_the_kasse(
        client: Client) -> None:
    club = await new_club(client)
    await three_matches(club, played_at=evening("05"))
    bea = (await club.members())["Bea"]["id"]
    await pay(club, bea, "0.20", note="Rest folgt", recorded_by="Urs")
    await pay(club, bea, "0.30")
    saved = (await client.get(f"{club.url}/backup", headers=club.auth)).json()
    assert [(p["player"], p["amount"], p["note"], p["recorded_by"])
            for p in saved["payments"]] == [(bea, "0.20", "Rest folgt", "Urs"),
                                            (bea, "0.30", "", None)]
    imported = await client.post(f"{CLUBS}/import", json=saved)
    assert imported.status_code == 201, imported.text
    copy = Club(client, imported.json()["id"], imported.json()["token"],
                imported.json()["view_token"])
    assert await copy.get("/kasse") == await club.get("/kasse")
    period = {"from": "2026-11-05", "to": "2026-11-05"}
    assert await copy.get("/settlement", **period) == await club.get("/settlement", **period)
    originals = await club.get("/payments")
    assert await copy.get("/payments") == originals
    exported = await club.get("/export", format="json")
    assert exported["kasse"] == await club.get("/kasse")
    assert exported["payments"] == originals
    saved["payments"][1]["amount"] = "0"
    saved["payments"][0]["player"] = 42
    refused = problem(await client.post(f"{CLUBS}/import", json=saved), 422)
    assert [error["path"] for error in refused["errors"]] == [
        "payments[0].player", "payments[1].amount"]


async def test_the_settlement_and_the_kasse_as_csv_in_the_readers_words(client: Client) -> None:
    club = await new_club(client)
    await three_matches(club)
    bea = (await club.members())["Bea"]["id"]
    await pay(club, bea, "-0.50")
    answer = await client.get(f"{club.url}/settlement", params={
        "format": "csv", "sep": ";", "decimal": ","}, headers={
        **club.auth, "Accept-Language": "de"})
    assert answer.status_code == 200, answer.text
    assert answer.headers["content-type"].startswith("text/csv")
    assert "attachment" in answer.headers["content-disposition"]
    text = answer.content.decode("utf-8-sig")
    rows = [row.split(";") for row in text.splitlines()]
    assert rows[0] == ["Währung", "Mitglied Nr.", "Name", "Zahlt", "Erhält", "Netto"]
    assert ["CHF", str(bea), "Bea", "1,25", "0,50", "-0,75"] in rows
    assert ["CHF", "Cem", "Ann", "1,15"] in rows
    assert ["CHF", "", "In die Kasse", "0,50"] in rows
    kasse = await client.get(f"{club.url}/kasse", params={"format": "csv"},
                             headers=bearer(club.view_token))
    assert kasse.status_code == 200, kasse.text
    rows = [row.split(",") for row in kasse.content.decode("utf-8-sig").splitlines()]
    assert rows[0] == ["Currency", "Member no.", "Name", "Owes the pot", "Paid", "Still due"]
    assert rows[1:] == [["CHF", str(bea), "Bea", "0.50", "-0.50", "1.00"],
                        ["CHF", "", "In the pot", "", "", "-0.50"]]


async def test_a_teams_money_is_split_among_its_members_in_whole_coins(client: Client) -> None:
    """Sea Change in two teams at 15 Rappen a victory point: what a team pays or receives is
    split evenly in five-Rappen coins, the odd coin to the member seated first."""
    club = await new_club(client)
    teams = await club.start(["Ann", "Bea", "Cem", "Dan"], game="sea-change",
                             options={"teams": [[0, 2], [1, 3]], "target_vp": 1},
                             stakes={"currency": "CHF", "per_point": "0.15"})
    recorded = await club.record(teams, {"final_trump": "yellow", "scores": [5, 4],
                                         "trump_zero": 0})
    assert recorded.status_code == 201, recorded.text
    assert recorded.json()["settlement"]["transfers"] == [{"from": 1, "to": 0, "amount": "0.15"}]
    (chf,) = (await club.get("/settlement"))["currencies"]
    assert lines(chf) == {"Ann": ("0.00", "0.10", "0.10"), "Cem": ("0.00", "0.05", "0.05"),
                          "Bea": ("0.10", "0.00", "-0.10"), "Dan": ("0.05", "0.00", "-0.05")}


async def test_stakes_and_payments_are_stored_as_whole_minor_units(
        client: Client, settings: Settings) -> None:
    """What the rows hold, read through a session of their own: Rappen and cents as integers,
    never a decimal string or a float."""
    club = await new_club(client)
    changed = await client.patch(club.url, headers=club.auth, json={
        "stakes": {"tschau-sepp": {"currency": "EUR", "per_point": "0.02", "to": "pot",
                                   "per_match_lost": "1.50"}}})
    assert changed.status_code == 200, changed.text
    match = await sheet(club, ["Ann", "Bea"], [0, 4], stakes=TEN_AND_A_FEE)
    bea = (await club.members())["Bea"]["id"]
    await pay(club, bea, "2.35", note="Abend")
    await pay(club, bea, "-0.05", "EUR")
    engine = create_async_engine(settings.database_url)
    try:
        async with AsyncSession(engine) as session:
            stored_match = await session.scalar(select(MatchRow).where(MatchRow.id == match["id"]))
            stored_club = await session.scalar(select(ClubRow).where(ClubRow.id == club.id))
            payments = sorted((await session.scalars(select(ClubPaymentRow).where(
                ClubPaymentRow.club_id == club.id))).all(), key=lambda payment: payment.id)
    finally:
        await engine.dispose()
    assert stored_match is not None
    assert stored_club is not None
    assert stored_match.stakes == {"currency": "CHF", "per_point": 10, "to": "players",
                                   "per_match_lost": 50}
    assert stored_club.stakes == {"tschau-sepp": {"currency": "EUR", "per_point": 2, "to": "pot",
                                                  "per_match_lost": 150}}
    assert [(p.amount, p.currency) for p in payments] == [(235, "CHF"), (-5, "EUR")]
    amounts = [stored_match.stakes["per_point"], stored_match.stakes["per_match_lost"],
               stored_club.stakes["tschau-sepp"]["per_point"], *(p.amount for p in payments)]
    assert all(type(amount) is int for amount in amounts)


async def test_a_payment_can_be_neither_changed_nor_deleted(client: Client) -> None:
    """A wrong payment is reversed by another: no route changes or removes one, with the club's
    own token either, and the Kasse is as it was."""
    club = await new_club(client)
    await three_matches(club)
    bea = (await club.members())["Bea"]["id"]
    await pay(club, bea, "0.50", note="Abend")
    before = (await club.get("/payments"), await club.get("/kasse"))
    change = {"player": bea, "amount": "0.05", "currency": "CHF", "note": "Abend"}
    for method, path, status in [("delete", "/payments/1", 404), ("put", "/payments/1", 404),
                                 ("patch", "/payments/1", 404), ("delete", "/payments", 405),
                                 ("put", "/payments", 405), ("patch", "/payments", 405)]:
        answer = await client.request(method.upper(), f"{club.url}{path}", headers=club.auth,
                                      json=None if method == "delete" else change)
        problem(answer, status)
    assert (await club.get("/payments"), await club.get("/kasse")) == before
