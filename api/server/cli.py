"""The ``tafelrunde`` command: ``serve``, ``db upgrade|downgrade|check``, ``seating``,
``backup FILE``, ``restore FILE``.

Every command checks the settings first (:mod:`api.server.settings`): bad ones are named one per
line on stderr and the command exits with status 2 before anything touches the database. A database
that cannot be opened (a folder that does not exist, a server that does not answer, a database
or role it does not know) is named in one line too, with status 1, instead of a migration's
traceback. Every error is said as argparse says a bad option, ``tafelrunde <command>: error:
…``, so that one style tells an operator which command refused and why: status 2 for a usage or
configuration error, 1 for what went wrong while it ran.

The database's schema is kept by :mod:`api.server.schema`. ``serve`` takes
its port first (``--port 0``: any free one), then brings the database up to date, then prints the
address it really listens on.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import gc
import json
import os
import re
import socket
import sys
from collections.abc import Callable, Sequence
from dataclasses import fields
from functools import partial
from importlib import metadata
from pathlib import Path
from typing import Any, cast

from api.server.schema import Unreachable, check, downgrade, reach, upgrade
from api.server.settings import PREFIX, Settings, SettingsError
from api.tournaments.limits import MAX_BACKUP_ITEMS, MAX_ROUNDS, MAX_TABLE_SIZE
from scoring.errors import InvalidInput
from scoring.tournament import MODES, plan_for_cli

SERVE = "tafelrunde serve"  # how argparse names the command in its errors
RUNNING = re.compile(r"Tafelrunde is running at (?P<base>http://\S+:(?P<port>\d+))/")
"""The line ``serve`` prints once it listens; scripts that start a server read its port here."""


def sweep(database_url: str, lease_seconds: float) -> None:
    """Remove what imports a crash left unfinished and nobody holds any more
    (:func:`api.tournaments.backup.sweep_unfinished`, :func:`api.clubs.backup.
    sweep_unfinished`: an import another server process is writing keeps its lease alive),
    saying so on stderr."""
    from api.clubs.backup import sweep_unfinished as sweep_clubs
    from api.db.database import Database
    from api.db.engine import create_engine
    from api.tournaments.backup import sweep_unfinished

    async def run() -> tuple[int, int]:
        database = Database(create_engine(database_url))
        try:
            return (await sweep_unfinished(database, lease_seconds),
                    await sweep_clubs(database, lease_seconds))
        finally:
            await database.close()

    tournaments, clubs = asyncio.run(run())
    if tournaments:
        print(f"{SERVE}: removed {tournaments} tournament import(s) left unfinished by a "
              "crash", file=sys.stderr)
    if clubs:
        print(f"{SERVE}: removed {clubs} club import(s) left unfinished by a crash",
              file=sys.stderr)


def listen(host: str, port: int) -> socket.socket:
    """A listening socket on ``host``:``port`` (port 0: one the system picks).

    Its protocol is named (``IPPROTO_TCP``, not the default 0) because asyncio turns Nagle's
    algorithm off (``TCP_NODELAY``) only on connections accepted from a socket that says it is
    TCP. With Nagle on, an answer written as head then body waits for the client's delayed
    acknowledgement of the head: 40 ms on every request of a kept-alive connection after its
    first, every phone's every Save."""
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    listener = socket.socket(family, socket.SOCK_STREAM, socket.IPPROTO_TCP)
    try:
        listener.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        listener.bind((host, port))
        listener.listen(2048)
    except BaseException:
        listener.close()
        raise
    return listener


def address(listener: socket.socket) -> str:
    host, port = listener.getsockname()[:2]
    return f"http://[{host}]:{port}/" if ":" in host else f"http://{host}:{port}/"


FILES_BESIDES_CONNECTIONS = 256
"""Open files a server process needs besides its clients' connections: database connections,
the app's files being sent, the log."""


def allow_connections(connections: int) -> None:
    """Raise this process's soft limit on open files (often 1,024) so that ``connections``
    fit: the server answers 503 at its own limit instead of failing to accept at the system's.
    Worker processes inherit the limit."""
    import resource

    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    wanted = connections + FILES_BESIDES_CONNECTIONS
    if soft != resource.RLIM_INFINITY and soft < wanted:
        resource.setrlimit(resource.RLIMIT_NOFILE,
                           (wanted if hard == resource.RLIM_INFINITY else min(wanted, hard), hard))


def server_config(settings: Settings, app: Any) -> Any:
    """uvicorn's configuration for ``serve``: the connection limits of
    :mod:`api.edge.connections`."""
    from api.edge.connections import GuardedConfig, Limits

    limits = Limits(header_timeout=settings.header_timeout, body_timeout=settings.body_timeout,
                    send_timeout=settings.send_timeout, max_connections=settings.max_connections,
                    max_per_address=settings.max_connections_per_address,
                    trusted_proxies=settings.trusted_proxies)
    # Open event streams never end by themselves; give them a moment, then stop anyway.
    # proxy_headers=False: only the app decides whom to believe (TAFELRUNDE_TRUSTED_PROXIES);
    # uvicorn on its own would trust X-Forwarded-For from 127.0.0.1.
    return GuardedConfig(
        app, limits, factory=settings.workers > 1, workers=settings.workers,
        log_level="warning", access_log=False, proxy_headers=False,
        timeout_keep_alive=settings.idle_timeout, timeout_graceful_shutdown=3,
        # A worker busy with requests still answers its supervisor's ping from a thread; a
        # loaded machine must not get it killed for answering late.
        timeout_worker_healthcheck=30)


def settle_heap() -> None:
    """Take what the process holds before it serves out of Python's garbage collection.

    A full collection walks every object the process holds, on the event loop: the ~150,000 of
    the libraries and the app, tracked like any other, stalled every request for 100-300 ms
    several times a minute under load (``bench/stall.py``). They live as long as the process;
    frozen (after a last collection, so that no garbage is frozen with them), no collection
    walks them again, and a full one walks only what requests made since."""
    gc.collect()
    gc.freeze()


SWITCH_INTERVAL = 0.0005
"""Seconds a thread running Python may keep the GIL while the event loop waits for it."""


def favour_the_loop() -> None:
    """Hand the GIL to the event loop ten times sooner than Python's default 5 ms.

    Work done off the loop on a thread (a mix planner searching for seconds, a round's matches
    made) is pure Python: it lets go of the GIL only when another thread has waited a switch
    interval for it. The loop lets go at every socket read and write and every SQLite
    statement, and each time waited up to 5 ms to get it back: a ping took 60-110 ms while 33
    players were planned for nine rounds, and a table elsewhere recorded 25 rounds meanwhile.
    At 0.5 ms: a ping at most 13 ms, 239 rounds (``bench/stall.py``). A thread working alone is
    never interrupted; two working at once switch more often, a few microseconds each."""
    sys.setswitchinterval(SWITCH_INTERVAL)


def worker_app(settings: Settings, supervisor: int) -> Any:
    """A worker process's app. The worker dies with its supervisor (the process id
    ``supervisor``, :func:`api.server.lifeline.die_with`), also when the supervisor was gone before
    the worker got this far. SIGKILL, not a graceful stop: the supervisor killed is a crash
    already, and a graceful stop waits for open event streams (up to 3 s) while the port and
    the database connections stay held."""
    import signal

    from api.app import create_app
    from api.server import lifeline

    lifeline.die_with(supervisor, signal.SIGKILL)
    app = create_app(settings)
    settle_heap()
    favour_the_loop()
    return app


def serve(settings: Settings) -> int:
    """Listen, migrate once, sweep what a crash left of imports, then serve: in this process,
    or in ``settings.workers`` processes spawned on the one listening socket (uvicorn's
    supervisor: Ctrl-C or SIGTERM stops them all, a worker that dies is replaced). Each worker
    makes its own app from the settings."""
    import uvicorn
    from uvicorn.config import STARTUP_FAILURE
    from uvicorn.supervisors import Multiprocess

    from api.app import create_app

    try:
        listener = listen(settings.host, settings.port)
    except OSError as error:  # taken, not allowed, or no such address
        refuse(SERVE, f"cannot listen on {settings.host} port {settings.port}: "
                      f"{error.strerror or error}")
        return 1
    with listener:
        reach(settings.database_url)
        upgrade(settings.database_url)
        sweep(settings.database_url, settings.import_lease)
        allow_connections(settings.max_connections)
        if settings.workers > 1:
            app = partial(worker_app, settings, os.getpid())
            supervisor = Multiprocess(server_config(settings, app), sockets=[listener])
            print(f"Tafelrunde is running at {address(listener)}", flush=True)
            supervisor.run()
            return 1 if any(worker.exitcode == STARTUP_FAILURE
                            for worker in supervisor.processes) else 0
        server = uvicorn.Server(server_config(settings, create_app(settings)))
        settle_heap()
        favour_the_loop()
        print(f"Tafelrunde is running at {address(listener)}", flush=True)
        with contextlib.suppress(KeyboardInterrupt):  # uvicorn raises the Ctrl-C it handled
            server.run(sockets=[listener])
    return 0 if server.started else 1


def installed_version() -> str:
    try:
        return metadata.version("tafelrunde")
    except metadata.PackageNotFoundError:  # python -m api.server.cli in a checkout never installed
        return "(not installed)"


def refuse(prog: str, message: str) -> None:
    """An error in argparse's words for a bad option: ``tafelrunde seating: error: …``."""
    print(f"{prog}: error: {message}", file=sys.stderr)


def prog_of(args: argparse.Namespace) -> str:
    """The command as argparse names it in its errors (``tafelrunde db check``)."""
    return " ".join(["tafelrunde", args.command,
                     *([args.db_command] if args.command == "db" else [])])


def parser() -> argparse.ArgumentParser:
    root = argparse.ArgumentParser(
        prog="tafelrunde",
        description="Score-keeping and tournaments for card games played at a real table.")
    root.add_argument("--version", action="version", version=f"%(prog)s {installed_version()}")
    commands = root.add_subparsers(dest="command", required=True)
    run = commands.add_parser("serve", help="start the API and the app")
    for item in fields(Settings):
        if item.metadata["option"]:
            run.add_argument(item.metadata["option"], dest=item.name, metavar=item.name.upper(),
                             help=f"{item.metadata['meaning']} ({PREFIX}{item.name.upper()}, "
                                  f"default {item.default})")
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
    plan.add_argument("--players", type=whole_number(2, MAX_BACKUP_ITEMS), required=True,
                      help=f"number of players (2 to {MAX_BACKUP_ITEMS})")
    plan.add_argument("--table-size", type=whole_number(2, MAX_TABLE_SIZE), required=True,
                      help=f"preferred table size (2 to {MAX_TABLE_SIZE})")
    plan.add_argument("--rounds", type=whole_number(1, MAX_ROUNDS), required=True,
                      help=f"number of rounds (1 to {MAX_ROUNDS})")
    plan.add_argument("--mode", choices=MODES, default="mix", help="seating mode (mix)")
    plan.add_argument("--seed", type=int, default=0, help="seed of the plan (0)")
    plan.add_argument("--json", action="store_true", help="print the plan as JSON")
    return root


def whole_number(low: int, high: int) -> Callable[[str], int]:
    """An option's reader refusing anything but a whole number from ``low`` to ``high``.

    argparse names the option in its one-line error and exits with status 2; the bounds are the
    ones a tournament has in the API (a table seats 2 at least; a tournament's players are as many
    as its backup holds), so a plan made here can be made there.
    """
    def read(text: str) -> int:
        try:
            value = int(text)
        except ValueError:
            value = None
        if value is None or not low <= value <= high:
            raise argparse.ArgumentTypeError(
                f"expected a whole number from {low} to {high}, not {text!r}")
        return value
    return read


def seating(args: argparse.Namespace) -> int:
    """Print the plan of ``tafelrunde seating``; players are numbered from 0."""
    try:
        plan = plan_for_cli(args.players, args.table_size, args.rounds, args.mode, args.seed)
    except InvalidInput as invalid:
        refuse("tafelrunde seating", f"cannot seat: {invalid}")
        return 2
    if args.json:
        print(json.dumps(plan))
        return 0
    rounds = cast(list[list[list[int]]], plan["rounds"])
    for number, tables in enumerate(rounds, start=1):
        print(f"round {number}: " + "  ".join(
            "[" + " ".join(str(p) for p in table) + "]" for table in tables))
    print(f"repeated meetings: {plan['repeats']} (any plan has at least {plan['lower_bound']})")
    return 0


def backup_or_restore(command_name: str, database_url: str, file: Path) -> int:
    from api.server import backup

    try:
        if command_name == "backup":
            backup.backup(database_url, file)
            print(f"backed up to {file}")
            return 0
        saved = backup.restore(database_url, file)
    except backup.BackupError as error:
        refuse(f"tafelrunde {command_name}", f"cannot {command_name}: {error}")
        return error.exit_code
    if saved is not None:
        print(f"the database before the restore is saved as {saved}")
    print(f"restored from {file}")
    return 0


def main(argv: Sequence[str] | None = None) -> int:
    args = parser().parse_args(argv)
    try:
        settings = Settings.from_env(options={
            item.name: getattr(args, item.name, None)
            for item in fields(Settings) if item.metadata["option"]})
    except SettingsError as bad:
        for line in bad.lines:
            refuse(prog_of(args), line)
        return 2
    if args.command == "seating":
        return seating(args)
    if args.command in ("backup", "restore"):
        return backup_or_restore(args.command, settings.database_url, Path(args.file))
    try:
        if args.command == "serve":
            return serve(settings)
        reach(settings.database_url)
    except Unreachable as error:
        refuse(prog_of(args), str(error))
        return 1
    if args.db_command == "upgrade":
        upgrade(settings.database_url)
    elif args.db_command == "downgrade":
        downgrade(settings.database_url, args.revision)
    else:
        problem = check(settings.database_url)
        if problem is not None:
            refuse(prog_of(args), f"models and migrations differ: {problem}")
            return 1
        print("models and migrations agree")
    return 0


if __name__ == "__main__":
    sys.exit(main())
