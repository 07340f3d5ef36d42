"""The reads of a club answered as encoded bytes: computed on the event loop for a small club,
in the helper process (:mod:`api.server.offload`) for a big one, and kept per club version
(:mod:`api.shared.answers`), as :mod:`api.tournaments.reads` does for tournaments.

Statistics and ratings are kept up to date as matches finish, so most reads are a few rows;
but some read the club's whole history: statistics over a date range fold every result in the
range, the rating history of a game lists every rating change, the export every result, the
backup everything, and a deep page of the history sorts every match before it. For a club of
5,000 finished matches each of those is a good part of a second of work, during which the
loop would answer nothing; a club with more than :data:`BIG_FINISHED` finished matches is read
by the helper with its own connection, which answers the encoded bytes.

Decisions: whatever the club's version decides is kept by club, version, read and options
(the language among them where names of removed members are said): every finished,
corrected or undone match, every new match, every change to the members, every new season and
every club tournament that finishes makes a new version, so a season's standings (finished
matches and finished tournaments only) are kept too. Not kept: the history (a match in
progress, or a club tournament under way, changes without the club changing) and the backup
(the club token's alone, and read rarely). Both of the club's tokens read the same answers;
who may read is checked on the loop before anything else (one row), so a refused reader costs
nothing. The JSON export's ``exported_at`` is the time its version was first exported.
"""

from __future__ import annotations

from datetime import datetime
from typing import Any, Literal

import msgspec
from litestar import Response
from sqlalchemy.ext.asyncio import AsyncSession

from api.clubs import access, kasse, pads, seasons, service
from api.clubs import backup as club_backup
from api.clubs import export as club_export
from api.i18n.negotiation import Choice
from api.i18n.words import words_for
from api.server.offload import Offload
from api.shared.answers import Answer, KeptReads, Reads, json_answer
from api.shared.requests import attachment
from api.shared.spreadsheet import CSV_MEDIA_TYPE, Layout

BIG_FINISHED = 1_000
"""Finished matches above which a club is read in the helper process: its export, statistics
over a range or rating history are some 50 ms of work on the loop of a small machine."""

Read = Literal["club", "players", "player", "ladder", "rating_history", "statistics",
               "history", "head_to_head", "export", "backup", "seasons", "season_standings",
               "settlement", "payments", "kasse", "pads"]
UNKEPT = frozenset({"history", "backup", "settlement", "kasse"})
"""Not kept: besides the above, the settlement ("tonight" moves with the clock) and the
Kasse (both read every finished match played for money)."""


async def _club(session: AsyncSession, club_id: str, authorization: str | None) -> Answer:
    club = await service.read_club(session, club_id, authorization)
    return json_answer(club, ("ETag", f'"{club.version}"'))


async def _players(session: AsyncSession, club_id: str, authorization: str | None) -> Answer:
    return json_answer(await service.read_players(session, club_id, authorization))


async def _player(session: AsyncSession, club_id: str, authorization: str | None,
                  member_id: int) -> Answer:
    return json_answer(await service.read_player(session, club_id, member_id, authorization))


async def _ladder(session: AsyncSession, club_id: str, authorization: str | None,
                  game: str) -> Answer:
    return json_answer(await service.read_ladder(session, club_id, game, authorization))


async def _rating_history(session: AsyncSession, club_id: str, authorization: str | None,
                          game: str, member_id: int | None) -> Answer:
    return json_answer(await service.read_rating_history(session, club_id, game, member_id,
                                                         authorization))


async def _statistics(session: AsyncSession, club_id: str, authorization: str | None,
                      game: str | None, since: datetime | None,
                      until: datetime | None) -> Answer:
    return json_answer(await service.read_statistics(session, club_id, game, since, until,
                                                     authorization))


async def _history(session: AsyncSession, club_id: str, authorization: str | None,
                   game: str | None, member_id: int | None, since: datetime | None,
                   until: datetime | None, limit: int, offset: int, choice: Choice) -> Answer:
    return json_answer(await service.read_history(session, club_id, game, member_id, since,
                                                  until, limit, offset, authorization,
                                                  words_for(choice)))


async def _head_to_head(session: AsyncSession, club_id: str, authorization: str | None,
                        player: int, opponent: int, game: str | None,
                        choice: Choice) -> Answer:
    return json_answer(await service.read_head_to_head(session, club_id, player, opponent,
                                                       game, authorization, words_for(choice)))


async def _export(session: AsyncSession, club_id: str, authorization: str | None,
                  format_: str, table: str, layout: Layout, choice: Choice) -> Answer:
    words = words_for(choice)
    exported = await service.export(session, club_id, authorization, words)
    if format_ == "json":
        held = await seasons.read_seasons(session, club_id, authorization)
        pots = await kasse.read_kasse(session, club_id, authorization, words)
        paid = await kasse.read_payments(session, club_id, authorization, words)
        return json_answer(msgspec.structs.replace(exported, seasons=held, kasse=pots,
                                                   payments=paid),
                           *attachment(f"club-{club_id}.json").items())
    sheet = club_export.club_words(words)
    body = club_export.results_csv(exported.results, layout, sheet) if table == "results" \
        else club_export.statistics_csv(exported.statistics, layout, sheet)
    return Answer(body, CSV_MEDIA_TYPE,
                  tuple(attachment(f"club-{club_id}-{table}.csv").items()))


async def _backup(session: AsyncSession, club_id: str, authorization: str | None) -> Answer:
    saved = await club_backup.backup(session, club_id, authorization)
    return json_answer(saved, *attachment(f"club-{club_id}-backup.json").items())


async def _seasons(session: AsyncSession, club_id: str, authorization: str | None) -> Answer:
    return json_answer(await seasons.read_seasons(session, club_id, authorization))


async def _season_standings(session: AsyncSession, club_id: str, authorization: str | None,
                            season_id: int, choice: Choice, format_: str,
                            layout: Layout) -> Answer:
    words = words_for(choice)
    table = await seasons.read_standings(session, club_id, season_id, authorization, words)
    if format_ == "csv":
        return Answer(club_export.season_csv(table, layout, words), CSV_MEDIA_TYPE,
                      tuple(attachment(f"club-{club_id}-season-{season_id}.csv").items()))
    return json_answer(table)


async def _settlement(session: AsyncSession, club_id: str, authorization: str | None,
                      from_: str | None, to: str | None, format_: str, layout: Layout,
                      choice: Choice) -> Answer:
    words = words_for(choice)
    settled = await kasse.read_settlement(session, club_id, authorization, from_, to, words)
    if format_ == "json":
        return json_answer(settled)
    period = "-".join(str(day) for day in (settled.from_, settled.to) if day is not None)
    return Answer(kasse.settlement_csv(settled, layout, words), CSV_MEDIA_TYPE, tuple(
        attachment(f"club-{club_id}-settlement{'-' if period else ''}{period}.csv").items()))


async def _payments(session: AsyncSession, club_id: str, authorization: str | None,
                    choice: Choice) -> Answer:
    return json_answer(await kasse.read_payments(session, club_id, authorization,
                                                 words_for(choice)))


async def _kasse(session: AsyncSession, club_id: str, authorization: str | None,
                 format_: str, layout: Layout, choice: Choice) -> Answer:
    words = words_for(choice)
    pots = await kasse.read_kasse(session, club_id, authorization, words)
    if format_ == "json":
        return json_answer(pots)
    return Answer(kasse.kasse_csv(pots, layout, words), CSV_MEDIA_TYPE,
                  tuple(attachment(f"club-{club_id}-kasse.csv").items()))


async def _pads(session: AsyncSession, club_id: str, authorization: str | None) -> Answer:
    return json_answer(await pads.read_pads(session, club_id, authorization))


READS: Reads = {
    "club": _club, "players": _players, "player": _player, "ladder": _ladder,
    "rating_history": _rating_history, "statistics": _statistics, "history": _history,
    "head_to_head": _head_to_head, "export": _export, "backup": _backup,
    "seasons": _seasons, "season_standings": _season_standings, "settlement": _settlement,
    "payments": _payments, "kasse": _kasse, "pads": _pads}


class ClubAnswers:
    """Where the app reads clubs, and the answers kept (one per app)."""

    def __init__(self, offload: Offload) -> None:
        self._reads = KeptReads(offload, READS)

    async def read(self, session: AsyncSession, read: Read, club_id: str,
                   authorization: str | None, *options: Any) -> Response[Any]:
        club = await service.readable(session, club_id, authorization)
        if read == "backup":
            access.require_club_token(authorization, club.token_hash, club.view_token_hash)

        async def big() -> bool:
            return club.finished > BIG_FINISHED

        key = None if read in UNKEPT else (club_id, club.version, read, *options)
        return await self._reads.answer(session, key, big, read, club_id, authorization,
                                        *options)
