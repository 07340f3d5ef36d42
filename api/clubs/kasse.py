"""The club's money: its settlement over an evening or any period, and the Kasse (the pot) with
the payments recorded into it. Every sum is :mod:`scoring.club_settlement`'s; this module reads
the matches and payments and says who is who.

- **Which matches count**: every finished match of the club that was played for money (the
  match's own ``stakes``, a club default having been copied into it at creation), a tournament
  table's match of the club too when it has stakes (a tournament gives its tables none today,
  but a table's match played for money is money all the same). A finished match's money is the
  settlement its answer shows, computed from its final standings as stored
  (:func:`api.matches.stakes.settled`): a correction or an undo moves every sum at once, as
  nothing is stored but the matches and the payments.
- **The period** (``from``, ``to``): evenings, the dates of ``played_at`` in the club's time
  zone, both counted. Neither given: tonight, the date it is now in the club's time zone. Only
  ``from``: from that evening on, with no end; only ``to``: every evening up to it. A date
  is ``YYYY-MM-DD`` (a bad one 422 at its parameter), ``from`` after ``to`` is 422 at ``to``.
- **Members**: a member merged into another counts as that member (payments move with the
  merge); a removed member keeps their money and their payments, under the neutral label.
- **Payments** are numbered 1, 2, 3 ... per club and listed newest first; each is money paid
  into the pot (negative: paid out of it to that member), in CHF or EUR, never 0, at most two
  decimals (``"5.00"``), with a note of up to 200 characters and ``recorded_by``, the name the
  recording phone gives for who took the money (the treasurer; optional), besides the phone's
  ``X-Device-Id`` kept with it. A payment may be for any member ever, a removed one too (a
  debt does not go with the name). Nothing is changed or deleted: a wrong payment is
  reversed by another of the opposite amount. A payment is a change of the club (its
  version, its events), so the club's kept reads, its backup and export, follow it.
- **The Kasse** sums the club's whole history: what the settlements of all its matches say
  each member owes the pot, against all their payments (:func:`scoring.club_settlement.kasse`).
- **CSV** (``?format=csv``, the one writer :mod:`api.shared.spreadsheet`): the settlement as
  one row per currency and member, then its transfers and the pot; the Kasse as one row per
  currency and member, then the balance. Amounts are numbers with two decimals in the
  spreadsheet's decimal mark; headings in the request's language.
"""

from __future__ import annotations

import re
from collections import defaultdict
from collections.abc import Callable, Mapping, Sequence
from datetime import UTC, date, datetime, time, timedelta
from decimal import Decimal
from types import SimpleNamespace
from typing import Any

from sqlalchemy import func, insert, select
from sqlalchemy.ext.asyncio import AsyncSession

from api.clubs import ledger
from api.clubs import schemas as s
from api.clubs.evenings import evening
from api.clubs.models import PAYMENT_NOTE_LENGTH, RECORDER_LENGTH
from api.clubs.service import (
    MATCHES,
    PAYMENTS,
    ClubRecord,
    Member,
    members_of,
    publish,
    readable,
    writable,
)
from api.db.statements import EngineStatements
from api.edge.problems import (
    Fault,
    Unprocessable,
    field_problems,
    name_field,
    optional_name_field,
)
from api.i18n import Words, _
from api.matches import stakes as match_stakes
from api.matches.service import now, utc
from api.shared.live import Broker
from api.shared.spreadsheet import Layout, MoneyCell, SheetWords, csv_bytes
from scoring import registry
from scoring.club_settlement import (
    ClubSettlement,
    Kasse,
    Payment,
    SettledMatch,
    club_settlement,
    kasse,
)
from scoring.errors import Errors
from scoring.messages import Vocabulary
from scoring.money import CURRENCIES, format_amount, read_amount, read_currency

_DATE = re.compile(r"[0-9]{4}-[0-9]{2}-[0-9]{2}")
NO_SUCH_MEMBER = _("This club has no member {member}.")
BAD_PAYMENT = _("This payment cannot be recorded.")
BAD_PERIOD = _("This period cannot be read.")


# --- the period ---------------------------------------------------------------------------


def _date_of(text: str | None, path: str, problems: list[Fault]) -> date | None:
    if text is None:
        return None
    try:
        if _DATE.fullmatch(text) is None:
            raise ValueError(text)
        return date.fromisoformat(text)
    except ValueError:
        problems.append(Fault(path, "not_a_date", _(
            '"{value}" is not a date; write it as YYYY-MM-DD, e.g. "2026-11-05".',
            value=text)))
        return None


def period(from_text: str | None, to_text: str | None,
           time_zone: str) -> tuple[date | None, date | None]:
    """The evenings asked for (``None``: open on that side); tonight when neither is given;
    422 at ``from``/``to`` for a bad date, at ``to`` when it is before ``from``."""
    if from_text is None and to_text is None:
        tonight = evening(now(), time_zone)
        return tonight, tonight
    problems: list[Fault] = []
    first = _date_of(from_text, "from", problems)
    last = _date_of(to_text, "to", problems)
    if first is not None and last is not None and first > last:
        problems.append(Fault("to", "before_from", _(
            "The last evening ({to}) is before the first ({first}).",
            to=last.isoformat(), first=first.isoformat())))
    if problems:
        raise Unprocessable(BAD_PERIOD, errors=problems)
    return first, last


def _moments(first: date | None, last: date | None) -> tuple[datetime | None, datetime | None]:
    """A day more on each side of the evenings in UTC (no zone is a day away from UTC), within
    the dates there are; the evenings themselves are picked by their local date."""
    start = None if first is None or first <= date.min + timedelta(days=1) else \
        datetime.combine(first - timedelta(days=1), time(), UTC)
    end = None if last is None or last >= date.max - timedelta(days=2) else \
        datetime.combine(last + timedelta(days=2), time(), UTC)
    return start, end


# --- the matches --------------------------------------------------------------------------


def _person(members: Mapping[int, Any], member: int) -> int:
    merged = members[member].merged_into if member in members else None
    return member if merged is None else merged


async def settled_matches(session: AsyncSession, club: ClubRecord, members: dict[int, Member],
                          first: date | None = None,
                          last: date | None = None) -> list[SettledMatch[int]]:
    """The club's finished matches played for money whose evening is ``first`` ... ``last``
    (all when both are None), in the order they were played, with the member ids of each
    side."""
    matches, seats = ledger.CLUB_MATCHES, ledger.SEATS
    query = select(matches.c.match_id, matches.c.played_at, MATCHES.c.game, MATCHES.c.players,
                   MATCHES.c.options, MATCHES.c.standings, MATCHES.c.winners,
                   MATCHES.c.stakes).join(MATCHES, MATCHES.c.id == matches.c.match_id).where(
        matches.c.club_id == club.id, matches.c.finish.is_not(None))
    start, end = _moments(first, last)
    if start is not None:
        query = query.where(matches.c.played_at >= start)
    if end is not None:
        query = query.where(matches.c.played_at < end)
    found: list[tuple[str, Any]] = []
    for match_id, played_at, game_id, players, options, standings, winners, stakes in \
            await session.execute(query.order_by(matches.c.played_at, matches.c.finish)):
        day = evening(utc(played_at), club.time_zone)
        game = registry.game_by_id(game_id)
        if stakes is None or game is None or (first is not None and day < first) or (
                last is not None and day > last):
            continue
        settlement = match_stakes.settled(game, players, options, standings, winners, stakes)
        if settlement is not None:
            found.append((match_id, settlement))
    if not found:
        return []
    sides: dict[str, dict[int, list[int]]] = defaultdict(lambda: defaultdict(list))
    for match_id, member, side in await session.execute(
            select(seats.c.match_id, seats.c.member_id, seats.c.side).where(
                seats.c.club_id == club.id, seats.c.finish.is_not(None),
                seats.c.match_id.in_([match_id for match_id, _money in found]))
            .order_by(seats.c.match_id, seats.c.seat)):
        sides[match_id][int(side)].append(_person(members, int(member)))
    return [SettledMatch(money, tuple(tuple(team) for _side, team in
                                      sorted(sides[match_id].items())))
            for match_id, money in found if len(sides[match_id]) == len(money.pays)]


def _named(members: dict[int, Member], words: Words) -> Callable[[int], str]:
    def name(member: int) -> str:
        known = members.get(member)
        return known.named(words) if known is not None else str(member)
    return name


def _settlement_view(settled: Sequence[ClubSettlement[int]], members: dict[int, Member],
                     words: Words) -> list[s.ClubSettlementCurrency]:
    name = _named(members, words)
    return [s.ClubSettlementCurrency(
        currency=money.currency.code,  # type: ignore[arg-type]
        members=[s.ClubSettlementMember(
            player=line.member, name=name(line.member), pays=format_amount(line.pays),
            receives=format_amount(line.receives), net=format_amount(line.net))
            for line in money.members],
        pot=format_amount(money.pot),
        transfers=[s.ClubTransfer(from_=t.payer, to=t.payee, amount=format_amount(t.amount))
                   for t in money.transfers])
        for money in settled]


async def read_settlement(session: AsyncSession, club_id: str, authorization: str | None,
                          from_text: str | None, to_text: str | None,
                          words: Words) -> s.ClubSettlement:
    club = await readable(session, club_id, authorization)
    first, last = period(from_text, to_text, club.time_zone)
    members = await members_of(session, club.id)
    matches = await settled_matches(session, club, members, first, last)
    return s.ClubSettlement(
        from_=first, to=last, time_zone=club.time_zone, matches=len(matches),
        currencies=_settlement_view(club_settlement(matches), members, words))


# --- payments -----------------------------------------------------------------------------


def payment_fields(body: s.NewClubPayment | s.BackupPayment, members: Mapping[int, Any],
                   path: str, problems: list[Fault]) -> dict[str, Any] | None:
    """A payment's columns once checked (``member_id``: the member a merged id became);
    problems are added under ``path`` (``""`` for a request's own body, ``payments[2].`` in a
    backup). ``members`` by id, each with its ``id`` and ``merged_into``."""
    errors = Errors()
    amount = read_amount(body.amount, f"{path}amount", errors, negative=True)
    currency = read_currency(body.currency, f"{path}currency", errors)
    problems += field_problems(errors)
    if amount == 0:
        problems.append(Fault(f"{path}amount", "zero_amount", _(
            "A payment of nothing is no payment; a negative amount is paid out of the pot.")))
    note = "" if not body.note.strip() else name_field(
        body.note, f"{path}note", problems, maximum=PAYMENT_NOTE_LENGTH)
    recorded_by = optional_name_field(body.recorded_by, f"{path}recorded_by", problems,
                                      maximum=RECORDER_LENGTH)
    member = members.get(body.player)
    if member is None:
        problems.append(Fault(f"{path}player", "unknown_member",
                              NO_SUCH_MEMBER.with_params(member=body.player)))
    if member is None or amount is None or amount == 0 or currency is None or note is None:
        return None
    return {"member_id": _person(members, member.id), "amount": amount,
            "currency": currency.code, "note": note, "recorded_by": recorded_by}


def payment_view(row: Any, members: dict[int, Member], words: Words) -> s.ClubPayment:
    return s.ClubPayment(
        id=int(row.id), player=int(row.member_id),
        name=_named(members, words)(int(row.member_id)), amount=format_amount(int(row.amount)),
        currency=row.currency, note=row.note, recorded_at=utc(row.recorded_at),
        recorded_by=row.recorded_by)


async def record_payment(session: AsyncSession, broker: Broker, club_id: str,
                         authorization: str | None, body: s.NewClubPayment,
                         device: str | None, words: Words) -> s.ClubPayment:
    """A payment into (or out of) the pot, numbered after the club's last (club token; 422 at
    the fields that cannot be used)."""
    club, version = await writable(session, club_id, authorization)
    members = await members_of(session, club.id)
    problems: list[Fault] = []
    columns = payment_fields(body, members, "", problems)
    if problems or columns is None:
        raise Unprocessable(BAD_PAYMENT, errors=problems)
    last = (await session.execute(select(func.max(PAYMENTS.c.id)).where(
        PAYMENTS.c.club_id == club.id))).scalar_one()
    at = now()
    row = {"club_id": club.id, "id": int(last or 0) + 1, "recorded_at": at, "device": device,
           **columns}
    await session.execute(insert(PAYMENTS), row)
    change = await ledger.touch_club(EngineStatements(session), club.id, version, at)
    await session.commit()
    await publish(broker, change, "payment_recorded")
    return payment_view(SimpleNamespace(**row), members, words)


async def stored_payments(session: AsyncSession, club_id: str) -> list[Any]:
    """Every payment of the club, oldest first."""
    return list(await session.execute(select(PAYMENTS).where(PAYMENTS.c.club_id == club_id)
                                      .order_by(PAYMENTS.c.id)))


async def read_payments(session: AsyncSession, club_id: str, authorization: str | None,
                        words: Words) -> list[s.ClubPayment]:
    club = await readable(session, club_id, authorization)
    members = await members_of(session, club.id)
    return [payment_view(row, members, words)
            for row in reversed(await stored_payments(session, club.id))]


async def club_kasse(session: AsyncSession, club: ClubRecord,
                     members: dict[int, Member]) -> tuple[Kasse[int], ...]:
    matches = await settled_matches(session, club, members)
    payments = [Payment(_person(members, int(row.member_id)), int(row.amount),
                        CURRENCIES[row.currency])
                for row in await stored_payments(session, club.id)]
    return kasse(club_settlement(matches), payments)


async def read_kasse(session: AsyncSession, club_id: str, authorization: str | None,
                     words: Words) -> s.ClubKasse:
    club = await readable(session, club_id, authorization)
    members = await members_of(session, club.id)
    name = _named(members, words)
    return s.ClubKasse(currencies=[s.ClubKasseCurrency(
        currency=pot.currency.code,  # type: ignore[arg-type]
        members=[s.ClubKasseMember(
            player=line.member, name=name(line.member), owes=format_amount(line.owes),
            paid=format_amount(line.paid), due=format_amount(line.due))
            for line in pot.members],
        balance=format_amount(pot.balance))
        for pot in await club_kasse(session, club, members)])


# --- CSV ----------------------------------------------------------------------------------

HEADINGS = Vocabulary("a column heading of a club's settlement or Kasse", {
    "currency": "currency", "player": "member no.", "name": "name", "pays": "pays",
    "receives": "receives", "net": "net", "from": "from", "to": "to", "amount": "amount",
    "pot": "into the pot", "owes": "owes the pot", "paid": "paid", "due": "still due",
    "balance": "in the pot",
})


def _money(amount: str) -> MoneyCell:
    """An amount as the spreadsheet's number: exact, with two decimals (never a float)."""
    return Decimal(amount)


def settlement_csv(settled: s.ClubSettlement, layout: Layout, words: Words) -> bytes:
    sheet = SheetWords(words).with_columns(HEADINGS)
    rows: list[list[MoneyCell]] = [[sheet.heading(key) for key in (
        "currency", "player", "name", "pays", "receives", "net")]]
    for money in settled.currencies:
        rows += [[money.currency, line.player, line.name, _money(line.pays),
                  _money(line.receives), _money(line.net)] for line in money.members]
    for money in settled.currencies:
        names = {line.player: line.name for line in money.members}
        rows.append([])
        rows.append([sheet.heading(key) for key in ("currency", "from", "to", "amount")])
        rows += [[money.currency, names.get(t.from_, str(t.from_)), names.get(t.to, str(t.to)),
                  _money(t.amount)] for t in money.transfers]
        rows.append([money.currency, None, sheet.heading("pot"), _money(money.pot)])
    return csv_bytes(rows, layout)


def kasse_csv(pots: s.ClubKasse, layout: Layout, words: Words) -> bytes:
    sheet = SheetWords(words).with_columns(HEADINGS)
    rows: list[list[MoneyCell]] = [[sheet.heading(key) for key in (
        "currency", "player", "name", "owes", "paid", "due")]]
    for pot in pots.currencies:
        rows += [[pot.currency, line.player, line.name, _money(line.owes), _money(line.paid),
                  _money(line.due)] for line in pot.members]
        rows.append([pot.currency, None, sheet.heading("balance"), None, None,
                     _money(pot.balance)])
    return csv_bytes(rows, layout)

