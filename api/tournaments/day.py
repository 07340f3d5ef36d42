"""Tournament day: players checking in by the tournament's QR code, and the round clock.

Check-in (``POST /tournaments/{id}/check-in``, no token: the code is the key): a tournament made
with ``check_in`` has a ``check_in_code``, shown to the organiser only (the dashboard and the
board draw it as a QR code of ``#/t/<id>/check-in?code=…``). A player who scans it and gives a
name is registered like a player the organiser adds, and gets a player token, once: its hash is
stored on the player's row, and it reads that player's own view and the tournament's events
(in a private tournament too) and writes nothing (every write wants the organiser's or a table's
token, so it is 403 there).

Decisions where the contract is silent:

- The code is stored as it is, not hashed: the organiser's dashboard and the board show it again
  on every reload. It lets nobody do more than register, and wrong codes are rate-limited with the
  refused tokens (403).
- Check-in closes when round 1 starts (409), unless the tournament was made with
  ``late_check_in``: then a player who checks in late plays from the next round, as a late
  entry the organiser adds does (the organiser can always add one).
- The name is checked as the organiser's registration checks it (422 at ``name``/``club``); a name
  already registered, case and surrounding spaces ignored, is 409 (the organiser's registration
  answers 422 there, as before): the player who scanned twice is told to ask the organiser.
- A finished tournament takes nobody (409).
- Every refusal names its field in ``errors``, with the detail's words: ``name`` for a name taken
  (``duplicate_name``), ``code`` for a wrong code (``wrong_code``), a check-in closed
  (``check_in_closed``) or a finished tournament (``tournament_finished``): the code is what no
  longer lets anyone in, and the check-in form shows an error without a field of its own above
  its fields.
- Checking in, marking a player paid and every clock action bump the tournament's version and
  publish a change (``player_checked_in``, ``player_changed``, ``clock``): every screen follows one
  stream and re-reads one answer, and a second server process (PostgreSQL) sees the same stored
  clock.
"""

from __future__ import annotations

import hmac

from sqlalchemy.ext.asyncio import AsyncSession

from api.edge import auth
from api.edge.problems import Conflict, Fault, Forbidden, Problem
from api.i18n import Phrase, _
from api.matches.service import now
from api.shared.live import Broker
from api.tournaments import clock
from api.tournaments import schemas as s
from api.tournaments.access import lock_tournament, require_organiser
from api.tournaments.hosts import TournamentHost
from api.tournaments.models import TournamentPlayerRow
from api.tournaments.service import (
    _commit_and_publish,
    _refuse,
    _seat_member,
    _touch,
    club_name,
    player_name,
    player_view,
    players_of,
    tables_of,
)


async def check_in(session: AsyncSession, broker: Broker, host: TournamentHost,
                   tournament_id: str, body: s.CheckIn) -> s.CheckedIn:
    row = await lock_tournament(session, tournament_id)
    code = row.check_in_code if row.check_in else None
    if code is None or not hmac.compare_digest(body.code.encode(), code.encode()):
        raise _at_code(Forbidden, "wrong_code",
                       _("This check-in code is not this tournament's: scan the code again."))
    if row.status == "finished":
        raise _at_code(Conflict, "tournament_finished",
                       _("The tournament is finished; nobody can join any more."))
    if row.current_round >= 1 and not row.late_check_in:
        raise _at_code(Conflict, "check_in_closed",
                       _("Check-in closed when round 1 started: ask the organiser."))
    problems: list[Fault] = []
    name = player_name(body.name, "name", problems)
    club = club_name(body.club, "club", problems)
    _refuse(problems)
    assert name is not None  # a name that cannot be used is a problem, refused above
    players = await players_of(session, tournament_id)
    if any(p.name.casefold() == name.casefold() for p in players):
        taken = _('"{name}" is already registered: ask the organiser.', name=name)
        raise Conflict(taken, errors=[Fault("name", "duplicate_name", taken)])
    token = auth.new_token()
    player = TournamentPlayerRow(
        tournament_id=tournament_id, id=max((p.id for p in players), default=0) + 1, name=name,
        club=club, active=True, paid=False, token_hash=auth.token_hash(token))
    session.add(player)
    at = now()
    await _seat_member(session, host, tournament_id, player.id, name, at)
    _touch(row, at)
    await _commit_and_publish(session, broker, row, "player_checked_in", None)
    return s.CheckedIn(player=player_view(player), player_token=token)


def _at_code(refusal: type[Problem], code: str, text: Phrase) -> Problem:
    """A check-in refused for what the code no longer (or never) opens, said at ``code``."""
    return refusal(text, errors=[Fault("code", code, text)])


async def set_clock(session: AsyncSession, broker: Broker, tournament_id: str,
                    authorization: str | None, body: s.ClockAction) -> s.Clock:
    """``POST /tournaments/{id}/clock`` (organiser): the clock after the action, stored."""
    row = await lock_tournament(session, tournament_id)
    require_organiser(authorization, row)
    tables = {t.table for t in await tables_of(session, tournament_id, row.current_round)} \
        if row.current_round else set()
    at = now()
    row.clock = clock.act(row.clock, body, tables, at)
    _touch(row, at)
    await _commit_and_publish(session, broker, row, "clock", None)
    return clock.view(row.clock, at)
