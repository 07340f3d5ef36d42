"""The ``tafelrunde`` command: ``serve``, ``db upgrade``, ``db downgrade``, ``db check``.

Alembic is configured here, in code: the scripts live in the repository's ``migrations/`` folder
and no ``alembic.ini`` is needed. ``serve`` brings the database up to date before it listens.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence
from dataclasses import replace

from alembic import command
from alembic.config import Config
from alembic.util.exc import CommandError

from api.settings import REPO_ROOT, Settings


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
    root = argparse.ArgumentParser(prog="tafelrunde", description=__doc__.splitlines()[0])
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
    return root


def main(argv: Sequence[str] | None = None) -> int:
    args = parser().parse_args(argv)
    settings = Settings.from_env()
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
