"""Statistics and ratings kept incrementally equal a recomputation from scratch, whatever a club
does: a Hypothesis state machine starts club matches, records, corrects and undoes rounds,
renames and merges members, and after every step recomputes every member's statistics and
openskill rating from the finished matches alone (as the API shows them, in the club's order:
by when they were played, then the order they finished; some matches are late sheets, played
days before they are typed in) and compares them with what the club answers."""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterator
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, settings
from hypothesis import strategies as st
from hypothesis.stateful import RuleBasedStateMachine, initialize, invariant, precondition, rule
from litestar.testing import TestClient
from openskill.models import PlackettLuce

from api.app import create_app
from api.server import schema
from api.server.settings import Settings

pytestmark = pytest.mark.slow
PEOPLE = ["Ann", "Bea", "Cem", "Dan", "Eva"]
LAST_RESULTS = 10
CLIENT: list[TestClient[Any]] = []


def bearer(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


spellings = st.builds(lambda name, upper, pad: (" " * pad) + (name.upper() if upper else name),
                      st.sampled_from(PEOPLE), st.booleans(), st.integers(0, 2))


@st.composite
def penalties(draw: st.DrawFn, players: int) -> list[int]:
    """One Tschau Sepp game: somebody went out (0), the others hold cards, ties allowed (from 6
    up every number of points is a hand's worth under the face table)."""
    winner = draw(st.integers(0, players - 1))
    return [0 if seat == winner else draw(st.integers(6, 17)) for seat in range(players)]


class ClubHistory(RuleBasedStateMachine):
    @initialize()
    def club(self) -> None:
        self.client = CLIENT[0]
        created = self.client.post("/api/v1/clubs", json={"name": "Replay"}).json()
        self.url = f"/api/v1/clubs/{created['id']}"
        self.club_id = created["id"]
        self.auth = bearer(created["token"])
        self.matches: list[dict[str, Any]] = []  # id, token, players, rounds entered

    def _answer(self, response: Any, *allowed: int) -> Any:
        assert response.status_code in allowed, response.text
        return response

    @rule(names=st.lists(spellings, min_size=2, max_size=4,
                         unique_by=lambda name: name.strip().casefold()),
          games=st.integers(1, 2), days_ago=st.sampled_from([None, 1, 3]))
    def start(self, names: list[str], games: int, days_ago: int | None) -> None:
        played = {} if days_ago is None else {
            "played_at": (datetime.now(UTC) - timedelta(days=days_ago)).isoformat()}
        response = self._answer(self.client.post("/api/v1/matches", headers=self.auth, json={
            "game": "tschau-sepp", "players": names, "options": {"games": games},
            "club": self.club_id, **played}), 201, 422)  # 422: two spellings merged into one member
        if response.status_code == 422:
            assert response.json()["errors"][0]["code"] == "same_member_twice"
            return
        created = response.json()
        self.matches.append({"id": created["id"], "token": created["token"],
                             "players": len(names), "rounds": 0, "games": games})

    @precondition(lambda self: any(m["rounds"] < m["games"] for m in self.matches))
    @rule(data=st.data())
    def record(self, data: st.DataObject) -> None:
        match = data.draw(st.sampled_from([m for m in self.matches
                                           if m["rounds"] < m["games"]]))
        entry = {"winner": 0, "penalty": data.draw(penalties(match["players"]))}
        entry["winner"] = entry["penalty"].index(0)
        response = self.client.post(f"/api/v1/matches/{match['id']}/rounds", json=entry,
                                    headers=bearer(match["token"]))
        self._answer(response, 201)
        match["rounds"] += 1

    @precondition(lambda self: any(m["rounds"] for m in self.matches))
    @rule(data=st.data())
    def correct(self, data: st.DataObject) -> None:
        match = data.draw(st.sampled_from([m for m in self.matches if m["rounds"]]))
        number = data.draw(st.integers(1, match["rounds"]))
        entry = {"winner": 0, "penalty": data.draw(penalties(match["players"]))}
        entry["winner"] = entry["penalty"].index(0)
        self._answer(self.client.put(f"/api/v1/matches/{match['id']}/rounds/{number}",
                                     json=entry, headers=bearer(match["token"])), 200)

    @precondition(lambda self: any(m["rounds"] for m in self.matches))
    @rule(data=st.data())
    def undo(self, data: st.DataObject) -> None:
        match = data.draw(st.sampled_from([m for m in self.matches if m["rounds"]]))
        self._answer(self.client.delete(f"/api/v1/matches/{match['id']}/rounds/"
                                        f"{match['rounds']}", headers=bearer(match["token"])),
                     204)
        match["rounds"] -= 1

    def _member_ids(self) -> list[int]:
        club = self._answer(self.client.get(self.url, headers=self.auth), 200).json()
        return [player["id"] for player in club["players"]]

    @precondition(lambda self: self.matches)
    @rule(data=st.data(), name=spellings)
    def rename(self, data: st.DataObject, name: str) -> None:
        member = data.draw(st.sampled_from(self._member_ids()))
        self._answer(self.client.patch(f"{self.url}/players/{member}", json={"name": name},
                                       headers=self.auth), 200, 422)

    @precondition(lambda self: self.matches)
    @rule(data=st.data())
    def merge(self, data: st.DataObject) -> None:
        members = self._member_ids()
        source = data.draw(st.sampled_from(members))
        into = data.draw(st.sampled_from(members))
        self._answer(self.client.post(f"{self.url}/players/{source}/merge",
                                      json={"into": into}, headers=self.auth), 200, 409, 422)

    @invariant()
    def statistics_and_ratings_equal_a_replay_from_scratch(self) -> None:
        if not hasattr(self, "url"):
            return
        expected = recomputed(self.client, self.url, self.auth)
        shown = {member["id"]: member["games"] for member in self._answer(
            self.client.get(f"{self.url}/players", headers=self.auth), 200).json()}
        assert shown == expected
        ladder = self._answer(self.client.get(f"{self.url}/ratings", params={
            "game": "tschau-sepp"}, headers=self.auth), 200).json()
        assert [row["player"] for row in ladder] == sorted(
            (m for m in shown if shown[m]),
            key=lambda m: (-shown[m]["tschau-sepp"]["rating"]["ordinal"],
                           next(r["name"] for r in ladder if r["player"] == m).casefold(), m))


def recomputed(client: TestClient[Any], url: str, auth: dict[str, str]) -> dict[int, Any]:
    """Every member's statistics and rating from the finished matches alone."""
    history = client.get(f"{url}/history", params={"limit": 200}, headers=auth).json()
    finished = sorted((e for e in history["entries"] if e["finish"] is not None),
                      key=lambda e: (datetime.fromisoformat(e["played_at"]), e["finish"]))
    model = PlackettLuce()
    ratings: dict[int, Any] = {}
    rated: dict[int, int] = defaultdict(int)
    stats: dict[int, dict[str, Any]] = {}
    for entry in finished:
        match = client.get(f"/api/v1/matches/{entry['id']}").json()
        members = [seat["player"] for seat in entry["players"]]
        by_seat = {line["seat"]: line for line in match["standings"]}
        rounds = len(match["rounds"])
        teams = [[ratings.get(member) or model.rating()] for member in members]
        ranks = [by_seat[seat]["rank"] for seat in range(len(members))]
        for member, [rating] in zip(members, model.rate(teams, ranks=ranks), strict=True):
            ratings[member] = rating
            rated[member] += 1
        for seat, member in enumerate(members):
            line = by_seat[seat]
            won = seat in match["winners"]
            kept = stats.setdefault(member, {
                "played": 0, "won": 0, "rounds": 0, "streak": 0, "longest_streak": 0,
                "penalty": [0, 0, None], "wins": [0, 0, None], "last": []})
            kept["played"] += 1
            kept["won"] += won
            kept["rounds"] += rounds
            kept["streak"] = (max(kept["streak"], 0) + 1) if won else (min(kept["streak"], 0) - 1)
            kept["longest_streak"] = max(kept["longest_streak"], kept["streak"])
            per_game = line["penalty"] / rounds
            penalty = kept["penalty"]
            penalty[0] += line["penalty"]
            penalty[1] += rounds
            penalty[2] = per_game if penalty[2] is None else min(penalty[2], per_game)
            wins = kept["wins"]
            wins[0] += line["wins"]
            wins[1] += 1
            wins[2] = line["wins"] if wins[2] is None else max(wins[2], line["wins"])
            kept["last"] = [{"match": entry["id"], "finish": entry["finish"],
                             "rank": line["rank"], "won": won}, *kept["last"]][:LAST_RESULTS]
    return {member: {"tschau-sepp": shown(kept, ratings[member], rated[member])}
            for member, kept in stats.items()} | _members_without_results(client, url, auth,
                                                                          stats)


def _members_without_results(client: TestClient[Any], url: str, auth: dict[str, str],
                             stats: dict[int, Any]) -> dict[int, Any]:
    club = client.get(url, headers=auth).json()
    return {player["id"]: {} for player in club["players"] if player["id"] not in stats}


def shown(kept: dict[str, Any], rating: Any, rated: int) -> dict[str, Any]:
    penalty, wins = kept["penalty"], kept["wins"]
    return {
        "played": kept["played"], "won": kept["won"], "win_rate": kept["won"] / kept["played"],
        "rounds": kept["rounds"], "streak": kept["streak"],
        "longest_streak": kept["longest_streak"],
        "measures": [
            {"id": "penalty_per_game", "per": "round", "better": "lower",
             "average": penalty[0] / penalty[1], "best": penalty[2]},
            {"id": "games_won_per_match", "per": "match", "better": "higher",
             "average": wins[0] / wins[1], "best": wins[2]},
        ],
        "last": kept["last"],
        "rating": {"mu": rating.mu, "sigma": rating.sigma, "ordinal": rating.mu - 3 * rating.sigma},
        "rated": rated,
    }


@pytest.fixture
def club_client(tmp_path: Path) -> Iterator[TestClient[Any]]:
    url = f"sqlite+aiosqlite:///{tmp_path / 'replay.db'}"
    schema.upgrade(url)
    with TestClient(app=create_app(Settings(database_url=url))) as client:
        CLIENT.append(client)
        yield client
        CLIENT.clear()


def test_statistics_and_ratings_always_equal_a_replay_of_the_clubs_history(
        club_client: TestClient[Any]) -> None:
    run = settings(max_examples=25, stateful_step_count=15, deadline=None, database=None,
                   suppress_health_check=list(HealthCheck))(ClubHistory)
    run.TestCase().runTest()
