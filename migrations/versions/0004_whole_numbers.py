"""Whole numbers stored as floats become integers.

Mended: round entries, match and tournament options, and the entries and options in each
match's stored answer.

Before bodies were read strictly (commit 78b489f), a client other than the app could store a
round with ``1.0`` or ``-0.0`` for a seat and ``3.0`` for a count, and a tournament with
``"games": 3.0`` in its match options. The games read only integers now, so such a match
refused its next write with a 409 naming the stored round, and such a tournament could not
start its next round. Every float that is a whole number becomes that integer (``-0.0`` becomes
``0``); any other float stays as it is, for the engine to report as before.

Left as they are, because nothing reads them back as entries or options: the audit log
(``audit.old_entry``, ``audit.new_entry``), the record of what was sent; idempotency records
(``idempotency.body``), answers replayed as they were first given; results, totals, standings
and tournament points, which the engine wrote itself.

Downgrade does nothing, on purpose: ``1`` and ``1.0`` are the same JSON number, the code of
every earlier revision reads the integer as it read the float, and which values were floats is
not kept, so turning them back is neither needed nor possible.

Revision ID: 0004
Revises: 0003
Create Date: 2026-12-01
"""

import json
from collections.abc import Iterator, Sequence
from typing import Any

import sqlalchemy as sa
from alembic import op

revision: str = "0004"
down_revision: str | None = "0003"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

PAGE = 500
"""Rows read at a time: a large database is walked without holding it in memory."""

ROUNDS = sa.table("round", sa.column("match_id", sa.String), sa.column("number", sa.Integer),
                  sa.column("entry", sa.JSON))
MATCHES = sa.table("match", sa.column("id", sa.String), sa.column("options", sa.JSON),
                   sa.column("snapshot", sa.JSON))
TOURNAMENTS = sa.table("tournament", sa.column("id", sa.String), sa.column("options", sa.JSON))


def whole_numbers(value: Any) -> Any:
    """``value`` with every float that is a whole number turned into that integer."""
    if isinstance(value, float) and value.is_integer():
        return int(value)
    if isinstance(value, list):
        return [whole_numbers(item) for item in value]
    if isinstance(value, dict):
        return {key: whole_numbers(item) for key, item in value.items()}
    return value


def _changed(before: Any, after: Any) -> bool:
    # As text: 1.0 == 1 in Python, but not in what is stored.
    return json.dumps(before) != json.dumps(after)


def _rows(connection: sa.Connection, table: sa.TableClause, keys: Sequence[str],
          column: str) -> Iterator[tuple[Any, ...]]:
    """Every row's keys and ``column``, in key order, read a page at a time."""
    key_columns = [table.c[key] for key in keys]
    last: Sequence[Any] | None = None
    while True:
        query = sa.select(*key_columns, table.c[column]).order_by(*key_columns).limit(PAGE)
        if last is not None:
            query = query.where(sa.tuple_(*key_columns) > sa.tuple_(*last))
        page = [tuple(row) for row in connection.execute(query)]
        yield from page
        if len(page) < PAGE:
            return
        last = page[-1][:len(keys)]


def _round_entries(connection: sa.Connection) -> set[str]:
    """The round entries made whole; the matches whose entries changed."""
    changed: set[str] = set()
    update = ROUNDS.update().where(ROUNDS.c.match_id == sa.bindparam("key_match"),
                                   ROUNDS.c.number == sa.bindparam("key_number"))
    for match_id, number, entry in _rows(connection, ROUNDS, ("match_id", "number"), "entry"):
        whole = whole_numbers(entry)
        if _changed(entry, whole):
            connection.execute(update, {"key_match": match_id, "key_number": number,
                                        "entry": whole})
            changed.add(match_id)
    return changed


def _options(connection: sa.Connection, table: sa.TableClause) -> set[str]:
    """The options made whole; the ids of the rows whose options changed."""
    changed: set[str] = set()
    update = table.update().where(table.c.id == sa.bindparam("key_id"))
    for row_id, options in _rows(connection, table, ("id",), "options"):
        whole = whole_numbers(options)
        if _changed(options, whole):
            connection.execute(update, {"key_id": row_id, "options": whole})
            changed.add(row_id)
    return changed


def _snapshots(connection: sa.Connection, match_ids: set[str]) -> None:
    """The stored answer of each match shows its entries and options as they are now stored."""
    read = sa.select(MATCHES.c.snapshot).where(MATCHES.c.id == sa.bindparam("key_id"))
    update = MATCHES.update().where(MATCHES.c.id == sa.bindparam("key_id"))
    for match_id in sorted(match_ids):
        snapshot = connection.execute(read, {"key_id": match_id}).scalar_one()
        snapshot["options"] = whole_numbers(snapshot["options"])
        for played in snapshot["rounds"]:
            played["entry"] = whole_numbers(played["entry"])
        connection.execute(update, {"key_id": match_id, "snapshot": snapshot})


def upgrade() -> None:
    connection = op.get_bind()
    changed = _round_entries(connection) | _options(connection, MATCHES)
    _snapshots(connection, changed)
    _options(connection, TOURNAMENTS)


def downgrade() -> None:
    """Nothing to undo (see the module's docstring)."""
