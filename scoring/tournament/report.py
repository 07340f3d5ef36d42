"""A planned round: its tables, and a report on repeats, club-mates and table revisits.

Decisions:

- The report lists every pair that meets again (with how often they met before and whether that
  was in the round just before), for each club with two or more active players the club-mates
  kept apart (sitting without any club-mate) and those who had to share a table, and every
  player sent back to a table number they sat at before.
- Seat order rotates the lead: seat by seat, the player who sat in that seat least often takes
  it (ties: the one who sat there longest ago, then the planner's order), so seat 0, which
  leads, passes round the field instead of staying with one player.
- Table numbers (where the mode leaves them free) go to the groups so that as few players as
  possible return to a table number they have used; only tables of the same size swap numbers,
  since sizes are listed largest first.
- Every round also reports the plan it belongs to (:class:`PlanQuality`): the rounds planned
  together (all rounds left for ``mix`` planning ahead, else just this one), the repeats in
  them, and a lower bound on the repeats of any plan for those rounds
  (:mod:`scoring.tournament.bounds`), so the organiser sees how far from the best it is. When
  the plan keeps every club apart, the bound is for the plans that do so as well: keeping clubs
  apart comes first, and may cost repeats no bound without clubs could show.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, replace

from scoring.reading import JSON
from scoring.tournament.bounds import repeat_lower_bound
from scoring.tournament.history import Meetings, Player, PlayerId, Round


@dataclass(frozen=True, slots=True)
class RepeatedPair:
    """Two players meeting again at ``table`` after ``met_before`` earlier meetings."""

    players: tuple[PlayerId, PlayerId]
    table: int
    met_before: int
    met_last_round: bool

    def as_json(self) -> dict[str, JSON]:
        return {
            "players": list(self.players), "table": self.table, "met_before": self.met_before,
            "met_last_round": self.met_last_round,
        }


@dataclass(frozen=True, slots=True)
class ClubSeating:
    """Club-mates of ``club``: at ``table`` together, or (``table`` None) kept apart."""

    club: str
    players: tuple[PlayerId, ...]
    table: int | None = None

    def as_json(self) -> dict[str, JSON]:
        return {"club": self.club, "players": list(self.players), "table": self.table}


@dataclass(frozen=True, slots=True)
class TableRevisit:
    """``player`` sits at table ``table`` again, having sat there ``visits_before`` times."""

    player: PlayerId
    table: int
    visits_before: int

    def as_json(self) -> dict[str, JSON]:
        return {"player": self.player, "table": self.table, "visits_before": self.visits_before}


@dataclass(frozen=True, slots=True)
class PlanQuality:
    """Rounds ``first_round`` .. ``first_round + rounds - 1``, planned together: the repeated
    meetings in them, and the fewest any plan for them could have."""

    first_round: int
    rounds: int
    repeats: int
    lower_bound: int

    def as_json(self) -> dict[str, JSON]:
        return {"first_round": self.first_round, "rounds": self.rounds, "repeats": self.repeats,
                "lower_bound": self.lower_bound}


@dataclass(frozen=True, slots=True)
class RoundReport:
    repeated_pairs: tuple[RepeatedPair, ...]
    kept_apart: tuple[ClubSeating, ...]
    club_mates_together: tuple[ClubSeating, ...]
    table_revisits: tuple[TableRevisit, ...]
    plan: PlanQuality | None = None

    @property
    def repeats(self) -> int:
        """Pair meetings in this round beyond each pair's first."""
        return len(self.repeated_pairs)

    def as_json(self) -> dict[str, JSON]:
        return {
            "repeats": self.repeats,
            "repeated_pairs": [p.as_json() for p in self.repeated_pairs],
            "kept_apart": [c.as_json() for c in self.kept_apart],
            "club_mates_together": [c.as_json() for c in self.club_mates_together],
            "table_revisits": [r.as_json() for r in self.table_revisits],
            "plan": None if self.plan is None else self.plan.as_json(),
        }


@dataclass(frozen=True, slots=True)
class RoundPlan:
    """One round: tables in table-number order, each in seat order (seat 0 leads)."""

    tables: tuple[tuple[PlayerId, ...], ...]
    report: RoundReport

    def as_json(self) -> dict[str, JSON]:
        return {"tables": [list(t) for t in self.tables], "report": self.report.as_json()}


def finish_round(
    groups: Sequence[Sequence[PlayerId]], players: Sequence[Player], meetings: Meetings, *,
    number_tables: bool, rotate_leads: bool,
) -> RoundPlan:
    """The plan for ``groups`` (largest first), numbered and seated as the mode asks, reported.

    ``meetings`` is updated with the round, so a planner can go on to the next round.
    """
    tables = [list(g) for g in groups]
    if number_tables:
        tables = _numbered(tables, meetings)
    if rotate_leads:
        tables = [_seat_order(t, meetings) for t in tables]
    plan = RoundPlan(tuple(tuple(t) for t in tables), _report(tables, players, meetings))
    meetings.add(plan.tables)
    return plan


def assessed(
    plans: Sequence[RoundPlan], players: Sequence[Player], split: Sequence[int],
    history: Sequence[Round],
) -> tuple[RoundPlan, ...]:
    """``plans`` (consecutive rounds after ``history``) with their :class:`PlanQuality`."""
    clubs_apart = not any(plan.report.club_mates_together for plan in plans)
    quality = PlanQuality(
        first_round=len(history) + 1, rounds=len(plans),
        repeats=sum(plan.report.repeats for plan in plans),
        lower_bound=lower_bound(players, split, len(plans), Meetings(history), clubs_apart),
    )
    return tuple(replace(plan, report=replace(plan.report, plan=quality)) for plan in plans)


def lower_bound(
    players: Sequence[Player], split: Sequence[int], rounds: int, meetings: Meetings,
    clubs_apart: bool = False,
) -> int:
    """:func:`repeat_lower_bound` for the active ``players`` after the rounds in ``meetings``.

    With ``clubs_apart`` the bound holds for the seatings that never put club-mates at one
    table: club-mates are no fresh partners then.
    """
    club_of = {p.id: p.club for p in players}
    club_size = Counter(club for club in club_of.values() if club is not None)
    fresh = []
    for player in players:
        met = [q for q in meetings.met.get(player.id, {}) if q in club_of and q != player.id]
        gone = len(met)
        if clubs_apart and player.club is not None:  # club-mates not met yet are no partners
            gone += club_size[player.club] - 1 - sum(club_of[q] == player.club for q in met)
        fresh.append(len(club_of) - 1 - gone)
    active = set(club_of)
    groups: list[int] | None = None
    if meetings.rounds:
        last = {frozenset(mates | {player}) & active
                for player, mates in meetings.last_round.items() if player in active}
        groups = [len(group) for group in last]
        groups += [1] * (len(active) - sum(groups))
    return repeat_lower_bound(split, rounds, fresh, groups)


def _numbered(tables: list[list[PlayerId]], meetings: Meetings) -> list[list[PlayerId]]:
    numbered: list[list[PlayerId]] = [[] for _ in tables]
    start = 0
    while start < len(tables):
        end = start
        while end < len(tables) and len(tables[end]) == len(tables[start]):
            end += 1
        free = list(range(start, end))
        # Groups with the most earlier visits to these numbers choose first: they have the
        # fewest good numbers left; everyone else takes any number nobody in it has used.
        visits = [_visits(tables[i], range(start + 1, end + 1), meetings) for i in free]
        for group in sorted(range(end - start), key=lambda g: -len(visits[g])):
            seen = visits[group]
            slot = min(free, key=lambda n: (seen.get(n + 1, 0), n)) if seen else free[0]
            free.remove(slot)
            numbered[slot] = tables[start + group]
        start = end
    return numbered


def _visits(table: Sequence[PlayerId], numbers: range, meetings: Meetings) -> dict[int, int]:
    visits: dict[int, int] = {}
    for player in table:
        for number, count in meetings.table_visits.get(player, {}).items():
            if number in numbers:
                visits[number] = visits.get(number, 0) + count
    return visits


def _seat_order(table: Sequence[PlayerId], meetings: Meetings) -> list[PlayerId]:
    left = list(table)
    seated: list[PlayerId] = []
    for seat in range(len(table)):
        chosen = min(left, key=lambda p: (
            meetings.seat_counts.get(p, {}).get(seat, 0),
            meetings.seat_last.get(p, {}).get(seat, 0),
        ))
        left.remove(chosen)
        seated.append(chosen)
    return seated


def _report(
    tables: Sequence[Sequence[PlayerId]], players: Sequence[Player], meetings: Meetings,
) -> RoundReport:
    repeats: list[RepeatedPair] = []
    revisits: list[TableRevisit] = []
    for number, table in enumerate(tables, start=1):
        for i, player in enumerate(table):
            before = meetings.table_visits.get(player, {}).get(number, 0)
            if before:
                revisits.append(TableRevisit(player, number, before))
            for other in table[i + 1:]:
                met = meetings.times_met(player, other)
                if met:
                    last = other in meetings.last_round.get(player, frozenset())
                    repeats.append(RepeatedPair((player, other), number, met, last))
    return RoundReport(tuple(repeats), *_clubs(tables, players), tuple(revisits))


def _clubs(
    tables: Sequence[Sequence[PlayerId]], players: Sequence[Player],
) -> tuple[tuple[ClubSeating, ...], tuple[ClubSeating, ...]]:
    club_of = {p.id: p.club for p in players if p.club is not None}
    members: dict[str, int] = {}
    for club in club_of.values():
        members[club] = members.get(club, 0) + 1
    apart: dict[str, list[PlayerId]] = {}
    together: list[ClubSeating] = []
    for number, table in enumerate(tables, start=1):
        at_table: dict[str, list[PlayerId]] = {}
        for player in table:
            own = club_of.get(player)
            if own is not None and members[own] > 1:
                at_table.setdefault(own, []).append(player)
        for club, mates in at_table.items():
            if len(mates) > 1:
                together.append(ClubSeating(club, tuple(mates), number))
            else:
                apart.setdefault(club, []).extend(mates)
    kept = tuple(ClubSeating(club, tuple(apart[club])) for club in sorted(apart))
    return kept, tuple(sorted(together, key=lambda c: (c.club, c.table or 0)))
