"""Matches played for money: the stakes given at creation (or the club's default for the game)
and the settlement of a finished match, which follows every correction and undo."""

from __future__ import annotations

from typing import Any

from litestar.testing import AsyncTestClient

from tests.api.clubs import CLUBS, MATCHES, Club, bearer, new_club, tschau_round

Client = AsyncTestClient  # type: ignore[type-arg]
FIVE_RAPPEN = {"currency": "CHF", "per_point": "0.05"}


async def start(client: Client, game: str, players: list[str], options: dict[str, Any],
                stakes: Any, **headers: str) -> dict[str, Any]:
    response = await client.post(MATCHES, headers=headers, json={
        "game": game, "players": players, "options": options, "stakes": stakes})
    assert response.status_code == 201, response.text
    match: dict[str, Any] = response.json()
    return match


async def write(client: Client, match: dict[str, Any], entry: Any,
                number: int | None = None) -> dict[str, Any]:
    url = f"{MATCHES}/{match['id']}/rounds" + ("" if number is None else f"/{number}")
    response = await (client.post if number is None else client.put)(
        url, json=entry, headers=bearer(match["token"]))
    assert response.status_code in (200, 201), response.text
    written: dict[str, Any] = response.json()
    return written


async def read(client: Client, match: dict[str, Any]) -> dict[str, Any]:
    response = await client.get(f"{MATCHES}/{match['id']}", headers=bearer(match["token"]))
    assert response.status_code == 200, response.text
    body: dict[str, Any] = response.json()
    return body


async def test_tschau_sepp_penalty_points_are_paid_to_the_better_players(client: Client) -> None:
    """Ann 0, Bea 7, Cem 13 penalty points at 5 Rappen: Bea pays Ann 0.35, Cem pays Ann 0.65
    and Bea 0.30 (0.30 exactly)."""
    match = await start(client, "tschau-sepp", ["Ann", "Bea", "Cem"], {"games": 1}, FIVE_RAPPEN)
    assert match["stakes"] == {"currency": "CHF", "per_point": "0.05", "to": "players",
                               "per_match_lost": "0.00"}
    assert match["settlement"] is None
    written = await write(client, match, tschau_round([0, 7, 13]))
    assert written["settlement"] == (await read(client, match))["settlement"]
    assert written["settlement"] == {
        "currency": "CHF", "pays": ["0.00", "0.35", "0.95"], "receives": ["1.00", "0.30", "0.00"],
        "pot": "0.00", "transfers": [{"from": 1, "to": 0, "amount": "0.05"},
                                     {"from": 2, "to": 0, "amount": "0.95"}]}


async def test_a_payment_in_francs_is_rounded_half_up_to_five_rappen(client: Client) -> None:
    """Ann 0, Bea 3, Cem 6 at one Rappen: 0.03 is paid as 0.05, 0.06 as 0.05, each payment on
    its own; in euros to the cent."""
    match = await start(client, "tschau-sepp", ["Ann", "Bea", "Cem"], {"games": 1},
                        {"currency": "CHF", "per_point": "0.01"})
    settled = (await write(client, match, tschau_round([0, 3, 6])))["settlement"]
    assert settled["pays"] == ["0.00", "0.05", "0.10"]
    euro = await start(client, "tschau-sepp", ["Ann", "Bea", "Cem"], {"games": 1},
                       {"currency": "EUR", "per_point": "0.01"})
    assert (await write(client, euro, tschau_round([0, 3, 6])))["settlement"]["pays"] == [
        "0.00", "0.03", "0.09"]


async def test_played_to_the_pot_with_a_fee_for_a_lost_match(client: Client) -> None:
    match = await start(client, "tschau-sepp", ["Ann", "Bea"], {"games": 1}, {
        "currency": "EUR", "per_point": "0.10", "to": "pot", "per_match_lost": "0.50"})
    settled = (await write(client, match, tschau_round([0, 4])))["settlement"]
    assert settled == {"currency": "EUR", "pays": ["0.00", "0.90"], "receives": ["0.00", "0.00"],
                       "pot": "0.90", "transfers": []}


async def test_played_for_wins_the_games_won_cost_money(client: Client) -> None:
    match = await start(client, "tschau-sepp", ["Ann", "Bea"], {"scoring": "wins", "games": 2},
                        {"currency": "EUR", "per_point": "1"})
    await write(client, match, tschau_round([0, 4]))
    settled = (await write(client, match, tschau_round([0, 9])))["settlement"]
    assert settled["transfers"] == [{"from": 1, "to": 0, "amount": "2.00"}]


async def test_sea_change_victory_points_cost_money(client: Client) -> None:
    match = await start(client, "sea-change", ["Ann", "Bea", "Cem"], {"target_vp": 1},
                        {"currency": "CHF", "per_point": "0.50"})
    written = await write(client, match, {"final_trump": "red", "scores": [5, 2, 1],
                                          "trump_zero": 0})
    assert written["status"] == "finished"
    assert written["settlement"]["pays"] == ["0.00", "0.50", "0.50"]
    assert written["settlement"]["receives"] == ["1.00", "0.00", "0.00"]


async def test_die_sieben_siegel_penalty_points_cost_money(client: Client) -> None:
    match = await start(client, "seven-seals", ["Ann", "Bea", "Cem"], {"rounds": 1},
                        {"currency": "EUR", "per_point": "0.20"})
    written = await write(client, match, {"bids": [{"saboteur": True}, {"seals": []},
                                                   {"seals": []}],
                                          "remaining": [None, [], []], "black": [0, 0, 1]})
    assert [line["penalty"] for line in sorted(written["standings"], key=lambda x: x["seat"])
            ] == [3, 0, 3]
    assert written["settlement"]["transfers"] == [{"from": 0, "to": 1, "amount": "0.60"},
                                                  {"from": 2, "to": 1, "amount": "0.60"}]


async def test_a_correction_that_changes_the_winner_changes_the_settlement(
        client: Client) -> None:
    match = await start(client, "tschau-sepp", ["Ann", "Bea"], {"games": 1}, FIVE_RAPPEN)
    await write(client, match, tschau_round([0, 10]))
    corrected = await write(client, match, tschau_round([10, 0]), number=1)
    assert corrected["settlement"]["transfers"] == [{"from": 0, "to": 1, "amount": "0.50"}]
    assert (await read(client, match))["settlement"] == corrected["settlement"]


async def test_undoing_the_last_round_takes_the_settlement_away(client: Client) -> None:
    match = await start(client, "tschau-sepp", ["Ann", "Bea"], {"games": 1}, FIVE_RAPPEN)
    await write(client, match, tschau_round([0, 10]))
    undone = await client.delete(f"{MATCHES}/{match['id']}/rounds/1",
                                 headers=bearer(match["token"]))
    assert undone.status_code in (200, 204), undone.text
    after = await read(client, match)
    assert after["status"] == "in_progress"
    assert after["settlement"] is None
    assert after["stakes"]["per_point"] == "0.05"


async def test_a_match_without_stakes_has_neither_stakes_nor_settlement(client: Client) -> None:
    response = await client.post(MATCHES, json={"game": "tschau-sepp", "players": ["A", "B"],
                                                "options": {"games": 1}})
    match = response.json()
    written = await write(client, match, tschau_round([0, 3]))
    assert written["settlement"] is None
    body = await read(client, match)
    assert (body["stakes"], body["settlement"]) == (None, None)


async def refused(client: Client, body: dict[str, Any], language: str = "en") -> list[Any]:
    response = await client.post(MATCHES, json=body, headers={"Accept-Language": language})
    assert response.status_code == 422, response.text
    errors: list[Any] = response.json()["errors"]
    return errors


async def test_bad_stakes_are_refused_at_their_field_in_the_readers_language(
        client: Client) -> None:
    base = {"game": "tschau-sepp", "players": ["Ann", "Bea"]}
    errors = await refused(client, {**base, "stakes": {
        "currency": "USD", "per_point": 0.05, "to": "bank", "per_match_lost": "-1", "x": 1}})
    assert sorted(error["path"] for error in errors) == [
        "stakes.currency", "stakes.per_match_lost", "stakes.per_point", "stakes.to",
        "stakes.x"]
    (missing,) = await refused(client, {**base, "stakes": {"currency": "EUR"}})
    assert missing["path"] == "stakes.per_point"
    (german,) = await refused(client, {**base, "stakes": {**FIVE_RAPPEN, "per_point": "0.055"}},
                              "de")
    assert german["path"] == "stakes.per_point"
    assert "0.055" in german["message"]
    assert german["message"] != (await refused(client, {**base, "stakes": {
        **FIVE_RAPPEN, "per_point": "0.055"}}))[0]["message"]


async def test_solo_sea_change_is_not_played_for_money(client: Client) -> None:
    (error,) = await refused(client, {"game": "sea-change", "players": ["Ann"],
                                      "stakes": FIVE_RAPPEN}, "fr")
    assert error["path"] == "stakes"
    assert error["code"] == "not_for_money"


# A club's default stakes per game


async def set_stakes(club: Club, stakes: dict[str, Any], token: str | None = None,
                     language: str = "en") -> Any:
    return await club.client.patch(club.url, json={"stakes": stakes}, headers={
        **bearer(token or club.token), "Accept-Language": language})


async def test_a_club_match_without_stakes_takes_the_clubs_default_for_its_game(
        client: Client) -> None:
    club = await new_club(client)
    changed = await set_stakes(club, {"tschau-sepp": {**FIVE_RAPPEN, "per_match_lost": "0.5"}})
    assert changed.status_code == 200, changed.text
    assert changed.json()["stakes"] == {"tschau-sepp": {
        "currency": "CHF", "per_point": "0.05", "to": "players", "per_match_lost": "0.50"}}
    assert (await club.get())["stakes"] == changed.json()["stakes"]
    match = await club.start(["Ann", "Bea"])
    assert match["stakes"] == changed.json()["stakes"]["tschau-sepp"]
    settled = (await write(client, match, tschau_round([0, 4])))["settlement"]
    assert settled["pays"] == ["0.00", "0.70"]
    assert settled["pot"] == "0.50"
    other_game = await club.start(["Ann", "Bea", "Cem"], game="seven-seals")
    assert other_game["stakes"] is None


async def test_stakes_a_club_match_is_given_override_the_clubs_default(client: Client) -> None:
    club = await new_club(client)
    await set_stakes(club, {"tschau-sepp": FIVE_RAPPEN})
    match = await club.start(["Ann", "Bea"], stakes={"currency": "EUR", "per_point": "1"})
    assert match["stakes"]["currency"] == "EUR"
    solo = await club.start(["Ann"], game="sea-change", options={"target_vp": 1})
    assert solo["stakes"] is None


async def test_a_default_is_replaced_per_game_and_taken_away_with_null(client: Client) -> None:
    club = await new_club(client)
    await set_stakes(club, {"tschau-sepp": FIVE_RAPPEN, "seven-seals": FIVE_RAPPEN})
    changed = await set_stakes(club, {"seven-seals": None})
    assert list(changed.json()["stakes"]) == ["tschau-sepp"]
    assert (await club.start(["Ann", "Bea", "Cem"], game="seven-seals"))["stakes"] is None


async def test_bad_default_stakes_are_refused_at_their_field_and_change_nothing(
        client: Client) -> None:
    club = await new_club(client)
    bad = await set_stakes(club, {"tschau-sepp": {"currency": "CHF", "per_point": "x"}}, None,
                           "it")
    assert bad.status_code == 422, bad.text
    assert [error["path"] for error in bad.json()["errors"]] == ["stakes.tschau-sepp.per_point"]
    unknown = await set_stakes(club, {"skat": FIVE_RAPPEN})
    assert unknown.status_code == 422, unknown.text
    assert [error["path"] for error in unknown.json()["errors"]] == ["stakes.skat"]
    assert (await club.get())["stakes"] == {}


async def test_the_view_token_cannot_change_the_default_stakes(client: Client) -> None:
    club = await new_club(client)
    refused = await set_stakes(club, {"tschau-sepp": FIVE_RAPPEN}, club.view_token)
    assert refused.status_code == 403, refused.text
    assert (await club.get())["stakes"] == {}


async def test_the_default_stakes_are_in_the_clubs_backup_and_restored(client: Client) -> None:
    club = await new_club(client)
    await set_stakes(club, {"tschau-sepp": FIVE_RAPPEN})
    saved = (await client.get(f"{club.url}/backup", headers=club.auth)).json()
    assert saved["stakes"] == {"tschau-sepp": {**FIVE_RAPPEN, "to": "players",
                                               "per_match_lost": "0.00"}}
    imported = await client.post(f"{CLUBS}/import", json=saved)
    assert imported.status_code == 201, imported.text
    copy = imported.json()
    read = await client.get(f"{CLUBS}/{copy['id']}", headers=bearer(copy["token"]))
    assert read.json()["stakes"] == {"tschau-sepp": saved["stakes"]["tschau-sepp"]}


async def test_a_club_matchs_stakes_are_in_the_backup_and_settle_the_restored_match(
        client: Client) -> None:
    club = await new_club(client)
    match = await club.start(["Ann", "Bea"], stakes=FIVE_RAPPEN)
    settled = (await write(client, match, tschau_round([0, 6])))["settlement"]
    saved = (await client.get(f"{club.url}/backup", headers=club.auth)).json()
    (backed_up,) = saved["matches"]
    assert backed_up["stakes"] == {**FIVE_RAPPEN, "to": "players", "per_match_lost": "0.00"}
    copy = (await client.post(f"{CLUBS}/import", json=saved)).json()
    (entry,) = (await client.get(f"{CLUBS}/{copy['id']}/history",
                                 headers=bearer(copy["token"]))).json()["entries"]
    restored = await client.get(f"{MATCHES}/{entry['id']}", headers=bearer(copy["token"]))
    assert restored.json()["settlement"] == settled
    backed_up["stakes"]["to"] = "bank"
    refused = await client.post(f"{CLUBS}/import", json=saved)
    assert refused.status_code == 422, refused.text
    assert [error["path"] for error in refused.json()["errors"]] == ["matches[0].stakes.to"]
