"""Tournament storage around the seating engine, the match fold and the standings engine.

Every write locks the tournament row first (PostgreSQL ``SELECT ... FOR UPDATE``; SQLite holds
the write lock from ``BEGIN IMMEDIATE``), changes what it must, bumps the tournament's version
and commits in one transaction; only then is a change published on the tournament's channel.

Decisions:

- Player ids are 1, 2, 3, ... in order of registration. Names are unique within a tournament
  (ignoring case), at most 40 characters like match names; the club is optional. A player who
  registers or changes ``active`` while a round is being played takes part from the next round.
- Starting round n seats the active players in the tournament's mode: ``random`` with the seed
  ``"<seed>/<n>"``; ``swiss`` by the current standings (organiser's view, every confirmed table);
  ``mix`` plans every remaining round ahead with the tournament's seed and keeps the plan while
  the roster (active players and their clubs) stays the same; any roster change re-plans the
  rounds left around the rounds already played, starting from the rounds planned before, so
  most players keep the tables they were told and a late entry who takes a dropped player's
  seat keeps a plan without repeats. Each round's report carries the plan's repeats and their
  lower bound. Fields larger than the engine plans ahead
  (``scoring.tournament.mix.PLAN_AHEAD_PLAYERS``) are seated round by round with ``seat_mix``
  (seed ``"<seed>/<n>"``): planning ahead gains little there and would cost a round's time per
  round left. Table sizes: as close to ``table_size`` as the game's player range allows (see
  :mod:`scoring.tournament.tables`).
- Nothing is stored when a round cannot be seated (422): too few players, a table size the
  points per place do not name, or match options that do not fit a table's size.
- Match options are checked at creation for a table of the preferred size.
- A table's match gets the players' names in seat order, the tournament's options, and is
  private when the tournament is; it is read with the table token or the organiser's.
- Confirming needs a finished match (409 otherwise); the organiser may always confirm. With a
  table token it must come from another phone than the one that wrote the match last (409): when
  that phone sent its table phone key (``X-Table-Phone``, see :mod:`api.tournaments.access`),
  the confirmation needs another phone's key; when it did not (a client that sends only
  ``X-Device-Id``, or the organiser), it needs an ``X-Device-Id`` other than the one recorded, as
  before table phones existed. Confirming twice answers the table again. When every table of a
  round is confirmed the round is complete; after the last round the tournament is finished.
"""

from __future__ import annotations

import asyncio
import secrets
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, replace
from datetime import datetime
from typing import Any

import msgspec
from sqlalchemy import and_, bindparam, func, select, update
from sqlalchemy.ext.asyncio import AsyncSession
from sqlmodel import SQLModel, col

from api.db.database import Database
from api.db.models import MatchRow
from api.db.statements import EngineStatements, Statements
from api.edge import auth
from api.edge.problems import (
    NO_SUCH_GAME,
    Conflict,
    Fault,
    Forbidden,
    NotFound,
    Unprocessable,
    field_problems,
    name_field,
    optional_name_field,
    unknown_game,
)
from api.i18n import Phrase, _, _n
from api.matches.owners import Sender
from api.matches.service import (
    INSERT_AUDIT,
    INSERT_MATCH,
    INSERT_ROUND,
    MATCH_ID_BYTES,
    MATCHES,
    made_match,
    now,
    utc,
)
from api.server.offload import Offload
from api.shared.ids import new_id
from api.shared.imports import LOCK_POLL
from api.shared.live import Broker, Change
from api.tournaments import clock
from api.tournaments import schemas as s
from api.tournaments.access import (
    ORGANISER,
    PLAYER,
    STANDINGS_VERSION,
    TABLE,
    TABLES,
    TOURNAMENT_FOR_TABLE,
    TOURNAMENT_FOR_WRITE,
    TOURNAMENT_VERSION,
    TOURNAMENTS,
    UPDATE_TOURNAMENT,
    events_channel,
    holds,
    lock_tournament,
    new_table_phone,
    no_tournament,
    organiser_key,
    read_kind,
    require_organiser,
    table_phone_id,
    table_token,
    table_tokens,
    tournament_version,
)
from api.tournaments.hosts import TournamentHost
from api.tournaments.models import (
    CLUB_LENGTH,
    NAME_LENGTH,
    PLAYER_NAME_LENGTH,
    TournamentPlayerRow,
    TournamentRoundRow,
    TournamentRow,
    TournamentTableRow,
)
from api.tournaments.results import (
    API_CRITERIA,
    StoredTable,
    counts,
    last_counted_round,
    place_points,
    scoring_of,
    standings,
    table_result,
)
from scoring import registry
from scoring.errors import InvalidEntry, InvalidInput, InvalidOptions, MatchFinished
from scoring.game import AnyGame, game_key
from scoring.match import fold_match, set_up
from scoring.reading import JSON, TOURNAMENT_NAME_NEEDED
from scoring.tournament import (
    Player,
    RoundReport,
    SeatingImpossible,
    StandingRow,
    TableSizes,
    plan_mix,
    seat_mix,
    seat_random,
    seat_swiss,
    table_points,
)
from scoring.tournament.mix import PLAN_AHEAD_PLAYERS

TOURNAMENT_ID_BYTES = 9  # 12 url-safe characters


# --- settings -------------------------------------------------------------------------------


def game_of(game_id: str, path: str = "game") -> AnyGame:
    game = registry.game_by_id(game_id)
    if game is None:
        raise Unprocessable(NO_SUCH_GAME, errors=[unknown_game(path, game_id)])
    return game


def _prefixed(problems: list[Fault], prefix: str) -> list[Fault]:
    return [replace(problem, path=f"{prefix}{problem.path}") for problem in problems]


def no_player(player_id: int) -> Phrase:
    return _("This tournament has no player {player}.", player=player_id)


def check_settings(settings: s.NewTournament | s.BackupSettings, prefix: str = "") -> AnyGame:
    """The tournament's game, once name, table size, options and scoring all fit it (422)."""
    game = game_of(settings.game, f"{prefix}game")
    problems: list[Fault] = []
    name_field(settings.name, "name", problems, maximum=NAME_LENGTH,
               blank=TOURNAMENT_NAME_NEEDED)
    try:
        TableSizes.for_game(game.min_players, game.max_players, settings.table_size)
    except SeatingImpossible as impossible:
        problems.append(Fault("table_size", "table_size", _(
            "{game} is played by {minimum} to {maximum} players at one table, so tables of "
            "{size} are not possible.", kinds={"game": registry.GAMES}, game=game.id,
            size=settings.table_size,
            **{"minimum": max(game.min_players, 2), "maximum": game.max_players,
               **{k: v for k, v in impossible.params.items() if isinstance(v, int)}})))
    else:
        names: list[JSON] = [f"Player {seat + 1}" for seat in range(settings.table_size)]
        try:
            set_up(game, names, settings.options)
        except InvalidOptions as invalid:
            problems += field_problems(invalid.errors)
    problems += _scoring_problems(settings)
    if problems:
        raise Unprocessable(_("The tournament's settings do not fit together."),
                            errors=_prefixed(problems, prefix))
    return game


def _scoring_problems(settings: s.NewTournament | s.BackupSettings) -> list[Fault]:
    problems: list[Fault] = []
    points = settings.points
    if isinstance(points, s.PerPlace):
        for size, values in points.per_place.items():
            if not (size.isdigit() and len(size) <= 2):
                problems.append(Fault(f"points.per_place.{size}", "not_a_table_size", _(
                    'Points per place are given for a table size, such as "4", not "{value}".',
                    value=size)))
            for place, value in enumerate(values):
                if not abs(value) <= s.MAX_PLACE_POINTS:  # also refuses NaN
                    problems.append(Fault(f"points.per_place.{size}[{place}]", "out_of_range", _(
                        "Points per place go from {minimum} to {maximum}.",
                        minimum=-s.MAX_PLACE_POINTS, maximum=s.MAX_PLACE_POINTS)))
        if str(settings.table_size) not in points.per_place:
            problems.append(Fault("points.per_place", "missing_table_size", _(
                "The points per place must name the preferred table size ({size}).",
                size=settings.table_size)))
        if problems:
            return problems
    try:
        scoring_of(msgspec.to_builtins(points), settings.tiebreaks)
    except InvalidOptions as invalid:
        problems += [replace(problem, path=problem.path.replace("place_points",
                                                                "points.per_place", 1))
                     for problem in field_problems(invalid.errors)]
    return problems


# --- reading --------------------------------------------------------------------------------


async def load_tournament(session: AsyncSession, tournament_id: str) -> TournamentRow:
    row = await session.get(TournamentRow, tournament_id)
    if row is None:
        raise NotFound(no_tournament(tournament_id))
    return row


async def players_of(session: AsyncSession, tournament_id: str) -> list[TournamentPlayerRow]:
    return list((await session.execute(
        select(TournamentPlayerRow).where(col(TournamentPlayerRow.tournament_id) == tournament_id)
        .order_by(col(TournamentPlayerRow.id))
    )).scalars())


async def rounds_of(session: AsyncSession, tournament_id: str) -> list[TournamentRoundRow]:
    return list((await session.execute(
        select(TournamentRoundRow).where(col(TournamentRoundRow.tournament_id) == tournament_id)
        .order_by(col(TournamentRoundRow.number))
    )).scalars())


async def tables_of(session: AsyncSession, tournament_id: str,
                    round_number: int | None = None) -> list[TournamentTableRow]:
    query = select(TournamentTableRow).where(
        col(TournamentTableRow.tournament_id) == tournament_id)
    if round_number is not None:
        query = query.where(col(TournamentTableRow.round) == round_number)
    return list((await session.execute(
        query.order_by(col(TournamentTableRow.round), col(TournamentTableRow.table))
    )).scalars())


async def stored_tables(session: AsyncSession, tournament_id: str) -> list[StoredTable]:
    """The table results only, without building ORM objects: this is the standings' hot path."""
    t = TournamentTableRow
    rows = await session.execute(
        select(col(t.round), col(t.table), col(t.match_id), col(t.players), col(t.places),
               col(t.shares), col(t.confirmed))
        .where(col(t.tournament_id) == tournament_id).order_by(col(t.round), col(t.table))
    )
    return [
        StoredTable(number, table, match_id, tuple(players), tuple(places), tuple(shares),
                    confirmed)
        for number, table, match_id, players, places, shares, confirmed in rows
    ]


BIG_ROWS = 400
"""Players and tables together above which a tournament's whole reads and its round starts are
worked on in the helper process (:mod:`api.server.offload`): about 50 ms of work on the loop of a
small machine."""


async def is_big(session: AsyncSession, tournament_id: str) -> bool:
    players = select(func.count()).where(col(TournamentPlayerRow.tournament_id) == tournament_id)
    tables = select(func.count()).where(col(TournamentTableRow.tournament_id) == tournament_id)
    rows = (await session.execute(select(players.scalar_subquery() + tables.scalar_subquery())
                                  )).scalar_one()
    return int(rows) > BIG_ROWS


def table_state(table: TournamentTableRow) -> s.TableState:
    if table.confirmed:
        return "confirmed"
    if table.finished:
        return "entered"
    return "playing" if table.rounds_played else "open"


def table_view(table: TournamentTableRow) -> s.Table:
    return s.Table(
        table=table.table, match_id=table.match_id, players=list(table.players),
        state=table_state(table), entered_by_device=table.entered_by_device,
        confirmed_by=table.confirmed_by,  # type: ignore[arg-type]
        entered_by_phone=table.entered_by_phone,
    )


def player_view(player: TournamentPlayerRow) -> s.TournamentPlayer:
    return s.TournamentPlayer(id=player.id, name=player.name, club=player.club,
                              active=player.active, paid=player.paid)


def tournament_view(row: TournamentRow, players: Sequence[TournamentPlayerRow],
                    rounds: Sequence[TournamentRoundRow],
                    tables: Sequence[TournamentTableRow],
                    reader: str | None = None) -> s.Tournament:
    """The tournament as ``reader`` sees it: only the organiser sees the check-in code. The
    clock is added when answered (:mod:`api.tournaments.reads`): it changes with the time."""
    by_round: dict[int, list[TournamentTableRow]] = {}
    for table in tables:
        by_round.setdefault(table.round, []).append(table)
    round_list = [
        s.TournamentRound(
            number=r.number,
            status="complete" if all(t.confirmed for t in by_round.get(r.number, []))
            else "playing",
            tables=[table_view(t) for t in by_round.get(r.number, [])],
            report=msgspec.convert(r.report, s.Report),
        )
        for r in rounds
    ]
    return s.Tournament(
        id=row.id, name=row.name, game=row.game, options=row.options, rounds=row.rounds,
        table_size=row.table_size, seating=row.seating,  # type: ignore[arg-type]
        seed=row.seed, points=msgspec.convert(row.points, s.Points),
        tiebreaks=row.tiebreaks, hide_standings=row.hide_standings, private=row.private,
        status=row.status,  # type: ignore[arg-type]
        players=[player_view(p) for p in players], round_list=round_list,
        current_round=row.current_round,
        version=row.version + sum(t.writes for t in tables),
        created_at=utc(row.created_at),
        updated_at=utc(max([row.updated_at, *(t.written_at for t in tables
                                              if t.written_at is not None)], key=utc)),
        check_in=row.check_in, late_check_in=row.late_check_in, warn_minutes=row.warn_minutes,
        check_in_code=row.check_in_code if reader == ORGANISER else None,
    )


async def full_view(session: AsyncSession, row: TournamentRow,
                    reader: str | None = None) -> s.Tournament:
    return tournament_view(row, await players_of(session, row.id), await rounds_of(session, row.id),
                           await tables_of(session, row.id), reader)


async def readable(session: AsyncSession, tournament_id: str,
                   authorization: str | None) -> tuple[TournamentRow, str | None]:
    """The tournament and the kind of token its reader holds (private ones need one)."""
    row = await load_tournament(session, tournament_id)
    return row, read_kind(authorization, row)


async def read_tournament(session: AsyncSession, tournament_id: str,
                          authorization: str | None) -> s.Tournament:
    row, reader = await readable(session, tournament_id, authorization)
    return await full_view(session, row, reader)


async def player_readable(session: AsyncSession, tournament_id: str, player_id: int,
                          authorization: str | None) -> tuple[TournamentRow, str | None]:
    """:func:`readable` for a player's own view, which that player's token reads too (kind
    ``player``), in a private tournament as well."""
    row = await load_tournament(session, tournament_id)
    if authorization is not None:
        token_hash = await _player_token_hash(session, tournament_id, player_id)
        token = auth.bearer_token(authorization)
        if token_hash is not None and holds(token, token_hash):
            return row, PLAYER
    return row, read_kind(authorization, row)


async def _player_token_hash(session: AsyncSession, tournament_id: str,
                             player_id: int) -> str | None:
    found: str | None = (await session.execute(
        select(col(TournamentPlayerRow.token_hash)).where(
            col(TournamentPlayerRow.tournament_id) == tournament_id,
            col(TournamentPlayerRow.id) == player_id))).scalar_one_or_none()
    return found


async def events_readable(session: AsyncSession, tournament_id: str,
                          authorization: str | None) -> TournamentRow:
    """Who may follow a tournament's events and read its clock: its readers, and in a private one
    also its players' tokens (their phones follow their own view) and its tables' tokens (a
    table's phone shows the clock)."""
    row = await load_tournament(session, tournament_id)
    if row.private and authorization is not None:
        token_hash = auth.token_hash(auth.bearer_token(authorization))
        player = select(col(TournamentPlayerRow.id)).where(
            col(TournamentPlayerRow.tournament_id) == tournament_id,
            col(TournamentPlayerRow.token_hash) == token_hash)
        table = select(col(TournamentTableRow.table)).join(
            MatchRow, col(MatchRow.id) == col(TournamentTableRow.match_id)).where(
            col(TournamentTableRow.tournament_id) == tournament_id,
            col(MatchRow.write_token_hash) == token_hash)
        if (await session.execute(player.union_all(table).limit(1))).first() is not None:
            return row
    read_kind(authorization, row)
    return row


async def read_clock(session: AsyncSession, tournament_id: str,
                     authorization: str | None) -> s.ClockReading:
    row = await events_readable(session, tournament_id, authorization)
    shown = clock.view(row.clock, now())
    return s.ClockReading(**msgspec.structs.asdict(shown), warn_minutes=row.warn_minutes,
                          version=await version_of(session, row.id))


# --- standings ------------------------------------------------------------------------------


def standing_row(row: StandingRow, player: TournamentPlayerRow) -> s.StandingRow:
    return s.StandingRow(
        rank=row.rank, player=player.id, name=player.name, club=player.club, active=player.active,
        points=row.points, tables=row.tables_played,
        tiebreaks={API_CRITERIA[k]: v for k, v in row.tiebreaks.items() if k != "points"},
        dropped=not player.active,
    )


async def _standings(
    session: AsyncSession, row: TournamentRow, reader: str | None,
) -> tuple[s.Standings, list[StoredTable], list[TournamentPlayerRow], int | None]:
    tables = await stored_tables(session, row.id)
    players = await players_of(session, row.id)
    through = last_counted_round(tables, row.hide_standings and reader != ORGANISER)
    through_round, rows = standings(tables, [p.id for p in players],
                                    scoring_of(row.points, row.tiebreaks), through)
    by_id = {p.id: p for p in players}
    view = s.Standings(through_round=through_round,
                       rows=[standing_row(r, by_id[int(r.player)]) for r in rows])
    return view, tables, players, through


async def read_standings(session: AsyncSession, tournament_id: str,
                         authorization: str | None) -> s.Standings:
    row, reader = await readable(session, tournament_id, authorization)
    view, *_others = await _standings(session, row, reader)
    return view


async def read_player(session: AsyncSession, tournament_id: str, player_id: int,
                      authorization: str | None) -> s.PlayerView:
    """A player's tables (place and points once counted), current table with who sits where and
    who deals, and standing. The clock is added when answered (:mod:`api.tournaments.reads`)."""
    row, reader = await player_readable(session, tournament_id, player_id, authorization)
    view, tables, players, through = await _standings(session, row, reader)
    player = next((p for p in players if p.id == player_id), None)
    if player is None:
        raise NotFound(no_player(player_id))
    per_place = place_points(row.points)
    played: list[s.PlayerTable] = []
    current: s.CurrentTable | None = None
    for table in tables:
        if player_id not in table.players:
            continue
        seat = table.players.index(player_id)
        counted = counts(table, through)
        played.append(s.PlayerTable(
            round=table.round, table=table.table, seat=seat, match_id=table.match_id,
            place=table.places[seat] if counted else None,
            points=table_points(table.places, per_place)[seat] if counted else None,
        ))
        if table.round == row.current_round:
            names = {p.id: p.name for p in players}
            current = s.CurrentTable(
                table.round, table.table, seat, table.match_id,
                seats=[s.SeatedPlayer(index, p, names[p]) for index, p in enumerate(table.players)],
                dealer=await _next_dealer(session, table.match_id))
    round_tables = [t for t in tables if t.round == row.current_round]
    if round_tables and all(t.confirmed for t in round_tables):
        current = None
    standing = next(r for r in view.rows if r.player == player_id)
    return s.PlayerView(player=player_view(player), tables=played, current=current,
                        standing=standing, tournament_name=row.name,
                        version=await version_of(session, row.id),
                        current_round=row.current_round, rounds=row.rounds,
                        warn_minutes=row.warn_minutes)


async def _next_dealer(session: AsyncSession, match_id: str) -> int:
    dealer: int = (await session.execute(select(col(MatchRow.next_dealer)).where(
        col(MatchRow.id) == match_id))).scalar_one()
    return dealer


# --- writing --------------------------------------------------------------------------------


async def version_of(session: AsyncSession, tournament_id: str,
                     standings: bool = False) -> int:
    """The tournament's version (:func:`api.tournaments.access.tournament_version`) as this
    session's transaction sees it; with ``standings``, the version its standings depend on
    (:data:`api.tournaments.access.STANDINGS_VERSION`)."""
    await session.flush()
    version = (await session.execute(STANDINGS_VERSION if standings else TOURNAMENT_VERSION,
                                     {"tournament_key": tournament_id})).scalar_one_or_none()
    if version is None:
        raise NotFound(no_tournament(tournament_id))
    return int(version)


async def _commit_and_publish(session: AsyncSession, broker: Broker, row: TournamentRow,
                              action: str, number: int | None) -> None:
    """Commit an organiser's change and tell the tournament's subscribers. Its lock (``FOR
    UPDATE``) keeps every table's write out of the transaction, so the version read before the
    commit is the one the commit makes."""
    version = await version_of(session, row.id)
    await session.commit()
    await broker.publish(events_channel(row.id), Change(version, action, number))


def _touch(row: TournamentRow, at: datetime) -> None:
    row.version += 1
    row.updated_at = at


async def create_tournament(session: AsyncSession, host: TournamentHost, body: s.NewTournament,
                            authorization: str | None = None) -> s.CreatedTournament:
    """A new tournament; with ``club`` its ``host``'s (the club's, club token), its players the
    club's members."""
    game = check_settings(body)
    hosted = None if body.club is None else await host.open(
        EngineStatements(session), body.club, authorization)
    tokens = auth.new_tokens()
    at = now()
    row = TournamentRow(
        id=new_id(TOURNAMENT_ID_BYTES), name=body.name.strip(), game=game.id,
        options=body.options, rounds=body.rounds, table_size=body.table_size,
        seating=body.seating,
        seed=secrets.randbelow(s.MAX_SEED + 1) if body.seed is None else body.seed,
        points=msgspec.to_builtins(body.points), tiebreaks=list(body.tiebreaks),
        hide_standings=body.hide_standings, private=body.private,
        organiser_token_hash=auth.token_hash(tokens.write),
        view_token_hash=auth.token_hash(tokens.view), status="registering", current_round=0,
        version=1, created_at=at, updated_at=at, check_in=body.check_in,
        check_in_code=new_check_in_code() if body.check_in else None,
        late_check_in=body.late_check_in, warn_minutes=body.warn_minutes,
    )
    session.add(row)
    if hosted is not None:
        await session.flush()
        await hosted.adopt(EngineStatements(session), row.id, at)
    await session.commit()
    view = tournament_view(row, (), (), (), ORGANISER)
    return s.CreatedTournament(**{**msgspec.structs.asdict(view),
                                  "clock": clock.view(row.clock, at)},
                               token=tokens.write, view_token=tokens.view)


def new_check_in_code() -> str:
    """8 url-safe characters (48 random bits, never a leading ``-``, as ids: the dashboard shows
    it and an export may carry it): typed by nobody, scanned from the QR code, and guessed by
    nobody either, since refused codes are rate-limited like tokens (403)."""
    return new_id(6)


def player_name(name: str, path: str, problems: list[Fault]) -> str | None:
    return name_field(name, path, problems, maximum=PLAYER_NAME_LENGTH)


def club_name(club: str | None, path: str, problems: list[Fault]) -> str | None:
    """A player's club; none when left out or blank."""
    return optional_name_field(club, path, problems, maximum=CLUB_LENGTH)


def _refuse(problems: list[Fault]) -> None:
    if problems:
        raise Unprocessable(_("This name cannot be used as it is."), errors=problems)


def _unique_name(name: str, players: Iterable[tuple[int, str]], own: int | None = None) -> None:
    """422 at ``name`` if another of the ``players`` (id, name) has it, whatever its case."""
    folded = name.casefold()
    if any(other.casefold() == folded and player_id != own for player_id, other in players):
        raise Unprocessable(_("Another player already has this name."), errors=[Fault(
            "name", "duplicate_name", _('"{value}" is already registered; add a surname or the '
                                        "club's initial.", value=name))])


async def add_player(session: AsyncSession, broker: Broker, host: TournamentHost,
                     tournament_id: str,
                     authorization: str | None, body: s.NewPlayer) -> s.TournamentPlayer:
    row = await lock_tournament(session, tournament_id)
    require_organiser(authorization, row)
    if row.status == "finished":
        raise Conflict(_("The tournament is finished; nobody can join any more."))
    # Ids and names only: registering 600 players one by one read 180,000 player rows, which
    # as ORM objects cost 2.7 s of CPU under the profiler (bench/championship.py).
    players: list[tuple[int, str]] = [(found.id, found.name) for found in (await session.execute(
        select(col(TournamentPlayerRow.id), col(TournamentPlayerRow.name))
        .where(col(TournamentPlayerRow.tournament_id) == tournament_id)))]
    problems: list[Fault] = []
    name = player_name(body.name, "name", problems)
    club = club_name(body.club, "club", problems)
    _refuse(problems)
    assert name is not None  # a name that cannot be used is a problem, refused above
    _unique_name(name, players)
    player = TournamentPlayerRow(
        tournament_id=tournament_id, id=max((p for p, _name in players), default=0) + 1,
        name=name, club=club, active=True,
    )
    session.add(player)
    at = now()
    await _seat_member(session, host, tournament_id, player.id, name, at)
    _touch(row, at)
    await _commit_and_publish(session, broker, row, "player_added", None)
    return player_view(player)


async def _seat_member(session: AsyncSession, host: TournamentHost, tournament_id: str,
                       player_id: int, name: str, at: datetime) -> None:
    """In a club's tournament, a new player is the club member of that name (made on first
    use); one member cannot play twice (422 at ``name``)."""
    statements = EngineStatements(session)
    hosted = await host.of(statements, tournament_id)
    if hosted is None:
        return
    await session.flush()  # the player row, which the link refers to
    await hosted.seat(statements, tournament_id, player_id, name, at)


async def change_player(session: AsyncSession, broker: Broker, tournament_id: str,
                        player_id: int, authorization: str | None,
                        body: s.PlayerChange) -> s.TournamentPlayer:
    row = await lock_tournament(session, tournament_id)
    require_organiser(authorization, row)
    players = await players_of(session, tournament_id)
    player = next((p for p in players if p.id == player_id), None)
    if player is None:
        raise NotFound(no_player(player_id))
    problems: list[Fault] = []
    name = None if isinstance(body.name, msgspec.UnsetType) else player_name(
        body.name, "name", problems)
    club = None if isinstance(body.club, msgspec.UnsetType) else club_name(
        body.club, "club", problems)
    _refuse(problems)
    if name is not None:
        _unique_name(name, ((p.id, p.name) for p in players), player.id)
        player.name = name
    if not isinstance(body.club, msgspec.UnsetType):
        player.club = club
    if not isinstance(body.active, msgspec.UnsetType):
        player.active = body.active
    if not isinstance(body.paid, msgspec.UnsetType):
        player.paid = body.paid
    _touch(row, now())
    await _commit_and_publish(session, broker, row, "player_changed", None)
    return player_view(player)


def report_json(report: RoundReport) -> dict[str, Any]:
    """The engine's round report in the API's shape (:class:`api.tournaments.schemas.Report`)."""
    shaped: dict[str, Any] = msgspec.to_builtins(s.Report(
        repeats=[s.RepeatedPair([int(p) for p in r.players], r.met_before + 1, r.table,
                                r.met_last_round) for r in report.repeated_pairs],
        kept_apart=[[int(p) for p in c.players] for c in report.kept_apart],
        club_mates_together=[s.ClubTable(c.club, [int(p) for p in c.players], c.table or 0)
                             for c in report.club_mates_together],
        table_revisits=[s.TableRevisit(int(r.player), r.table, r.visits_before)
                        for r in report.table_revisits],
        plan=None if report.plan is None else s.SeatingPlanQuality(
            report.plan.first_round, report.plan.rounds, report.plan.repeats,
            report.plan.lower_bound),
    ))
    return shaped


@dataclass(frozen=True, slots=True)
class _SeatingAsked:
    """Everything seating round ``number`` reads: plain data, worked on off the event loop."""

    tournament_id: str
    number: int
    version: int
    """The tournament's version it was read at."""
    seating: str
    seed: int
    rounds: int
    table_size: int
    game: str
    plan: Any
    roster: list[Player]
    history: list[list[list[int]]]
    standing: list[int]
    names: dict[int, str]
    options: Any
    private: bool
    points: Any


@dataclass(frozen=True, slots=True)
class _Seated:
    tables: list[list[int]]
    """Player ids in seat order."""
    report: dict[str, Any]
    plan: Any
    """The tournament's mix plan from now on."""


async def _seating_asked(session: AsyncSession, row: TournamentRow) -> _SeatingAsked:
    """What seating the next round reads; 409 when the tournament cannot start one."""
    if row.current_round >= row.rounds:
        raise Conflict(_n("The tournament's only round has been played.",
                          "All {count} rounds of this tournament have been played.",
                          count=row.rounds))
    tables = await stored_tables(session, row.id)  # no ORM objects: thousands of tables
    if any(t.round == row.current_round and not t.confirmed for t in tables):
        raise Conflict(_("Round {number} is not complete: every table must be confirmed first.",
                         number=row.current_round))
    players = await players_of(session, row.id)
    history: list[list[list[int]]] = [[] for _ in range(row.current_round)]
    for table in tables:
        history[table.round - 1].append(list(table.players))
    standing: list[int] = []
    if row.seating == "swiss":
        view, *_others = await _standings(session, row, ORGANISER)
        standing = [r.player for r in view.rows]
    return _SeatingAsked(
        tournament_id=row.id, number=row.current_round + 1,
        version=await version_of(session, row.id),
        seating=row.seating, seed=row.seed, rounds=row.rounds, table_size=row.table_size,
        game=row.game, plan=row.plan,
        roster=[Player(p.id, p.club) for p in players if p.active], history=history,
        standing=standing, names={p.id: p.name for p in players}, options=row.options,
        private=row.private, points=row.points)


def _seat(asked: _SeatingAsked) -> _Seated:
    """Round ``number``'s tables and report; see the module's rules. Planning a mix can take
    seconds (thirty-odd players for nine rounds), so this runs on a thread (pure Python: the
    event loop gets its turn every switch interval) before the round's write transaction."""
    game = game_of(asked.game)
    roster, number, history = asked.roster, asked.number, asked.history
    sizes = TableSizes.for_game(game.min_players, game.max_players, asked.table_size)
    try:
        if asked.seating == "random":
            plan = seat_random(roster, sizes, f"{asked.seed}/{number}", history)
        elif asked.seating == "swiss":
            plan = seat_swiss(roster, sizes, asked.standing, history)
        elif len(roster) > PLAN_AHEAD_PLAYERS:
            plan = seat_mix(roster, sizes, history, f"{asked.seed}/{number}")
        else:
            key = [[p.id, p.club] for p in roster]
            ahead = asked.plan
            start = number - ahead["from_round"] if ahead else -1
            left = ahead["rounds"][start:] if start >= 0 else []
            if ahead and ahead["roster"] == key and left:
                return _Seated(left[0]["tables"], left[0]["report"], ahead)
            plans = plan_mix(roster, sizes, asked.rounds - number + 1, history, seed=asked.seed,
                             planned=[r["tables"] for r in left])
            ahead_rounds: list[dict[str, Any]] = [
                {"tables": [[int(p) for p in t] for t in p.tables],
                 "report": report_json(p.report)} for p in plans]
            return _Seated(ahead_rounds[0]["tables"], ahead_rounds[0]["report"],
                           {"from_round": number, "roster": key, "rounds": ahead_rounds})
    except InvalidInput as impossible:
        raise Unprocessable(_("Round {number} cannot be seated.", number=number),
                            errors=field_problems(impossible.errors)) from None
    return _Seated([[int(p) for p in t] for t in plan.tables], report_json(plan.report),
                   asked.plan)


@dataclass(frozen=True, slots=True)
class _Prepared:
    """A round seated, with every table's new match made, before anything is stored: plain
    rows, ready for Core inserts."""

    asked: _SeatingAsked
    seated: _Seated
    tables: list[dict[str, Any]]
    """Each table's row (:class:`api.tournaments.models.TournamentTableRow`'s columns)."""
    matches: list[tuple[dict[str, Any], list[dict[str, Any]]]]
    at: datetime


def _prepare_round(asked: _SeatingAsked, organiser_token: str, at: datetime) -> _Prepared:
    """Seat the round and make its matches: pure work, done off the event loop (see
    :func:`seat_round`)."""
    seated = _seat(asked)
    number = asked.number
    per_place = place_points(asked.points)
    missing = sorted({len(t) for t in seated.tables} - set(per_place or {})) if per_place else []
    if missing:
        raise Unprocessable(
            _("Round {number} needs tables of {size}, which the points per place do not name.",
              number=number, size=missing[0]),
            errors=[Fault("points.per_place", "missing_table_size", _(
                "There are no points per place for a table of {size}.", size=missing[0]))])
    game = game_of(asked.game)
    tables: list[dict[str, Any]] = []
    matches: list[tuple[dict[str, Any], list[dict[str, Any]]]] = []
    for index, seats in enumerate(seated.tables, start=1):
        try:
            folded = fold_match(game, set_up(game, [asked.names[p] for p in seats],
                                             asked.options), ())
        except InvalidOptions as invalid:
            raise Unprocessable(
                _("The tournament's match options do not fit table {table} of {players} players.",
                  table=index, players=len(seats)),
                errors=field_problems(invalid.errors)) from None
        match_id = new_id(MATCH_ID_BYTES)
        matches.append(made_match(match_id, game, folded, asked.private,
                                  table_tokens(organiser_token, match_id), at, ORGANISER))
        places, shares = table_result(game, folded)
        tables.append({
            "tournament_id": asked.tournament_id, "round": number, "table": index,
            "match_id": match_id, "players": seats, "rounds_played": 0, "finished": False,
            "places": places, "shares": shares, "confirmed": False})
    return _Prepared(asked, seated, tables, matches, at)


@dataclass(frozen=True, slots=True)
class RoundStarted:
    """A round stored: its number, the tournament's new version, and the answer as JSON (a
    :class:`api.tournaments.schemas.StartedRound`)."""

    number: int
    version: int
    body: bytes


async def start_round(session: AsyncSession, database: Database, offload: Offload,
                      broker: Broker, host: TournamentHost, tournament_id: str,
                      authorization: str | None) -> RoundStarted:
    """``POST /tournaments/{id}/rounds``: seat round n, store its tables, tell the watchers.

    A big tournament (:func:`is_big`) is seated and stored by the helper process: reading its
    history and roster, seating thousands of players and making their tables' matches are
    seconds of work, which on the event loop would keep every other table waiting."""
    row = await load_tournament(session, tournament_id)
    require_organiser(authorization, row)
    if await is_big(session, tournament_id):
        await session.rollback()
        started = await offload.run(seat_round_in_helper, host, tournament_id, authorization)
    else:
        started = await seat_round(database, session, host, tournament_id, authorization)
    await broker.publish(events_channel(tournament_id),
                         Change(started.version, "round_started", started.number))
    return started


async def seat_round_in_helper(database: Database, host: TournamentHost, tournament_id: str,
                               authorization: str | None) -> RoundStarted:
    """The helper's job (:meth:`api.server.offload.Offload.run`)."""
    async with database.sessions() as session:
        return await seat_round(database, session, host, tournament_id, authorization,
                                LOCK_POLL)


async def seat_round(database: Database, session: AsyncSession, host: TournamentHost,
                     tournament_id: str, authorization: str | None,
                     poll: float | None = None) -> RoundStarted:
    """Seat round n and store it. ``session`` has no write transaction yet: the seating and the
    tables' matches are worked out on a thread from what a read finds, and only then is the
    tournament locked and the round stored, all in one write transaction (``database``'s,
    with its ``poll``) of a few statements: nobody sees a round half stored, and a failure
    stores nothing. If the tournament changed in between (a player registered), the round is
    worked out again under the lock."""
    row = await load_tournament(session, tournament_id)
    organiser_token = require_organiser(authorization, row)
    asked = await _seating_asked(session, row)
    await session.rollback()  # no snapshot kept while seating
    prepared = await asyncio.to_thread(_prepare_round, asked, organiser_token, now())
    async with database.write(poll=poll) as statements:
        locked = await statements.one(TOURNAMENT_FOR_WRITE, {"tournament_key": tournament_id})
        if locked is None:
            raise NotFound(no_tournament(tournament_id))
        organiser_hash, own_version = locked
        organiser_token = organiser_key(authorization, organiser_hash)
        # Every table's write waits for this lock, or was committed before it was taken.
        version = await tournament_version(statements.one, tournament_id)
        if version != prepared.asked.version:
            row = await load_tournament(session, tournament_id)
            asked = await _seating_asked(session, row)
            await session.rollback()
            prepared = await asyncio.to_thread(_prepare_round, asked, organiser_token, now())
        await _store_round(statements, host, tournament_id, prepared, own_version)
    number = prepared.asked.number
    return RoundStarted(number, version + 1, msgspec.json.encode(s.StartedRound(
        number=number, tables=[
            s.TableToken(t["table"], t["match_id"], t["players"],
                         table_token(organiser_token, t["match_id"]))
            for t in prepared.tables],
        report=msgspec.convert(prepared.seated.report, s.Report))))


INSERT_TOURNAMENT_ROUND = SQLModel.metadata.tables[TournamentRoundRow.__tablename__].insert()


async def _store_round(statements: Statements, host: TournamentHost, tournament_id: str,
                       prepared: _Prepared, own_version: int) -> None:
    """The round's rows, its tables' matches (its host's too), and the tournament moved on
    (``own_version``: its row's, which the organiser's changes count)."""
    number, at = prepared.asked.number, prepared.at
    await statements.run(INSERT_TOURNAMENT_ROUND, {
        "tournament_id": tournament_id, "number": number, "report": prepared.seated.report,
        "started_at": at})
    await insert_tables(statements, prepared.tables, prepared.matches)
    hosted = await host.of(statements, tournament_id)
    if hosted is not None:
        asked = prepared.asked
        await hosted.adopt_tables(statements, tournament_id, game_key(
            game_of(asked.game), asked.options), [
            (table["match_id"], table["players"]) for table in prepared.tables], at)
    await statements.run(UPDATE_TOURNAMENT, {
        "tournament_key": tournament_id, "plan": prepared.seated.plan, "current_round": number,
        "status": "running", "version": own_version + 1, "updated_at": at,
        "clock": None})  # a new round's clock waits for the organiser (api.tournaments.clock)


INSERT_TABLES = SQLModel.metadata.tables[TournamentTableRow.__tablename__].insert()


async def insert_tables(statements: Statements, tables: Sequence[dict[str, Any]],
                        matches: Sequence[tuple[dict[str, Any], list[dict[str, Any]]]],
                        tournament_id: str | None = None) -> None:
    """Tables (their rows' columns) with their new matches (:func:`api.matches.service.
    made_match`, in the same order), under ``tournament_id`` if given, in one statement per
    table of the database."""
    rows = [row for _match, made in matches for row in made]
    for statement, values in (
        (INSERT_MATCH, [match for match, _rows in matches]),
        (INSERT_ROUND, [r for r in rows if "number" in r]),
        (INSERT_AUDIT, [r for r in rows if "action" in r]),
        (INSERT_TABLES, [{**t, "tournament_id": tournament_id} for t in tables]
         if tournament_id else list(tables)),
    ):
        if values:  # an empty list would insert one row of defaults through the engine
            await statements.run(statement, values)


async def round_tokens(session: AsyncSession, tournament_id: str, number: int,
                       authorization: str | None) -> s.RoundTokens:
    row = await load_tournament(session, tournament_id)
    organiser_token = require_organiser(authorization, row)
    tables = await tables_of(session, tournament_id, number)
    if not tables:
        raise NotFound(_("Round {number} has not started.", number=number))
    return s.RoundTokens(number=number, tables=[
        s.TableToken(t.table, t.match_id, list(t.players), table_token(organiser_token, t.match_id))
        for t in tables
    ])


async def round_started(session: AsyncSession, tournament_id: str, number: int) -> datetime:
    """When round ``number`` started; NotFound before that (after :func:`readable`)."""
    played = await session.get(TournamentRoundRow, (tournament_id, number))
    if played is None:
        raise NotFound(_("Round {number} has not started.", number=number))
    return played.started_at


TABLE_FOR_PHONE = select(TOURNAMENTS.c.organiser_token_hash, TABLES.c.match_id,
                         MATCHES.c.write_token_hash).select_from(
    TOURNAMENTS.outerjoin(TABLES, and_(
        TABLES.c.tournament_id == TOURNAMENTS.c.id,
        TABLES.c.round == bindparam("round_number"),
        TABLES.c.table == bindparam("table_number"))).outerjoin(
        MATCHES, MATCHES.c.id == TABLES.c.match_id),
).where(TOURNAMENTS.c.id == bindparam("tournament_key"))
"""A table's phone: the tournament's key for its phones' keys, the table's match and its
token's hash; no table (None) when the round has no such table."""


async def open_table_phone(database: Database, tournament_id: str, number: int,
                           table_number: int, authorization: str | None) -> s.TablePhone:
    """A new phone's key at a table: one read in one statement, no transaction. The 300
    phones of 150 tables open their links at a round's start, all at once: in a write
    transaction of the request's ORM session each held SQLite's write lock for three
    statements on the engine's thread, and the round's first results queued behind them."""
    found = await database.read_one(TABLE_FOR_PHONE, {
        "tournament_key": tournament_id, "round_number": number, "table_number": table_number})
    if found is None:
        raise NotFound(no_tournament(tournament_id))
    organiser_hash, match_id, write_hash = found
    if match_id is None:
        raise NotFound(_("Round {number} has no table {table}.", number=number,
                         table=table_number))
    if write_hash is None or not holds(auth.bearer_token(authorization), write_hash):
        raise Forbidden(_("Only this table's key opens a phone at this table."))
    phone_id, key = new_table_phone(organiser_hash, match_id)
    return s.TablePhone(id=phone_id, key=key)


TABLE_FOR_CONFIRM = select(TABLES).where(
    TABLES.c.tournament_id == bindparam("tournament_key"),
    TABLES.c.round == bindparam("round_number"), TABLES.c.table == bindparam("table_number"),
).with_for_update()
WRITE_HASH = select(MATCHES.c.write_token_hash).where(MATCHES.c.id == bindparam("match_key"))
CONFIRM = update(TABLES).where(
    TABLES.c.tournament_id == bindparam("tournament_key"),
    TABLES.c.round == bindparam("round_number"), TABLES.c.table == bindparam("table_number"),
).values(confirmed=True, writes=TABLES.c.writes + 1)
UNCONFIRMED = select(func.count()).select_from(TABLES).where(
    TABLES.c.tournament_id == bindparam("tournament_key"),
    TABLES.c.round == bindparam("round_number"), ~TABLES.c.confirmed)
VERSION_AND_UNCONFIRMED = select(TOURNAMENT_VERSION.selected_columns[0],
                                 UNCONFIRMED.scalar_subquery()).where(
    TOURNAMENTS.c.id == bindparam("tournament_key"))
"""After a confirmation's commit, in one statement: the tournament's version, and how many
tables of the round are still open."""
TOURNAMENT_FOR_FINISH = select(TOURNAMENTS.c.rounds, TOURNAMENTS.c.status,
                               TOURNAMENTS.c.version).where(
    TOURNAMENTS.c.id == bindparam("tournament_key")).with_for_update()


async def confirm_table(database: Database, broker: Broker, host: TournamentHost,
                        tournament_id: str, number: int, table_number: int,
                        authorization: str | None, sender: Sender) -> s.Table:
    """Confirm a table (see the module's rules). Like a write to a table's match it shares the
    tournament's row with the other tables (``FOR KEY SHARE``), locks its own table row and
    counts a write there (:mod:`api.tournaments.access`), in a few Core statements of one
    write transaction (on SQLite the loop's own connection, as a round's): confirmations at
    every table at once do not queue on the tournament, and one costs what a round costs. The
    last table of the last round finishes the tournament in a short transaction of its own
    after the commit (:func:`_finish_if_complete`)."""
    at = now()
    where = {"tournament_key": tournament_id, "round_number": number,
             "table_number": table_number}
    async with database.write() as statements:
        found = await statements.one(TOURNAMENT_FOR_TABLE, {"tournament_key": tournament_id})
        if found is None:
            raise NotFound(no_tournament(tournament_id))
        organiser_hash, = found
        stored = await statements.one(TABLE_FOR_CONFIRM, where)
        if stored is None:
            raise NotFound(_("Round {number} has no table {table}.", number=number,
                             table=table_number))
        table = TournamentTableRow(**dict(zip(TABLES.c.keys(), stored, strict=True)))
        token = auth.bearer_token(authorization)
        if holds(token, organiser_hash):
            confirmer = ORGANISER
        else:
            write_hash = await statements.one(WRITE_HASH, {"match_key": table.match_id})
            if write_hash is None or not holds(token, write_hash[0]):
                raise Forbidden(_("Only this table's key or the organiser's may confirm it."))
            confirmer = TABLE
        if not table.confirmed:
            if not table.finished:
                raise Conflict(_("The match at this table is not finished yet."))
            if confirmer == TABLE:
                phone_id = table_phone_id(sender.table_phone, organiser_hash, table.match_id)
                if table.entered_by_phone is not None:
                    if phone_id in (None, table.entered_by_phone):
                        raise Conflict(_("Another phone at the table must confirm: open the "
                                         "table's link on it (its X-Table-Phone key), or ask "
                                         "the organiser."))
                elif sender.device_id is None or sender.device_id == table.entered_by_device:
                    raise Conflict(_("Another phone at the table must confirm (it sends its "
                                     "X-Device-Id), or the organiser."))
            await statements.run(CONFIRM, {**where, "confirmed_by": confirmer,
                                           "written_at": at})
    if table.confirmed:
        # A confirmation sent again (its answer lost) also finishes what a crash left undone.
        await _finish_if_complete(database, broker, host, tournament_id, number)
        return table_view(table)
    table.confirmed, table.confirmed_by = True, confirmer
    version = await _finish_if_complete(database, broker, host, tournament_id, number)
    if version is not None:
        await broker.publish(events_channel(tournament_id),
                             Change(version, "table_confirmed", number))
    return table_view(table)


async def _finish_if_complete(database: Database, broker: Broker, host: TournamentHost,
                              tournament_id: str, number: int) -> int | None:
    """After a confirmation's commit: when every table of the tournament's last round is
    confirmed, the tournament is finished and its host told in the same transaction
    (:meth:`api.tournaments.hosts.HostedTournament.finished`; its row locked, so that of two
    last confirmations committed side by side, each of which saw the other's table open, one
    finishes it and the other finds it finished). None if this call finished it (and
    published the change); else the tournament's version, read after the commit together with
    the round's open tables: this confirmation's version or a later one (others commit beside
    it), so the last to commit tells every follower the latest."""
    params = {"tournament_key": tournament_id, "round_number": number}
    found = await database.read_one(VERSION_AND_UNCONFIRMED, params)
    assert found is not None  # a table's tournament is a foreign key
    read_version, open_tables = found
    if open_tables:
        return int(read_version)
    async with database.write() as statements:
        locked = await statements.one(TOURNAMENT_FOR_FINISH, {"tournament_key": tournament_id})
        assert locked is not None  # a table's tournament is a foreign key
        rounds, status, own_version = locked
        still_open = await statements.one(UNCONFIRMED, params)
        if number != rounds or status == "finished" or still_open is None or still_open[0]:
            return int(read_version)
        at = now()
        await statements.run(UPDATE_TOURNAMENT, {
            "tournament_key": tournament_id, "status": "finished", "version": own_version + 1,
            "updated_at": at})
        hosted = await host.of(statements, tournament_id)
        if hosted is not None:
            await hosted.finished(statements, tournament_id, at)
        # Under the lock no table's write runs: the version this commit makes.
        version = await tournament_version(statements.one, tournament_id)
    await broker.publish(events_channel(tournament_id), Change(version, "table_confirmed", number))
    return None


def fold_problem(error: InvalidEntry | MatchFinished | InvalidOptions,
                 path: str) -> list[Fault]:
    """A stored match that does not fold, named under ``path`` (for imports)."""
    if isinstance(error, MatchFinished):
        return [Fault(f"{path}.entries", "match_finished", _(
            "The match was decided after round {rounds_played}.",
            rounds_played=error.rounds_played))]
    if isinstance(error, InvalidEntry):
        return field_problems(error.errors, f"{path}.entries[{(error.round_number or 1) - 1}]")
    return field_problems(error.errors, path)

