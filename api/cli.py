"""The ``tafelrunde`` command: ``serve``, ``db upgrade|downgrade|check``, ``seating``,
``backup FILE``, ``restore FILE``.

Alembic is configured here, in code: the scripts live in the repository's ``migrations/`` folder
and no ``alembic.ini`` is needed. ``serve`` brings the database up to date before it listens.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Sequence
from dataclasses import replace
from pathlib import Path
from typing import cast

from alembic import command
from alembic.config import Config
from alembic.util.exc import CommandError

from api.settings import REPO_ROOT, Settings
from scoring.errors import InvalidInput
from scoring.tournament import MODES, plan_for_cli


def alembic_config(database_url: str) -> Config:
    config = Config()
    config.set_main_option("script_location", str(REPO_ROOT / "migrations"))
    config.attributes["database_url"] = database_url
    return config


def upgrade(database_url: str, revision: str = "head") -> None:
    command.upgrade(alembic_config(database_url), revision)


def downgrade(database_url: str, revision: str = "base") -> None:
    command.downgrade(alembic_config(database_url), revision)


def check(database_url: str) -> str | None:
    """None when the database is at head and the models match the migrations, else why not."""
    try:
        command.check(alembic_config(database_url))
    except CommandError as diff:  # includes "not up to date" and the autogenerate diff
        return str(diff)
    return None


def serve(settings: Settings) -> None:
    import uvicorn

    from api.app import create_app

    upgrade(settings.database_url)
    app = create_app(settings)
    print(f"Tafelrunde is running at http://{settings.host}:{settings.port}/", flush=True)
    # Open event streams never end by themselves; give them a moment, then stop anyway.
    uvicorn.run(app, host=settings.host, port=settings.port, log_level="warning",
                access_log=False, timeout_graceful_shutdown=3)


def parser() -> argparse.ArgumentParser:
    root = argparse.ArgumentParser(
        prog="tafelrunde",
        description="Score-keeping and tournaments for card games played at a real table.")
    commands = root.add_subparsers(dest="command", required=True)
    run = commands.add_parser("serve", help="start the API and the app")
    run.add_argument("--host", help="address to listen on (TAFELRUNDE_HOST, 127.0.0.1)")
    run.add_argument("--port", type=int, help="port to listen on (TAFELRUNDE_PORT, 8000)")
    db = commands.add_parser("db", help="database migrations").add_subparsers(
        dest="db_command", required=True)
    db.add_parser("upgrade", help="bring the database up to the newest schema")
    down = db.add_parser("downgrade", help="go back to an older schema")
    down.add_argument("revision", nargs="?", default="base", help="target revision (base)")
    db.add_parser("check", help="fail when the models and the migrations differ")
    save = commands.add_parser("backup", help="copy the SQLite database to FILE (online)")
    save.add_argument("file", help="where to write the copy (replaced once the copy is sound)")
    load = commands.add_parser("restore", help="replace the SQLite database with a backup FILE")
    load.add_argument("file", help="a file made by tafelrunde backup")
    plan = commands.add_parser("seating", help="plan a tournament's seating ahead")
    plan.add_argument("--players", type=int, required=True, help="number of players")
    plan.add_argument("--table-size", type=int, required=True, help="preferred table size")
    plan.add_argument("--rounds", type=int, required=True, help="number of rounds")
    plan.add_argument("--mode", choices=MODES, default="mix", help="seating mode (mix)")
    plan.add_argument("--seed", type=int, default=0, help="seed of the plan (0)")
    plan.add_argument("--json", action="store_true", help="print the plan as JSON")
    return root


def seating(args: argparse.Namespace) -> int:
    """Print the plan of ``tafelrunde seating``; players are numbered from 0."""
    try:
        plan = plan_for_cli(args.players, args.table_size, args.rounds, args.mode, args.seed)
    except InvalidInput as invalid:
        print(f"cannot seat: {invalid}", file=sys.stderr)
        return 2
    if args.json:
        print(json.dumps(plan))
        return 0
    rounds = cast(list[list[list[int]]], plan["rounds"])
    for number, tables in enumerate(rounds, start=1):
        print(f"round {number}: " + "  ".join(
            "[" + " ".join(str(p) for p in table) + "]" for table in tables))
    print(f"repeated meetings: {plan['repeats']}")
    return 0


def backup_or_restore(command_name: str, database_url: str, file: Path) -> int:
    from api import backup

    try:
        if command_name == "backup":
            backup.backup(database_url, file)
            print(f"backed up to {file}")
            return 0
        saved = backup.restore(database_url, file)
    except backup.BackupError as error:
        print(f"cannot {command_name}: {error}", file=sys.stderr)
        return error.exit_code
    if saved is not None:
        print(f"the database before the restore is saved as {saved}")
    print(f"restored from {file}")
    return 0


def main(argv: Sequence[str] | None = None) -> int:
    args = parser().parse_args(argv)
    settings = Settings.from_env()
    if args.command == "seating":
        return seating(args)
    if args.command in ("backup", "restore"):
        return backup_or_restore(args.command, settings.database_url, Path(args.file))
    if args.command == "serve":
        serve(replace(settings, host=args.host or settings.host, port=args.port or settings.port))
    elif args.db_command == "upgrade":
        upgrade(settings.database_url)
    elif args.db_command == "downgrade":
        downgrade(settings.database_url, args.revision)
    else:
        problem = check(settings.database_url)
        if problem is not None:
            print(f"models and migrations differ: {problem}", file=sys.stderr)
            return 1
        print("models and migrations agree")
    return 0


if __name__ == "__main__":
    sys.exit(main())
