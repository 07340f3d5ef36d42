"""Settings are checked at start: every bad variable named on its own line, before anything
touches the database; ``--port 0`` takes a free port and says which."""

from __future__ import annotations

import asyncio
import gc
import os
import signal
import socket
import subprocess
import sys
from collections.abc import Iterator
from importlib import metadata
from pathlib import Path

import pytest
import uvicorn

from api.server import cli, lifeline
from api.server.settings import REPO_ROOT, Settings, SettingsError, variables

README = REPO_ROOT / "README.md"


def refused(env: dict[str, str], **options: str) -> tuple[str, ...]:
    with pytest.raises(SettingsError) as bad:
        Settings.from_env(env, options)
    return bad.value.lines


def test_nothing_set_gives_the_defaults() -> None:
    assert Settings.from_env({}) == Settings()


def test_an_empty_variable_means_its_default() -> None:
    assert Settings.from_env({"TAFELRUNDE_PORT": " ", "TAFELRUNDE_CORS_ORIGINS": ""}) == Settings()


def test_every_variable_is_read_into_its_type(tmp_path: Path) -> None:
    (tmp_path / "index.html").write_text("<!doctype html>")
    settings = Settings.from_env({
        "TAFELRUNDE_DATABASE_URL": "postgresql+asyncpg://club@db.example/tafelrunde",
        "TAFELRUNDE_HOST": "0.0.0.0",
        "TAFELRUNDE_PORT": "8080",
        "TAFELRUNDE_LIVE_BACKEND": "postgres",
        "TAFELRUNDE_CORS_ORIGINS": "https://club.example, http://localhost:5173",
        "TAFELRUNDE_MAX_BODY_BYTES": "1048576",
        "TAFELRUNDE_AUTH_FAILURES_PER_MINUTE": "0",
        "TAFELRUNDE_PWA_DIR": str(tmp_path),
        "TAFELRUNDE_SYNCHRONOUS": "normal",
        "TAFELRUNDE_TRUSTED_PROXIES": "127.0.0.1, 10.0.0.0/8, ::1",
    })
    assert settings == Settings(
        database_url="postgresql+asyncpg://club@db.example/tafelrunde", host="0.0.0.0",
        port=8080, live_backend="postgres",
        cors_origins=("https://club.example", "http://localhost:5173"),
        max_body_bytes=1_048_576, auth_failures_per_minute=0, pwa_dir=tmp_path,
        synchronous="normal", trusted_proxies=("127.0.0.1", "10.0.0.0/8", "::1"))


def test_a_size_with_a_unit_is_refused_rather_than_guessed() -> None:
    assert refused({"TAFELRUNDE_MAX_BODY_BYTES": "1MB"}) == (
        "TAFELRUNDE_MAX_BODY_BYTES='1MB': expected a whole number of bytes, at least 1",)


def test_every_bad_variable_gets_its_own_line_at_once(tmp_path: Path) -> None:
    lines = refused({
        "TAFELRUNDE_DATABASE_URL": "postgres://club@db.example/tafelrunde",
        "TAFELRUNDE_PORT": "70000",
        "TAFELRUNDE_LIVE_BACKEND": "redis",
        "TAFELRUNDE_CORS_ORIGINS": "https://club.example/",
        "TAFELRUNDE_AUTH_FAILURES_PER_MINUTE": "-1",
        "TAFELRUNDE_PWA_DIR": str(tmp_path),
    })
    assert [line.split("=")[0] for line in lines] == [
        "TAFELRUNDE_DATABASE_URL", "TAFELRUNDE_PORT", "TAFELRUNDE_LIVE_BACKEND",
        "TAFELRUNDE_CORS_ORIGINS", "TAFELRUNDE_AUTH_FAILURES_PER_MINUTE", "TAFELRUNDE_PWA_DIR"]
    assert "expected one of auto, memory, postgres" in lines[2]
    assert "no path or trailing slash" in lines[3]
    assert all("\n" not in line for line in lines)


@pytest.mark.parametrize("url", ["sqlite:///club.db", "sqlite+aiosqlite://", "not a url",
                                 "mysql+aiomysql://club@db/tafelrunde"])
def test_only_the_two_supported_databases_are_taken(url: str) -> None:
    (line,) = refused({"TAFELRUNDE_DATABASE_URL": url})
    assert "expected sqlite+aiosqlite:///FILE or postgresql+asyncpg://" in line


@pytest.mark.parametrize("proxies", ["*", "proxy.example", "10.0.0.0/33"])
def test_trusted_proxies_are_addresses_or_networks_never_everyone(proxies: str) -> None:
    (line,) = refused({"TAFELRUNDE_TRUSTED_PROXIES": proxies})
    assert line.startswith("TAFELRUNDE_TRUSTED_PROXIES=")
    assert "is not an IP address or network such as 127.0.0.1 or 10.0.0.0/8" in line


def test_a_misspelt_variable_is_refused_with_the_name_it_resembles() -> None:
    assert refused({"TAFELRUNDE_DATABASE_ULR": "sqlite+aiosqlite:///club.db"}) == (
        "TAFELRUNDE_DATABASE_ULR: not a Tafelrunde setting; did you mean "
        "TAFELRUNDE_DATABASE_URL?",)


def test_the_test_suites_own_variables_are_not_settings() -> None:
    assert Settings.from_env({"TAFELRUNDE_TEST_POSTGRES_URL": "x"}) == Settings()


def test_postgres_live_updates_need_a_postgres_database() -> None:
    assert refused({"TAFELRUNDE_LIVE_BACKEND": "postgres"}) == (
        "TAFELRUNDE_LIVE_BACKEND='postgres': needs a PostgreSQL database, but "
        "TAFELRUNDE_DATABASE_URL is SQLite",)


def test_connection_limits_and_workers_are_read_as_whole_numbers() -> None:
    settings = Settings.from_env({
        "TAFELRUNDE_DATABASE_URL": "postgresql+asyncpg://club@db.example/tafelrunde",
        "TAFELRUNDE_HEADER_TIMEOUT": "5", "TAFELRUNDE_IDLE_TIMEOUT": "60",
        "TAFELRUNDE_SEND_TIMEOUT": "20", "TAFELRUNDE_MAX_CONNECTIONS": "4000"},
        {"workers": "4", "max_connections_per_address": "32"})
    assert (settings.header_timeout, settings.idle_timeout, settings.send_timeout,
            settings.max_connections, settings.max_connections_per_address,
            settings.workers) == (5, 60, 20, 4000, 32, 4)
    assert Settings().max_connections_per_address == 256
    assert refused({"TAFELRUNDE_HEADER_TIMEOUT": "0.5", "TAFELRUNDE_MAX_CONNECTIONS": "0",
                    "TAFELRUNDE_MAX_CONNECTIONS_PER_ADDRESS": "0"}) == (
        "TAFELRUNDE_HEADER_TIMEOUT='0.5': expected a whole number of seconds, from 1 to 3600",
        "TAFELRUNDE_MAX_CONNECTIONS='0': expected a whole number of connections, at least 1",
        "TAFELRUNDE_MAX_CONNECTIONS_PER_ADDRESS='0': expected a whole number of connections, "
        "at least 1")


def test_several_workers_need_postgresql_and_its_live_updates() -> None:
    assert refused({}, workers="2") == (
        "2 workers: several server processes need a PostgreSQL database, but "
        "TAFELRUNDE_DATABASE_URL is SQLite (one process serves a SQLite file; leave out "
        "--workers)",)
    assert refused({"TAFELRUNDE_DATABASE_URL": "postgresql+asyncpg://club@db.example/t",
                    "TAFELRUNDE_LIVE_BACKEND": "memory", "TAFELRUNDE_WORKERS": "2"}) == (
        "2 workers: TAFELRUNDE_LIVE_BACKEND='memory' reaches the phones of one process only; "
        "use postgres or auto",)


def test_serve_with_workers_on_sqlite_says_why_and_exits_2_before_migrating(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str],
) -> None:
    in_empty_folder(tmp_path, monkeypatch)
    assert cli.main(["serve", "--port", "0", "--workers", "2"]) == 2
    captured = capsys.readouterr()
    assert captured.err == (
        "tafelrunde serve: error: 2 workers: several server processes need a PostgreSQL "
        "database, but TAFELRUNDE_DATABASE_URL is SQLite (one process serves a SQLite file; "
        "leave out --workers)\n")
    assert captured.out == ""
    assert list(tmp_path.iterdir()) == []  # no database file made, nothing migrated


def test_an_option_overrides_its_variable_and_is_named_when_bad() -> None:
    assert Settings.from_env({"TAFELRUNDE_PORT": "9000"}, {"port": "0"}).port == 0
    assert refused({}, port="http") == (
        "--port='http': expected a port number, from 0 to 65535",)


def test_the_readme_documents_every_variable() -> None:
    configuration = README.read_text(encoding="utf-8").split("## Configuration", 1)[1]
    assert [name for name in variables() if f"`{name}`" not in configuration] == []


def prog(command: list[str]) -> str:
    """How argparse names a command in its errors: ``tafelrunde db check``, ``tafelrunde serve``."""
    return " ".join(["tafelrunde", *command[:2 if command[0] == "db" else 1]])


def in_empty_folder(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, **env: str) -> None:
    monkeypatch.chdir(tmp_path)
    for name in [name for name in os.environ if name.startswith("TAFELRUNDE_")]:
        monkeypatch.delenv(name)
    for name, value in env.items():
        monkeypatch.setenv(f"TAFELRUNDE_{name}", value)


@pytest.mark.parametrize("command", [["db", "check"], ["db", "upgrade"], ["serve"],
                                     ["backup", "copy.db"]])
def test_a_bad_setting_stops_every_command_before_the_database(
    command: list[str], tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    in_empty_folder(tmp_path, monkeypatch, LIVE_BACKEND="redis")
    assert cli.main(command) == 2
    captured = capsys.readouterr()
    assert captured.err == (f"{prog(command)}: error: TAFELRUNDE_LIVE_BACKEND='redis': "
                            "expected one of auto, memory, postgres\n")
    assert captured.out == ""
    assert list(tmp_path.iterdir()) == []


def test_the_command_says_one_line_and_exits_2_without_a_traceback(tmp_path: Path) -> None:
    env = {k: v for k, v in os.environ.items() if not k.startswith("TAFELRUNDE_")}
    done = subprocess.run(
        [sys.executable, "-m", "api.server.cli", "db", "check"], cwd=tmp_path, capture_output=True,
        text=True, timeout=60, env={**env, "TAFELRUNDE_MAX_BODY_BYTES": "1MB"}, check=False)
    assert (done.returncode, done.stdout) == (2, "")
    assert done.stderr == ("tafelrunde db check: error: TAFELRUNDE_MAX_BODY_BYTES='1MB': "
                           "expected a whole number of bytes, at least 1\n")
    assert list(tmp_path.iterdir()) == []


def test_serve_names_a_port_it_cannot_take_and_migrates_nothing(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str],
) -> None:
    in_empty_folder(tmp_path, monkeypatch)
    with cli.listen("127.0.0.1", 0) as taken:
        port = taken.getsockname()[1]
        assert cli.main(["serve", "--port", str(port)]) == 1
    assert capsys.readouterr().err == (
        f"tafelrunde serve: error: cannot listen on 127.0.0.1 port {port}: "
        "Address already in use\n")
    assert list(tmp_path.iterdir()) == []


@pytest.fixture
def interpreter_as_it_was() -> Iterator[None]:
    """What serving changes in the interpreter, put back after the test."""
    interval = sys.getswitchinterval()
    try:
        yield
    finally:
        gc.unfreeze()
        sys.setswitchinterval(interval)


@pytest.mark.usefixtures("interpreter_as_it_was")
def test_serve_settles_the_process_for_its_event_loop_before_it_serves(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Full garbage collections on the event loop walk only what requests made, not the
    libraries and the app (``cli.settle_heap``); a thread's pure Python work hands the loop the
    GIL within half a millisecond (``cli.favour_the_loop``)."""
    when_serving: list[tuple[int, float]] = []

    def serve_nothing(_server: uvicorn.Server, sockets: list[socket.socket]) -> None:
        when_serving.append((gc.get_freeze_count(), sys.getswitchinterval()))

    in_empty_folder(tmp_path, monkeypatch)
    monkeypatch.setattr(uvicorn.Server, "run", serve_nothing)
    cli.main(["serve", "--port", "0"])
    [(frozen, interval)] = when_serving
    assert frozen > 50_000
    assert interval == pytest.approx(0.0005)


@pytest.mark.usefixtures("interpreter_as_it_was")
def test_each_worker_settles_its_process_too(tmp_path: Path,
                                             monkeypatch: pytest.MonkeyPatch) -> None:
    in_empty_folder(tmp_path, monkeypatch)
    followed: list[tuple[int, int]] = []
    # Recorded, not done: the test process must not be killed with its own parent.
    monkeypatch.setattr(lifeline, "die_with", lambda *parent: followed.append(parent))
    cli.worker_app(Settings(), os.getppid())  # this process's parent is its "supervisor"
    assert followed == [(os.getppid(), signal.SIGKILL)]
    assert gc.get_freeze_count() > 50_000
    assert sys.getswitchinterval() == pytest.approx(0.0005)


async def test_the_connections_serve_accepts_send_small_answers_at_once() -> None:
    """Nagle's algorithm off: a kept-alive connection's next answer does not wait 40 ms for the
    client's delayed acknowledgement of the previous one."""
    accepted: asyncio.Future[int] = asyncio.get_running_loop().create_future()

    async def note_nodelay(_reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        accepted.set_result(writer.get_extra_info("socket").getsockopt(
            socket.IPPROTO_TCP, socket.TCP_NODELAY))
        writer.close()

    server = await asyncio.start_server(note_nodelay, sock=cli.listen("127.0.0.1", 0))
    async with server:
        port = server.sockets[0].getsockname()[1]
        _reader, writer = await asyncio.open_connection("127.0.0.1", port)
        assert await asyncio.wait_for(accepted, 10) != 0
        writer.close()


@pytest.mark.parametrize("command", [["db", "check"], ["db", "upgrade"], ["db", "downgrade"],
                                     ["serve", "--port", "0"]])
@pytest.mark.parametrize(("url", "why"), [
    ("sqlite+aiosqlite:///{folder}/missing/club.db", "unable to open database file"),
    ("postgresql+asyncpg://organiser:secret@127.0.0.1:1/club", "Connect call failed"),
])
def test_a_database_that_cannot_be_opened_is_one_line_not_a_traceback(
    command: list[str], url: str, why: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    url = url.format(folder=tmp_path)
    in_empty_folder(tmp_path, monkeypatch, DATABASE_URL=url)
    assert cli.main(command) == 1
    captured = capsys.readouterr()
    shown = url.replace(":secret@", ":***@")
    assert captured.err.startswith(
        f"{prog(command)}: error: cannot open the database {shown}: {why}")
    assert captured.err.count("\n") == 1
    assert captured.out == ""
    assert list(tmp_path.iterdir()) == []


def test_version_says_the_installed_version_and_exits_0(
    capsys: pytest.CaptureFixture[str],
) -> None:
    with pytest.raises(SystemExit) as done:
        cli.main(["--version"])
    assert done.value.code == 0
    assert capsys.readouterr().out == f"tafelrunde {metadata.version('tafelrunde')}\n"
