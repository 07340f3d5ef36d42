"""Clubs: create and read a club, its members and what their results add up to.

Reads take the club token or the view token (:mod:`api.clubs.access`); statistics and ladders
are read as stored (:mod:`api.clubs.ledger` keeps them), one statement each. Writes run in one
write transaction (:meth:`api.db.database.Database.write`) that locks the club row, bump the
club's version and tell its subscribers after the commit.

Decisions:

- A member merged into another is listed as one of that member's ``aliases``: the old spelling
  typed into a new match finds the merged member. Its id still answers, as the member it was
  merged into, so old links keep working.
- A removed member is no longer listed (players, ladders, statistics); their results stay, so
  everybody else's statistics and ratings do not change, and where their results show (history,
  head-to-head, exports) their name is the neutral label ``Former member <number>``.
- Renaming a member to one of their own aliases swaps the two spellings. A name that is another
  member's is refused (422): two people with one name need telling apart, and one person with
  two spellings is merged.
- Ladder ranks: best ordinal first; equal ordinals share a rank; members listed in the same
  rank by name.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from sqlalchemy import Table, and_, bindparam, delete, exists, func, select, update
from sqlalchemy.ext.asyncio import AsyncSession
from sqlmodel import SQLModel

from api.clubs import access, ledger
from api.clubs import schemas as s
from api.clubs.evenings import DEFAULT_TIME_ZONE, evening, time_zone_of
from api.clubs.export import ClubExport, ClubResult
from api.clubs.links import TOURNAMENT_PLAYED, TOURNAMENT_PLAYERS, TOURNAMENTS
from api.clubs.members import MEMBERS, members_named, name_key
from api.clubs.models import CLUB_NAME_LENGTH, MEMBER_NAME_LENGTH, ClubPaymentRow
from api.clubs.ratings import Rating
from api.clubs.statistics import Statistics, replayed
from api.db.models import MatchRow
from api.db.statements import EngineStatements
from api.edge import auth
from api.edge.problems import (
    NO_SUCH_GAME,
    Conflict,
    Fault,
    NotFound,
    Unprocessable,
    name_field,
    unknown_game,
)
from api.i18n import Words, _
from api.matches import stakes as match_stakes
from api.matches.folds import RecentFolds
from api.matches.service import now, rename_seats, utc
from api.shared.ids import new_id
from api.shared.imports import HIDDEN
from api.shared.live import Broker, Change
from api.tournaments.access import events_channel as tournament_channel
from api.tournaments.models import TournamentPlayerRow, TournamentRow
from scoring import registry
from scoring.game import AnyGame
from scoring.messages import Message

CLUB_ID_BYTES = 9  # 12 url-safe characters
REMOVED_LABEL = _("Former member {number}")
CLUB_NAME_NEEDED = Message("blank_name", "The club needs a name.")
MEMBER_NAME_NEEDED = Message("blank_name", "A member needs a name.")
NO_SUCH_MEMBER = _("This club has no member {member}.")
H2H_MATCHES = 20
MATCHES: Table = SQLModel.metadata.tables[MatchRow.__tablename__]
TOURNAMENT_ROWS: Table = SQLModel.metadata.tables[TournamentRow.__tablename__]
TOURNAMENT_PLAYER_ROWS: Table = SQLModel.metadata.tables[TournamentPlayerRow.__tablename__]
PAYMENTS: Table = SQLModel.metadata.tables[ClubPaymentRow.__tablename__]


# --- names ----------------------------------------------------------------------------------


def checked_name(value: str, path: str, maximum: int, blank: Message) -> str:
    """A club's or member's name, checked as every name is (no control characters, not blank,
    at most ``maximum`` characters); 422 at ``path`` otherwise."""
    problems: list[Fault] = []
    name = name_field(value, path, problems, maximum=maximum, blank=blank)
    if problems:
        raise Unprocessable(_("This name cannot be used."), errors=problems)
    assert name is not None  # a name that cannot be used is a problem
    return name


def removed_mark(member: int) -> str:
    """What a removed member is called in matches and tournaments (stored once, read in every
    language) and wherever no language is at hand."""
    return f"#{member}"


# --- reading --------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class ClubRecord:
    id: str
    name: str
    token_hash: str
    view_token_hash: str
    finished: int
    version: int
    created_at: datetime
    updated_at: datetime
    time_zone: str
    stakes: Any = None
    """Default stakes per game key, stored (:func:`api.matches.stakes.stored`)."""


CLUB_RECORD = select(*(ledger.CLUBS.c[name] for name in ClubRecord.__slots__))


async def load_club(session: AsyncSession, club_id: str) -> ClubRecord:
    """The club; 404 if there is none, or while it is being imported (its token hashes
    :data:`api.shared.imports.HIDDEN`)."""
    row = (await session.execute(CLUB_RECORD.where(
        ledger.CLUBS.c.id == club_id, ledger.CLUBS.c.token_hash != HIDDEN))).one_or_none()
    if row is None:
        raise NotFound(ledger.NO_SUCH_CLUB.with_params(club=club_id))
    return ClubRecord(*row)


async def readable(session: AsyncSession, club_id: str, authorization: str | None) -> ClubRecord:
    """The club, once the request holds one of its tokens (401/403 otherwise)."""
    club = await load_club(session, club_id)
    access.reader(authorization, club.token_hash, club.view_token_hash)
    return club


@dataclass(slots=True)
class Member:
    id: int
    name: str | None
    merged_into: int | None
    aliases: list[str]

    @property
    def listed(self) -> bool:
        return self.name is not None and self.merged_into is None

    @property
    def shown(self) -> str:
        """The name of a listed member (a removed one's mark)."""
        return self.name if self.name is not None else removed_mark(self.id)

    def named(self, words: Words) -> str:
        """The name, or a removed member's neutral label in the reader's language."""
        if self.name is not None:
            return self.name
        return words(REMOVED_LABEL.with_params(number=self.id))


async def members_of(session: AsyncSession, club_id: str) -> dict[int, Member]:
    """Every member ever, by id, aliases gathered under the member they were merged into."""
    rows = (await session.execute(
        select(MEMBERS.c.id, MEMBERS.c.name, MEMBERS.c.merged_into)
        .where(MEMBERS.c.club_id == club_id).order_by(MEMBERS.c.id))).all()
    members = {int(i): Member(int(i), name, merged, []) for i, name, merged in rows}
    for member in members.values():
        if member.merged_into is not None and member.name is not None:
            members[member.merged_into].aliases.append(member.name)
    return members


def member_in(members: dict[int, Member], member_id: int, *, listed: bool = True) -> Member:
    """The member ``member_id`` is (a merged id: the member it was merged into); 404 if none,
    or if ``listed`` and the member was removed."""
    member = members.get(member_id)
    if member is not None and member.merged_into is not None:
        member = members[member.merged_into]
    if member is None or (listed and member.name is None):
        raise NotFound(NO_SUCH_MEMBER.with_params(member=member_id))
    return member


def game_of(game_id: str, path: str = "game") -> AnyGame:
    game = registry.game_by_key(game_id)
    if game is None:
        raise Unprocessable(NO_SUCH_GAME, errors=[unknown_game(path, game_id)])
    return game


def rating_of(mu: float, sigma: float) -> s.ClubRating:
    rating = Rating(mu, sigma)
    return s.ClubRating(mu=rating.mu, sigma=rating.sigma, ordinal=rating.ordinal)


def game_statistics(game: AnyGame, statistics: Statistics,
                    rating: s.ClubRating | None, rated: int) -> s.MemberGameStatistics:
    measures = []
    for measure in game.measures:
        kept = statistics.measures.get(measure.id)
        measures.append(s.MeasureStatistics(
            id=measure.id, per=measure.per, better=measure.better,
            average=kept.total / kept.units if kept and kept.units else None,
            best=kept.best if kept else None))
    return s.MemberGameStatistics(
        played=statistics.played, won=statistics.won,
        win_rate=statistics.won / statistics.played if statistics.played else 0.0,
        rounds=statistics.rounds, streak=statistics.streak,
        longest_streak=statistics.longest_streak, measures=measures,
        last=[s.LastResult(**result) for result in statistics.last],
        rating=rating, rated=rated)


@dataclass(frozen=True, slots=True)
class StoredGame:
    member: int
    game: str
    statistics: Statistics
    rating: s.ClubRating
    rated: int


async def stored_games(session: AsyncSession, club_id: str,
                       game_id: str | None = None) -> list[StoredGame]:
    games = ledger.MEMBER_GAMES
    query = select(games.c.member_id, games.c.game, games.c.statistics, games.c.mu,
                   games.c.sigma, games.c.rated).where(games.c.club_id == club_id)
    if game_id is not None:
        query = query.where(games.c.game == game_id)
    return [StoredGame(int(member), game, Statistics.from_json(stats), rating_of(mu, sigma),
                       int(rated))
            for member, game, stats, mu, sigma, rated in await session.execute(query)]


async def read_club(session: AsyncSession, club_id: str,
                    authorization: str | None) -> s.Club:
    club = await readable(session, club_id, authorization)
    return await club_view(session, club)


async def club_view(session: AsyncSession, club: ClubRecord) -> s.Club:
    members = await members_of(session, club.id)
    played: dict[int, int] = defaultdict(int)
    games: set[str] = set()
    for stored in await stored_games(session, club.id):
        played[stored.member] += stored.statistics.played
        games.add(stored.game)
    finished = (await session.execute(
        select(func.count()).select_from(ledger.CLUB_MATCHES).where(
            ledger.CLUB_MATCHES.c.club_id == club.id,
            ledger.CLUB_MATCHES.c.finish.is_not(None)))).scalar_one()
    return s.Club(
        id=club.id, name=club.name, time_zone=club.time_zone,
        stakes=match_stakes.answer_per_game(club.stakes),
        players=[s.ClubMemberSummary(m.id, m.shown, m.aliases, played[m.id])
                 for m in members.values() if m.listed],
        games=sorted(games), finished_matches=int(finished), version=club.version,
        created_at=utc(club.created_at), updated_at=utc(club.updated_at))


async def read_players(session: AsyncSession, club_id: str,
                       authorization: str | None) -> list[s.ClubMember]:
    club = await readable(session, club_id, authorization)
    members = await members_of(session, club.id)
    games: dict[int, dict[str, s.MemberGameStatistics]] = defaultdict(dict)
    for stored in await stored_games(session, club.id):
        game = registry.game_by_key(stored.game)
        if game is not None:
            games[stored.member][stored.game] = game_statistics(
                game, stored.statistics, stored.rating, stored.rated)
    return [s.ClubMember(m.id, m.shown, m.aliases, games[m.id])
            for m in members.values() if m.listed]


async def read_player(session: AsyncSession, club_id: str, member_id: int,
                      authorization: str | None) -> s.ClubMember:
    club = await readable(session, club_id, authorization)
    return await _member_view(session, club.id, member_id)


async def read_ladder(session: AsyncSession, club_id: str, game_id: str,
                      authorization: str | None) -> list[s.LadderRow]:
    club = await readable(session, club_id, authorization)
    game = game_of(game_id)
    members = await members_of(session, club.id)
    listed = [stored for stored in await stored_games(session, club.id, game.id)
              if members[stored.member].listed]
    listed.sort(key=lambda g: (-g.rating.ordinal, members[g.member].shown.casefold(), g.member))
    rows: list[s.LadderRow] = []
    for place, stored in enumerate(listed, start=1):
        rank = rows[-1].rank if rows and rows[-1].ordinal == stored.rating.ordinal else place
        rows.append(s.LadderRow(
            player=stored.member, name=members[stored.member].shown, rank=rank,
            mu=stored.rating.mu, sigma=stored.rating.sigma, ordinal=stored.rating.ordinal,
            played=stored.statistics.played, won=stored.statistics.won, rated=stored.rated))
    return rows


async def read_rating_history(session: AsyncSession, club_id: str, game_id: str,
                              member_id: int | None,
                              authorization: str | None) -> list[s.RatingHistory]:
    """Each member's rating after every rated match of the game, in the club's order (by
    ``played_at``, then finish number: the order they were rated in)."""
    club = await readable(session, club_id, authorization)
    game = game_of(game_id)
    members = await members_of(session, club.id)
    ratings, matches = ledger.RATINGS, ledger.CLUB_MATCHES
    query = select(ratings.c.member_id, ratings.c.finish, ratings.c.match_id,
                   matches.c.finished_at, matches.c.played_at, ratings.c.mu,
                   ratings.c.sigma).join(
        matches, matches.c.match_id == ratings.c.match_id).where(
        ratings.c.club_id == club.id, ratings.c.game == game.id).order_by(
        *ledger.ORDER, ratings.c.finish)
    if member_id is not None:
        query = query.where(ratings.c.member_id == member_in(members, member_id).id)
    points: dict[int, list[s.RatingPoint]] = defaultdict(list)
    for member, finish, match_id, at, played_at, mu, sigma in await session.execute(query):
        rating = Rating(mu, sigma)
        points[int(member)].append(s.RatingPoint(
            finish=finish, match=match_id, finished_at=utc(at), played_at=utc(played_at),
            mu=mu, sigma=sigma, ordinal=rating.ordinal))
    return [s.RatingHistory(player=member, name=members[member].shown, points=series)
            for member, series in points.items() if members[member].listed]


# --- statistics over a date range -----------------------------------------------------------


async def read_statistics(session: AsyncSession, club_id: str, game_id: str | None,
                          since: datetime | None, until: datetime | None,
                          authorization: str | None) -> list[s.StatisticsRow]:
    """Per member and game: all time as stored, or over the matches played from ``since``
    (inclusive) until ``until`` (exclusive), folded from their results in the club's order
    (no rating there)."""
    club = await readable(session, club_id, authorization)
    game = game_of(game_id) if game_id is not None else None
    members = await members_of(session, club.id)
    rows: list[s.StatisticsRow] = []
    if since is None and until is None:
        for stored in await stored_games(session, club.id, game.id if game else None):
            found = registry.game_by_key(stored.game)
            if found is not None and members[stored.member].listed:
                rows.append(_statistics_row(members[stored.member], found, game_statistics(
                    found, stored.statistics, stored.rating, stored.rated)))
    else:
        seats, matches = ledger.SEATS, ledger.CLUB_MATCHES
        query = select(seats.c.member_id, seats.c.game, seats.c.match_id, seats.c.finish,
                       seats.c.side, seats.c.rank, seats.c.won, seats.c.rounds,
                       seats.c.measures).join(matches, matches.c.match_id == seats.c.match_id) \
            .where(seats.c.club_id == club.id, seats.c.finish.is_not(None)) \
            .order_by(*ledger.ORDER, seats.c.finish)
        if game is not None:
            query = query.where(seats.c.game == game.id)
        if since is not None:
            query = query.where(matches.c.played_at >= since)
        if until is not None:
            query = query.where(matches.c.played_at < until)
        results: dict[tuple[int, str], list[Any]] = defaultdict(list)
        for member, game_key, match_id, finish, *kept in await session.execute(query):
            results[(int(member), game_key)].append(ledger.stored_result(match_id, finish, kept))
        for (member, game_key), found_results in results.items():
            found = registry.game_by_key(game_key)
            if found is not None and members[member].listed:
                rows.append(_statistics_row(members[member], found, game_statistics(
                    found, replayed(found_results, found), None, 0)))
    rows.sort(key=lambda row: (row.game, row.name.casefold(), row.player))
    return rows


def _statistics_row(member: Member, game: AnyGame,
                    statistics: s.MemberGameStatistics) -> s.StatisticsRow:
    return s.StatisticsRow(player=member.id, name=member.shown, game=game.id,
                           **{f: getattr(statistics, f) for f in statistics.__struct_fields__})


# --- history and head-to-head ---------------------------------------------------------------


async def _match_entries(session: AsyncSession, club: ClubRecord, match_ids: Sequence[str],
                         members: dict[int, Member], words: Words) -> dict[str, s.HistoryEntry]:
    if not match_ids:
        return {}
    matches, seats = ledger.CLUB_MATCHES, ledger.SEATS
    found = {match_id: (game, status, utc(played_at), location, finished_at, finish)
             for match_id, game, status, played_at, location, finished_at, finish
             in await session.execute(
                 select(matches.c.match_id, matches.c.game, MATCHES.c.status,
                        matches.c.played_at, MATCHES.c.location, matches.c.finished_at,
                        matches.c.finish)
                 .join(MATCHES, MATCHES.c.id == matches.c.match_id)
                 .where(matches.c.match_id.in_(match_ids)))}
    players: dict[str, list[s.HistorySeat]] = defaultdict(list)
    for match_id, member, rank, won in await session.execute(
            select(seats.c.match_id, seats.c.member_id, seats.c.rank, seats.c.won)
            .where(seats.c.match_id.in_(match_ids)).order_by(seats.c.match_id, seats.c.seat)):
        person = member_in(members, member, listed=False)
        players[match_id].append(s.HistorySeat(person.id, person.named(words), rank, won))
    return {match_id: s.HistoryEntry(
        kind="match", id=match_id, game=game, name=None, status=status, played_at=played_at,
        evening=evening(played_at, club.time_zone), location=location,
        finished_at=utc(finished_at) if finished_at else None,
        finish=finish, players=players[match_id])
        for match_id, (game, status, played_at, location, finished_at, finish) in found.items()}


async def _tournament_entries(session: AsyncSession, club: ClubRecord,
                              tournament_ids: Sequence[str], members: dict[int, Member],
                              words: Words) -> dict[str, s.HistoryEntry]:
    if not tournament_ids:
        return {}
    t = TOURNAMENT_ROWS
    players: dict[str, list[s.HistorySeat]] = defaultdict(list)
    for tournament_id, member in await session.execute(
            select(TOURNAMENT_PLAYERS.c.tournament_id, TOURNAMENT_PLAYERS.c.member_id)
            .where(TOURNAMENT_PLAYERS.c.tournament_id.in_(tournament_ids))
            .order_by(TOURNAMENT_PLAYERS.c.tournament_id, TOURNAMENT_PLAYERS.c.player_id)):
        person = member_in(members, member, listed=False)
        players[tournament_id].append(s.HistorySeat(person.id, person.named(words), None, None))
    return {tournament_id: s.HistoryEntry(
        kind="tournament", id=tournament_id, game=game, name=name, status=status,
        played_at=utc(played_at), evening=evening(utc(played_at), club.time_zone),
        location=None, finished_at=utc(updated_at) if status == "finished" else None,
        finish=None, players=players[tournament_id])
        for tournament_id, game, name, status, played_at, updated_at in await session.execute(
            select(t.c.id, t.c.game, t.c.name, t.c.status, TOURNAMENT_PLAYED,
                   t.c.updated_at).join(TOURNAMENTS, TOURNAMENTS.c.tournament_id == t.c.id)
            .where(t.c.id.in_(tournament_ids)))}


async def read_history(session: AsyncSession, club_id: str, game_id: str | None,
                       member_id: int | None, since: datetime | None, until: datetime | None,
                       limit: int, offset: int, authorization: str | None,
                       words: Words) -> s.ClubHistory:
    """The club's matches (not a tournament's tables) and tournaments, latest evening first: by
    ``played_at`` (a tournament's: when it finished, :data:`TOURNAMENT_PLAYED`); ``since`` and
    ``until`` select by it."""
    club = await readable(session, club_id, authorization)
    game = game_of(game_id) if game_id is not None else None
    members = await members_of(session, club.id)
    member = member_in(members, member_id, listed=False) if member_id is not None else None
    matches, seats = ledger.CLUB_MATCHES, ledger.SEATS
    match_query = select(matches.c.match_id, matches.c.played_at).where(
        matches.c.club_id == club.id, matches.c.tournament_id.is_(None))
    played = TOURNAMENT_PLAYED
    tournament_query = select(TOURNAMENTS.c.tournament_id, played).where(
        TOURNAMENTS.c.club_id == club.id)
    if game is not None:
        match_query = match_query.where(matches.c.game == game.id)
        tournament_query = tournament_query.join(
            TOURNAMENT_ROWS, TOURNAMENT_ROWS.c.id == TOURNAMENTS.c.tournament_id).where(
            TOURNAMENT_ROWS.c.game == game.id)
    if member is not None:
        match_query = match_query.where(exists().where(
            seats.c.match_id == matches.c.match_id, seats.c.member_id == member.id))
        tournament_query = tournament_query.where(exists().where(and_(
            TOURNAMENT_PLAYERS.c.tournament_id == TOURNAMENTS.c.tournament_id,
            TOURNAMENT_PLAYERS.c.member_id == member.id)))
    if since is not None:
        match_query = match_query.where(matches.c.played_at >= since)
        tournament_query = tournament_query.where(played >= since)
    if until is not None:
        match_query = match_query.where(matches.c.played_at < until)
        tournament_query = tournament_query.where(played < until)
    wanted = offset + limit + 1
    found = [("match", i, utc(at)) for i, at in await session.execute(
        match_query.order_by(matches.c.played_at.desc(), matches.c.match_id.desc())
        .limit(wanted))]
    found += [("tournament", i, utc(at)) for i, at in await session.execute(
        tournament_query.order_by(played.desc()).limit(wanted))]
    found.sort(key=lambda item: (item[2], item[1]), reverse=True)
    page = found[offset: offset + limit]
    match_entries = await _match_entries(
        session, club, [i for kind, i, _at in page if kind == "match"], members, words)
    tournament_entries = await _tournament_entries(
        session, club, [i for kind, i, _at in page if kind == "tournament"], members, words)
    entries = [match_entries[i] if kind == "match" else tournament_entries[i]
               for kind, i, _at in page]
    return s.ClubHistory(entries=entries,
                         next_offset=offset + limit if len(found) > offset + limit else None)


async def read_head_to_head(session: AsyncSession, club_id: str, player_id: int,
                            opponent_id: int, game_id: str | None,
                            authorization: str | None, words: Words) -> s.HeadToHead:
    """Two members' finished matches together: per game who finished ahead and who won."""
    club = await readable(session, club_id, authorization)
    game = game_of(game_id) if game_id is not None else None
    members = await members_of(session, club.id)
    player = member_in(members, player_id, listed=False)
    opponent = member_in(members, opponent_id, listed=False)
    if player.id == opponent.id:
        raise Unprocessable(_("Head-to-head needs two different members."), errors=[Fault(
            "opponent", "same_member", _("Choose another member than the player."))])
    mine, theirs = ledger.SEATS.alias("mine"), ledger.SEATS.alias("theirs")
    matches = ledger.CLUB_MATCHES
    query = select(mine.c.match_id, mine.c.game, mine.c.side, mine.c.rank, mine.c.won,
                   theirs.c.side, theirs.c.rank, theirs.c.won).join(
        theirs, theirs.c.match_id == mine.c.match_id).join(
        matches, matches.c.match_id == mine.c.match_id).where(
        mine.c.club_id == club.id, mine.c.member_id == player.id,
        theirs.c.member_id == opponent.id, mine.c.finish.is_not(None)).order_by(
        matches.c.played_at.desc(), mine.c.finish.desc())
    if game is not None:
        query = query.where(mine.c.game == game.id)
    games: dict[str, s.HeadToHeadGame] = {}
    recent: list[str] = []
    for match_id, game_key, side, rank, won, other_side, other_rank, other_won \
            in await session.execute(query):
        line = games.setdefault(game_key, s.HeadToHeadGame(game_key, 0, 0, 0, 0, 0, 0, 0))
        line.played += 1
        if side == other_side:
            line.partners += 1
        elif rank < other_rank:
            line.player_ahead += 1
        elif rank > other_rank:
            line.opponent_ahead += 1
        else:
            line.tied += 1
        line.player_won += bool(won)
        line.opponent_won += bool(other_won)
        if len(recent) < H2H_MATCHES:
            recent.append(match_id)
    entries = await _match_entries(session, club, recent, members, words)
    return s.HeadToHead(
        player=s.MemberRef(player.id, player.named(words)),
        opponent=s.MemberRef(opponent.id, opponent.named(words)),
        games=[games[key] for key in sorted(games)], matches=[entries[i] for i in recent])


# --- writing --------------------------------------------------------------------------------


async def publish(broker: Broker, change: ledger.ClubChange, action: str) -> None:
    await broker.publish(ledger.events_channel(change.club_id),
                         Change(change.version, action, None))


async def add_club(session: AsyncSession, name: str) -> tuple[ClubRecord, auth.TokenPair]:
    """Insert a new club with fresh tokens (stored as hashes) in the caller's transaction."""
    tokens = auth.new_tokens()
    at = now()
    club = ClubRecord(id=new_id(CLUB_ID_BYTES), name=name,
                      token_hash=auth.token_hash(tokens.write),
                      view_token_hash=auth.token_hash(tokens.view), finished=0, version=1,
                      created_at=at, updated_at=at, time_zone=DEFAULT_TIME_ZONE)
    await session.execute(INSERT_CLUB, club_columns(club))
    return club, tokens


async def create_club(session: AsyncSession, body: s.NewClub) -> s.CreatedClub:
    name = checked_name(body.name, "name", CLUB_NAME_LENGTH, CLUB_NAME_NEEDED)
    club, tokens = await add_club(session, name)
    at = club.created_at
    await session.commit()
    return s.CreatedClub(id=club.id, name=club.name, time_zone=club.time_zone, stakes={},
                         players=[], games=[], finished_matches=0,
                         version=club.version, created_at=at, updated_at=at,
                         token=tokens.write, view_token=tokens.view)


INSERT_CLUB = ledger.CLUBS.insert()


def club_columns(club: ClubRecord) -> dict[str, Any]:
    return {field: getattr(club, field) for field in ClubRecord.__slots__}


async def writable(session: AsyncSession, club_id: str,
                    authorization: str | None) -> tuple[ClubRecord, int]:
    """The club, locked, once the request holds the club token; and its version."""
    club = await load_club(session, club_id)
    access.require_club_token(authorization, club.token_hash, club.view_token_hash)
    _finished, version = await ledger.lock_club(EngineStatements(session), club_id)
    return club, version


async def change_club(session: AsyncSession, broker: Broker, club_id: str,
                      authorization: str | None, body: s.ClubChange) -> s.Club:
    """A new name, time zone or default stakes (none of them changes nothing but the version).
    New stakes for a game replace its old ones, ``null`` removes them."""
    columns: dict[str, Any] = {}
    if body.name is not None:
        columns["name"] = checked_name(body.name, "name", CLUB_NAME_LENGTH, CLUB_NAME_NEEDED)
    if body.time_zone is not None:
        columns["time_zone"] = time_zone_of(body.time_zone)
    stakes = None if body.stakes is None else match_stakes.read_per_game(body.stakes, "stakes")
    club, version = await writable(session, club_id, authorization)
    if stakes is not None:
        merged = {**(club.stakes or {}), **stakes}
        columns["stakes"] = {game: kept for game, kept in merged.items() if kept is not None}
    change = await ledger.touch_club(EngineStatements(session), club.id, version, now(),
                                     **columns)
    await session.commit()
    await publish(broker, change, "club_renamed")
    return await club_view(session, await load_club(session, club.id))


# --- members --------------------------------------------------------------------------------

UPDATE_MEMBER = update(MEMBERS).where(MEMBERS.c.club_id == bindparam("club_key"),
                                      MEMBERS.c.id == bindparam("member_key"))
MEMBER_BY_KEY = select(MEMBERS.c.id, MEMBERS.c.merged_into).where(
    MEMBERS.c.club_id == bindparam("club_key"), MEMBERS.c.key == bindparam("name_key"))


def _member_or_field(members: dict[int, Member], member_id: int, path: str) -> Member:
    """A member named in a request body: 422 at ``path`` when there is none."""
    try:
        return member_in(members, member_id)
    except NotFound:
        raise Unprocessable(_("There is no such member."), errors=[Fault(
            path, "unknown_member", NO_SUCH_MEMBER.with_params(member=member_id))]) from None


async def _member_view(session: AsyncSession, club_id: str, member_id: int) -> s.ClubMember:
    members = await members_of(session, club_id)
    member = member_in(members, member_id)
    games = {}
    for stored in await stored_games(session, club_id):
        game = registry.game_by_key(stored.game)
        if stored.member == member.id and game is not None:
            games[stored.game] = game_statistics(game, stored.statistics, stored.rating,
                                                 stored.rated)
    return s.ClubMember(member.id, member.shown, member.aliases, games)


async def add_members(session: AsyncSession, broker: Broker, club_id: str,
                      authorization: str | None, body: s.NewClubMembers) -> s.AddedClubMembers:
    """Members by name before they play: each name's member, made where there is none (names
    are checked as every member's name; 422 at ``names[i]``)."""
    problems: list[Fault] = []
    names = [name_field(name, f"names[{i}]", problems, maximum=MEMBER_NAME_LENGTH,
                        blank=MEMBER_NAME_NEEDED) for i, name in enumerate(body.names)]
    if problems:
        raise Unprocessable(_("These names cannot be used."), errors=problems)
    club, version = await writable(session, club_id, authorization)
    statements = EngineStatements(session)
    named = await members_named(statements, club.id, [n for n in names if n is not None],
                                now())
    change = await ledger.touch_club(statements, club.id, version, now()) \
        if named.created else None
    await session.commit()
    if change is not None:
        await publish(broker, change, "members_added")
    members = await members_of(session, club.id)
    return s.AddedClubMembers([
        s.AddedClubMember(member, members[member].shown, member in named.created)
        for member in named.members])


async def rename_member(session: AsyncSession, broker: Broker, club_id: str, member_id: int,
                        authorization: str | None, body: s.MemberChange) -> s.ClubMember:
    """A new spelling of a member's name; one of their own aliases swaps with it."""
    name = checked_name(body.name, "name", MEMBER_NAME_LENGTH, MEMBER_NAME_NEEDED)
    club, version = await writable(session, club_id, authorization)
    member = member_in(await members_of(session, club.id), member_id)
    holder = (await session.execute(MEMBER_BY_KEY, {"club_key": club.id,
                                                    "name_key": name_key(name)})).one_or_none()
    statements = EngineStatements(session)
    if holder is not None and holder[0] != member.id:
        if holder[1] != member.id:
            raise Unprocessable(_("Another member has this name."), errors=[Fault(
                "name", "name_taken", _(
                    '"{name}" is member {member}; merge the two if they are one person.',
                    name=name, member=holder[1] or holder[0]))])
        assert member.name is not None  # a listed member has a name
        await statements.run(UPDATE_MEMBER, {"club_key": club.id, "member_key": holder[0],
                                             "key": None})
        await statements.run(UPDATE_MEMBER, {"club_key": club.id, "member_key": member.id,
                                             "name": name, "key": name_key(name)})
        await statements.run(UPDATE_MEMBER, {"club_key": club.id, "member_key": holder[0],
                                             "name": member.name, "key": name_key(member.name)})
    else:
        await statements.run(UPDATE_MEMBER, {"club_key": club.id, "member_key": member.id,
                                             "name": name, "key": name_key(name)})
    change = await ledger.touch_club(statements, club.id, version, now())
    await session.commit()
    await publish(broker, change, "member_renamed")
    return await _member_view(session, club.id, member.id)


async def merge_member(session: AsyncSession, broker: Broker, club_id: str, member_id: int,
                       authorization: str | None, body: s.MemberMerge) -> s.ClubMember:
    """Merge two spellings of one person: every result of ``member_id`` becomes the other
    member's, their statistics and ratings are replayed as if they had always been one."""
    club, version = await writable(session, club_id, authorization)
    members = await members_of(session, club.id)
    source = member_in(members, member_id)
    target = _member_or_field(members, body.into, "into")
    if source.id == target.id:
        raise Unprocessable(_("A member cannot be merged into themselves."), errors=[Fault(
            "into", "same_member", _("Choose another member.", member=target.id))])
    await _refuse_if_together(session, club.id, source.id, target.id)
    seats, matches = ledger.SEATS, ledger.CLUB_MATCHES
    firsts: dict[str, ledger.Place] = {}
    for game, played_at, finish in await session.execute(
            select(seats.c.game, matches.c.played_at, seats.c.finish).join(
                matches, matches.c.match_id == seats.c.match_id).where(
                seats.c.club_id == club.id, seats.c.member_id == source.id,
                seats.c.finish.is_not(None)).order_by(*ledger.ORDER, seats.c.finish)):
        firsts.setdefault(game, (played_at, int(finish)))  # the first in the club's order
    statements = EngineStatements(session)
    await session.execute(update(seats).where(seats.c.club_id == club.id,
                                              seats.c.member_id == source.id)
                          .values(member_id=target.id))
    await session.execute(update(TOURNAMENT_PLAYERS).where(
        TOURNAMENT_PLAYERS.c.club_id == club.id, TOURNAMENT_PLAYERS.c.member_id == source.id)
        .values(member_id=target.id))
    # The Kasse is one person's too: what the other spelling paid counts against what they owe.
    await session.execute(update(PAYMENTS).where(
        PAYMENTS.c.club_id == club.id, PAYMENTS.c.member_id == source.id)
        .values(member_id=target.id))
    await session.execute(update(MEMBERS).where(
        MEMBERS.c.club_id == club.id,
        (MEMBERS.c.id == source.id) | (MEMBERS.c.merged_into == source.id))
        .values(merged_into=target.id))
    await session.execute(delete(ledger.MEMBER_GAMES).where(
        ledger.MEMBER_GAMES.c.club_id == club.id, ledger.MEMBER_GAMES.c.member_id == source.id))
    for game_id, first in firsts.items():
        await ledger.rebuild(statements, club.id, ledger.game_of(game_id), {target.id}, first)
    change = await ledger.touch_club(statements, club.id, version, now())
    await session.commit()
    await publish(broker, change, "member_merged")
    return await _member_view(session, club.id, target.id)


async def _refuse_if_together(session: AsyncSession, club_id: str, one: int, other: int) -> None:
    """Two members who sat at one table, or play in one tournament, are two people (409)."""
    mine, theirs = ledger.SEATS.alias("mine"), ledger.SEATS.alias("theirs")
    match_id = (await session.execute(
        select(mine.c.match_id).join(theirs, theirs.c.match_id == mine.c.match_id).where(
            mine.c.club_id == club_id, mine.c.member_id == one, theirs.c.member_id == other)
        .limit(1))).scalar_one_or_none()
    mine, theirs = TOURNAMENT_PLAYERS.alias("mine"), TOURNAMENT_PLAYERS.alias("theirs")
    tournament_id = (await session.execute(
        select(mine.c.tournament_id).join(
            theirs, theirs.c.tournament_id == mine.c.tournament_id).where(
            mine.c.club_id == club_id, mine.c.member_id == one, theirs.c.member_id == other)
        .limit(1))).scalar_one_or_none()
    if match_id is not None or tournament_id is not None:
        raise Conflict(_("These members played together: they are two people."),
                       errors=[Fault("into", "played_together", _(
                           "They played at one table or in one tournament.",
                           match=match_id, tournament=tournament_id))])


@dataclass(frozen=True, slots=True)
class Unnamed:
    """A member whose name is gone from the club's matches and tournaments, not yet committed:
    the new versions of the matches and tournaments renamed (to announce after the commit), the
    club's version (locked) and the moment."""

    matches: dict[str, int]
    tournaments: dict[str, int]
    version: int
    at: datetime


async def unname(session: AsyncSession, folds: RecentFolds, club: ClubRecord,
                 member: Member) -> Unnamed:
    """Replace the member's name (and aliases) by their neutral mark in the member rows, in
    every match they sat at and every tournament they played, in the caller's transaction.

    The member's matches are locked (in id order) before the club, the order every match
    writer keeps; a match the member starts meanwhile is 409, to be tried again. Each of their
    tournaments gets a new version (not a new ``updated_at``: that says when it finished), so
    no answer kept for the old one is read again.
    """
    statements = EngineStatements(session)
    matches = await _matches_of(session, club.id, member.id)
    versions = {}
    for match_id, seats in sorted(matches.items()):
        versions[match_id] = await rename_seats(
            statements, folds, match_id, dict.fromkeys(seats, removed_mark(member.id)),
            access.CLUB)
    _finished, version = await ledger.lock_club(statements, club.id)
    if (await _matches_of(session, club.id, member.id)).keys() != matches.keys():
        raise Conflict(_("The member has just started a match; try again."))
    players = (await session.execute(
        select(TOURNAMENT_PLAYERS.c.tournament_id, TOURNAMENT_PLAYERS.c.player_id).where(
            TOURNAMENT_PLAYERS.c.club_id == club.id,
            TOURNAMENT_PLAYERS.c.member_id == member.id))).all()
    tournaments: dict[str, int] = {}
    for tournament_id, player_id in players:
        await session.execute(update(TOURNAMENT_PLAYER_ROWS).where(
            TOURNAMENT_PLAYER_ROWS.c.tournament_id == tournament_id,
            TOURNAMENT_PLAYER_ROWS.c.id == player_id).values(name=removed_mark(member.id)))
        if tournament_id not in tournaments:
            tournaments[tournament_id] = int((await session.execute(
                update(TOURNAMENT_ROWS).where(TOURNAMENT_ROWS.c.id == tournament_id)
                .values(version=TOURNAMENT_ROWS.c.version + 1)
                .returning(TOURNAMENT_ROWS.c.version))).scalar_one())
    at = now()
    await session.execute(update(MEMBERS).where(
        MEMBERS.c.club_id == club.id,
        (MEMBERS.c.id == member.id) | (MEMBERS.c.merged_into == member.id))
        .values(name=None, key=None, removed_at=func.coalesce(MEMBERS.c.removed_at, at)))
    return Unnamed(versions, tournaments, version, at)


async def announce_unnamed(broker: Broker, unnamed: Unnamed, change: ledger.ClubChange,
                           action: str) -> None:
    """After the commit: every renamed match and tournament, and the club, tell their phones."""
    for match_id, match_version in unnamed.matches.items():
        await broker.publish(match_id, Change(match_version, "players_renamed", None))
    for tournament_id, tournament_version in unnamed.tournaments.items():
        await broker.publish(tournament_channel(tournament_id),
                             Change(tournament_version, "players_renamed", None))
    await publish(broker, change, action)


async def remove_member(session: AsyncSession, broker: Broker, folds: RecentFolds,
                        club_id: str, member_id: int, authorization: str | None) -> None:
    """Remove a member: their name (and aliases) are gone from the club and from its matches
    and tournaments (:func:`unname`); their results stay, so nobody else's statistics change.
    """
    club = await load_club(session, club_id)
    access.require_club_token(authorization, club.token_hash, club.view_token_hash)
    member = member_in(await members_of(session, club.id), member_id)
    unnamed = await unname(session, folds, club, member)
    change = await ledger.touch_club(EngineStatements(session), club.id, unnamed.version,
                                     unnamed.at)
    await session.commit()
    await announce_unnamed(broker, unnamed, change, "member_removed")


async def _matches_of(session: AsyncSession, club_id: str, member: int) -> dict[str, list[int]]:
    """The member's club matches and their seats there."""
    seats = ledger.SEATS
    found: dict[str, list[int]] = defaultdict(list)
    for match_id, seat in await session.execute(select(seats.c.match_id, seats.c.seat).where(
            seats.c.club_id == club_id, seats.c.member_id == member)):
        found[match_id].append(int(seat))
    return found


# --- export ---------------------------------------------------------------------------------


async def read_results(session: AsyncSession, club: ClubRecord,
                       words: Words) -> list[ClubResult]:
    """Every member's result in every finished club match, in the club's order (by
    ``played_at``, then finish number: the order their ratings were reckoned in)."""
    members = await members_of(session, club.id)
    seats, matches, ratings = ledger.SEATS, ledger.CLUB_MATCHES, ledger.RATINGS
    query = select(seats.c.finish, matches.c.finished_at, matches.c.played_at,
                   MATCHES.c.location, seats.c.match_id, seats.c.game,
                   seats.c.member_id, seats.c.rank, seats.c.won, seats.c.rounds,
                   seats.c.measures, ratings.c.mu, ratings.c.sigma).join(
        matches, matches.c.match_id == seats.c.match_id).join(
        MATCHES, MATCHES.c.id == seats.c.match_id).outerjoin(
        ratings, and_(ratings.c.club_id == seats.c.club_id, ratings.c.finish == seats.c.finish,
                      ratings.c.member_id == seats.c.member_id)).where(
        seats.c.club_id == club.id, seats.c.finish.is_not(None)).order_by(
        *ledger.ORDER, seats.c.finish, seats.c.seat)
    results = []
    for finish, at, played_at, location, match_id, game, member, rank, won, rounds, totals, \
            mu, sigma in await session.execute(query):
        person = member_in(members, member, listed=False)
        results.append(ClubResult(
            finish=finish, finished_at=utc(at), played_at=utc(played_at),
            evening=evening(utc(played_at), club.time_zone), location=location,
            match=match_id, game=game, player=person.id,
            name=person.named(words), rank=rank, won=bool(won), rounds=rounds, totals=totals,
            rating=None if mu is None else rating_of(mu, sigma)))
    return results


async def export(session: AsyncSession, club_id: str, authorization: str | None,
                 words: Words) -> ClubExport:
    club = await readable(session, club_id, authorization)
    return ClubExport(
        club=await club_view(session, club), results=await read_results(session, club, words),
        statistics=await read_statistics(session, club.id, None, None, None, authorization),
        exported_at=now())
