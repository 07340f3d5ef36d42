"""Migrations build the schema the models describe, and take it away again."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest
from sqlalchemy import inspect
from sqlalchemy.ext.asyncio import AsyncEngine

from api import cli
from api.db.engine import create_engine

TABLES = {"match", "round", "audit", "idempotency", "tournament", "tournament_player",
          "tournament_round", "tournament_table", "club", "club_member", "club_match",
          "club_seat", "club_member_game", "club_rating", "club_tournament",
          "club_tournament_player"}


async def _tables(engine: AsyncEngine) -> set[str]:
    try:
        async with engine.connect() as connection:
            return set(await connection.run_sync(lambda c: inspect(c).get_table_names()))
    finally:
        await engine.dispose()


def tables(url: str) -> set[str]:
    return asyncio.run(_tables(create_engine(url))) - {"alembic_version"}


def upgrade_check_downgrade(url: str) -> None:
    cli.upgrade(url)
    assert tables(url) == TABLES
    assert cli.check(url) is None
    cli.downgrade(url)
    assert tables(url) == set()
    cli.upgrade(url)
    assert tables(url) == TABLES


def test_an_empty_sqlite_file_migrates_to_head_without_drift_and_back(tmp_path: Path) -> None:
    upgrade_check_downgrade(f"sqlite+aiosqlite:///{tmp_path / 'fresh.db'}")


@pytest.mark.postgres
def test_a_postgresql_database_migrates_to_head_without_drift_and_back(postgres_url: str) -> None:
    upgrade_check_downgrade(postgres_url)


def test_db_check_fails_when_the_database_lags_behind(tmp_path: Path) -> None:
    url = f"sqlite+aiosqlite:///{tmp_path / 'behind.db'}"
    cli.upgrade(url)
    cli.downgrade(url)
    assert cli.check(url) is not None


def test_the_cli_runs_upgrade_check_and_downgrade(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setenv("TAFELRUNDE_DATABASE_URL", f"sqlite+aiosqlite:///{tmp_path / 'cli.db'}")
    assert cli.main(["db", "upgrade"]) == 0
    assert cli.main(["db", "check"]) == 0
    assert cli.main(["db", "downgrade"]) == 0
    assert cli.main(["db", "check"]) == 1
