"""Club members as the write paths find and create them: by name, inside a write transaction.

A name is a member's when it matches ignoring case and surrounding spaces (:func:`name_key`:
``casefold`` after ``strip``, so "  ann " is Ann and "STRASSE" is "Straße"). A name that matches
nobody makes a new member, numbered after the club's last one; a name that matches a member
merged into another is that other member. Callers hold the club's row lock, so two phones
starting matches with a new name at the same moment make one member.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime

from sqlalchemy import Table, bindparam, func, insert, select
from sqlmodel import SQLModel

from api.clubs.models import ClubMemberRow
from api.db.statements import Statements
from api.edge.problems import Fault, Unprocessable
from api.i18n import _

MEMBERS: Table = SQLModel.metadata.tables[ClubMemberRow.__tablename__]
MEMBER_BY_KEY = select(MEMBERS.c.id, MEMBERS.c.merged_into).where(
    MEMBERS.c.club_id == bindparam("club_key"), MEMBERS.c.key == bindparam("name_key"))
LAST_MEMBER = select(func.coalesce(func.max(MEMBERS.c.id), 0)).where(
    MEMBERS.c.club_id == bindparam("club_key"))
INSERT_MEMBER = insert(MEMBERS)


def name_key(name: str) -> str:
    return name.strip().casefold()


@dataclass(frozen=True, slots=True)
class Seated:
    """The members of a new match's seats in seat order (or of a list of names), and which of
    them are new."""

    members: list[int]
    created: list[int]


async def _member(statements: Statements, club_id: str, name: str, at: datetime,
                  made: list[int]) -> int:
    """The member of ``name``; made, numbered after the club's last one and added to ``made``,
    when there is none (``made``: the members this transaction made so far)."""
    found = await statements.one(MEMBER_BY_KEY, {"club_key": club_id,
                                                 "name_key": name_key(name)})
    if found is not None:
        return int(found[1] or found[0])
    if made:
        member = made[-1] + 1
    else:
        row = await statements.one(LAST_MEMBER, {"club_key": club_id})
        member = (int(row[0]) if row else 0) + 1
    made.append(member)
    await statements.run(INSERT_MEMBER, {
        "club_id": club_id, "id": member, "name": name.strip(), "key": name_key(name),
        "merged_into": None, "removed_at": None, "created_at": at})
    return member


async def members_for(statements: Statements, club_id: str, names: Sequence[str],
                      at: datetime, path: str = "players") -> Seated:
    """The member of each name, created where there is none; 422 at ``path[i]`` when two names
    are the same member (one person cannot sit twice)."""
    members: list[int] = []
    created: list[int] = []
    problems: list[Fault] = []
    for seat, name in enumerate(names):
        member = await _member(statements, club_id, name, at, created)
        if member in members:
            problems.append(Fault(f"{path}[{seat}]", "same_member_twice", _(
                '"{name}" is the club member already at seat {seat}.',
                name=name.strip(), seat=members.index(member), member=member)))
        members.append(member)
    if problems:
        raise Unprocessable(_("A club member cannot sit twice at one table."),
                            errors=problems)
    return Seated(members, created)


async def members_named(statements: Statements, club_id: str, names: Sequence[str],
                        at: datetime) -> Seated:
    """The members of a list of names (a list pasted in before they ever play), each once in
    the order first named: names that are one member (the same ignoring case, or a merged
    member's other spelling) give that member once; those without a member are made."""
    members: list[int] = []
    created: list[int] = []
    for name in names:
        member = await _member(statements, club_id, name, at, created)
        if member not in members:
            members.append(member)
    return Seated(members, created)
