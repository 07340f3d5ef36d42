"""The reads of a whole tournament (itself, its standings, a player's view, its exports, its
backup) answered as encoded bytes: computed on the event loop for a small tournament, in the
helper process (:mod:`api.server.offload`) for a big one, and kept per tournament version.

A tournament of 10,000 players has 15,000 tables after six rounds; reading them, folding the
standings and writing the JSON took seconds on the loop, during which nothing else was
answered. A big one (more than :data:`api.tournaments.service.BIG_ROWS` players and tables
together) is read by the helper with its own connection, which answers the encoded bytes.

Decisions: every answer anyone may read (not the organiser's backup) is kept by tournament,
version (its own and its tables' writes, :func:`api.tournaments.access.tournament_version`, read
before the answer; the standings by the writes at confirmed tables only, which are all they
count, so a projector reading them after every result entered computes them once per
confirmation), the reader's kind of token and the read's options, in a cache of at most
:data:`api.shared.answers.CACHE_BYTES`: any change to a tournament (a round recorded at one of its
tables included) makes a new version, so a kept answer is never stale, and a projector or a hundred
phones reading the standings after a round cost one computation. Who may read is checked on
the loop before anything else (one row), so a refused reader costs nothing; the JSON export's
``exported_at`` is the time its version was first exported.

The round clock is the one part of a tournament's answer and a player's view that changes
without a new version (its ``remaining_s`` counts down): it is added to the kept answer when
answered, from the tournament row the access check has just read.
"""

from __future__ import annotations

from typing import Any, Literal

import msgspec
from litestar import Response
from sqlalchemy.ext.asyncio import AsyncSession

from api.i18n.negotiation import Choice
from api.i18n.words import words_for
from api.matches.service import now
from api.server.offload import Offload
from api.shared.answers import Answer, KeptReads, Reads, json_answer
from api.shared.requests import attachment
from api.shared.spreadsheet import CSV_MEDIA_TYPE, Layout
from api.tournaments import backup, clock, export, paper, service
from api.tournaments import schemas as s
from api.tournaments.access import require_organiser

HTML_MEDIA_TYPE = "text/html"

Read = Literal["tournament", "standings", "player", "export", "backup", "paper"]


async def _tournament(session: AsyncSession, tournament_id: str,
                      authorization: str | None) -> Answer:
    tournament = await service.read_tournament(session, tournament_id, authorization)
    return json_answer(tournament, ("ETag", f'"{tournament.version}"'))


async def _standings(session: AsyncSession, tournament_id: str,
                     authorization: str | None) -> Answer:
    return json_answer(await service.read_standings(session, tournament_id, authorization))


async def _player(session: AsyncSession, tournament_id: str, authorization: str | None,
                  player_id: int) -> Answer:
    return json_answer(await service.read_player(session, tournament_id, player_id, authorization))


async def _export(session: AsyncSession, tournament_id: str, authorization: str | None,
                  format_: str, layout: Layout, choice: Choice) -> Answer:
    words = words_for(choice)
    tournament = await service.read_tournament(session, tournament_id, authorization)
    standings = await service.read_standings(session, tournament_id, authorization)
    if format_ == "html":
        return Answer(export.standings_html(tournament, standings, words).encode(),
                      HTML_MEDIA_TYPE)
    saved_as = tuple(attachment(f"tournament-{tournament.id}.{format_}").items())
    if format_ == "json":
        return json_answer(s.StandingsExport(tournament, standings, now(),
                                             export.game_key_of(tournament)), *saved_as)
    return Answer(export.standings_csv(tournament, standings, layout, words), CSV_MEDIA_TYPE,
                  saved_as)


async def _paper(session: AsyncSession, tournament_id: str, authorization: str | None,
                 number: int, sheet: str, choice: Choice) -> Answer:
    words = words_for(choice)
    tournament = await service.read_tournament(session, tournament_id, authorization)
    started = (await service.round_started(session, tournament_id, number)).date()
    played = next(r for r in tournament.round_list if r.number == number)
    made = paper.seats_html if sheet == "seats" else paper.score_sheets_html
    return Answer(made(tournament, played, started, words).encode(), HTML_MEDIA_TYPE)


async def _backup(session: AsyncSession, tournament_id: str, authorization: str | None) -> Answer:
    saved = await backup.backup(session, tournament_id, authorization)
    return json_answer(saved, *attachment(f"tournament-{tournament_id}-backup.json").items())


READS: Reads = {"tournament": _tournament, "standings": _standings, "player": _player,
                "export": _export, "backup": _backup, "paper": _paper}


class Answers:
    """Where the reads are computed, and the answers kept (one per app)."""

    def __init__(self, offload: Offload) -> None:
        self._reads = KeptReads(offload, READS)

    async def read(self, session: AsyncSession, read: Read, tournament_id: str,
                   authorization: str | None, *options: Any) -> Response[Any]:
        if read == "player":
            row, reader = await service.player_readable(session, tournament_id, options[0],
                                                        authorization)
        else:
            row, reader = await service.readable(session, tournament_id, authorization)
        if read == "backup":
            require_organiser(authorization, row)
        # The version before the answer is read: an answer kept under it is never older.
        key = None if read == "backup" else (
            tournament_id, await service.version_of(session, tournament_id,
                                                    standings=read == "standings"),
            reader, read, *options)
        answer = await self._reads.answer(
            session, key, lambda: service.is_big(session, tournament_id), read, tournament_id,
            authorization, *options)
        if read in ("tournament", "player"):
            with_clock(answer, msgspec.json.encode(clock.view(row.clock, now())))
        return answer


def with_clock(answer: Response[Any], encoded: bytes) -> None:
    """``"clock"`` added as the last member of the answer's JSON object (its struct leaves it
    out: :class:`api.tournaments.schemas.Tournament`)."""
    body = answer.content
    assert isinstance(body, bytes)
    assert body.endswith(b"}")  # an encoded struct
    answer.content = body[:-1] + b',"clock":' + encoded + b"}"
